"""A lead-in names what comes after it and says nothing of it.

genai: "How does RAG work, step by step?" quoted "To get started, let us look at what is RAG and how
works:"; "chatbot vs AI-powered chat application" quoted "Before we dive into ..., let's compare
'chatbots' against ..."; "What is data poisoning, and can you give some examples?" quoted "Here are
examples of how data poisoning can affect your models: **Label Flipping**: ..."; "AutoGen vs
TaskWeaver?" said what each is with "The next AI Agent framework we will discuss is AutoGen.".
"""

from __future__ import annotations

import pytest

from agents.answer_spans import Excerpt, best_span
from agents.definitions import definition
from agents.lead_ins import leads_in
from agents.relevance import explains_first


@pytest.mark.parametrize(
    "sentence",
    [
        "To warm up, let us examine what a bloom filter is and how it behaves:",
        "Before we write any code, let's contrast bloom filters with hash sets, which serve other needs.",
        "Here are a few ways a bloom filter can mislead you: **False positives**: it says yes wrongly.",
        "We can look at this in three different parts: Sizing the bit array well.",
        "The next structure we will explore is the skip list.",
        "That is where a bloom filter steps in.",
    ],
)
def test_a_sentence_that_only_announces_what_comes_is_a_lead_in(sentence: str) -> None:
    assert leads_in(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Let us assume that every key hashes uniformly.",
        "A bloom filter is a bit array that avoids two costs: **Memory**. It is small.",
        "The structure we use here is the skip list.",
        "In this section, we will introduce *bloom filters*, which are probabilistic sets.",
    ],
)
def test_a_sentence_that_states_something_is_no_lead_in(sentence: str) -> None:
    assert not leads_in(sentence)


def test_a_comparison_is_answered_by_what_is_said_of_a_side_not_by_the_lead_in_to_it() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Sets",
            "Before we write code, let's contrast bloom filters with hash sets, which serve distinct needs. "
            "A bloom filter answers membership with a small bit array. "
            "A hash set, in contrast, stores every key it holds.",
        )
    ]
    span = best_span("bloom filter vs hash set - aren't they the same?", excerpts, ["bloom filter"])
    assert span is not None and span.sentence == "A bloom filter answers membership with a small bit array."


def test_a_lead_in_that_names_x_is_no_definition_of_it() -> None:
    sentences = [
        "The next structure we will explore is the skip list.",
        "The main idea of a skip list is towers.",
    ]
    found = definition(["skip list"], sentences, known=True)
    assert found is not None and found.position == 1


def test_a_lead_in_hands_what_it_names_on_to_the_pronoun_of_the_next_sentence() -> None:
    sentences = ["The last structure we will explore is the skip list.", "It keeps towers of links."]
    found = definition(["skip list"], sentences, known=True)
    assert found is not None and found.text == " ".join(sentences)


def test_a_sentence_whose_colon_announces_a_list_not_there_comes_after_one_that_says_something() -> None:
    excerpts = [
        Excerpt("c-1", "Dashboards", "Logs pile up. The dashboard shows the logs and enables the user to:"),
        Excerpt("c-2", "Monitoring", "The dashboard helps the user spot failing jobs at a glance."),
    ]
    span = best_span("Why is the dashboard useful to the user?", excerpts, ["dashboard"])
    assert span is not None and span.excerpt == "c-2"


def test_a_lead_in_with_the_list_it_announces_answers_a_question_asking_for_items() -> None:
    # "what layers can you use to ...?" asks for the items: the lead-in with its first item ranks as
    # a sentence that says something, so that its list is quoted whole; else it only announces

    asked = {"layer", "secur", "cach"}
    lead = "We can look at securing a cache in 3 layers: **Network**. Close the ports."
    other = "Cache layers differ in how they store secure data."
    assert explains_first(asked, lead, "", [], listing=True) == explains_first(asked, other, "", [])
    assert explains_first(asked, lead, "", []) < explains_first(asked, other, "", [])
