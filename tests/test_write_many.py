"""Writing many operations of one type at once (``ModelWriter.write_many``), as the SQLite store
does for each batch: the same values, field texts and operation texts as writing them one by one
(``ModelWriter.write``), validated or not, and the same rows in the same statements, in the
protocol's write order."""

from __future__ import annotations

import re
import sqlite3
from itertools import pairwise
from typing import Any

import pytest

from magg_kg.audit import chain_hash
from magg_kg.journal import journaled
from magg_kg.migrations import migrations
from magg_kg.operations import (
    AddChunk,
    AppendAudit,
    Batch,
    CommitEdge,
    Operation,
    RecordDecision,
    SpanData,
    op_fields,
    op_writer,
    statements,
)
from magg_kg.sqlite import SQLiteStore, bind
from tests.test_operations import T, valid_batches, vector_op

UPDATES = [
    {"confidence": 1},
    {"confidence": float("nan")},
    {"confidence": float("inf")},
    {"confidence": True},
    {"reason": 5},
    {"reason": None},
    {"evidence": None},
    {"evidence": "text"},
    {"evidence": []},
    {"evidence": ({"lesson_id": "l", "start": 0},)},
    {"evidence": [{"lesson_id": "l", "start": True}]},
    {"evidence": [SpanData.model_construct(lesson_id="l", start=0, end=1, quote="q", kind="explicit")] * 3},
    {"evidence": [SpanData.model_construct(lesson_id="l", start=True, end=1.5, quote="q", kind="explicit")]},
    {"evidence": [SpanData.model_construct(lesson_id="l", start=0, quote="q", kind="explicit", other=1)]},
]


def one_by_one(
    kind: str, ops: list[Operation]
) -> tuple[list[tuple[Any, ...]], list[tuple[str, ...]], list[str]]:
    """What write_many must give, column by column, from write called on each operation."""
    written = [op_writer(kind).write(op_fields(op)) for op in ops]
    names = op_writer(kind).names
    values = [tuple(w[0][i] for w in written) for i in range(len(names))]
    parts = [tuple(w[1][i] for w in written) for i in range(len(names))]
    return values, parts, [w[2] for w in written]


def columns_as_tuples(columns: list[Any]) -> list[tuple[Any, ...]]:
    return [tuple(column) for column in columns]


def commit_edges(count: int) -> list[CommitEdge]:
    first = vector_op("commit_edge")
    assert isinstance(first, CommitEdge)
    return [first.model_copy(update={"version_id": f"v{n}", "confidence": n / count}) for n in range(count)]


@pytest.mark.parametrize("batch", valid_batches(), ids=lambda batch: batch.batch_id)
def test_write_many_writes_what_write_writes(batch: Batch) -> None:
    for kind in sorted({op.op for op in batch.ops}):
        ops = [op for op in batch.ops if op.op == kind]
        values, parts, texts = op_writer(kind).write_many([op_fields(op) for op in ops])
        want = one_by_one(kind, ops)
        assert (columns_as_tuples(values), columns_as_tuples(parts), texts) == want, kind


@pytest.mark.parametrize("update", UPDATES, ids=repr)
@pytest.mark.parametrize("at", [0, 2, 4])
def test_a_value_validation_did_not_make_writes_as_one_by_one(update: dict[str, Any], at: int) -> None:
    ops: list[Operation] = list(commit_edges(5))
    ops[at] = CommitEdge.model_construct(**{**ops[at].__dict__, **update})
    values, parts, texts = op_writer("commit_edge").write_many([op_fields(op) for op in ops])
    assert (columns_as_tuples(values), columns_as_tuples(parts), texts) == one_by_one("commit_edge", ops)


def test_numbers_not_of_their_declared_type_write_as_one_by_one() -> None:
    chunks: list[Operation] = [
        AddChunk(id=f"k{n}", lesson_id="l", ordinal=n, start=n, end=n + 1, heading="") for n in range(3)
    ]
    chunks.append(AddChunk.model_construct(id="k", lesson_id="l", ordinal=True, start=0, end=1.5, heading=""))
    values, parts, texts = op_writer("add_chunk").write_many([op_fields(op) for op in chunks])
    assert (columns_as_tuples(values), columns_as_tuples(parts), texts) == one_by_one("add_chunk", chunks)


def test_write_many_of_nothing_writes_nothing() -> None:
    values, parts, texts = op_writer("commit_edge").write_many([])
    assert texts == [] and len(values) == len(parts) == len(op_writer("commit_edge").names)


def in_write_order(ops: list[Operation]) -> list[Operation]:
    """The operations group by group of the protocol's ``write_order``, in order within a group."""
    groups = statements()["write_order"]
    assert isinstance(groups, list)
    group = {kind: at for at, kinds in enumerate(groups) for kind in kinds}
    return sorted(ops, key=lambda op: group[op.op])


def reference_steps(store: SQLiteStore, batch: Batch) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """One statement per operation, in write order, its parameters read from write (the store's
    rule before it wrote operations column by column): a JSON field is bound as its text when it is
    a list or an object, else as bind() binds it; the audit chain follows the chain's head."""
    steps: list[tuple[str, list[tuple[Any, ...]]]] = []
    seq, prev_hash = store.audit_head()
    for op in in_write_order(batch.ops):
        plan = store._plans[op.op]
        values, parts, _ = plan.writer.write(op_fields(op))
        source: tuple[Any, ...] = values + parts
        if isinstance(op, AppendAudit):
            seq += 1
            hash_ = chain_hash(prev_hash, seq, op.event_id, op.kind, op.subject, op.payload, op.recorded_at)
            source += (seq, prev_hash, hash_)
            prev_hash = hash_
        for spec in plan.statements:
            row = [source[at] for at in spec.at]
            for param, value_at in spec.json_at:
                if type(source[value_at]) not in (list, dict):
                    row[param] = bind(source[value_at])
            steps.append((spec.sql, [tuple(row)]))
    return steps


def flat(steps: list[tuple[str, Any]]) -> list[tuple[str, tuple[Any, ...]]]:
    return [(sql, row) for sql, rows in steps for row in rows]


def test_the_store_runs_the_same_rows_in_write_order_as_one_operation_at_a_time() -> None:
    decision = RecordDecision(
        id="d", proposal_id=None, stage="s", verdict="accept", state_after="committed", score=None,
        rationale="r", detail={"k": [1, 2.5, None]}, policy_version="p", prompt_version="q", model="m",
        decided_at=T,
    )  # fmt: skip
    edges = commit_edges(6)
    mixed = [*edges[:2], *journaled([decision], T), *journaled(edges[2:4], T), edges[4], edges[5]]
    odd = CommitEdge.model_construct(**{**edges[0].__dict__, "evidence": None, "confidence": 1})
    store = SQLiteStore.open(":memory:")
    for ops in ([*edges], mixed, [*edges[:3], odd, *edges[3:]], journaled([*edges, odd], T)):
        batch = Batch.model_construct(batch_id="b", sent_at=T, ops=ops)
        texts, steps = store._rows(batch)
        assert texts == [op_writer(op.op).write(op_fields(op))[2] for op in ops]
        assert flat(steps) == flat(reference_steps(store, batch))
        runs = [sql for sql, _ in steps]
        assert all(a != b for a, b in pairwise(runs)), "a run of one statement is one step"


def test_the_write_order_has_the_effect_of_the_batch_order() -> None:
    # Writing group by group has the batch's effect when no row refers to a row of a later group,
    # and when the operations whose order matters to each other share a group: those that write a
    # table one of them updates, and those that write tables one table's triggers touch.
    protocol = statements()
    groups, operations = protocol["write_order"], protocol["operations"]
    assert isinstance(groups, list) and isinstance(operations, dict)
    group = {kind: at for at, kinds in enumerate(groups) for kind in kinds}
    assert sorted(group) == sorted(operations) and sum(map(len, groups)) == len(group)
    writes: dict[str, set[tuple[str, str]]] = {
        kind: {
            (match.group(1), match.group(2))
            for spec in specs
            for match in re.finditer(r"^(INSERT INTO|UPDATE) (\w+)", spec["sql"])
        }
        for kind, specs in operations.items()
    }
    writers: dict[str, set[str]] = {}
    for kind, found in writes.items():
        for _, table in found:
            writers.setdefault(table, set()).add(kind)
    db = sqlite3.connect(":memory:")
    for _, _, sql in migrations():
        db.executescript(sql)
    for table, kinds in writers.items():
        for row in db.execute(f"PRAGMA foreign_key_list({table})"):
            earlier = writers.get(row[2], set())
            assert all(group[a] <= group[b] for a in earlier for b in kinds), (table, row[2])
        if any(("UPDATE", table) in writes[kind] for kind in kinds):
            assert len({group[kind] for kind in kinds}) == 1, table
    # A precondition (an expect_ operation) is about the store as its writer read it, before the
    # batch: its group is the first, alone, wherever it is in the batch; its view's trigger reads
    # the tables the batch writes, and it must read them before the batch's own writes.
    expect = {kind for kind in operations if kind.startswith("expect_")}
    assert expect and set(groups[0]) == expect
    for table, body in db.execute("SELECT tbl_name, sql FROM sqlite_master WHERE type = 'trigger'"):
        if writers.get(table, set()) <= expect:
            continue
        touched = {other for other in writers if other != table and re.search(rf"\b{other}\b", body)}
        for other in touched:
            assert len({group[kind] for kind in writers[table] | writers[other]}) == 1, (table, other)
