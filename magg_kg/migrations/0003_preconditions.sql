-- magg-kg schema, version 3: a batch may carry what it was judged on, and is refused if that no
-- longer holds when it is applied.
-- A writer reads the store, judges (a model call, seconds), then writes; two runs of `magg
-- discover` or `magg reconsider` at once both judged the same candidate or open proposal, and
-- both wrote: a claim queued twice for review, a proposal rejected twice. A batch now states
-- its preconditions as `expect_` operations, which the protocol writes first
-- (protocol/statements.json): each inserts a row into one of the views below, whose trigger
-- refuses the whole batch when the precondition fails and otherwise writes nothing. Both
-- appliers run these same statements in the batch's one transaction (SQLite under its write
-- lock, D1 in one `batch`), so the check and the writes see the same store. Every refusal here
-- starts with "settled:": another writer decided it first, and the batch is not to be sent again
-- (magg_kg.outcomes.BatchResult.settled).

-- The proposal is in the state the writer read: its latest decision's state_after ('proposed'
-- when it has none, as the `proposal` query reads it).
CREATE VIEW expected_states AS SELECT '' AS proposal_id, '' AS state WHERE 0;
CREATE TRIGGER expected_states_hold INSTEAD OF INSERT ON expected_states
WHEN NEW.state IS NOT COALESCE(
  (SELECT state_after FROM decisions WHERE proposal_id = NEW.proposal_id ORDER BY seq DESC LIMIT 1), 'proposed')
BEGIN SELECT RAISE(ABORT, 'settled: a proposal this batch decides was decided by another writer since it was read'); END;

-- No proposal joins the two concepts (either way, of any type), and no active edge does.
CREATE VIEW unclaimed_pairs AS SELECT '' AS src, '' AS dst WHERE 0;
CREATE TRIGGER unclaimed_pairs_hold INSTEAD OF INSERT ON unclaimed_pairs
WHEN EXISTS (SELECT 1 FROM proposals WHERE src = NEW.src AND dst = NEW.dst)
  OR EXISTS (SELECT 1 FROM proposals WHERE src = NEW.dst AND dst = NEW.src)
  OR EXISTS (SELECT 1 FROM concept_edges WHERE status = 'active'
              AND ((src = NEW.src AND dst = NEW.dst) OR (src = NEW.dst AND dst = NEW.src)))
BEGIN SELECT RAISE(ABORT, 'settled: another writer proposed an edge between these concepts since they were read'); END;
CREATE INDEX proposals_by_pair ON proposals(src, dst);

INSERT INTO schema_version (version, name) VALUES (3, '0003_preconditions');
