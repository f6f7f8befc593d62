"""A sentence that only gives a term its name ("... is often called *X*.") is quoted with the next
sentence of its paragraph, which says what X is or does."""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.namings import naming_only, said_with_naming

NAMED = (
    "Training a deep stack of layers can stall when signals fade. "
    "A widely used remedy is often called *residual learning*. "
    "Here, each block adds its input back to its output, so the signal has a short path. "
    "We return to it later."
)


def test_a_naming_sentence_is_quoted_with_the_sentence_that_says_what_the_term_is() -> None:
    span = best_span("What is residual learning?", [Excerpt("c-1", "Deep stacks", NAMED)])
    assert span is not None
    assert span.text == (
        "A widely used remedy is often called *residual learning*. "
        "Here, each block adds its input back to its output, so the signal has a short path."
    )


def test_only_a_sentence_that_ends_on_the_name_is_a_naming() -> None:
    assert naming_only("This trick is known as **label smoothing**.", ["label smoothing"])
    assert naming_only('The setting is referred to as "warm start".', ["warm start"])
    assert not naming_only("Label smoothing is known as a regularizer.", ["label smoothing"])
    assert not naming_only("This trick is known as label smoothing in vision.", ["label smoothing"])
    assert not naming_only("This trick is called dropout.", ["label smoothing"])


def test_the_next_sentence_is_added_only_when_it_speaks_of_the_term() -> None:
    naming = "This trick is known as **label smoothing**."
    names = ["label smoothing"]
    assert said_with_naming(naming, ["It softens the targets."], names) == f"{naming} It softens the targets."
    assert said_with_naming(naming, ["Label smoothing softens targets."], names).endswith("targets.")
    assert said_with_naming(naming, ["We now train the model."], names) == naming
    assert said_with_naming(naming, ["Is it worth the cost?"], names) == naming
    assert said_with_naming(naming, [], names) == naming


def test_a_sentence_of_another_paragraph_or_list_item_is_not_added() -> None:
    listed = (
        "* Some inputs lie near a plane. If the map is linear, it is called *linear projection*.\n"
        "* Can a graph be drawn flat? This helps to compare shapes."
    )
    span = best_span("What is linear projection?", [Excerpt("c-2", "Maps", listed)])
    assert span is not None
    assert span.text == "If the map is linear, it is called *linear projection*."
