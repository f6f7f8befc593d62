"""A quiz's answer key ("A: 3, ...", "A: 2 and 3 are correct.") names options the reader does not see:
no answer quotes it. What follows it is read as the lesson's statement; a key alone is not read."""

from __future__ import annotations

from agents.answer_keys import unkeyed
from agents.answer_spans import Excerpt, best_span
from agents.passages import passages
from agents.together import said_together


def test_the_key_before_an_explanation_is_left_out() -> None:
    # genai: "A: 3, an LLM is non-deterministic, the response vary, ..." was quoted with its key
    assert unkeyed("A: 2, a hash map finds keys fast.") == "a hash map finds keys fast."
    assert unkeyed("Answer: 1 and 4 - both sort in place.") == "both sort in place."
    assert unkeyed("**A:** C, because the heap is a tree.") == "because the heap is a tree."


def test_a_key_alone_is_no_sentence() -> None:
    # genai: "A: 2 and 3 are correct. Responsible AI helps you ..."
    assert unkeyed("A: 1 and 3 are correct.") == ""
    assert unkeyed("A: B is the right answer.") == ""
    assert passages("A: 1 and 3 are correct. Heaps keep the least key on top.") == [
        "Heaps keep the least key on top."
    ]


def test_an_answer_written_as_a_sentence_is_no_key() -> None:
    for said in ("A: A heap is a tree.", "Answer: 3 passes suffice.", "A. Heaps are trees."):
        assert unkeyed(said) == said


def test_no_answer_quotes_a_key() -> None:
    quiz = Excerpt(
        "c-1",
        "Sorting: Knowledge check",
        "Which sort is stable?\n\n1. Heap sort\n1. Quick sort\n1. Merge sort\n\n"
        "A: 3, merge sort is a stable sort that splits the list in halves.",
    )
    span = best_span("What is merge sort?", [quiz], ["merge sort"])
    assert span is not None and span.sentence == "merge sort is a stable sort that splits the list in halves."
    found = said_together("Is merge sort the same as heap sort?", [quiz], ["merge sort", "heap sort"])
    assert found is None or not found[1].startswith("A:")
