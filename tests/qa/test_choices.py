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
from magg_kg.graph_index import GraphIndex
from tests.gates.world import CHAIN, CONCEPTS, ScriptedLLM, owned_graph

KEYS = lexicon([(cid, [name]) for cid, (name, _, _) in CONCEPTS.items()])


@pytest.mark.parametrize(
    ("question", "kind", "concepts", "unknown"),
    [
        # A choice between two options to learn: d2l "Should I learn PyTorch or JAX for deep learning?"
        # said "The graph does not cover JAX. The graph does not cover what comes before PyTorch."
        (
            "Should I learn transformers or JAX for neural networks?",
            "open",
            ["transformer", "neural-network"],
            [],
        ),
        # One act against another: genai "When would I use a prebuilt AI Builder model vs training a
        # custom one?" said "The graph does not cover training a custom one."
        ("When would I use a prebuilt transformer vs training a custom one?", "open", ["transformer"], []),
        # "Before" an act of deciding: genai "What should I figure out before deciding to fine-tune an
        # LLM?" said "Learn before Large Language Models: Encoder-Decoder."
        ("What should I figure out before deciding to fine-tune a transformer?", "open", ["transformer"], []),
        # Also after "What should I know", which asks what to learn in any other question.
        ("What should I know before deciding to train a transformer?", "open", ["transformer"], []),
        # Whether the one asking can do something: genai "Can I fine-tune a Llama model with LoRA on a
        # single consumer GPU?" said "The graph does not cover what builds on GPU."
        (
            "Can I fine-tune a Llama model with LoRA on a single neural network?",
            "open",
            ["neural-network"],
            [],
        ),
        # What to know before the course itself is where to start: d2l "How much linear algebra and
        # calculus do I need before starting this book?" said "... what comes before linear algebra."
        ("How much linear algebra and calculus do I need before starting this book?", "start", [], []),
        # Read as before: a name besides the course is what is asked of, not where to start;
        ("Do I need Python before this course?", "open", [], []),
        # which comes first, what comes before a concept, even one that is started.
        ("Should I learn transformers or attention first?", "which_first", ["transformer", "attention"], []),
        ("What should I learn before starting transformers?", "prerequisites", ["transformer"], []),
        (
            "What should I learn before attention or transformers?",
            "prerequisites",
            ["attention", "transformer"],
            [],
        ),
        (
            "Should I learn calculus before neural networks?",
            "which_first",
            ["calculus", "neural-network"],
            [],
        ),
        ("Transformers vs neural networks?", "relation", ["transformer", "neural-network"], []),
        ("Is it better to start with calculus or attention?", "which_first", ["calculus", "attention"], []),
        (
            "Could you give us a curriculum that takes us from calculus to transformers?",
            "path",
            ["calculus", "transformer"],
            [],
        ),
    ],
)
def test_a_question_of_choosing_or_doing_asks_no_learning_order(
    question: str, kind: str, concepts: list[str], unknown: list[str]
) -> None:
    found = classify(question, KEYS)
    assert (found.type, found.concepts, found.unknown) == (kind, concepts, unknown)


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    with owned_graph(CHAIN, {"d-models": ("linear-algebra", "neural-network", "transformer")}) as built:
        yield built


def test_what_to_know_before_the_course_is_answered_with_where_to_start(graph: GraphIndex) -> None:
    llm = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(llm, graph, "How much linear algebra do I need before starting this book?", {})
    assert result.answer.startswith("Start with: Linear algebra")


def test_a_choice_between_two_options_is_not_asked_what_comes_before_them(graph: GraphIndex) -> None:
    llm = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(llm, graph, "Should I learn transformers or JAX for neural networks?", {})
    assert [s["type"] for s in result.sub_questions] == ["open"]
    assert "what comes before" not in result.answer and "does not cover JAX" not in result.answer
