"""An announcement that also says what it announces is no mere signpost.

d2l: "What is transposed convolution?" quoted "As an example, illustrates how transposed convolution
... is computed" (a figure reference) rather than "In this section, we will introduce *transposed
convolution*, which is also called *fractionally-strided convolution*, for reversing downsampling
...", which announces X and, in a relative clause, says what it is; "What is a column vector?" said
only how it relates to row vectors, where "Later on, we will distinguish between such *column
vectors* and *row vectors* whose elements are stacked horizontally" says something of both.
"""

from __future__ import annotations

import pytest

from agents.announcements import describes
from agents.answer_spans import Excerpt, best_span
from agents.definitions import definition
from agents.relevance import explains_first


@pytest.mark.parametrize(
    "sentence",
    [
        "In this chapter, we will present *beam pruning*, which is sometimes called *lazy search*.",
        "Later we will contrast *dense layers* and *sparse layers* whose weights are mostly zero.",
        "Next, we discuss beam pruning, also known as lazy search.",
        "Here we introduce a cheap decoding heuristic: *beam pruning*.",
        "We now turn to beam pruning, a heuristic for decoding long outputs.",
    ],
)
def test_an_announcement_that_describes_what_it_names_says_something_of_it(sentence: str) -> None:
    names = ["beam pruning", "dense layer"]
    assert describes(sentence, names)
    assert explains_first({"beam", "prune", "work"}, sentence, "Decoding", names)[4]


@pytest.mark.parametrize(
    "sentence",
    [
        "We will come back to beam pruning in a later chapter.",
        "In the next section, we will introduce *beam pruning*, your second decoding trick.",
        "Next, we discuss beam pruning and its cost.",
        "In this chapter, we will look at several heuristics, beam pruning and sampling among them.",
    ],
)
def test_a_pure_pointer_still_describes_nothing(sentence: str) -> None:
    assert not describes(sentence, ["beam pruning"])
    assert not explains_first({"beam", "prune", "work"}, sentence, "Decoding", ["beam pruning"])[4]


def test_what_is_x_quotes_the_announcement_that_describes_x() -> None:
    announced = (
        "In this chapter, we will present *beam pruning*, which is sometimes called *lazy search*, "
        "for cutting the cost of decoding."
    )
    figure = "As an example, shows how beam pruning with a width of 2 is run on a short input."
    found = definition(["beam pruning"], [figure, announced], known=True)
    assert found is not None and found.position == 1
    span = best_span(
        "What is beam pruning?", [Excerpt("c-1", "Decoding", f"{figure} {announced}")], ["beam pruning"]
    )
    assert span is not None and span.sentence == announced


def test_a_description_in_a_pointer_to_another_part_is_said_in_passing() -> None:
    # d2l: "How does Fashion-MNIST dataset work?" quoted "... we will focus our discussion in the
    # coming sections on the ... Fashion-MNIST dataset which was released in 2017." once a relative
    # clause made it say something of X; a how or why question is answered where X is taught.
    passing = "In the coming chapters we will train on beam pruning, which was proposed in 1990."
    assert describes(passing, ["beam pruning"])
    assert not explains_first({"beam", "prune", "work"}, passing, "Decoding", ["beam pruning"])[4]
    here = "In this chapter, we will present beam pruning, which keeps only the best partial outputs."
    assert explains_first({"beam", "prune", "work"}, here, "Decoding", ["beam pruning"])[4]
