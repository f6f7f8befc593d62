"""The type of a question follows its grammar: what the wh-word asks, whose need a "need to know"
is, and what "parts of" or "kinds of" is said of."""

from __future__ import annotations

import pytest

from agents.question_types import classify

KEYS = {
    "pooling layer": "pool",
    "stride": "stride",
    "dropout": "drop",
    "attention": "att",
    "policy gradient": "pg",
    "policy gradients": "pg",
    "transformer": "tr",
    "softmax": "soft",
}


@pytest.mark.parametrize(
    "question",
    ["What stride does a pooling layer use?", "Which stride and window width does a pooling layer use?"],
)
def test_a_wh_word_before_a_noun_asks_a_value_of_what_is_used_not_what_comes_before(question: str) -> None:
    assert classify(question, KEYS).type == "open"


def test_what_a_concept_uses_asked_bare_is_still_what_it_builds_on() -> None:
    assert classify("What does attention use?", KEYS).type == "prerequisites"


def test_what_a_method_needs_to_know_is_no_question_of_learning_order() -> None:
    assert classify("Does dropout need to know the labels of the softmax?", KEYS).type != "prerequisites"
    assert classify("What do I need to know before attention?", KEYS).type == "prerequisites"


def test_parts_named_by_a_concept_are_sections_about_it_not_its_parts() -> None:
    found = classify("What should I read before the attention parts?", KEYS)
    assert (found.type, found.concepts) == ("prerequisites", ["att"])


def test_the_parts_of_something_used_in_a_concept_are_not_the_parts_of_the_concept() -> None:
    assert classify("What are the parts of the reward in policy gradients?", KEYS).type == "open"
    assert classify("What are the parts of a transformer?", KEYS).type == "parts"
    assert classify("What kinds of attention are there?", KEYS).type == "parts"
