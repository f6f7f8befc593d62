"""A question on one model of a family with a version ("zeta-2-tiny") bears on a sentence on another
model of it ("Zeta-2-large"): the two share the family's name and version."""

from __future__ import annotations

from agents.relevance import bears_on


def test_a_sentence_on_another_size_of_the_versioned_model_bears_on_the_question() -> None:
    question = "How much memory does zeta-2-tiny need? and the large one?"
    assert bears_on(question, "With 40GB of memory, Zeta-2-large runs fast.")


def test_a_sentence_on_another_version_or_family_does_not() -> None:
    question = "How much memory does zeta-2-tiny need?"
    assert not bears_on(question, "With 40GB of memory, Zeta-3-large runs fast.")
    assert not bears_on(question, "With 40GB of memory, Omega-2-large runs fast.")
