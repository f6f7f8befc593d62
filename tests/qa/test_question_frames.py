"""Open questions that a cue word inside them does not make relation questions (learners' questions
on the genai and d2l courses)."""

from __future__ import annotations

import pytest

from agents.question_types import classify
from agents.text import lexicon
from tests.gates.world import CONCEPTS

KEYS = lexicon([(cid, [name]) for cid, (name, _, _) in CONCEPTS.items()])


@pytest.mark.parametrize(
    ("question", "kind", "concepts"),
    [
        # A why or how question about doing something: "before", "after", "need" and "pieces" in it
        # say when or of what. genai "Why do we split documents into chunks before making embeddings
        # for RAG?" said "The graph does not cover what comes before embedding.", d2l "Why do I need a
        # validation set if I already have a test set?" what comes before the validation set.
        ("Why do we normalize the data before training a neural network?", "open", ["neural-network"]),
        (
            "Why do I need gradient descent if I already have backpropagation?",
            "open",
            ["gradient-descent", "backpropagation"],
        ),
        ("How does attention tell me if two pieces of text mean similar things", "open", ["attention"]),
        # What something does, after another step: not what builds on the step.
        ("What does attention do after the embedding step?", "open", ["attention"]),
        # "the next word" is a word in a sequence, not what to learn next.
        ("When a transformer writes a reply, is it just predicting the next word?", "open", ["transformer"]),
        # Whether one is a kind of the other, or they build on each other: how the two relate.
        (
            'Are "attention" and "transformer" the same thing, or is one a kind of the other?',
            "relation",
            ["attention", "transformer"],
        ),
        ("Do attention and transformers build on each other?", "relation", ["attention", "transformer"]),
        # Whether one is the same thing as another, asked alone, is read as before: what the lessons say.
        ("Is attention the same thing as transformers?", "open", ["attention", "transformer"]),
        # Read as before: the one asking prepares or does; the next thing is what is asked.
        ("What do I do after calculus?", "unlocks", ["calculus"]),
        ("What is the next topic after calculus?", "unlocks", ["calculus"]),
        ("What should I learn next, after calculus?", "unlocks", ["calculus"]),
        ("Do attention and transformers belong to the same family?", "part_of", ["attention", "transformer"]),
    ],
)
def test_a_cue_word_in_a_question_of_doing_asks_no_relation(
    question: str, kind: str, concepts: list[str]
) -> None:
    found = classify(question, KEYS)
    assert (found.type, found.concepts) == (kind, concepts)
