"""Re-check: re-judge recent active edges, invalidate (close, never delete) only those now below
the bar, and only the edge judged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from governance.recheck import recheck
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

from .world import ScriptedLLM, on_disk, run_magg, seed, seeded_edge

GOOD = [
    (
        "linear-algebra",
        "prerequisite",
        "neural-network",
        "Linear algebra is a prerequisite for neural networks.",
    ),
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
]
# Committed against what its own quote says: the quote states the other direction.
BAD = ("backpropagation", "prerequisite", "calculus", "Calculus is a prerequisite for backpropagation.")
OLD_BAD = (
    "gradient-descent",
    "prerequisite",
    "k-means",
    "Some practitioners argue that k-means is a prerequisite for gradient descent.",
)


def commit(store: SQLiteStore, clock: StepClock, src: str, type_: str, dst: str, quote: str) -> None:
    now = clock.now()
    ops = journaled(seeded_edge(src, type_, dst, quote, now), now)
    store.write(Batch.of(make_id("batch", "seed", now), now, ops))


@pytest.fixture
def world(store: SQLiteStore, clock: StepClock) -> SQLiteStore:
    seed(store, clock)
    commit(store, clock, *OLD_BAD)
    for edge in GOOD:
        commit(store, clock, *edge)
    commit(store, clock, *BAD)
    return store


def test_an_edge_a_person_committed_is_never_rechecked(store: SQLiteStore, clock: StepClock) -> None:
    # A re-check invalidated edges a person had approved or restored, and no command could put
    # them back (found by a hostile run): a person's decision stands until a person reverses it.
    seed(store, clock)
    for edge in GOOD:
        commit(store, clock, *edge)
    now = clock.now()
    store.write(
        Batch.of(make_id("batch", "person", now), now, journaled(seeded_edge(*BAD, now, "human"), now))
    )

    verdicts = write_all(store, clock, 3)

    assert verdicts == ["keep neural-network", "keep linear-algebra"]
    assert ("backpropagation", "calculus") in {(e.src, e.dst) for e in store.edges()}


def write_all(store: SQLiteStore, clock: StepClock, limit: int) -> list[str]:
    verdicts = []
    for result in recheck(store, ScriptedLLM(), Policy(), clock, limit):
        now = clock.now()
        ops = journaled(list(result.ops), now)
        store.write(Batch.of(make_id("batch", "recheck", result.version_id), now, ops))
        verdicts.append(f"{result.verdict} {result.src}")
    return verdicts


def test_only_the_weak_edge_among_those_judged_is_invalidated(world: SQLiteStore, clock: StepClock) -> None:
    verdicts = write_all(world, clock, 3)
    assert verdicts == ["invalidate backpropagation", "keep neural-network", "keep linear-algebra"]
    active = {(e.src, e.dst) for e in world.edges()}
    assert ("backpropagation", "calculus") not in active
    assert ("gradient-descent", "k-means") in active  # as weak, but not among the 3 most recent: untouched
    closed = next(v for v in world.edge_versions() if v.src == "backpropagation")
    assert (
        closed.status == "invalidated" and closed.expired_at and closed.invalid_at and closed.invalidated_by
    )
    decision = next(d for d in world.decisions() if d.id == closed.invalidated_by)
    assert decision.stage == "recheck" and decision.score is not None and decision.score < 0.5
    assert "now scores" in decision.rationale and decision.detail["version_id"] == closed.version_id
    assert len(world.edge_versions()) == 4 and verify_store(world) == []
    kept = [d for d in world.decisions() if d.stage == "recheck" and d.verdict == "keep"]
    assert len(kept) == 2 and all(d.score is not None and d.score >= 0.5 for d in kept)


def test_a_judge_failure_keeps_the_edge(world: SQLiteStore, clock: StepClock) -> None:
    llm = ScriptedLLM({"judge": "not json"})
    (result,) = list(recheck(world, llm, Policy(), clock, 1))
    assert result.verdict == "void" and "unusable" in result.reason
    assert [op.op for op in result.ops] == ["expect_active", "record_decision"]  # the edge is kept


def test_the_command(world: SQLiteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_magg(["recheck", "--limit", "2", "--db", on_disk(world, tmp_path / "r.sqlite"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert report["rechecked"] == 2 and report["counts"]["invalidate"] == 1
    assert all(edge["written"] for edge in report["edges"])


def test_a_score_just_below_the_bar_is_not_said_to_equal_it(world: SQLiteStore, clock: StepClock) -> None:
    # Under reject_below = 1.0 a score of 0.996 read "now scores 1.00 < 1.00" (found by a hostile run).
    llm = ScriptedLLM({"judge": lambda _: {"reasoning": "nearly", "score": 0.996, "verdict": "reject"}})
    found = next(recheck(world, llm, Policy(commit_at=1.0, reject_below=1.0), clock, 1))
    assert found.verdict == "invalidate" and found.reason.startswith("now scores 0.9960 < 1.00")
