"""A question that asks for an example of a concept reads first the chunks that teach it."""

from __future__ import annotations

from typing import cast

import pytest

from agents.illustrations import asks_example
from governance.question_forms import defined
from magg_kg.graph_index import GraphIndex

ASKED = [
    "Could you walk me through beam search with an example?",
    "show me an example of a bloom filter",
    "example of gradient clipping?",
    "What's a simple example of a hash join?",
]


@pytest.mark.parametrize("question", ASKED)
def test_a_question_asking_for_an_example_reads_where_the_concept_is_taught(question: str) -> None:
    # genai: "Can you explain chain of thought prompting with an example?" read the chunks that share
    # "explain" ("... you ask it to explain various parts of the answer", of maieutic prompting)
    # before the section that teaches chain-of-thought and shows its example.
    assert asks_example(question)
    assert list(defined(cast(GraphIndex, object()), question, ["c-1"])) == ["c-1"]


@pytest.mark.parametrize(
    "question",
    [
        "For example, how does a bloom filter work?",
        "How many examples does beam search need?",
        "Why clip?",
        # d2l: "Give me some examples of image augmentation" quoted the definition of image
        # augmentation, not "images can be flipped horizontally at random": several asked for are
        # the things of the kind, listed where the lesson shows them.
        "Give me some examples of image augmentation",
        "examples of gradient clipping?",
    ],
)
def test_an_example_given_or_counted_or_examples_asked_read_no_teaching_chunk_first(question: str) -> None:
    assert not asks_example(question)
