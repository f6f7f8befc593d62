""" "Do I need A for B?" is asked as which of A and B comes first, also when the graph lacks A:
A is said to be missing (with the concepts whose names contain it), never silently dropped."""

from __future__ import annotations

from agents.question_types import classify
from governance.graph_answer import uncovered_names

KEYS = {"gradient descent": "gd", "differential calculus": "dc", "linear algebra": "la"}


def test_a_needed_name_the_graph_lacks_is_reported_not_dropped() -> None:
    found = classify("Do I need calculus for gradient descent?", KEYS)
    assert (found.type, found.concepts, found.unknown) == ("which_first", ["gd"], ["calculus"])
    assert uncovered_names(found.unknown, ["differential calculus"]) == (
        "The graph does not cover calculus; it has differential calculus."
    )


def test_both_names_known_is_which_comes_first() -> None:
    found = classify("Do I need linear algebra for gradient descent?", KEYS)
    assert (found.type, found.concepts, found.unknown) == ("which_first", ["la", "gd"], [])
