"""Several writers on one store: a batch built on reads another writer has since changed is refused
as a conflict (retryable), never as an error; the SQLite lock keeps a read-then-write whole; domain
changes never take another writer's concepts away; and `magg audit verify` sees ownership break."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from governance.domains import Domain, Layout, layout_ops
from magg_kg.errors import BatchConflict, BatchRefused
from magg_kg.journal import journaled
from magg_kg.operations import AddConcept, AssignDomain, Batch, Operation, SetDomain, UnassignDomain
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from tests.cli import magg
from tests.test_properties import T0, commit, decision

LATER = "2026-01-01T00:00:01.000000Z"


def batch(batch_id: str, ops: list[Operation], at: str = T0) -> Batch:
    return Batch.of(batch_id, at, journaled(ops, at))


def concepts(*ids: str) -> list[Operation]:
    return [AddConcept(id=c, name=c.title(), type="concept", recorded_at=T0) for c in ids]


def domain(domain_id: str, version: int, at: str = T0, **card: object) -> SetDomain:
    return SetDomain(
        id=domain_id, version=version, name=domain_id, owner=f"owner:{domain_id}", card=card, recorded_at=at
    )


def test_the_same_active_edge_from_a_second_writer_is_a_conflict(store: SQLiteStore) -> None:
    store.write(batch("c", concepts("a", "b")))
    store.write(batch("first", [decision("d-1", T0), commit("v-1", ("a", "prerequisite", "b"), "d-1", T0)]))
    second = batch("second", [decision("d-2", T0), commit("v-2", ("a", "prerequisite", "b"), "d-2", T0)])
    with pytest.raises(BatchConflict, match=r"UNIQUE constraint failed: concept_edges"):
        store.write(second)
    assert len(store.edges()) == 1


def test_the_next_version_of_a_domain_twice_is_a_conflict(store: SQLiteStore) -> None:
    store.write(batch("d1", [domain("d-x", 1)]))
    store.write(batch("mine", [domain("d-x", 2, concepts=["a"])]))
    with pytest.raises(BatchConflict, match=r"domains.id, domains.version"):
        store.write(batch("theirs", [domain("d-x", 2, concepts=["b"])]))
    assert json.loads(str(store.domains()[0]["card"])) == {"concepts": ["a"]}


def test_a_batch_that_is_wrong_is_refused_and_no_conflict(store: SQLiteStore) -> None:
    store.write(batch("c", concepts("a")))
    wrong = batch("loop", [decision("d-1", T0), commit("v-1", ("a", "prerequisite", "a"), "d-1", T0)])
    with pytest.raises(BatchRefused) as refused:
        store.write(wrong)
    assert not isinstance(refused.value, BatchConflict) and refused.value.code == "constraint"


def test_the_same_batch_id_with_other_content_is_a_conflict_too(store: SQLiteStore) -> None:
    store.write(batch("lesson-1", concepts("a")))
    with pytest.raises(BatchConflict):
        store.write(batch("lesson-1", concepts("b")))


def test_writes_inside_exclusive_are_kept_together_or_not_at_all(tmp_path: Path) -> None:
    path = tmp_path / "lock.sqlite"
    store, other = SQLiteStore.open(path), SQLiteStore.open(path)
    other._db.execute("PRAGMA busy_timeout = 0")  # the other writer must not wait: it must be refused
    with store.exclusive():
        store.write(batch("one", concepts("a")))
        assert [c.id for c in store.concepts()] == ["a"]  # this writer reads its own writes
        assert other.concepts() == []  # readers are not kept out; they see the last commit
        with pytest.raises(Exception, match="locked"):
            other.write(batch("two", concepts("b")))
        with pytest.raises(BatchRefused):  # a refused batch inside leaves the others alone
            store.write(batch("one", concepts("c")))
        store.write(batch("three", concepts("d")))
    assert sorted(c.id for c in other.concepts()) == ["a", "d"]
    with pytest.raises(RuntimeError), store.exclusive():
        store.write(batch("four", concepts("e")))
        raise RuntimeError("the builder failed after writing")
    assert sorted(c.id for c in other.concepts()) == ["a", "d"]
    assert not store._db.in_transaction and verify_store(store) == []
    store.close()
    other.close()


def test_a_stale_layout_leaves_the_concepts_it_does_not_know_alone() -> None:
    # Read: a and b in d-1 (version 1). Since then another writer added c to d-1 (version 2).
    stored = [{"id": "d-1", "version": 1, "name": "d-1", "card": "{}"}]
    assigned = {"a": ("d-1",), "b": ("d-1",), "c": ("d-1",)}  # c is newer than the concepts read
    layout = Layout(
        (
            Domain("d-1", "d-1", "owner:d-1", ("a",), (), ("a",)),
            Domain("d-2", "d-2", "owner:d-2", ("b",), (), ("b",)),
        )
    )
    cards = {"d-1": {"concepts": ["a"]}, "d-2": {"concepts": ["b"]}}
    ops = layout_ops(layout, cards, stored, assigned, LATER)
    assert not [op for op in ops if isinstance(op, UnassignDomain) and op.concept_id == "c"]
    assert UnassignDomain(concept_id="b", domain_id="d-1", expired_at=LATER) in ops
    assert AssignDomain(concept_id="b", domain_id="d-2", recorded_at=LATER) in ops
    # Every domain it changes gets its next version: the optimistic lock another writer meets.
    assert {(op.id, op.version) for op in ops if isinstance(op, SetDomain)} == {("d-1", 2), ("d-2", 1)}


def test_a_layout_that_only_moves_concepts_still_takes_the_next_version() -> None:
    stored = [{"id": "d-1", "version": 3, "name": "d-1", "card": json.dumps({"concepts": ["a"]})}]
    layout = Layout((Domain("d-1", "d-1", "owner:d-1", ("a", "b"), (), ("a",)),))
    ops = layout_ops(layout, {"d-1": {"concepts": ["a"]}}, stored, {"a": ("d-1",)}, LATER)
    assert [(op.id, op.version) for op in ops if isinstance(op, SetDomain)] == [("d-1", 4)]


# The ownership invariants of `magg audit verify`.


def owned_store(path: Path) -> SQLiteStore:
    store = SQLiteStore.open(path)
    store.write(
        batch(
            "owned",
            [
                *concepts("a", "b"),
                domain("d-1", 1, concepts=["a", "b"]),
                AssignDomain(concept_id="a", domain_id="d-1", recorded_at=T0),
                AssignDomain(concept_id="b", domain_id="d-1", recorded_at=T0),
            ],
        )
    )
    assert verify_store(store) == []
    return store


def test_verify_names_a_concept_without_a_domain_and_an_empty_domain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "owned.sqlite"
    store = owned_store(db)
    # What a stale layout did: closed both assignments, and added a domain it never filled.
    store.write(
        batch(
            "stale",
            [
                UnassignDomain(concept_id="a", domain_id="d-1", expired_at=LATER),
                UnassignDomain(concept_id="b", domain_id="d-1", expired_at=LATER),
                domain("d-2", 1, LATER, concepts=[]),
                *concepts("c"),
            ],
            LATER,
        )
    )
    problems = verify_store(store)
    store.close()
    assert "concept a has no active domain" in problems and "concept c has no active domain" in problems
    assert "domain d-1 (d-1) is active and owns no concept" in problems
    assert "domain d-2 (d-2) is active and owns no concept" in problems
    code, out, err = magg(["audit", "verify", "--db", str(db)], capsys)
    assert code == 1
    assert "concept b has no active domain" in out + err
    assert "domain d-2 (d-2) is active and owns no concept" in out + err


def test_a_retired_domain_may_be_empty_but_may_not_own(tmp_path: Path) -> None:
    store = owned_store(tmp_path / "retired.sqlite")
    store.write(batch("retire", [domain("d-1", 2, LATER, concepts=[], retired=True)], LATER))
    assert verify_store(store) == [
        "concept a is owned by retired domain d-1",
        "concept b is owned by retired domain d-1",
    ]
    store.close()


def test_a_database_without_domains_has_no_ownership_to_check(store: SQLiteStore) -> None:
    store.write(batch("c", concepts("a")))
    assert verify_store(store) == []


def test_sqlite_names_the_unique_rule_the_conflict_test_relies_on() -> None:
    # The conflict signal reads SQLite's message; D1 returns SQLite's message too.
    db = sqlite3.connect(":memory:")
    db.execute("CREATE TABLE t (a, b, PRIMARY KEY (a, b))")
    db.execute("INSERT INTO t VALUES (1, 2)")
    with pytest.raises(sqlite3.IntegrityError, match=r"^UNIQUE constraint failed: t.a, t.b$"):
        db.execute("INSERT INTO t VALUES (1, 2)")
