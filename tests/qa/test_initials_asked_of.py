"""A concept the question writes in its initials ("Is a trie an ADT?") is named, not what is asked of
it: the sentence that answers need not say the initials, and one that does only because it names the
concept does not come first."""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.relevance import asked_of


def test_initials_that_spell_a_name_asked_about_are_that_name() -> None:
    assert asked_of("Is a trie an ADT?", ["abstract data type"]) == frozenset()
    assert asked_of("Are ADTs immutable?", ["abstract data type"]) == frozenset({"immut"})
    assert asked_of("Is a trie an ADT?", ["binary heap"]) != frozenset()  # initials of another name


def test_a_sentence_naming_both_answers_before_one_that_only_says_the_initials() -> None:
    lesson = Excerpt(
        "c-1",
        "Data structures: Tries as ADTs",
        "A trie is a tree that stores strings, and as an abstract data type it is a set of words. "
        "An ADT is defined by its operations, not by its layout.",
    )
    span = best_span("Is a trie an ADT?", [lesson], ["abstract data type"])
    assert span is not None and span.sentence.startswith("A trie is a tree")


def test_a_sentence_that_names_a_concept_by_the_initials_asked_is_about_it() -> None:
    # genai: "Is a foundation model an LLM?" read only a quiz line, in a lesson titled "Large Language Models"
    named = Excerpt("c-1", "Abstract data types", "An abstract data type is defined by its operations.")
    initials = Excerpt("c-2", "Strings", "A trie is a tree of strings, an ADT for sets of words.")
    span = best_span("Is a trie an ADT?", [named, initials], ["abstract data type"])
    assert span is not None and span.excerpt == "c-2"
