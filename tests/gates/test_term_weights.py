"""The judge's similarity: TF-IDF weights of the concepts' texts, held to scikit-learn's vectorizer
(the weighting the judgment model was trained with)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.feature_extraction.text import TfidfVectorizer

from agents.term_weights import TermWeights

WORDS = [
    "dropout",
    "the",
    "layer",
    "layers",
    "neural",
    "network",
    "of",
    "attention",
    "Adam",
    "x1",
    "a",
    "and",
]


def fitted(texts: dict[str, str]) -> dict[tuple[str, str], float]:
    """Every pair's cosine similarity as the vectorizer's vectors give it."""
    ids = sorted(texts)
    try:
        matrix = TfidfVectorizer(stop_words="english", sublinear_tf=True).fit_transform(
            [texts[i] for i in ids]
        )
    except ValueError:  # stop words only: no vocabulary
        return {(a, b): 0.0 for a, b in itertools.product(ids, ids)}
    product = (matrix @ matrix.T).toarray()
    return {
        (a, b): float(product[i, j]) for (i, a), (j, b) in itertools.product(enumerate(ids), enumerate(ids))
    }


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join), min_size=1, max_size=6))
def test_the_weights_are_the_vectorizers(texts: list[str]) -> None:
    named = {f"c{i}": text for i, text in enumerate(texts)}
    weights = TermWeights(named)
    for (a, b), expected in fitted(named).items():
        assert abs(weights.similarity(a, b) - expected) < 1e-12


def test_a_text_it_does_not_hold_or_of_stop_words_only_is_like_no_other() -> None:
    weights = TermWeights({"a": "dropout layers", "b": "the of and", "c": "dropout"})
    assert weights.similarity("a", "b") == weights.similarity("b", "b") == weights.similarity("a", "z") == 0.0
    assert 0.0 < weights.similarity("a", "c") < 1.0 and abs(weights.similarity("c", "c") - 1.0) < 1e-12
