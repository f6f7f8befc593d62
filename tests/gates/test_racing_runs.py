"""Two runs of ``magg discover``, ``magg reconsider`` or ``magg recheck`` at once on one store.

Each run reads the store, judges, then writes one batch per candidate or edge. Between its read
and its write another run may settle the same thing: the batch carries what it was judged on (the
pair has no proposal, the proposal is still open), the store checks it under its write lock, and
a batch whose ground moved is skipped as settled by another run: nothing of it is written, and it
is neither counted as written nor reported as an error. Found by two runs at once on one SQLite
file: a candidate edge queued twice for review (one reviewer's rejection then overridden by
another's approval of the twin), two rule rejections of one proposal, and the losing run's tally
counting what it had not written. Two ``magg recheck`` runs: the one that lost the race to close
an edge version exited 1 with the store's message ("invalidate_edge: no active edge version with
this version_id") and advised running it again, and a keep judged before another writer closed
the edge was recorded for the closed version.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from governance.discovery import discover
from governance.judgment import Judgment
from governance.recheck import recheck
from governance.reconsider import Reconsidered, reconsider
from governance.withdrawal import withdraw
from magg_kg.builders import proposal_op
from magg_kg.cli import review
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import Batch, Operation
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import BatchResult, Store
from magg_kg.verification import verify_store

from .test_recheck import BAD, GOOD, OLD_BAD, commit
from .test_reconsider import BUILDS, CYCLE, MIDDLE, RELATED, WEAK, by_src
from .world import CHAIN, ScriptedLLM, invalidated, on_disk, run_magg, seed, write

POLICY = Policy()
PATH = [
    ("linear-algebra", "prerequisite", "neural-network", "Linear algebra is a prerequisite for neural"),
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("attention", "related", "transformer", "Attention is related to transformers."),
]


def apply(store: Store, clock: StepClock, ops: tuple[Operation, ...]) -> BatchResult:
    now = clock.now()
    return store.apply(Batch.of(make_id("batch", "race", now), now, journaled(list(ops), now)))


def judged(store: Store, clock: StepClock, scores: Mapping[str, float]) -> list[Reconsidered]:
    """What one reconsideration judged worth writing, read and judged before anything is written."""
    return [f for f in reconsider(store, ScriptedLLM({"judge": by_src(scores)}), POLICY, clock) if f.ops]


@pytest.fixture
def open_world(store: SQLiteStore, clock: StepClock) -> SQLiteStore:
    """The chain, and four proposals a judge left open (abstained), as in test_reconsider."""
    seed(store, clock, CHAIN)
    gate = Judgment(ScriptedLLM({"judge": by_src(MIDDLE)}), POLICY, clock, store, escalate=False)
    for p in (RELATED, BUILDS, WEAK, CYCLE):
        write(store, clock, [proposal_op(p), *gate.settle(p).ops])
    return store


def test_a_pair_another_run_proposed_since_it_was_read_is_skipped_not_queued_twice(
    store: SQLiteStore, clock: StepClock
) -> None:
    seed(store, clock, PATH)
    # Both runs read the same store and judge the same candidates before either writes.
    first = [f for f in discover(store, ScriptedLLM(), POLICY, clock, limit=3, seed=7) if f.ops]
    second = [f for f in discover(store, ScriptedLLM(), POLICY, clock, limit=3, seed=7) if f.ops]
    assert first and [f.triple for f in first] == [f.triple for f in second]
    assert all(apply(store, clock, f.ops).status == "applied" for f in second)
    late = [apply(store, clock, f.ops) for f in first]
    assert all(r.status == "refused" and r.settled for r in late), late
    pairs = Counter(frozenset((p.src, p.dst)) for p in store.proposals() if p.origin == "discover")
    assert pairs and max(pairs.values()) == 1
    claims = [store.proposal(str(row["proposal_id"])) for row in store.review_queue()]
    queued = Counter((p.src, p.type, p.dst) for p in claims if p is not None)
    assert all(count == 1 for count in queued.values()), queued
    assert verify_store(store) == []


def test_a_proposal_another_run_settled_since_it_was_read_is_not_settled_again(
    open_world: SQLiteStore, clock: StepClock
) -> None:
    scores = {"attention": 0.9, "transformer": 0.6, "k-means": 0.3}
    first, second = (judged(open_world, clock, scores), judged(open_world, clock, scores))
    assert len(first) == len(second) == 3  # committed, rejected by the judge, rejected by the rules
    assert all(apply(open_world, clock, f.ops).status == "applied" for f in second)
    late = [apply(open_world, clock, f.ops) for f in first]
    assert all(r.status == "refused" and r.settled for r in late), late
    assert [d.stage for d in open_world.decisions(CYCLE.id)].count("rules") == 1
    for p in (RELATED, WEAK):
        assert [d.stage for d in open_world.decisions(p.id)].count("reevaluation") == 1
    assert verify_store(open_world) == []


def test_a_proposal_still_open_is_settled_as_judged(open_world: SQLiteStore, clock: StepClock) -> None:
    # The precondition holds when nothing moved: the batch is written as it was before.
    found = judged(open_world, clock, MIDDLE)
    assert found and all(apply(open_world, clock, f.ops).status == "applied" for f in found)
    assert open_world.proposal(CYCLE.id).state == "rejected"  # type: ignore[union-attr]


def _beaten(db: str, monkeypatch: pytest.MonkeyPatch, command: str, other: Callable[..., Any]) -> None:
    """Makes the command's run (``review.<command>``) judge first, then lets ``other`` (the same
    run on a store of its own) write everything it finds, then lets the command write what it
    judged."""
    judge = getattr(review, command)

    def raced(store: Store, *args: object, **kwargs: object) -> Iterator[object]:
        judged = list(judge(store, *args, **kwargs))
        store_of_other = SQLiteStore.open(db)
        try:
            clock = StepClock("2031-01-01T00:00:00.000000Z", step_seconds=0.001)
            for found in other(judge, store_of_other, clock):
                if found.ops:
                    assert apply(store_of_other, clock, found.ops).status == "applied"
        finally:
            store_of_other.close()
        yield from judged

    monkeypatch.setattr(review, command, raced)


@pytest.fixture
def reconsider_raced(open_world: SQLiteStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The open world on disk, where another whole reconsideration writes between the command's
    judging and its writing."""
    db = on_disk(open_world, tmp_path / "r.sqlite")

    def other(judge: Callable[..., Any], store: Store, clock: StepClock) -> Any:
        return judge(store, ScriptedLLM({"judge": by_src(scores)}), POLICY, clock)

    _beaten(db, monkeypatch, "run_reconsider", other)
    return db


scores = {"attention": 0.9, "transformer": 0.9, "k-means": 0.1}


def test_the_losing_run_counts_only_what_it_wrote(
    reconsider_raced: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = reconsider_raced
    run_magg(["reconsider", "--db", db, "--rounds", "1", "--json"])  # exit 0: not an error
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    skipped = [r for r in report["results"] if r.get("skipped")]
    # The rules reject the cycle whatever the judge says: the other run did, so this one did not.
    assert any(r["edge"][1] == "prerequisite" for r in skipped)
    assert all(r["written"] is False for r in skipped)
    assert report["skipped"] == len(skipped)
    written = Counter(r["state"] for r in report["results"] if not r.get("skipped"))
    assert report["states"] == dict(written)
    assert "refused" not in captured.err and "UNIQUE" not in captured.err
    store = SQLiteStore.open(db)
    try:
        assert [d.stage for d in store.decisions(CYCLE.id)].count("rules") == 1
    finally:
        store.close()


def test_the_losing_run_says_what_it_skipped(
    reconsider_raced: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = reconsider_raced
    run_magg(["reconsider", "--db", db, "--rounds", "1"])
    tally = capsys.readouterr().out.splitlines()[-1]
    # The offline judge settles every edge, and the other run wrote each first: none is this run's.
    assert tally == "reconsidered 4 open edge(s) in 1 round(s): 4 settled by another run first, skipped"


@pytest.mark.parametrize("as_json", [False, True])
def test_edges_judged_open_that_a_withdrawal_closed_meanwhile_are_not_counted_open(
    as_json: bool,
    open_world: SQLiteStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Found by `magg reconsider` and `magg review withdraw` at once: the edges the judge left open
    # (nothing to write, so no batch to refuse) were tallied "open 3", though the withdrawal had
    # closed every proposal of them before the run ended.
    db = on_disk(open_world, tmp_path / "r.sqlite")
    find = review.run_reconsider

    def raced(
        store: Store, llm: object, policy: Policy, clock: StepClock, limit: int | None
    ) -> Iterator[object]:
        found = list(find(store, ScriptedLLM({"judge": by_src(MIDDLE)}), policy, clock, limit))
        assert [f.state for f in found] == ["open", "open", "open", "rejected"]  # the cycle: the rules
        other = SQLiteStore.open(db)
        try:
            late = StepClock("2031-01-01T00:00:00.000000Z", step_seconds=0.001)
            ops = withdraw(other, late, POLICY, "a", "ann", "the course drops it")
            assert apply(other, late, tuple(ops)).status == "applied"
        finally:
            other.close()
        yield from found

    monkeypatch.setattr(review, "run_reconsider", raced)
    run_magg(["reconsider", "--db", db, "--rounds", "1", *(["--json"] if as_json else [])])
    out = capsys.readouterr().out
    if as_json:
        report = json.loads(out)
        assert (report["states"], report["skipped"]) == ({}, 4)
        assert all(r["skipped"] and r["written"] is False for r in report["results"])
    else:
        tally = "reconsidered 4 open edge(s) in 1 round(s): 4 settled by another run first, skipped"
        assert out.splitlines()[-1] == tally
    monkeypatch.setattr(review, "run_reconsider", find)
    run_magg(["reconsider", "--db", db, "--rounds", "1", "--json"])
    assert json.loads(capsys.readouterr().out)["reconsidered"] == 0  # none was open indeed


@pytest.fixture
def edges_world(store: SQLiteStore, clock: StepClock) -> SQLiteStore:
    """Four active edges; of the three most recent, the offline judge keeps two and invalidates one
    (``BAD``), as in test_recheck."""
    seed(store, clock)
    for edge in (OLD_BAD, *GOOD, BAD):
        commit(store, clock, *edge)
    return store


def rechecked(store: Store, clock: StepClock) -> list[tuple[str, str, tuple[Operation, ...]]]:
    """What one re-check judged (verdict, edge version, ops), read and judged before anything is
    written."""
    return [(r.verdict, r.version_id, r.ops) for r in recheck(store, ScriptedLLM(), POLICY, clock, 3)]


def test_an_edge_another_run_invalidated_since_it_was_read_is_not_invalidated_again(
    edges_world: SQLiteStore, clock: StepClock
) -> None:
    first, second = rechecked(edges_world, clock), rechecked(edges_world, clock)
    assert sorted(v for v, _, _ in first) == ["invalidate", "keep", "keep"]
    assert all(apply(edges_world, clock, ops).status == "applied" for _, _, ops in second)
    late = {verdict: apply(edges_world, clock, ops) for verdict, _, ops in first}
    # The edges kept are still active: their keeps are written. The invalidated one is settled.
    assert late["keep"].status == "applied"
    assert late["invalidate"].status == "refused" and late["invalidate"].settled, late
    (closed,) = [v for verdict, v, _ in first if verdict == "invalidate"]
    on_closed = [d for d in edges_world.decisions_at("recheck") if d.detail["version_id"] == closed]
    assert [d.verdict for d in on_closed] == ["invalidate"]
    assert verify_store(edges_world) == []


def test_a_keep_judged_before_another_writer_closed_the_edge_is_not_recorded(
    edges_world: SQLiteStore, clock: StepClock
) -> None:
    judged_first = rechecked(edges_world, clock)
    kept = [v for verdict, v, _ in judged_first if verdict == "keep"]
    now = clock.now()  # meanwhile a person invalidates a kept edge (magg review invalidate)
    assert apply(edges_world, clock, tuple(invalidated(kept[0], "a person: wrong", now))).status == "applied"
    late = {v: apply(edges_world, clock, ops) for _, v, ops in judged_first}
    assert late[kept[0]].status == "refused" and late[kept[0]].settled, late
    assert late[kept[1]].status == "applied"
    # The person's decision closed it (its detail names no version); no re-check decided on it since.
    assert not [d for d in edges_world.decisions_at("recheck") if d.detail.get("version_id") == kept[0]]
    assert verify_store(edges_world) == []


@pytest.fixture
def recheck_raced(edges_world: SQLiteStore, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """The edges world on disk, where another whole re-check writes between the command's judging
    and its writing."""
    db = on_disk(edges_world, tmp_path / "r.sqlite")

    def other(judge: Callable[..., Any], store: Store, clock: StepClock) -> Any:
        return judge(store, ScriptedLLM(), POLICY, clock, 3)

    _beaten(db, monkeypatch, "run_recheck", other)
    return db


def test_the_losing_recheck_skips_what_the_other_invalidated_and_counts_only_what_it_wrote(
    recheck_raced: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = recheck_raced
    run_magg(["recheck", "--limit", "3", "--db", db, "--json"])  # exit 0: not an error
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    (skipped,) = [e for e in report["edges"] if e.get("skipped")]
    assert skipped["verdict"] == "invalidate" and skipped["written"] is False
    assert report["skipped"] == 1 and report["rechecked"] == 3
    assert report["counts"] == {"keep": 2, "invalidate": 0, "void": 0}  # what this run wrote
    assert "refused" not in captured.err and "invalidate_edge" not in captured.err


def test_the_losing_recheck_says_what_it_skipped(
    recheck_raced: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = recheck_raced
    run_magg(["recheck", "--limit", "3", "--db", db])
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == "re-checked 3 edge(s); invalidated 0; 1 settled by another run first, skipped"
    assert sum(line.startswith("skipped") for line in lines) == 1


def test_the_losing_discover_says_skipped_for_each_candidate_it_did_not_write(
    store: SQLiteStore,
    clock: StepClock,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Found by two `magg discover` at once: the loser printed "committed ..." / "quarantined ..." for
    # every candidate the other run had settled first, and wrote none of them.
    seed(store, clock, PATH)
    db = on_disk(store, tmp_path / "d.sqlite")
    find = review.run_discover

    def raced(store: Store, *args: object, **kwargs: object) -> Iterator[object]:
        found = list(find(store, *args, **kwargs))  # type: ignore[arg-type]
        other = SQLiteStore.open(db)
        try:
            late = StepClock("2031-01-01T00:00:00.000000Z", step_seconds=0.001)
            for first in find(other, ScriptedLLM(), POLICY, late, limit=3, seed=7):
                if first.ops:
                    assert apply(other, late, first.ops).status == "applied"
        finally:
            other.close()
        yield from found

    monkeypatch.setattr(review, "run_discover", raced)
    run_magg(["discover", "--limit", "3", "--db", db])
    *lines, tally = capsys.readouterr().out.splitlines()
    skipped = int(tally.split(": ")[1].split()[0])
    assert skipped and tally.endswith("settled by another run first, skipped")
    assert sum(line.startswith("skipped ") for line in lines) == skipped
    assert not any(line.startswith(("committed", "quarantined", "rejected")) for line in lines)
