"""Conflicts: a proposal that contradicts active edges or would close a cycle with them is weighed
against them on neutral ground; when it is one the judge would commit and outscores the weakest of
them, a person settles it (quarantine), and approving it closes that edge (never deleted)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pytest

from agents.judge import TASK as JUDGE_TASK
from governance.admission import AdmissionContext, admit
from governance.conflict import settle_conflict
from governance.domains import Layout
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.review import approve
from magg_kg.builders import proposal_op
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.llm.port import Prompt
from magg_kg.operations import EnqueueReview, InvalidateEdge, Operation, RecordDecision
from magg_kg.records import Proposal, Triple
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

from .world import CHAIN, ScriptedLLM, proposal, seed, span, write

# The chain linear algebra -> neural network -> transformer is active; the proposal would close a
# cycle with it. Its quote is one of the lesson's sentences (what the judge is shown is scripted).
CLOSING = ("transformer", "prerequisite", "linear-algebra")


def judge_scoring(scores: Mapping[tuple[str, str], float]) -> ScriptedLLM:
    """A judge that scores each claim by its (src, dst), 0.95 when not given."""

    def reply(prompt: Prompt) -> dict[str, object]:
        claim = prompt.payload["proposal"]
        assert isinstance(claim, dict)
        score = scores.get((str(claim["src"]), str(claim["dst"])), 0.95)
        verdict = "commit" if score >= 0.8 else "reject" if score < 0.5 else "uncertain"
        return {"reasoning": "scripted", "score": score, "verdict": verdict}

    return ScriptedLLM({JUDGE_TASK: reply})


def closing_proposal() -> Proposal:
    return proposal(*CLOSING, [span("Transformers build on attention.")])


@pytest.fixture
def chained(store: SQLiteStore, clock: StepClock) -> SQLiteStore:
    seed(store, clock, CHAIN)
    return store


def weigh(
    store: SQLiteStore, clock: StepClock, scores: Mapping[tuple[str, str], float]
) -> tuple[Judgment, list[Operation]]:
    judgment = Judgment(judge_scoring(scores), Policy(), clock, store)
    triples = judgment.graph.rules.conflicting(*CLOSING)
    return judgment, settle_conflict(judgment, store, Policy(), clock, closing_proposal(), triples)


def test_the_rules_name_the_edges_of_the_cycle_and_the_edge_contradicted(chained: SQLiteStore) -> None:
    rules = GraphState.of_store(chained).rules
    assert rules.check(*CLOSING).rule == "acyclic"
    assert rules.conflicting(*CLOSING) == [
        ("linear-algebra", "prerequisite", "neural-network"),
        ("neural-network", "prerequisite", "transformer"),
    ]
    assert rules.conflicting("transformer", "prerequisite", "neural-network") == [
        ("neural-network", "prerequisite", "transformer")
    ]
    assert rules.conflicting("attention", "prerequisite", "transformer") == []


def test_a_proposal_outscoring_the_weakest_link_goes_to_a_person_who_may_close_that_edge(
    chained: SQLiteStore, clock: StepClock
) -> None:
    judgment, ops = weigh(chained, clock, {("neural-network", "transformer"): 0.7, CLOSING[::2]: 0.9})
    decision, queued = ops
    assert isinstance(decision, RecordDecision) and isinstance(queued, EnqueueReview)
    weakest = chained.active_edge("neural-network", "prerequisite", "transformer")
    assert weakest is not None and decision.detail["weakest"] == weakest.version_id
    assert (decision.stage, decision.verdict, decision.state_after, decision.score) == (
        "conflict",
        "quarantine",
        "quarantined",
        0.9,
    )
    assert "neural-network prerequisite transformer, which scores 0.70" in decision.rationale
    # Nothing is closed without a person: the graph still holds the edge.
    assert judgment.graph.rules.check(*CLOSING).rule == "acyclic"
    write(chained, clock, [proposal_op(closing_proposal()), *ops])
    approved = approve(chained, clock, Policy(), closing_proposal().id, "ada")
    write(chained, clock, approved)
    assert [type(op).__name__ for op in approved] == [
        "RecordDecision",
        "InvalidateEdge",
        "RecordDecision",
        "CommitEdge",
    ]
    assert chained.active_edge("neural-network", "prerequisite", "transformer") is None
    closed = chained.edge_version(weakest.version_id)
    assert closed is not None and closed.status == "invalidated"  # closed, never deleted
    assert chained.active_edge(*CLOSING) is not None
    assert chained.active_edge("linear-algebra", "prerequisite", "neural-network") is not None
    assert verify_store(chained) == []


@pytest.mark.parametrize(
    "scores",
    [
        {CLOSING[::2]: 0.9},  # every edge of the cycle outscores the proposal
        {("neural-network", "transformer"): 0.7, CLOSING[::2]: 0.75},  # the judge would not commit it
        {("neural-network", "transformer"): 0.9, CLOSING[::2]: 0.9},  # a tie keeps the edge
    ],
)
def test_the_edges_hold_against_a_proposal_that_does_not_outscore_them(
    chained: SQLiteStore, clock: StepClock, scores: Mapping[tuple[str, str], float]
) -> None:
    judgment, ops = weigh(chained, clock, scores)
    assert ops == []
    assert judgment.graph.rules.check(*CLOSING).rule == "acyclic"
    assert judgment.graph.is_active("neural-network", "prerequisite", "transformer")


def admission(store: SQLiteStore, clock: StepClock, weighed: bool) -> AdmissionContext:
    """An admission over the store's graph (no gate), weighing conflicts or not."""
    judgment = Judgment(judge_scoring({("neural-network", "transformer"): 0.7}), Policy(), clock, store)

    def contest(candidate: Proposal, triples: Sequence[Triple]) -> list[Operation]:
        return settle_conflict(judgment, store, Policy(), clock, candidate, triples)

    return AdmissionContext(
        llm=judge_scoring({}),
        graph=judgment.graph,
        layout=Layout(domains=()),
        policy=Policy(),
        clock=clock,
        names=lambda c: [c],
        contest=contest if weighed else None,
    )


def test_admission_weighs_a_conflict_and_quarantines_a_proposal_that_outscores_an_edge(
    chained: SQLiteStore, clock: StepClock
) -> None:
    result = admit([closing_proposal()], admission(chained, clock, weighed=True), "batch-1")
    stages = [(op.stage, op.verdict) for op in result.ops if isinstance(op, RecordDecision)]
    assert stages == [("conflict", "quarantine")]
    assert result.states[closing_proposal().id] == "quarantined"
    assert not any(isinstance(op, InvalidateEdge) for op in result.ops)
    # Without weighing, the same proposal is refused by the rule, as before.
    refused = admit([closing_proposal()], admission(chained, clock, weighed=False), "batch-2").ops
    assert [(op.stage, op.verdict) for op in refused if isinstance(op, RecordDecision)] == [
        ("rules", "fail:acyclic")
    ]
