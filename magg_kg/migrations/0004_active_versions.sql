-- magg-kg schema, version 4: a batch may expect an edge version still active.
-- `magg recheck` reads recent active edges, judges each (a model call, seconds), then writes a
-- decision on it (keep, void, or invalidate and close it). Two runs at once both judged the same
-- edge: the later close was refused with the store's own message and the run exited 1, and a
-- keep judged before another writer (a person, the other run) closed the edge was recorded for
-- the closed version. The batch now carries `expect_active` (protocol/statements.json, written
-- first, as the preconditions of 0003_preconditions.sql): refused as settled when the version
-- is no longer active, otherwise nothing written.
CREATE VIEW active_versions AS SELECT '' AS version_id WHERE 0;
CREATE TRIGGER active_versions_hold INSTEAD OF INSERT ON active_versions
WHEN NOT EXISTS (SELECT 1 FROM concept_edges WHERE version_id = NEW.version_id AND status = 'active')
BEGIN SELECT RAISE(ABORT, 'settled: an edge version this batch decides was closed by another writer since it was read'); END;

INSERT INTO schema_version (version, name) VALUES (4, '0004_active_versions');
