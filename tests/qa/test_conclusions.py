"""A sentence that concludes from the one before ("This explains why ...", "That is why ...",
"Hence ...") restates a why question; the sentence it concludes from gives the reason, and is quoted
with it.

genai: "why does chatgpt sometimes just stop in the middle of a sentence" quoted only "This explains
why, if you ever played with ChatGPT, ... it stops in the middle of a sentence.", not the sentences
before it on one token predicted at a time.
"""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.conclusions import concludes, premises

KETTLES = Excerpt(
    "c-1",
    "Kitchen: kettles",
    "Limescale is left on the heating element as hard water boils. ¶ "
    "A kettle heats water with one element at its base. "
    "This element warms only the water touching it, so the rest is stirred by slow currents. "
    "This explains why an electric kettle rumbles loudly before the water boils. ¶ "
    "Descale a kettle with vinegar.",
)


def test_a_concluding_sentence_is_quoted_after_what_it_concludes_from() -> None:
    span = best_span("Why does an electric kettle rumble before the water boils?", [KETTLES], ["kettle"])
    assert span is not None
    assert span.text.startswith("A kettle heats water with one element")
    assert span.text.endswith("rumbles loudly before the water boils.")
    assert "Limescale" not in span.text and "vinegar" not in span.text


def test_what_concludes_and_what_does_not() -> None:
    said = ["That is why pans rust.", "Hence the lid stays shut.", "Thus, we stir.", "This kettle boils."]
    assert [concludes(s) for s in said] == [True, True, True, False]
    assert not concludes("Therein lies a fork.")


def test_premises_stop_at_a_paragraph_and_at_a_sentence_that_stands_alone() -> None:
    text = "Pans rust. ¶ Damp air wets iron. This wet iron oxidises. That is why pans rust."
    before = ["Pans rust.", "Damp air wets iron.", "This wet iron oxidises."]
    assert premises(text, "That is why pans rust.", before) == before[1:]
    assert premises(text, "That is why pans rust.", before[::2]) == ["This wet iron oxidises."]
    assert premises(text, "Pans rust.", []) == []
    assert premises("Iron rusts. ¶ Hence pans rust.", "Hence pans rust.", ["Iron rusts."]) == []
