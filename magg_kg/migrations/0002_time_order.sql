-- magg-kg schema, version 2: time only moves forward in what is recorded.
-- Version 1 let a writer choose times that hide history: an edge version closed before it was
-- recorded (or invalid before it was valid) shows at no time as of any moment, and a domain
-- version out of order makes the domain's history read wrong. These triggers refuse such writes
-- in both backends (the embedded SQLite store and D1 apply this same file). A time equal to the
-- one before is allowed: one decision may record a version and close another at the same moment.
-- Every refusal here starts with "time order:". Between writers that race, it means another writer
-- recorded a later time first; the store reports it as a conflict, and the loser reads again and
-- builds its batch at a fresh time (magg_kg.store.BatchResult.conflict).

-- Closing an edge version: not before it was recorded, not invalid before it was valid.
CREATE TRIGGER edge_invalidations_in_time BEFORE INSERT ON edge_invalidations
WHEN EXISTS (
  SELECT 1 FROM concept_edges
   WHERE version_id = NEW.version_id
     AND (NEW.expired_at < recorded_at OR NEW.invalid_at < valid_at)
)
BEGIN SELECT RAISE(ABORT, 'time order: an edge version cannot be closed before it was recorded or valid'); END;

-- A new version of an edge is recorded no earlier than the versions before it were recorded or closed.
CREATE TRIGGER concept_edges_in_time BEFORE INSERT ON concept_edges
WHEN EXISTS (
  SELECT 1 FROM concept_edges
   WHERE edge_id = NEW.edge_id
     AND (recorded_at > NEW.recorded_at OR expired_at > NEW.recorded_at)
)
BEGIN SELECT RAISE(ABORT, 'time order: an edge version cannot be recorded before the versions before it'); END;

-- Domain versions are numbered 1, 2, 3, ... and recorded in that order (a number already taken
-- is left to the primary key, whose refusal says another writer got there first).
CREATE TRIGGER domains_in_order BEFORE INSERT ON domains
WHEN NEW.version > COALESCE((SELECT MAX(version) FROM domains WHERE id = NEW.id), 0) + 1
  OR NEW.recorded_at < COALESCE((SELECT MAX(recorded_at) FROM domains WHERE id = NEW.id), '')
  OR EXISTS (SELECT 1 FROM domains WHERE id = NEW.id AND expired_at > NEW.recorded_at)
BEGIN SELECT RAISE(ABORT, 'time order: a domain version must follow the last one, in number and in time'); END;

-- A domain version or an ownership row is closed no earlier than it was recorded.
CREATE TRIGGER domains_close_in_time BEFORE UPDATE ON domains
WHEN NEW.expired_at < OLD.recorded_at
BEGIN SELECT RAISE(ABORT, 'time order: a domain version cannot be closed before it was recorded'); END;
CREATE TRIGGER concept_domains_close_in_time BEFORE UPDATE ON concept_domains
WHEN NEW.expired_at < OLD.recorded_at
BEGIN SELECT RAISE(ABORT, 'time order: an ownership cannot end before it began'); END;

-- An ownership begins no earlier than the same concept's ownership by the same domain ended.
CREATE TRIGGER concept_domains_in_time BEFORE INSERT ON concept_domains
WHEN EXISTS (
  SELECT 1 FROM concept_domains
   WHERE concept_id = NEW.concept_id AND domain_id = NEW.domain_id
     AND (recorded_at > NEW.recorded_at OR expired_at > NEW.recorded_at)
)
BEGIN SELECT RAISE(ABORT, 'time order: an ownership cannot begin before the last one of the same pair'); END;

INSERT INTO schema_version (version, name) VALUES (2, '0002_time_order');
