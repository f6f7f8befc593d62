"""A local, deterministic text embedding for LlamaIndex: no model, no download, no network.

:class:`HashingEmbedding` hashes word unigrams and bigrams and character 3-5-grams (within word
boundaries, so "transformers" still meets "transformer") with scikit-learn's
:class:`~sklearn.feature_extraction.text.HashingVectorizer` into a fixed-size, L2-normalised vector.
Hashing needs no fitted vocabulary, so the same text always gets the same vector, whatever else
was embedded before. This module imports LlamaIndex (seconds): import it only where an index is
built (:mod:`magg_kg.graph_index` does so inside its functions).
"""

from __future__ import annotations

from llama_index.core.base.embeddings.base import BaseEmbedding, Embedding
from pydantic import PrivateAttr
from scipy.sparse import hstack
from sklearn.feature_extraction.text import HashingVectorizer

__all__ = ["DIMENSIONS", "HashingEmbedding"]

DIMENSIONS = 2048
"""Features per analyzer; the vector has twice as many (words, then characters)."""


class HashingEmbedding(BaseEmbedding):
    """Hashed word and character n-grams, L2-normalised: deterministic and free."""

    dimensions: int = DIMENSIONS
    _words: HashingVectorizer = PrivateAttr()
    _chars: HashingVectorizer = PrivateAttr()

    def __init__(self, dimensions: int = DIMENSIONS) -> None:
        super().__init__(model_name="hashing-embedding", dimensions=dimensions, embed_batch_size=64)
        self._words = HashingVectorizer(
            n_features=dimensions, ngram_range=(1, 2), alternate_sign=False, norm="l2", lowercase=True
        )
        self._chars = HashingVectorizer(
            n_features=dimensions,
            analyzer="char_wb",
            ngram_range=(3, 5),
            alternate_sign=False,
            norm="l2",
            lowercase=True,
        )

    @classmethod
    def class_name(cls) -> str:
        return "HashingEmbedding"

    def vectors(self, texts: list[str]) -> list[list[float]]:
        """One vector per text: words and characters weighted equally, L2-normalised."""
        matrix = hstack([self._words.transform(texts), self._chars.transform(texts)]).toarray()
        rows: list[list[float]] = []
        for row in matrix:
            norm = float((row * row).sum()) ** 0.5
            rows.append((row / norm).tolist() if norm else [0.0] * len(row))  # numpy divides as Python
        return rows

    def _get_query_embedding(self, query: str) -> Embedding:
        return self.vectors([query])[0]

    async def _aget_query_embedding(self, query: str) -> Embedding:
        return self.vectors([query])[0]

    def _get_text_embedding(self, text: str) -> Embedding:
        return self.vectors([text])[0]

    def _get_text_embeddings(self, texts: list[str]) -> list[Embedding]:
        return self.vectors(texts)
