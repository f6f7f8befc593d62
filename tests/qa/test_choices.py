"""Questions of choosing, deciding or doing that a cue word inside them does not make questions of
learning order (learners' questions on the genai and d2l courses): a cue word governs a concept only
in a question of what to learn."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents import qa
from agents.question_types import classify
from agents.text import lexicon
from governance.qa import answer_routed
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import CHAIN, CONCEPTS, ScriptedLLM, own, seed

KEYS = lexicon([(cid, [name]) for cid, (name, _, _) in CONCEPTS.items()])


@pytest.mark.parametrize(
    ("question", "kind", "concepts", "unknown"),
    [
        # What to know before the course itself is where to start: d2l "How much linear algebra and
        # calculus do I need before starting this book?" said "... what comes before linear algebra."
        ("How much linear algebra and calculus do I need before starting this book?", "start", [], []),
        # Read as before: a name besides the course is what is asked of, not where to start;
        ("Do I need Python before this course?", "open", [], []),
        # what comes before a concept, even one that is started.
        ("What should I learn before starting transformers?", "prerequisites", ["transformer"], []),
    ],
)
def test_a_question_of_choosing_or_doing_asks_no_learning_order(
    question: str, kind: str, concepts: list[str], unknown: list[str]
) -> None:
    found = classify(question, KEYS)
    assert (found.type, found.concepts, found.unknown) == (kind, concepts, unknown)


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=0.001)
    seed(store, clock, CHAIN)
    own(store, clock, {"d-models": ("linear-algebra", "neural-network", "transformer")})
    yield build_graph_index(store)
    store.close()


def test_what_to_know_before_the_course_is_answered_with_where_to_start(graph: GraphIndex) -> None:
    llm = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(llm, graph, "How much linear algebra do I need before starting this book?", {})
    assert result.answer.startswith("Start with: Linear algebra")
