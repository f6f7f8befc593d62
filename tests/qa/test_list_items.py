"""A question that asks for several things is answered by the whole list, not its first item.

genai: "what are the 4 parts of Microsoft's system message framework" quoted the sentence that
announces "4 areas:" with area 1 only (a numbered item that ends in a full stop ends the list there);
"give me some examples of data poisoning attacks" quoted one of the attacks, each a paragraph led by
its bold name.
"""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.enumerations import asks_for_items, with_items

BAKING = Excerpt(
    "c-1",
    "Baking bread",
    "A good loaf is made in four stages, in this order: ¶ Mixing the flour, water and yeast into a dough. "
    "Kneading the dough until it stretches. Proving the dough in a warm place. Baking it in a hot oven. "
    "¶ Bakers in many countries bake bread every morning.",
)
ROOFS = Excerpt(
    "c-2",
    "Roofs",
    "Roofs come in many shapes. ¶ **Gable roof**: two sloping sides meet at a ridge. "
    "**Hip roof**: all four sides slope down to the walls. **Flat roof**: nearly level, it needs a drain.",
)


def test_a_list_question_quotes_every_numbered_item_after_the_colon() -> None:
    span = best_span("What are the four stages of making a loaf?", [BAKING])
    assert span is not None
    assert span.text.startswith("A good loaf is made in four stages, in this order:")
    assert "Proving the dough in a warm place." in span.text
    assert span.text.endswith("Baking it in a hot oven.")
    assert "every morning" not in span.text


def test_a_request_for_examples_quotes_the_items_led_by_bold_names() -> None:
    asked, hip = "Give me some examples of roof shapes", "**Hip roof**: all four sides slope down."
    assert with_items(asked, hip, "") == hip  # not in the excerpt: as it was
    said = with_items(asked, "**Hip roof**: all four sides slope down to the walls.", ROOFS.text)
    assert said.startswith("**Gable roof**: two sloping sides") and said.endswith("it needs a drain.")


def test_a_lead_that_comes_back_in_each_item_is_no_item() -> None:
    text = "**Oak**: hard. **Note**: slow to grow. **Pine**: soft. **Note**: grows fast."
    said = with_items("Give me examples of timber", "**Pine**: soft.", text)
    assert said == "**Oak**: hard. **Pine**: soft."


def test_other_questions_keep_the_first_item_only() -> None:
    quoted = (
        "A good loaf is made in four stages, in this order: Mixing the flour, water and yeast into a dough."
    )
    assert with_items("Why is dough kneaded?", quoted, BAKING.text) == quoted
    assert not asks_for_items("What is a gable roof?")
    assert asks_for_items("which layers does a cake have")
