"""TF-IDF weights of the concepts' texts (name and description), for the judge's similarity.

The weighting is scikit-learn's ``TfidfVectorizer(stop_words="english", sublinear_tf=True)``:
words of two or more word characters, lower-cased, English stop words left out; a term's weight
in a text is ``(1 + ln count) * idf`` with the smoothed ``idf = ln((1 + n) / (1 + df)) + 1`` over
the ``n`` texts, and each text's weights are scaled to unit length. Fitting the vectorizer gave
every text's vector at once, and the judge's view fits it again for each lesson, whose concepts are
new: on the 134 d2l sections that cost more than the similarities it was read for. Here the
document frequencies are counted once and a text's vector is computed when a claim first needs it.
The tests hold the two to the same figures.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping

__all__ = ["TermWeights"]

_TERM = re.compile(r"(?u)\b\w\w+\b")


def _stop_words() -> frozenset[str]:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS  # imported when first needed

    return frozenset(ENGLISH_STOP_WORDS)


class TermWeights:
    """The TF-IDF space of a set of texts (id -> text), each vector computed when first asked."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        stop = _stop_words()
        self._terms = {
            key: [t for t in _TERM.findall(text.lower()) if t not in stop] for key, text in texts.items()
        }
        frequency: Counter[str] = Counter()
        for terms in self._terms.values():
            frequency.update(set(terms))
        n = len(self._terms)
        self._idf = {term: math.log((1 + n) / (1 + df)) + 1.0 for term, df in frequency.items()}
        self._vectors: dict[str, dict[str, float]] = {}

    def vector(self, key: str) -> dict[str, float]:
        """The unit-length TF-IDF vector of one text, its terms in alphabetical order (empty for a
        text it does not hold, or one of stop words only)."""
        if key not in self._vectors:
            counts = Counter(self._terms.get(key, ()))
            raw = {term: (1.0 + math.log(counts[term])) * self._idf[term] for term in sorted(counts)}
            norm = math.sqrt(sum(weight * weight for weight in raw.values()))
            self._vectors[key] = {term: weight / norm for term, weight in raw.items()} if norm else {}
        return self._vectors[key]

    def similarity(self, a: str, b: str) -> float:
        """The cosine similarity of two texts (0 when either is unknown or has no terms).

        >>> weights = TermWeights({"a": "dropout regularizes", "b": "dropout layers", "c": "attention"})
        >>> round(weights.similarity("a", "b"), 4), weights.similarity("a", "c"), weights.similarity("a", "z")
        (0.3664, 0.0, 0.0)
        """
        left, right = self.vector(a), self.vector(b)
        return float(sum(weight * right.get(term, 0.0) for term, weight in left.items()))
