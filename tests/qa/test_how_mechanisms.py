"""Asked how X works, the sentences that tell X's steps answer, not a summary that says X was
implemented, introduced or discussed.

d2l: "How does successive halving work for hyperparameter tuning?" quoted the section's summary, "We
implemented and evaluated successive halving, a simple yet efficient multi-fidelity HPO algorithm.",
where the section's own sentences say the way: "The basic idea is to start with N configurations
... We then discard a fraction of the worst performing trials ...".
"""

from __future__ import annotations

import pytest

from agents.answer_spans import Excerpt, best_span
from agents.mechanisms import recounts, says_steps
from agents.relevance import explains_first


@pytest.mark.parametrize(
    "sentence",
    [
        "The main idea is to bake every loaf briefly and keep only the ones that rise.",
        "We then throw away the flattest loaves and bake the rest for longer.",
        "First, each dough is proofed for an hour.",
        "At each round, the baker keeps the best third of the loaves.",
    ],
)
def test_a_sentence_that_tells_a_step_says_steps(sentence: str) -> None:
    assert says_steps(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "Staged baking is popular in small bakeries.",
        "The idea of staged baking is old.",
        "Next, we load the data.",
    ],
)
def test_a_sentence_that_tells_no_step_says_none(sentence: str) -> None:
    assert not says_steps(sentence)


@pytest.mark.parametrize(
    "sentence",
    [
        "We implemented and evaluated staged baking, a cheap yet careful way to bake.",
        "In this chapter, we discussed staged baking, a way to bake many loaves.",
        "We introduced staged baking, a method of culling loaves.",
    ],
)
def test_a_summary_of_what_the_text_did_recounts_and_says_nothing_of_how(sentence: str) -> None:
    assert recounts(sentence)
    assert not explains_first({"stage", "bake"}, sentence, "Bread", ["staged baking"])[4]


def test_a_description_of_the_thing_recounts_nothing() -> None:
    assert not recounts("Staged baking bakes loaves for longer at each round.")
    assert not recounts("We now turn to staged baking, a heuristic for bakeries.")


def test_how_does_x_work_quotes_the_steps_not_the_summary() -> None:
    section = (
        "One of the easiest ways to bake for a crowd is *staged baking*. The basic idea is to start with "
        "many loaves and to bake each of them for ten minutes only. We then discard the flattest loaves "
        "and bake the rest for longer. Repeating this, fewer loaves bake for longer."
    )
    summary = "We implemented and evaluated staged baking, a simple yet efficient way to bake for a crowd."
    excerpts = [
        Excerpt("c-1", "Bakery: Staged Baking", section),
        Excerpt("c-2", "Bakery: Summary", summary),
    ]
    span = best_span("How does staged baking work for a crowd?", excerpts, ["staged baking"])
    assert span is not None and span.excerpt == "c-1"
    # the idea's sentence names nothing: the one before it says whose idea it is, the steps follow it
    assert span.text.startswith(
        "One of the easiest ways to bake for a crowd is *staged baking*. The basic idea"
    )
    assert "We then discard the flattest loaves" in span.text
    assert "Repeating this" not in span.text


def test_a_first_point_of_an_argument_is_no_step() -> None:
    assert not says_steps("First, we often observe that loaves rise unevenly.")
    assert not says_steps("Then we arrive at the rising time $t = 2h$.")
    assert not says_steps("Hence we first compute the weight of `dough` for each loaf.")
