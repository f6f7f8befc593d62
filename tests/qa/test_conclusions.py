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


STOVES = Excerpt(
    "c-2",
    "Kitchen: cooking with magnets",
    "An induction hob heats a pan through a magnetic field. ¶ "
    "A magnetic field stirs currents in the iron of a pan. "
    "We can boil water quickly with an induction hob. "
    "The heat is made in the pan itself, not in the glass. "
    "As a consequence, water boils much sooner in an iron pan. ¶ "
    "Since glass stays cool, spills do not burn.",
)


def test_a_reason_next_to_the_sentence_naming_the_concept_comes_before_its_restatement() -> None:
    span = best_span("Why does an induction hob boil water faster?", [STOVES], ["induction hob"])
    assert span is not None
    assert span.text.startswith("The heat is made in the pan itself")
    assert span.text.endswith("water boils much sooner in an iron pan.")
    assert "glass stays cool" not in span.text


def test_a_purpose_is_a_reason() -> None:
    from agents.reasons import gives_reason

    assert gives_reason("We sift the flour to ensure no lumps are left.")
    assert gives_reason("Cooks salt the water so they don't need to salt the pasta later.")
    assert gives_reason("A baker proves the dough twice to simplify the shaping.")
    assert not gives_reason("So far we have only boiled water.")


def test_what_a_neighbour_allows_or_says_otherwise_is_no_reason_for_what_it_does_not_name() -> None:
    grills = Excerpt(
        "c-3",
        "Kitchen: outdoors",
        "A charcoal grill sears meat over glowing coals. "
        "Charcoal is made from wood. "
        "Unless told otherwise, cooks sear meat over the hottest coals.",
    )
    span = best_span("Why does a charcoal grill sear meat?", [grills], ["charcoal grill"])
    assert span is not None
    assert span.text == "A charcoal grill sears meat over glowing coals."


def test_a_cause_said_in_a_relative_clause_is_no_reason_for_the_sentence_next_to_it() -> None:
    bakes = Excerpt(
        "c-4",
        "Kitchen: baking",
        "Bakers say oven spring for the rise where dough swells due to steam. "
        "Some bakers also say it is the bloom of a loaf of bread.",
    )
    span = best_span("Why do bakers say bloom?", [bakes], ["bloom"])
    assert span is not None
    assert span.text == "Some bakers also say it is the bloom of a loaf of bread."
