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


KEYS_MORE = {
    **KEYS,
    "batch normalization": "bn",
    "momentum": "mom",
    "beam search": "beam",
    "word embedding": "emb",
    "fairness": "fair",
}


@pytest.mark.parametrize(
    "question",
    [
        "In the batch normalization chapter, why do they use a running mean at test time?",
        "When people use momentum, what value of beta is typical?",
        "Which fairness rules does this book use?",
        "What are the fairness criteria the lessons use?",
        "Which chapters use beam search?",
    ],
)
def test_use_said_of_people_or_of_the_course_asks_of_usage_not_what_builds_on_what(question: str) -> None:
    assert classify(question, KEYS_MORE).type == "open"


@pytest.mark.parametrize(
    "question",
    [
        "How much momentum do I need so that training stops oscillating?",
        "How many attention heads do we need to reach a good score?",
    ],
)
def test_how_much_or_how_many_is_needed_asks_a_quantity_not_what_to_learn(question: str) -> None:
    assert classify(question, KEYS_MORE).type == "open"


def test_steps_of_a_method_ask_for_its_procedure_not_its_parts() -> None:
    assert classify("What are the steps of beam search over a long sentence?", KEYS_MORE).type == "open"
    assert classify("Which steps are involved in batch normalization?", KEYS_MORE).type == "open"


def test_a_concept_named_only_in_a_setting_put_in_front_is_no_subject_of_a_graph_question() -> None:
    question = "For momentum, with beta 0.9 and a gradient of 1, what are the velocities?"
    assert classify(question, KEYS_MORE).type == "open"


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("What should I learn before attention?", "prerequisites"),
        ("What is part of a transformer?", "parts"),
        ("What builds on attention?", "unlocks"),
        ("What uses attention?", "unlocks"),
        ("What does the transformer use?", "prerequisites"),
        ("How much do I need to know before attention?", "prerequisites"),
        ("How much linear algebra do I need to know for a transformer?", "prerequisites"),
        ("For a transformer, what should I learn first?", "prerequisites"),
        ("What are the parts of a transformer?", "parts"),
    ],
)
def test_a_graph_question_keeps_its_type(question: str, kind: str) -> None:
    assert classify(question, KEYS_MORE).type == kind


@pytest.mark.parametrize(
    "question",
    [
        "In the momentum example, why does the optimizer use a decaying average?",
        "In the batch normalization section, which statistics does the layer use?",
        "In practice, why does dropout use a mask?",
    ],
)
def test_a_question_after_a_setting_put_in_front_is_read_as_it_opens(question: str) -> None:
    assert classify(question, KEYS_MORE).type == "open"
