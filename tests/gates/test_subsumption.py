"""One edge a pair: a ``related`` edge beside a typed one between the same two concepts."""

from __future__ import annotations

from agents.judge import score_band
from governance.judgment import Judgment
from governance.review import approve
from governance.stages import Settled
from magg_kg.builders import proposal_op
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.operations import CommitEdge, InvalidateEdge, RecordDecision
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

from .world import CHAIN, ScriptedLLM, closing_decision, proposal, seed, seeded_edge, span, write

POLICY = Policy()


def judged(score: float) -> ScriptedLLM:
    verdict = score_band(score, POLICY.commit_at, POLICY.reject_below)
    return ScriptedLLM(
        {"judge": lambda _prompt: {"reasoning": "scripted", "score": score, "verdict": verdict}}
    )


def gate(store: SQLiteStore, clock: StepClock) -> Judgment:
    return Judgment(judged(0.9), POLICY, clock, store)


def settled_and_written(store: SQLiteStore, clock: StepClock, *settled: tuple[object, Settled]) -> None:
    ops = [op for claim, done in settled for op in (proposal_op(claim), *done.ops)]  # type: ignore[arg-type]
    write(store, clock, ops)
    assert verify_store(store) == []


def test_a_related_claim_beside_a_typed_edge_stays_open(store: SQLiteStore, clock: StepClock) -> None:
    seed(store, clock, CHAIN)  # neural networks are a prerequisite for transformers
    quote = "Neural networks are a prerequisite for transformers."
    claim = proposal("neural-network", "related", "transformer", [span(quote, "implicit")])
    settled = gate(store, clock).settle(claim)
    assert settled.state == "abstained"
    assert not any(isinstance(op, CommitEdge) for op in settled.ops)
    last = [op for op in settled.ops if isinstance(op, RecordDecision)][-1]
    assert last.verdict == "subsumed" and "neural-network prerequisite transformer" in last.rationale
    settled_and_written(store, clock, (claim, settled))
    # Another pair, with no typed edge between them, commits as before.
    other = proposal("attention", "related", "transformer", [span("Attention is related to transformers.")])
    assert gate(store, clock).settle(other).state == "committed"


def test_committing_a_typed_edge_closes_the_related_edge_beside_it(
    store: SQLiteStore, clock: StepClock
) -> None:
    seed(store, clock, CHAIN)
    write(
        store,
        clock,
        seeded_edge(
            "attention", "related", "transformer", "Attention is related to transformers.", clock.now()
        ),
    )
    related = store.active_edge("attention", "related", "transformer")
    assert related is not None
    claim = proposal("transformer", "builds_on", "attention", [span("Transformers build on attention.")])
    settled = gate(store, clock).settle(claim)
    assert settled.state == "committed"
    closed = [op for op in settled.ops if isinstance(op, InvalidateEdge)]
    assert [op.version_id for op in closed] == [related.version_id]
    settled_and_written(store, clock, (claim, settled))
    assert store.active_edge("attention", "related", "transformer") is None
    assert store.active_edge("transformer", "builds_on", "attention") is not None
    version = store.edge_version(related.version_id)
    assert version is not None and version.status == "invalidated"  # closed, never deleted
    closing = next(
        op for op in settled.ops if isinstance(op, RecordDecision) and op.id == version.invalidated_by
    )
    assert closing.stage == "subsume" and "transformer builds_on attention" in closing.rationale


def test_a_related_edge_a_person_committed_is_left_alone(store: SQLiteStore, clock: StepClock) -> None:
    seed(store, clock, CHAIN)
    edge = seeded_edge(
        "attention", "related", "transformer", "Attention is related to transformers.", clock.now(), "human"
    )
    write(store, clock, edge)
    claim = proposal("transformer", "builds_on", "attention", [span("Transformers build on attention.")])
    settled = gate(store, clock).settle(claim)
    assert settled.state == "committed"
    assert not any(isinstance(op, InvalidateEdge) for op in settled.ops)
    settled_and_written(store, clock, (claim, settled))
    assert store.active_edge("attention", "related", "transformer") is not None


def test_a_batch_that_commits_both_keeps_the_typed_edge(store: SQLiteStore, clock: StepClock) -> None:
    # A lesson gives both: its batch is written after the gate settled every proposal, so the
    # related edge the typed one closes is not in the store yet when the gate closes it.
    seed(store, clock, CHAIN)
    judgment = gate(store, clock)
    related = proposal("attention", "related", "transformer", [span("Attention is related to transformers.")])
    typed = proposal("transformer", "builds_on", "attention", [span("Transformers build on attention.")])
    first, second = judgment.settle(related), judgment.settle(typed)
    assert first.state == "committed" and second.state == "committed"
    assert any(isinstance(op, InvalidateEdge) for op in second.ops)
    settled_and_written(store, clock, (related, first), (typed, second))
    assert store.active_edge("attention", "related", "transformer") is None
    assert store.active_edge("transformer", "builds_on", "attention") is not None
    # A related claim of the same pair after them stays open.
    again = proposal(
        "attention", "related", "transformer", [span("Attention is related to transformers.", "implicit")]
    )
    assert gate(store, clock).settle(again).state == "abstained"


def test_a_typed_edge_a_person_approves_closes_the_related_edge_beside_it(
    store: SQLiteStore, clock: StepClock
) -> None:
    seed(store, clock, CHAIN)
    quote = "Calculus is a prerequisite for backpropagation."
    write(store, clock, seeded_edge("backpropagation", "related", "calculus", quote, clock.now()))
    related = store.active_edge("backpropagation", "related", "calculus")
    assert related is not None
    # A contested new prerequisite chain goes to a person.
    claim = proposal("calculus", "prerequisite", "backpropagation", [span(quote)])
    settled = Judgment(judged(0.65), POLICY, clock, store).settle(claim)
    assert settled.state == "quarantined"
    settled_and_written(store, clock, (claim, settled))
    approved = approve(store, clock, POLICY, claim.id, "ada")
    assert [op.version_id for op in approved if isinstance(op, InvalidateEdge)] == [related.version_id]
    write(store, clock, approved)
    assert verify_store(store) == []
    assert store.active_edge("calculus", "prerequisite", "backpropagation") is not None
    assert store.active_edge("backpropagation", "related", "calculus") is None
    closing = closing_decision(store, related.version_id)
    assert closing.stage == "subsume" and closing.model == "human"
