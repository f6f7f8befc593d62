"""A question that names what it asks about once and points back to it with a pronoun."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents import qa
from agents.clauses import pointing, resolved_clauses
from agents.question_types import classify
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from tests.gates.world import ScriptedLLM, owned_graph

EDGES = [
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("transformer", "builds_on", "attention", "Transformers build on attention."),
]
KEYS = {"transformer": "transformer", "transformers": "transformer", "attention": "attention"}


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    with owned_graph(EDGES, {"d-models": ("neural-network", "transformer", "attention")}) as built:
        yield built


def _subs(graph: GraphIndex, question: str) -> list[tuple[str, list[str]]]:
    result = answer_routed(ScriptedLLM(replies=dict(qa.offline_handlers())), graph, question, {})
    assert not result.answer.startswith("The question names no concept"), result.answer
    return [(str(s["text"]), list(s["concepts"])) for s in result.sub_questions]


def test_a_clause_that_points_back_is_asked_with_the_name_it_points_to(graph: GraphIndex) -> None:
    # "What is dropout and why is it useful?" (d2l) was one sub-question, "What is dropout, why is it
    # useful?", answered "Tikhonov: the lesson says ...": the span of neither question.
    assert _subs(graph, "What is attention and why is it useful?") == [
        ("What is attention?", ["attention"]),
        ("why is attention useful?", ["attention"]),
    ]
    assert _subs(graph, "How do transformers work, and what are their limits?") == [
        ("How do transformers work?", ["transformer"]),
        ("what are transformers' limits?", ["transformer"]),
    ]
    # A clause before that names two concepts leaves "it" open to either: read with it, as before.
    assert resolved_clauses(["Compare attention and transformers", "why is it used"], KEYS)[1] == (
        "why is it used"
    )


def test_a_name_the_graph_lacks_before_the_pronoun_is_what_it_points_to(graph: GraphIndex) -> None:
    # genai: "What is dropout and why is it useful?" and "Attention: how does it work?" (a graph
    # without those concepts) said "The question names no concept: nothing was asked before it ...".
    assert _subs(graph, "What is LoRA and why is it useful?") == [
        ("What is LoRA?", []),
        ("why is LoRA useful?", []),
    ]
    assert _subs(graph, "LoRA: how does it work?") == [("how does LoRA work?", [])]
    # Nothing before the pronoun's clause names anything: there is nothing to point back to.
    for alone in (
        "What problems does it solve?",
        "Thanks! What is it used for?",
        "One more question: why is it?",
    ):
        assert pointing(alone) == "it", alone


def test_a_pronoun_before_a_name_of_its_clause_points_back_past_it(graph: GraphIndex) -> None:
    # d2l: "What is mixed precision training and does it hurt accuracy?" asked "does it hurt
    # accuracy?" of the lessons on accuracy, and said the graph does not cover "does it hurt accuracy?".
    assert _subs(graph, "What is LoRA and does it slow down attention?")[1] == (
        "does LoRA slow down attention?",
        ["attention"],
    )
    assert _subs(graph, "What is attention and how is it used in transformers?")[1] == (
        "how is attention used in transformers?",
        ["attention", "transformer"],
    )
    # A pronoun after a name of its own clause may point to it: read as written.
    assert resolved_clauses(["What is attention", "how do transformers use it"], KEYS)[1] == (
        "how do transformers use it"
    )


def test_one_as_a_subject_points_back_to_a_name_written_with_a(graph: GraphIndex) -> None:
    # genai: "What's a small language model and can one run on a phone or edge device?" was one
    # sub-question, "What is a small language model, can one run on ...", that no lesson answers.
    assert _subs(graph, "What's a transformer and can one run on a phone?") == [
        ("What is a transformer?", ["transformer"]),
        ("can a transformer run on a phone?", ["transformer"]),
    ]
    # "one" beside a pronoun that points back is anyone: the pronoun is the name.
    assert resolved_clauses(["What is a transformer", "how can one train it"], KEYS)[1] == (
        "how can one train transformer"
    )
    assert resolved_clauses(["What is attention", "can one learn it fast"], KEYS)[1] == (
        "can one learn attention fast"
    )


@pytest.mark.parametrize(
    "question",
    [
        "Is it true that LoRA builds on transformers?",
        "Does LoRA build on transformers?",
        "Is LoRA part of transformers?",
        "Does the transformer build on LoRA?",
    ],
)
def test_a_yes_or_no_question_with_a_name_the_graph_lacks_asks_how_the_two_relate(question: str) -> None:
    # genai: "Is it true that LoRA builds on fine-tuning?" (no LoRA in the graph) was read as "what
    # builds on fine-tuning?" and answered "The graph does not cover what builds on fine-tuning."
    found = classify(question, KEYS)
    assert (found.type, found.concepts, found.unknown) == ("relation", ["transformer"], ["LoRA"])


def test_a_yes_or_no_question_about_the_course_or_something_unnamed_is_read_as_before() -> None:
    for question, kind in (
        ("Is the transformer part of the course?", "part_of"),
        ("Is the transformer a subtopic of something bigger?", "part_of"),
        ("Does the transformer require retraining the model?", "prerequisites"),
    ):
        found = classify(question, KEYS)
        assert (found.type, found.unknown) == (kind, []), question


def test_a_pronoun_points_back_to_the_name_as_written_with_the_names_before_it() -> None:
    # d2l: "How does the Adam optimizer work and is it better than RMSProp?" asked its second part as
    # "is optimizer better than RMSProp?": the concept named is "optimizer", written "the Adam optimizer".
    keys = {"optimizer": "optimizer", "rmsprop": "rmsprop"}
    clauses = resolved_clauses(["How does the Adam optimizer work", "is it better than RMSProp"], keys)
    assert clauses[1] == "is Adam optimizer better than RMSProp"
    # The question's own first word is no name before it.
    assert resolved_clauses(["Dropout is what", "why is it useful"], {"dropout": "dropout"})[1] == (
        "why is Dropout useful"
    )


def test_it_after_how_many_of_a_thing_points_to_what_has_them_not_to_what_is_counted() -> None:
    # genai: "How many parameters does Llama 3.1 have and how long a context can it take?" read its
    # second part as "how long a context can parameters take?" and quoted "20+ languages".
    keys = {**KEYS, "heads": "attention"}
    clauses = ["How many heads does the Falcon 40B model have", "how long a context can it read"]
    assert resolved_clauses(clauses, keys)[1] == "how long a context can the Falcon 40B model read"
    # Asked of what I or you need, the counted thing is still what "it" points to.
    assert resolved_clauses(["How much attention do I need", "why is it used"], KEYS)[1] == (
        "why is attention used"
    )
