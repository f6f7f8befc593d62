"""The kernel's store and CLI behaviour: atomic and idempotent batches, bad databases, the
commands' output, and errors as one line on stderr."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from magg_kg import cli
from magg_kg.audit import chain_hash
from magg_kg.errors import SchemaError, StoreError
from magg_kg.journal import journaled
from magg_kg.operations import AddConcept, Batch, CommitEdge, Operation
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import SCHEMA_VERSION
from tests.test_properties import LESSON_TEXT, T0, commit, decision, dump, every_table_ops

Magg = Callable[..., tuple[int, str, str]]


def concept(concept_id: str) -> AddConcept:
    return AddConcept(id=concept_id, name=concept_id.title(), type="concept", recorded_at=T0)


def batch(batch_id: str, ops: list[Operation]) -> Batch:
    return Batch.of(batch_id, T0, journaled(ops, T0))


def populated(path: Path) -> Path:
    store = SQLiteStore.open(path)
    store.write(batch("every-table", every_table_ops(T0)))
    store.close()
    return path


# The store.


def test_a_failing_op_in_the_middle_leaves_nothing(store: SQLiteStore) -> None:
    store.write(batch("first", [concept("a")]))
    before = dump(store)
    ops: list[Operation] = [
        concept("b"),
        decision("d-1", T0),
        commit("v-1", ("a", "prerequisite", "ghost"), "d-1", T0),  # ghost is no concept
        concept("c"),
    ]
    result = store.apply(batch("second", ops))
    assert (result.status, result.code) == ("refused", "constraint")
    assert "FOREIGN KEY" in result.reason
    assert dump(store) == before
    assert store.apply(batch("second", ops[:2] + ops[3:])).status == "applied"


def test_a_retried_batch_changes_nothing(store: SQLiteStore) -> None:
    sent = batch("once", [concept("a"), concept("b"), decision("d-1", T0)])
    assert store.apply(sent).status == "applied"
    before = dump(store)
    assert store.apply(sent).status == "duplicate"
    assert store.write(sent).status == "duplicate"
    assert dump(store) == before


def test_the_same_batch_id_with_other_content_is_a_conflict(store: SQLiteStore) -> None:
    store.write(batch("b-1", [concept("a")]))
    before = dump(store)
    result = store.apply(batch("b-1", [concept("z")]))
    assert (result.status, result.code) == ("refused", "conflict")
    assert dump(store) == before
    with pytest.raises(Exception, match=r"batch b-1 refused \(conflict\)"):
        store.write(batch("b-1", [concept("z")]))


def test_a_database_from_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "newer.sqlite"
    SQLiteStore.open(path).close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future')")
    with pytest.raises(SchemaError) as caught:
        SQLiteStore.open(path)
    message = str(caught.value)
    assert f"schema version 99, this magg knows up to {SCHEMA_VERSION}" in message
    assert "upgrade magg" in message


def test_a_corrupted_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "corrupt.sqlite"
    path.write_bytes(b"SQLite format 3\x00" + os.urandom(4096))
    with pytest.raises(StoreError, match="corrupted"):
        SQLiteStore.open(path)


def test_another_sqlite_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    with pytest.raises(StoreError, match="not a magg database"):
        SQLiteStore.open(path)


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        SQLiteStore.open(tmp_path)


def test_a_special_file_is_refused_and_nothing_written_beside_it(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # like /dev/null: SQLite would write a journal beside it, in a folder not ours
    with pytest.raises(StoreError, match="not a regular file"):
        SQLiteStore.open(fifo)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"]


def test_a_read_only_store_reads_and_refuses_writes(tmp_path: Path) -> None:
    path = populated(tmp_path / "ro.sqlite")
    store = SQLiteStore.open(path, read_only=True)
    before = dump(store)
    assert [edge.version_id for edge in store.edges()] == ["v-1"]
    with pytest.raises(StoreError, match="readonly"):
        store.apply(batch("more", [concept("z")]))
    assert dump(store) == before
    store.close()
    with pytest.raises(StoreError, match="no database at"):
        SQLiteStore.open(tmp_path / "absent.sqlite", read_only=True)


def test_an_empty_file_opened_read_only_is_no_database_and_stays_empty(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    with pytest.raises(StoreError, match=r"no database at .*empty\.sqlite \(the file is empty\); run `magg"):
        SQLiteStore.open(path, read_only=True)
    assert path.stat().st_size == 0


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes read-only files")
def test_a_read_only_file_refuses_writes(tmp_path: Path) -> None:
    path = populated(tmp_path / "chmod.sqlite")
    path.chmod(0o444)
    store = SQLiteStore.open(path)
    with pytest.raises(StoreError, match="readonly"):
        store.apply(batch("more", [concept("z")]))
    store.close()


# The CLI, through its real entry point.


@pytest.fixture
def magg(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> Magg:
    monkeypatch.delenv("MAGG_DEBUG", raising=False)
    monkeypatch.setenv("MAGG_DB", str(tmp_path / "default.sqlite"))

    def run(*args: str) -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "argv", ["magg", *args])
        try:
            cli.main()
            code = 0
        except SystemExit as done:
            code = int(done.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_init_creates_the_database(magg: Magg, tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    assert magg("init", "--db", str(path)) == (
        0,
        f"database ready: {path} (schema version {SCHEMA_VERSION})\n",
        "",
    )
    assert (
        magg("init")[1]
        == f"database ready: {tmp_path / 'default.sqlite'} (schema version {SCHEMA_VERSION})\n"
    )


def test_export_prints_the_canonical_graph(magg: Magg, tmp_path: Path) -> None:
    path = populated(tmp_path / "graph.sqlite")
    code, out, err = magg("export", "--db", str(path))
    assert (code, err) == (0, "")
    graph = json.loads(out)
    assert graph["schema_version"] == SCHEMA_VERSION
    assert [(c["id"], c["type"], c["domains"]) for c in graph["concepts"]] == [
        ("attention", "concept", ["nlp"]),
        ("linear-algebra", "math", ["nlp"]),
    ]
    assert graph["concepts"][1]["aliases"] == ["linalg"]
    [edge] = graph["edges"]
    quote = "Linear algebra is a prerequisite for neural networks."
    assert edge == {
        "edge_id": edge["edge_id"],
        "version_id": "v-1",
        "src": "linear-algebra",
        "type": "prerequisite",
        "dst": "attention",
        "grounding": {
            "confidence": 0.9,
            "reason": "the lesson says so",
            "source": "lesson-1",
            "evidence": [
                {
                    "lesson_id": "lesson-1",
                    "chunk_id": "chunk-1",
                    "start": 0,
                    "end": len(quote),
                    "quote": quote,
                    "kind": "explicit",
                }
            ],
        },
        "valid_at": T0,
        "invalid_at": None,
        "recorded_at": T0,
        "expired_at": None,
        "decision_id": "d-1",
        "policy_version": "p1",
        "prompt_version": "none",
        "model": "none",
    }
    assert [d["id"] for d in graph["decisions"]] == ["d-1"]
    [lesson] = graph["lessons"]
    assert {key: lesson[key] for key in ("id", "title", "sha256", "text")} == {
        "id": "lesson-1",
        "title": "Linear algebra",
        "sha256": hashlib.sha256(LESSON_TEXT.encode()).hexdigest(),
        "text": LESSON_TEXT,
    }
    assert magg("export", "--db", str(path))[1] == out  # canonical: the same text every time


def test_export_as_of_before_anything_was_recorded_is_empty(magg: Magg, tmp_path: Path) -> None:
    path = populated(tmp_path / "graph.sqlite")
    graph = json.loads(magg("export", "--db", str(path), "--as-of", "2025-12-31")[1])
    assert (graph["as_of"], graph["concepts"], graph["edges"], graph["lessons"]) == (
        "2025-12-31T00:00:00.000000Z",
        [],
        [],
        [],
    )


def test_coverage_json(magg: Magg, tmp_path: Path) -> None:
    code, out, _ = magg("coverage", "--db", str(populated(tmp_path / "c.sqlite")), "--json")
    report = json.loads(out)
    assert code == 0
    assert report["overall"] == {
        "concepts": 2,
        "active_edges": 1,
        "edge_types": {"prerequisite": 1},
        "orphans": [],
        "prerequisite_cycles": [],
        "lessons": 1,
        "lessons_without_concepts": [],
    }
    assert report["domains"]["nlp"]["concepts"] == 2


def test_audit_verify_reports_a_sound_database(magg: Magg, tmp_path: Path) -> None:
    path = populated(tmp_path / "a.sqlite")
    events = len(SQLiteStore.open(path).audit_events())
    assert events == 7  # lesson, two proposals, two decisions, one commit, one review enqueued
    head = "{}:{}".format(*SQLiteStore.open(path).audit_head())
    assert magg("audit", "verify", "--db", str(path)) == (
        0,
        f"ok: {events} audit events chained, all invariants hold\n"
        f"head: {head} (keep it for `magg audit verify --since`)\n",
        "",
    )
    code, out, _ = magg("audit", "verify", "--db", str(path), "--json")
    assert (code, json.loads(out)) == (
        0,
        {"ok": True, "audit_events": events, "head": head, "problems": [], "notes": []},
    )


def test_a_history_rewritten_and_rehashed_whole_is_caught_by_a_kept_head(magg: Magg, tmp_path: Path) -> None:
    path = populated(tmp_path / "a.sqlite")
    kept = "{}:{}".format(*SQLiteStore.open(path).audit_head())
    with sqlite3.connect(path) as db:  # an attacker edits the review event, rehashes the chain
        (trigger,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'audit_log_no_update'").fetchone()
        db.execute("DROP TRIGGER audit_log_no_update")
        rows = db.execute(
            "SELECT seq, event_id, kind, subject, payload, recorded_at FROM audit_log ORDER BY seq"
        ).fetchall()
        previous = ""
        for seq, event_id, kind, subject, payload, recorded_at in rows:
            if kind == "enqueue_review":
                payload = payload.replace('"reason":"', '"reason":"nothing to see: ')
            digest = chain_hash(previous, seq, event_id, kind, subject, payload, recorded_at)
            db.execute(
                "UPDATE audit_log SET payload = ?, prev_hash = ?, hash = ? WHERE seq = ?",
                (payload, previous, digest, seq),
            )
            previous = digest
        db.execute(trigger)  # and leaves the schema as it was
    assert magg("audit", "verify", "--db", str(path))[0] == 0  # the chain holds: it was rebuilt
    code, _, err = magg("audit", "verify", "--db", str(path), "--since", kept)
    assert code == 1 and f"the audit log no longer holds event {kept.split(':')[0]} with hash" in err
    code, _, err = magg("audit", "verify", "--db", str(path), "--since", "5:nothex")
    assert code == 2 and "is no audit head" in err
    # Before any event the head printed is "0:", which --since refused; a hash in capitals was refused too.
    empty = tmp_path / "empty.sqlite"
    assert magg("init", "--db", str(empty))[0] == 0
    code, out, _ = magg("audit", "verify", "--db", str(empty))
    assert code == 0 and "head: 0:" in out
    assert magg("audit", "verify", "--db", str(empty), "--since", "0:")[0] == 0
    seq, _, digest = kept.partition(":")
    code, _, err = magg("audit", "verify", "--db", str(path), "--since", f"{seq}:{digest.upper()}")
    assert code == 1 and "no longer holds event" in err


def test_audit_verify_fails_on_a_broken_invariant(magg: Magg, tmp_path: Path) -> None:
    path = populated(tmp_path / "a.sqlite")
    with sqlite3.connect(path) as db:  # an attacker rewrites a quote behind the store's back
        db.execute("DROP TRIGGER concept_edges_close_only")
        db.execute("UPDATE concept_edges SET evidence = replace(evidence, 'Linear', 'Linearr')")
    code, _, err = magg("audit", "verify", "--db", str(path))
    assert code == 1
    assert "broken: edge version v-1: quote not found in lesson lesson-1 at 0-53" in err


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        ("confidence = 0.5", "grounding"),
        ("reason = 'forged'", "grounding"),
        ("valid_at = '2001-01-01T00:00:00.000000Z'", "valid_at"),  # back-dated: as-of answers change
        ("model = 'someone'", "model"),
    ],
)
def test_audit_verify_finds_any_field_of_an_edge_edited_behind_the_stores_back(
    edit: str, field: str, magg: Magg, tmp_path: Path
) -> None:
    # Only the triple, the status, the decision and the closing time were compared with the journal.
    path = populated(tmp_path / "a.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("DROP TRIGGER concept_edges_close_only")
        db.execute(f"UPDATE concept_edges SET {edit}")
    code, _, err = magg("audit", "verify", "--db", str(path))
    assert code == 1
    assert f"edge version v-1 differs from its audit journal entry ({field})" in err


def test_usage_json(magg: Magg, tmp_path: Path) -> None:
    code, out, _ = magg("usage", "--db", str(populated(tmp_path / "u.sqlite")), "--json")
    report = json.loads(out)
    assert code == 0
    assert report["total"] == {
        "calls": 1,
        "capped": 0,
        "cache_hits": 0,
        "attempts": 1,
        "prompt_tokens": 10,
        "completion_tokens": 5,
    }
    assert [(row["stage"], row["calls"]) for row in report["by_stage"]] == [("judge", 1)]


def broken_inputs(tmp_path: Path) -> dict[str, tuple[list[str], int, str]]:
    corrupt = tmp_path / "corrupt.sqlite"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4096)
    newer = tmp_path / "newer.sqlite"
    SQLiteStore.open(newer).close()
    with sqlite3.connect(newer) as db:
        db.execute("INSERT INTO schema_version (version, name) VALUES (99, '0099_future')")
    return {
        "directory": (["export", "--db", str(tmp_path)], 2, "is a directory"),
        "corrupt": (["coverage", "--db", str(corrupt)], 2, "corrupted"),
        "newer": (["audit", "verify", "--db", str(newer)], 2, "written by a newer magg"),
        "no-folder": (["init", "--db", str(tmp_path / "no" / "x.sqlite")], 2, "does not exist"),
        "bad-time": (["export", "--as-of", "yesterday"], 2, "is not an ISO 8601 time"),
        "unknown-option": (["export", "--bogus"], 2, "No such option: --bogus"),
        "unknown-command": (["frobnicate"], 2, "No such command"),
    }


@pytest.mark.parametrize(
    "case", ["directory", "corrupt", "newer", "no-folder", "bad-time", "unknown-option", "unknown-command"]
)
def test_every_error_is_one_line_on_stderr(magg: Magg, tmp_path: Path, case: str) -> None:
    args, expected_code, words = broken_inputs(tmp_path)[case]
    code, out, err = magg(*args)
    assert code == expected_code
    assert err.startswith("error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert words in err
    assert "Traceback" not in out + err


def test_an_unbuilt_stage_says_so(magg: Magg, tmp_path: Path) -> None:
    code, _, err = magg("ingest", str(tmp_path), "--db", str(tmp_path / "i.sqlite"))
    if code == 0:
        pytest.skip("ingestion is built now")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_schema_check_lists_the_curriculum_edge_types() -> None:
    """The store's CHECK on concept_edges.type is the curriculum's closed vocabulary, no more."""
    import re

    from magg_kg.migrations import migrations
    from magg_kg.vocabulary import CURRICULUM

    sql = "\n".join(text for _, _, text in migrations())
    listed = re.search(r"CHECK \(type IN \(([^)]*)\)\)", sql)
    assert listed is not None
    assert set(re.findall(r"'([a-z_]+)'", listed.group(1))) == set(CURRICULUM.edge_types)


def test_a_list_field_validation_did_not_make_is_bound_as_it_is() -> None:
    """Built without validation, a list or object field holding something else is bound as it is
    (null as NULL, text as that text), not as its JSON text: the store refuses what it refused."""
    store = SQLiteStore.open(":memory:")
    store.write(Batch.of("setup", T0, [concept("a"), concept("b"), decision("d-1", T0)]))
    good = commit("v-1", ("a", "prerequisite", "b"), "d-1", T0)
    null = CommitEdge.model_construct(**{**good.__dict__, "evidence": None})
    result = store.apply(Batch.of("null", T0, [null]))
    assert (result.status, result.code) == ("refused", "constraint") and "NOT NULL" in result.reason
    text = CommitEdge.model_construct(**{**good.__dict__, "evidence": "[]"})
    result = store.apply(Batch.of("text", T0, [text]))  # '[]' itself, not '"[]"'
    assert (result.status, result.code) == ("refused", "constraint") and "CHECK" in result.reason
    assert store.apply(Batch.of("good", T0, [good])).status == "applied"
    store.close()


def test_the_store_computes_a_batch_digest_itself_and_never_trusts_the_claimed_one() -> None:
    store = SQLiteStore.open(":memory:")
    first = batch("b1", [concept("c1")])
    assert store.apply(first).status == "applied"
    forged = batch("b1", [concept("c2")]).model_copy(update={"digest": first.digest})
    result = store.apply(forged)  # other content under a used id, claiming the first one's digest
    assert (result.status, result.code) == ("refused", "conflict")
    same = first.model_copy(update={"digest": "0" * 64})  # the same content with a wrong claim
    assert store.apply(same).status == "duplicate"
    assert [c.id for c in store.concepts()] == ["c1"]
    store.close()
