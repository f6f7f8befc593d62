"""A why asked in other words: "What's the point of splitting documents into chunks before embedding
them?" (genai) was read as asking what comes before embedding, and answered 'The graph does not cover
what comes before embedding.'; "before embedding them" says when the splitting is done, as it does in
"Why do we split documents into chunks before making embeddings?"."""

from __future__ import annotations

from agents.question_frames import of_doing
from agents.question_types import classify

KEYS = {"embedding": "embedding", "embeddings": "embedding", "chunking": "chunking"}


def test_what_the_point_of_doing_something_is_asks_why() -> None:
    asked = "What's the point of splitting documents into chunks before embedding them?"
    assert of_doing(asked) and of_doing("What is the purpose of chunking before embedding?")
    assert classify(asked, KEYS).type == "open"
    assert classify("Why do we split documents into chunks before making embeddings?", KEYS).type == "open"


def test_what_comes_before_a_concept_is_still_an_order_question() -> None:
    assert classify("What should I learn before embedding?", KEYS).type != "open"
