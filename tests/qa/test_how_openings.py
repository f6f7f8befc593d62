"""A how-question answered by the opening of the section its heading names: a first sentence that
only says the thing is important says nothing of how to do it, and the sentences after it are quoted."""

from __future__ import annotations

from agents.answer_spans import Excerpt
from agents.headings import opening

_SECTION = Excerpt(
    "c-7",
    "Gardening: 2. Watering Your Tomato Seedlings",
    "Watering your seedlings gently and often is important when growing any kind of vegetable. "
    "We recommend using a spray bottle rather than a can. A can floods the tray.",
)


def test_a_statement_of_importance_is_no_opening_of_how() -> None:
    span = opening("How do I water my tomato seedlings?", [_SECTION])
    assert span is not None
    assert span.text.startswith("We recommend using a spray bottle")


def test_a_why_question_still_reads_why_it_matters() -> None:
    why = Excerpt("c-8", "Gardening: Why water seedlings?", _SECTION.text)
    span = opening("Why water seedlings?", [why])
    assert span is not None
    assert span.text.startswith("Watering your seedlings gently")


def test_an_instruction_that_says_what_is_important_to_do_is_kept() -> None:
    told = Excerpt("c-9", _SECTION.title, "It is important to water seedlings at dawn. Use a spray bottle.")
    span = opening("How do I water my tomato seedlings?", [told])
    assert span is not None
    assert span.text.startswith("It is important to water seedlings at dawn.")
