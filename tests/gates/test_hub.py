"""A hub of the course: the gate never commits a claim whose only ground is that a concept most
lessons name ("AI", "LLM", "neural network") appears in one sentence with another. A quote that
states the relation, or a name that says it, lets the claim through."""

from __future__ import annotations

import pytest

from agents.judge import Claim
from agents.support import GraphView
from governance.claims import HUB_MIN_LESSONS, HUB_SHARE, build_claim, hub_comention
from governance.graph_state import GraphState
from governance.judgment import Judgment
from magg_kg.builders import propose
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import AddLesson, Batch, RecordDecision
from magg_kg.records import Concept, Span
from magg_kg.sqlite import SQLiteStore

from .test_conflict import judge_scoring
from .world import seed

AT = "2026-01-01T00:00:00.000000Z"
LESSON = "lesson-h"
TEXT = (
    "The attention weights and the neural network are drawn in one diagram. "
    "Attention is a part of the neural network. "
    "A recurrent neural network and the neural network share their training loop. "
)
LESSONS = 12


def view_of(hub_lessons: int) -> GraphView:
    """A course of :data:`LESSONS` lessons; "neural-network" is named by ``hub_lessons`` of them,
    "attention" and "recurrent-neural-network" by two."""
    names = {
        "neural-network": "neural network",
        "attention": "attention",
        "recurrent-neural-network": "recurrent neural network",
    }
    view = GraphView([Concept(id=c, name=n, type="concept", recorded_at=AT) for c, n in names.items()], [])
    for i in range(LESSONS):
        linked = ["neural-network"] if i < hub_lessons else []
        linked += ["attention", "recurrent-neural-network"] if i < 2 else []
        view.add_lesson(f"l{i}@{i:012x}", linked)
    return view


def claim_of(view: GraphView, src: str, type_: str, dst: str, quote: str, kind: str = "implicit") -> Claim:
    start = TEXT.index(quote)
    evidence = [Span(lesson_id=LESSON, start=start, end=start + len(quote), quote=quote, kind=kind)]  # type: ignore[arg-type]
    proposal = propose(
        src, type_, dst, context=("t",), origin="ingest", confidence=0.8, evidence=evidence,
        created_at=AT, lesson_id=LESSON,
    )  # fmt: skip
    return build_claim(view, proposal, evidence)


COMENTION = "The attention weights and the neural network are drawn in one diagram."


def test_a_co_mention_of_a_hub_is_named_as_such() -> None:
    claim = claim_of(view_of(8), "attention", "related", "neural-network", COMENTION)
    assert claim.support.lessons == LESSONS and claim.support.together[1] == 8
    assert hub_comention(claim) == (
        "'neural network' is named by 8 of the 12 lessons, and the quotes only name the two together"
    )


@pytest.mark.parametrize(
    ("hub_lessons", "expected"),
    [(int(HUB_SHARE * LESSONS) + 1, True), (int(HUB_SHARE * LESSONS), False), (2, False)],
)
def test_a_hub_is_a_concept_a_large_share_of_the_lessons_name(hub_lessons: int, expected: bool) -> None:
    claim = claim_of(view_of(hub_lessons), "attention", "related", "neural-network", COMENTION)
    assert bool(hub_comention(claim)) is expected


def test_a_concept_few_lessons_name_is_no_hub_whatever_its_share() -> None:
    names = {"neural-network": "neural network", "attention": "attention"}
    small = GraphView([Concept(id=c, name=n, type="concept", recorded_at=AT) for c, n in names.items()], [])
    for i in range(HUB_MIN_LESSONS - 1):
        small.add_lesson(f"l{i}@{i:012x}", ["neural-network", "attention"])
    assert hub_comention(claim_of(view_of(LESSONS), "attention", "related", "neural-network", COMENTION))
    assert not hub_comention(claim_of(small, "attention", "related", "neural-network", COMENTION))


def test_a_quote_that_states_the_relation_or_a_name_that_says_it_is_no_mere_co_mention() -> None:
    view = view_of(LESSONS)
    stated = "Attention is a part of the neural network."
    assert not hub_comention(claim_of(view, "attention", "part_of", "neural-network", stated))
    assert not hub_comention(claim_of(view, "attention", "related", "neural-network", COMENTION, "explicit"))
    kind = "A recurrent neural network and the neural network share their training loop."
    assert not hub_comention(claim_of(view, "recurrent-neural-network", "related", "neural-network", kind))


@pytest.mark.parametrize(("hub_lessons", "state"), [(LESSONS, "abstained"), (2, "committed")])
def test_the_gate_leaves_a_co_mention_of_a_hub_open_where_it_would_commit(
    hub_lessons: int, state: str, store: SQLiteStore, clock: StepClock
) -> None:
    seed(store, clock)
    now = clock.now()
    lesson = AddLesson(
        id=LESSON, lesson_key="h", title="H", sha256="1" * 64, source_path="h.md", text=TEXT, ingested_at=now
    )
    store.write(Batch.of(make_id("batch", "lesson", now), now, journaled([lesson], now)))
    view = GraphView.of_store(store)
    for i in range(LESSONS):
        view.add_lesson(
            f"l{i}@{i:012x}", (["neural-network"] if i < hub_lessons else []) + ["attention"] * (i < 2)
        )
    gate = Judgment(judge_scoring({}), Policy(), clock, store, graph=GraphState(view))
    claim = claim_of(view, "attention", "related", "neural-network", COMENTION)
    settled = gate.settle(propose(
        "attention", "related", "neural-network", context=("t",), origin="ingest", confidence=0.8,
        evidence=claim.evidence, created_at=AT, lesson_id=LESSON,
    ))  # fmt: skip
    decisions = [op for op in settled.ops if isinstance(op, RecordDecision)]
    assert settled.state == state
    assert ("left open, a co-mention of a hub of the course" in decisions[-1].rationale) is (
        state == "abstained"
    )
