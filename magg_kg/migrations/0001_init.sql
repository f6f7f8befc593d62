-- magg-kg schema, version 1.
-- One schema for both backends: the embedded SQLite store applies these files in order, and
-- `wrangler d1 migrations apply` reads this same folder for Cloudflare D1.
-- Invariants live in the schema itself (CHECKs, a partial unique index, triggers), so that both
-- appliers enforce them identically: rows are never deleted, and the only update allowed is
-- closing an edge version (status, invalid_at, expired_at, invalidated_by).
-- Time stamps are ISO 8601 UTC strings with microseconds ("2026-01-01T00:00:00.000000Z"), so
-- that text order is time order.

CREATE TABLE schema_version (
  version INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);

-- One row per applied write batch: the idempotency key.
CREATE TABLE batches (
  batch_id TEXT PRIMARY KEY,
  digest TEXT NOT NULL,
  op_count INTEGER NOT NULL CHECK (op_count > 0),
  sent_at TEXT NOT NULL
);

-- One row per lesson version; `text` is the normalized text that evidence offsets refer to.
CREATE TABLE lessons (
  id TEXT PRIMARY KEY,
  lesson_key TEXT NOT NULL,
  title TEXT NOT NULL,
  sha256 TEXT NOT NULL UNIQUE,
  source_path TEXT NOT NULL,
  text TEXT NOT NULL,
  supersedes TEXT REFERENCES lessons(id),
  ingested_at TEXT NOT NULL
);
CREATE INDEX lessons_by_key ON lessons(lesson_key, ingested_at);

CREATE TABLE chunks (
  id TEXT PRIMARY KEY,
  lesson_id TEXT NOT NULL REFERENCES lessons(id),
  ordinal INTEGER NOT NULL,
  start_offset INTEGER NOT NULL CHECK (start_offset >= 0),
  end_offset INTEGER NOT NULL CHECK (end_offset > start_offset),
  heading TEXT NOT NULL DEFAULT ''
);
CREATE INDEX chunks_by_lesson ON chunks(lesson_id, ordinal);

CREATE TABLE concepts (
  id TEXT PRIMARY KEY CHECK (length(id) > 0),
  name TEXT NOT NULL CHECK (length(name) > 0),
  type TEXT NOT NULL CHECK (length(type) > 0),
  description TEXT NOT NULL DEFAULT '',
  recorded_at TEXT NOT NULL
);

-- Normalized alias -> canonical concept id (entity resolution).
CREATE TABLE concept_aliases (
  alias TEXT PRIMARY KEY CHECK (length(alias) > 0),
  concept_id TEXT NOT NULL REFERENCES concepts(id),
  recorded_at TEXT NOT NULL
);

CREATE TABLE lesson_concepts (
  lesson_id TEXT NOT NULL REFERENCES lessons(id),
  concept_id TEXT NOT NULL REFERENCES concepts(id),
  role TEXT NOT NULL CHECK (role IN ('teaches', 'uses', 'mentions')),
  evidence TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (lesson_id, concept_id, role)
);

-- Domains are versioned: a re-clustering closes the old version (expired_at) and adds a new one.
CREATE TABLE domains (
  id TEXT NOT NULL,
  version INTEGER NOT NULL CHECK (version >= 1),
  name TEXT NOT NULL,
  owner TEXT NOT NULL,
  card TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  expired_at TEXT,
  PRIMARY KEY (id, version)
);

CREATE TABLE concept_domains (
  concept_id TEXT NOT NULL REFERENCES concepts(id),
  domain_id TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  expired_at TEXT,
  PRIMARY KEY (concept_id, domain_id, recorded_at)
);

-- A proposal is immutable; its state is the state_after of its latest decision.
CREATE TABLE proposals (
  id TEXT PRIMARY KEY,
  src TEXT NOT NULL,
  type TEXT NOT NULL,
  dst TEXT NOT NULL,
  confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  evidence TEXT NOT NULL,
  origin TEXT NOT NULL CHECK (origin IN ('ingest', 'discover', 'recheck', 'replay', 'manual')),
  lesson_id TEXT,
  rationale TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);

CREATE TABLE decisions (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  proposal_id TEXT REFERENCES proposals(id),
  stage TEXT NOT NULL,
  verdict TEXT NOT NULL,
  state_after TEXT NOT NULL CHECK (state_after IN
    ('proposed', 'committed', 'rejected', 'abstained', 'quarantined', 'invalidated')),
  score REAL CHECK (score IS NULL OR (score >= 0 AND score <= 1)),
  rationale TEXT NOT NULL,
  detail TEXT NOT NULL,
  policy_version TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  model TEXT NOT NULL,
  decided_at TEXT NOT NULL
);
CREATE INDEX decisions_by_proposal ON decisions(proposal_id, seq);

-- One row per edge VERSION, with its grounding record and two time axes.
CREATE TABLE concept_edges (
  version_id TEXT PRIMARY KEY,
  edge_id TEXT NOT NULL,
  src TEXT NOT NULL REFERENCES concepts(id),
  type TEXT NOT NULL,
  dst TEXT NOT NULL REFERENCES concepts(id),
  status TEXT NOT NULL CHECK (status IN ('active', 'invalidated')),
  confidence REAL NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
  reason TEXT NOT NULL CHECK (length(reason) > 0),
  source TEXT NOT NULL CHECK (length(source) > 0),
  evidence TEXT NOT NULL CHECK (length(evidence) > 2),
  valid_at TEXT NOT NULL,
  invalid_at TEXT,
  recorded_at TEXT NOT NULL,
  expired_at TEXT,
  decision_id TEXT NOT NULL REFERENCES decisions(id),
  invalidated_by TEXT REFERENCES decisions(id),
  policy_version TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  model TEXT NOT NULL,
  CHECK (src <> dst),
  -- The curriculum's closed edge vocabulary (magg_kg/vocabulary.py); a test keeps them equal.
  CHECK (type IN ('prerequisite', 'builds_on', 'contrasts_with', 'part_of', 'related', 'applies_to'))
);
CREATE UNIQUE INDEX concept_edges_one_active ON concept_edges(src, type, dst) WHERE status = 'active';
CREATE INDEX concept_edges_by_edge ON concept_edges(edge_id, recorded_at);
CREATE INDEX concept_edges_by_recorded ON concept_edges(recorded_at);

-- Closing a version is itself recorded as a row; the trigger below closes the version.
CREATE TABLE edge_invalidations (
  version_id TEXT PRIMARY KEY REFERENCES concept_edges(version_id),
  decision_id TEXT NOT NULL REFERENCES decisions(id),
  invalid_at TEXT NOT NULL,
  expired_at TEXT NOT NULL,
  reason TEXT NOT NULL CHECK (length(reason) > 0)
);

CREATE TABLE review_queue (
  id TEXT PRIMARY KEY,
  proposal_id TEXT NOT NULL REFERENCES proposals(id),
  reason TEXT NOT NULL,
  enqueued_at TEXT NOT NULL
);

-- Append-only, hash-chained: hash = sha256(prev_hash \n seq \n event_id \n kind \n subject \n payload \n recorded_at).
CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY CHECK (seq >= 1),
  event_id TEXT NOT NULL UNIQUE,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  payload TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
);

CREATE TABLE llm_usage (
  id TEXT PRIMARY KEY,
  stage TEXT NOT NULL,
  agent TEXT NOT NULL,
  domain TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL CHECK (prompt_tokens >= 0),
  completion_tokens INTEGER NOT NULL CHECK (completion_tokens >= 0),
  latency_ms REAL NOT NULL CHECK (latency_ms >= 0),
  attempts INTEGER NOT NULL CHECK (attempts >= 0),
  outcome TEXT NOT NULL,
  cache_hit INTEGER NOT NULL CHECK (cache_hit IN (0, 1)),
  recorded_at TEXT NOT NULL
);
CREATE INDEX llm_usage_by_stage ON llm_usage(stage);

CREATE TABLE llm_cache (
  key TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  response TEXT NOT NULL,
  prompt_tokens INTEGER NOT NULL,
  completion_tokens INTEGER NOT NULL,
  recorded_at TEXT NOT NULL
);

-- Never delete.
CREATE TRIGGER schema_version_no_delete BEFORE DELETE ON schema_version BEGIN SELECT RAISE(ABORT, 'append-only: schema_version'); END;
CREATE TRIGGER schema_version_no_update BEFORE UPDATE ON schema_version BEGIN SELECT RAISE(ABORT, 'append-only: schema_version'); END;
CREATE TRIGGER batches_no_delete BEFORE DELETE ON batches BEGIN SELECT RAISE(ABORT, 'append-only: batches'); END;
CREATE TRIGGER lessons_no_delete BEFORE DELETE ON lessons BEGIN SELECT RAISE(ABORT, 'append-only: lessons'); END;
CREATE TRIGGER chunks_no_delete BEFORE DELETE ON chunks BEGIN SELECT RAISE(ABORT, 'append-only: chunks'); END;
CREATE TRIGGER concepts_no_delete BEFORE DELETE ON concepts BEGIN SELECT RAISE(ABORT, 'append-only: concepts'); END;
CREATE TRIGGER concept_aliases_no_delete BEFORE DELETE ON concept_aliases BEGIN SELECT RAISE(ABORT, 'append-only: concept_aliases'); END;
CREATE TRIGGER lesson_concepts_no_delete BEFORE DELETE ON lesson_concepts BEGIN SELECT RAISE(ABORT, 'append-only: lesson_concepts'); END;
CREATE TRIGGER domains_no_delete BEFORE DELETE ON domains BEGIN SELECT RAISE(ABORT, 'append-only: domains'); END;
CREATE TRIGGER concept_domains_no_delete BEFORE DELETE ON concept_domains BEGIN SELECT RAISE(ABORT, 'append-only: concept_domains'); END;
CREATE TRIGGER proposals_no_delete BEFORE DELETE ON proposals BEGIN SELECT RAISE(ABORT, 'append-only: proposals'); END;
CREATE TRIGGER decisions_no_delete BEFORE DELETE ON decisions BEGIN SELECT RAISE(ABORT, 'append-only: decisions'); END;
CREATE TRIGGER concept_edges_no_delete BEFORE DELETE ON concept_edges BEGIN SELECT RAISE(ABORT, 'append-only: concept_edges'); END;
CREATE TRIGGER edge_invalidations_no_delete BEFORE DELETE ON edge_invalidations BEGIN SELECT RAISE(ABORT, 'append-only: edge_invalidations'); END;
CREATE TRIGGER review_queue_no_delete BEFORE DELETE ON review_queue BEGIN SELECT RAISE(ABORT, 'append-only: review_queue'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'append-only: audit_log'); END;
CREATE TRIGGER llm_usage_no_delete BEFORE DELETE ON llm_usage BEGIN SELECT RAISE(ABORT, 'append-only: llm_usage'); END;
CREATE TRIGGER llm_cache_no_delete BEFORE DELETE ON llm_cache BEGIN SELECT RAISE(ABORT, 'append-only: llm_cache'); END;

-- Never update in place, except closing a version.
CREATE TRIGGER batches_no_update BEFORE UPDATE ON batches BEGIN SELECT RAISE(ABORT, 'append-only: batches'); END;
CREATE TRIGGER lessons_no_update BEFORE UPDATE ON lessons BEGIN SELECT RAISE(ABORT, 'append-only: lessons'); END;
CREATE TRIGGER chunks_no_update BEFORE UPDATE ON chunks BEGIN SELECT RAISE(ABORT, 'append-only: chunks'); END;
CREATE TRIGGER concepts_no_update BEFORE UPDATE ON concepts BEGIN SELECT RAISE(ABORT, 'append-only: concepts'); END;
CREATE TRIGGER concept_aliases_no_update BEFORE UPDATE ON concept_aliases BEGIN SELECT RAISE(ABORT, 'append-only: concept_aliases'); END;
CREATE TRIGGER lesson_concepts_no_update BEFORE UPDATE ON lesson_concepts BEGIN SELECT RAISE(ABORT, 'append-only: lesson_concepts'); END;
CREATE TRIGGER proposals_no_update BEFORE UPDATE ON proposals BEGIN SELECT RAISE(ABORT, 'append-only: proposals'); END;
CREATE TRIGGER decisions_no_update BEFORE UPDATE ON decisions BEGIN SELECT RAISE(ABORT, 'append-only: decisions'); END;
CREATE TRIGGER edge_invalidations_no_update BEFORE UPDATE ON edge_invalidations BEGIN SELECT RAISE(ABORT, 'append-only: edge_invalidations'); END;
CREATE TRIGGER review_queue_no_update BEFORE UPDATE ON review_queue BEGIN SELECT RAISE(ABORT, 'append-only: review_queue'); END;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'append-only: audit_log'); END;
CREATE TRIGGER llm_usage_no_update BEFORE UPDATE ON llm_usage BEGIN SELECT RAISE(ABORT, 'append-only: llm_usage'); END;
CREATE TRIGGER llm_cache_no_update BEFORE UPDATE ON llm_cache BEGIN SELECT RAISE(ABORT, 'append-only: llm_cache'); END;

-- Domain versions and ownership rows may only be closed (expired_at set once).
CREATE TRIGGER domains_close_only BEFORE UPDATE ON domains
WHEN OLD.expired_at IS NOT NULL OR NEW.expired_at IS NULL OR NEW.id IS NOT OLD.id
  OR NEW.version IS NOT OLD.version OR NEW.name IS NOT OLD.name OR NEW.owner IS NOT OLD.owner
  OR NEW.card IS NOT OLD.card OR NEW.recorded_at IS NOT OLD.recorded_at
BEGIN SELECT RAISE(ABORT, 'domains: only closing a version is allowed'); END;
CREATE TRIGGER concept_domains_close_only BEFORE UPDATE ON concept_domains
WHEN OLD.expired_at IS NOT NULL OR NEW.expired_at IS NULL OR NEW.concept_id IS NOT OLD.concept_id
  OR NEW.domain_id IS NOT OLD.domain_id OR NEW.recorded_at IS NOT OLD.recorded_at
BEGIN SELECT RAISE(ABORT, 'concept_domains: only closing a version is allowed'); END;

-- An edge version may only be closed: active -> invalidated, setting invalid_at, expired_at and
-- invalidated_by; every other column is frozen.
CREATE TRIGGER concept_edges_close_only BEFORE UPDATE ON concept_edges
WHEN OLD.status <> 'active' OR NEW.status <> 'invalidated'
  OR NEW.invalid_at IS NULL OR NEW.expired_at IS NULL OR NEW.invalidated_by IS NULL
  OR NEW.version_id IS NOT OLD.version_id OR NEW.edge_id IS NOT OLD.edge_id
  OR NEW.src IS NOT OLD.src OR NEW.type IS NOT OLD.type OR NEW.dst IS NOT OLD.dst
  OR NEW.confidence IS NOT OLD.confidence OR NEW.reason IS NOT OLD.reason
  OR NEW.source IS NOT OLD.source OR NEW.evidence IS NOT OLD.evidence
  OR NEW.valid_at IS NOT OLD.valid_at OR NEW.recorded_at IS NOT OLD.recorded_at
  OR NEW.decision_id IS NOT OLD.decision_id OR NEW.policy_version IS NOT OLD.policy_version
  OR NEW.prompt_version IS NOT OLD.prompt_version OR NEW.model IS NOT OLD.model
BEGIN SELECT RAISE(ABORT, 'concept_edges: only closing an active version is allowed'); END;

CREATE TRIGGER edge_invalidations_close BEFORE INSERT ON edge_invalidations
WHEN NOT EXISTS (SELECT 1 FROM concept_edges WHERE version_id = NEW.version_id AND status = 'active')
BEGIN SELECT RAISE(ABORT, 'invalidate_edge: no active edge version with this version_id'); END;

CREATE TRIGGER edge_invalidations_apply AFTER INSERT ON edge_invalidations
BEGIN
  UPDATE concept_edges
     SET status = 'invalidated', invalid_at = NEW.invalid_at, expired_at = NEW.expired_at,
         invalidated_by = NEW.decision_id
   WHERE version_id = NEW.version_id;
END;

-- The audit chain only grows at its end.
CREATE TRIGGER audit_log_append_only BEFORE INSERT ON audit_log
WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM audit_log)
  OR NEW.prev_hash <> COALESCE((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '')
BEGIN SELECT RAISE(ABORT, 'audit_log: an event must extend the chain at its end'); END;

INSERT INTO schema_version (version, name) VALUES (1, '0001_init');
