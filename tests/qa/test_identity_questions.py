"""Whether two things are one ("Is X the same as Y?", "Are X and Y the same?") asks how they relate:
a relation question over the two, answered with a sentence naming both and what each one is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.differences import asks_apart
from agents.offline.handlers import offline_handlers
from agents.question_types import classify
from governance.graph_answer import answer_by_graph, names_from
from governance.qa import answer_routed
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import own, seed

LLM = OfflineLLM(offline_handlers())
EDGES = [  # linear algebra -> neural network -> transformer <- attention (a part)
    ("linear-algebra", "prerequisite", "neural-network"),
    ("neural-network", "prerequisite", "transformer"),
    ("attention", "part_of", "transformer"),
]


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    seed(store, clock, [(s, t, d, "Attention is related to transformers.") for s, t, d in EDGES])
    own(store, clock, {"d-math": ("linear-algebra", "neural-network")})
    yield build_graph_index(store)
    store.close()


KEYS = {"heap": "heap", "binary tree": "tree", "priority queue": "pq", "merge sort": "ms"}


@pytest.mark.parametrize(
    "question",
    [
        "Is a heap the same as a priority queue?",
        "Is a heap the same thing as a binary tree?",
        "Are heaps and priority queues the same?",
        "Are a heap and a binary tree really the same thing?",
        "Is a heap identical to a priority queue?",
        "Is a heap equivalent to a binary tree?",
        "Is heap just another name for priority queue?",
        "Is a heap not the same as a binary tree?",
    ],
)
def test_an_identity_question_asks_how_the_two_relate(question: str) -> None:
    found = classify(question, KEYS)
    assert found.type == "relation" and sorted(found.concepts) in (["heap", "pq"], ["heap", "tree"])


def test_a_side_the_graph_lacks_is_named_unknown() -> None:
    found = classify("Is a heap the same as a treap?", KEYS)
    assert found.type == "relation" and found.concepts == ["heap"] and found.unknown == ["treap"]


def test_the_same_thing_of_a_third_is_no_identity() -> None:
    # "the same" of something else, or alone with one name, asks no identity of two named things
    assert classify("Does merge sort give the same output as before?", KEYS).type != "relation"
    assert classify("Is a heap always the same?", KEYS).type != "relation"


def test_whether_two_are_one_is_answered_by_an_edge_that_joins_them_not_by_a_chain(graph: GraphIndex) -> None:
    touching, names = graph.touching(), names_from(graph.concepts)
    ends = ["linear-algebra", "attention"]  # a chain of three steps, each orders or contains
    (chain,) = answer_by_graph("relation", ends, False, lambda c: touching.get(c, ()), names)
    (one,) = answer_by_graph("relation", ends, False, lambda c: touching.get(c, ()), names, direct=True)
    assert chain.covered and chain.path and not one.covered and not one.path and not one.edges
    joined = ["attention", "transformer"]
    (edge,) = answer_by_graph("relation", joined, False, lambda c: touching.get(c, ()), names, direct=True)
    assert edge.covered and edge.edges


def test_an_identity_question_reads_what_the_lessons_say_of_both(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, "Is linear algebra the same as attention?", {})
    assert "through:" not in result.answer and "neural network" not in result.answer.lower()
    assert "The graph does not cover how Linear algebra relates to Attention" in result.answer


def test_an_identity_question_asks_how_the_two_differ() -> None:
    assert asks_apart("Is a heap identical to a priority queue?")
    assert asks_apart("Is heap just another name for priority queue?")


def test_of_two_sentences_naming_both_the_one_saying_they_are_equivalent_comes_first() -> None:
    # "Is A the same as B?": "minimizing A is equivalent to B" says how they stand, before a sentence
    # that only uses "the same" of a third thing
    from agents.answer_spans import Excerpt
    from agents.together import said_together

    lesson = Excerpt(
        "c-1",
        "Losses",
        "We will rely on hinge loss, the same tool we met when we justified the margin. "
        "Minimizing the hinge loss is equivalent to maximizing the margin of the classifier.",
    )
    said = said_together(
        "Is minimizing hinge loss the same as maximizing the margin?", [lesson], ["hinge loss", "margin"]
    )
    assert said == (
        "c-1",
        "Minimizing the hinge loss is equivalent to maximizing the margin of the classifier.",
    )
