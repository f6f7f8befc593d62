"""A how-question is answered by a sentence that says how: asked how to do a thing, an instruction,
what you can do or by doing what, before a sentence that only shares the question's words; asked how
a thing works, one in which the thing does something, before one that only names it."""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.instructions import says_how

_BREAD = [
    Excerpt(
        "c-1",
        "Baking: Keeping Bread Fresh",
        "Keeping your bread fresh for days is important when you bake any kind of loaf at home.",
    ),
    Excerpt(
        "c-2",
        "Baking: Storage",
        "A loaf left out dries in a day. "
        "The best way to keep bread fresh for days is by wrapping it in a cloth.",
    ),
]

_FINE = [
    Excerpt(
        "c-3",
        "Sourdough: Your own starter",
        "This starter is a small jar of flour and water that you keep on the counter for days. "
        "Feed the starter with fresh flour and water every morning.",
    ),
]

_THERMOSTAT = [
    Excerpt(
        "c-4",
        "Heating: Thermostats",
        "Next we look at how a thermostat keeps the room at a set temperature in winter. "
        "A thermostat compares the room temperature with the set point and switches the heater on below it.",
    ),
]


def test_how_to_prefers_a_way_by_doing_over_a_sentence_of_importance() -> None:
    span = best_span("How do I keep my bread fresh for days?", _BREAD, ["bread"])
    assert span is not None
    assert span.sentence.startswith("The best way to keep bread fresh")


def test_how_to_prefers_an_instruction_over_a_description_sharing_words() -> None:
    span = best_span("How can I keep my own starter on the counter?", _FINE, ["starter"])
    assert span is not None
    assert span.sentence.startswith("Feed the starter")


def test_how_it_works_prefers_the_thing_doing_something() -> None:
    span = best_span("How does a thermostat keep the room at a set temperature?", _THERMOSTAT, ["thermostat"])
    assert span is not None
    assert span.sentence.startswith("A thermostat compares")


def test_a_why_question_is_not_read_as_asking_how() -> None:
    span = best_span("Why keep bread fresh for days?", _BREAD, ["bread"])
    assert span is not None
    assert span.sentence.startswith("Keeping your bread fresh")


def test_reasoning_aloud_and_labels_say_no_way() -> None:
    assert not says_how("In that case, we could swap the two columns of the table.")
    assert not says_how("Budget - for buying flour and renting an oven")
    assert says_how("Then we can cover the dough and let it rise.")
    assert says_how("To keep the crust crisp, we should bake it without a lid.")


def test_a_pointer_to_more_to_read_says_no_way() -> None:
    # genai: "How do I fine-tune a model with LoRA adapters on my own GPU?" quoted "... You can also get
    # more content from Phi-3 Cookbook" as a way, before "Models like Mistral 7B can be trained and run
    # on local machines equipped with moderate GPU capabilities".
    assert not says_how("You can also get more recipes from the bakers' almanac.")
    assert not says_how("You can read more about sourdough in the next chapter.")
    assert says_how("You can get the dough to rise faster in a warm room.")
