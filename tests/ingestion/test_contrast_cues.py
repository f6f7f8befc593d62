"""A contrast said by "unlike" (:mod:`agents.contrasts`)."""

from __future__ import annotations

from tests.ingestion.test_extraction import typed


def test_unlike_sets_what_it_names_against_the_subject_of_its_clause() -> None:
    names = ("recurrent network", "transformer", "skip-gram model", "cbow model")
    found = typed(
        "Unlike recurrent networks, which read one token at a time, transformers read the whole input. "
        "The CBOW model, unlike the skip-gram model, averages its context vectors. Unlike the skip-gram "
        "model that predicts a recurrent network's words, the transformer is fast.",
        *names,
    )
    assert found == {
        ("recurrent-network", "contrasts_with", "transformer"),
        ("cbow-model", "contrasts_with", "skip-gram-model"),
        ("skip-gram-model", "contrasts_with", "transformer"),
    }


def test_unlike_before_a_clause_that_no_noun_phrase_opens_contrasts_nothing() -> None:
    names = ("recurrent network", "transformer", "deep learning", "marginal likelihood")
    for text in (
        "Unlike recurrent networks, we can train the transformer in parallel.",
        "Unlike the case of recurrent networks, here the transformer is used.",
        "Unlike earlier recurrent network models, the transformer model attends to every token.",
    ):
        assert not typed(text, *names), text
