"""Examples of X are answered by a sentence that names one of them, not by one that points back to
them.

d2l: "Give me some examples of image augmentation methods" quoted "For example, we can combine the
different image augmentation methods defined above and apply them to each image via a `Compose`
instance.", which names none of the methods (it points back to them, "defined above"), over the
sentences that name flipping, cropping or changing colors.
"""

from __future__ import annotations

import pytest

from agents.answer_spans import Excerpt, best_span
from agents.instances import asks_instances, names_instance


@pytest.mark.parametrize(
    "question",
    [
        "Give me some examples of pruning methods",
        "What are some examples of pruning methods?",
        "examples of pruning?",
        "List a few instances of pruning methods.",
    ],
)
def test_a_question_for_examples_asks_instances(question: str) -> None:
    assert asks_instances(question)


@pytest.mark.parametrize("question", ["Give me an example of pruning", "How many examples do I need?"])
def test_other_questions_ask_no_instances(question: str) -> None:
    assert not asks_instances(question)


@pytest.mark.parametrize(
    "sentence",
    [
        "Another pruning method is cutting whole branches.",
        "Cutting the tips is one of the oldest pruning methods.",
        "Pruning methods such as thinning keep the tree open.",
        "Common pruning methods include thinning and heading back.",
    ],
)
def test_a_sentence_that_names_one_of_the_kind_names_an_instance(sentence: str) -> None:
    assert names_instance(sentence, ["prune", "method"])


@pytest.mark.parametrize(
    "sentence",
    [
        "For example, we can combine the different pruning methods defined above in one season.",
        "These pruning methods can be mixed in one season.",
        "Most pruning methods need sharp tools.",
        "For example, when a branch is cut, the tree grows new shoots.",
        "As we have seen in earlier lessons, methods like pruning keep trees healthy.",
        "We need methods like pruning and grafting to keep trees healthy.",
        "You could have pruning shears like these ones in your shed.",
    ],
)
def test_a_sentence_that_points_back_to_them_names_none(sentence: str) -> None:
    assert not names_instance(sentence, ["prune", "method"])


def test_examples_of_x_quote_a_named_instance_not_a_pointer_back() -> None:
    excerpts = [
        Excerpt(
            "c-1",
            "Gardening: Common Pruning Methods",
            "Most pruning methods need sharp tools. "
            "To see the effect of pruning, we use the example tree below.",
        ),
        Excerpt(
            "c-2",
            "Gardening: Thinning",
            "**Thinning the crown** lets light in. Another pruning "
            "method is heading back: we cut a branch back to a bud.",
        ),
        Excerpt(
            "c-3",
            "Gardening: Combining Pruning Methods",
            "For example, we can combine the "
            "different pruning methods defined above and apply them to each tree via a `Plan` object.",
        ),
    ]
    span = best_span("Give me some examples of pruning methods", excerpts, ["pruning"])
    assert span is not None and span.excerpt == "c-2"
    assert "heading back" in span.text


def test_a_demonstrative_subject_names_the_instance_only_in_the_sentence_before() -> None:
    assert not names_instance("This is one of the oldest pruning methods.", ["prune", "method"])
