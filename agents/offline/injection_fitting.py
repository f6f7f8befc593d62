"""Fitting the injection detector: n-gram count matrices, TF-IDF with evidence priors, the logistic
regression (pruned to the strongest n-grams, then refit) and the Platt curve.

An n-gram block's row is sublinear tf times idf, divided by ``sqrt(|row|^2 + k^2)``, where ``k``,
the block's prior, is the median length of that block in the fitting units of
:data:`EVIDENCE_WORDS` words, or 0 (what :class:`agents.offline.injection.InjectionModel` computes).
:mod:`agents.offline.injection_training` runs it on folds and on everything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

from agents.offline.injection_features import DENSE, Features

__all__ = [
    "EVIDENCE_WORDS",
    "DetectorFit",
    "UnitMatrices",
    "fit_detector",
    "platt_curve",
    "unit_matrices",
]

EVIDENCE_WORDS = 0
"""The size, in words, of the units whose median n-gram length is a block's prior ``k``; 0: no
prior (``k = 0``, each block divided by its length alone). With 4, a unit of one word has about
45% of its n-gram evidence counted and one of twenty about 91%; measured out of fold it held as
much of the real courses' text as no prior at the same recall of instruction texts (0.921: d2l
5.4% and genai 28.2% of the text, against 6.3% and 27.3%), and it caught one held-out
instruction text fewer at its bar, so the shipped model has none."""
MIN_DF = 2
KEEP_CHARS = 6000
KEEP_WORDS = 3000
STRENGTH = 4.0
"""The logistic regression's inverse regularization (scikit-learn's ``C``)."""


@dataclass(frozen=True)
class UnitMatrices:
    chars: sp.csr_matrix
    words: sp.csr_matrix
    dense: np.ndarray
    sizes: np.ndarray
    char_names: list[str]
    word_names: list[str]


def _counts(rows: Sequence[Mapping[str, int]], min_df: int) -> tuple[sp.csr_matrix, list[str]]:
    df: dict[str, int] = {}
    for row in rows:
        for gram in row:
            df[gram] = df.get(gram, 0) + 1
    names = sorted(g for g, n in df.items() if n >= min_df)
    index = {g: i for i, g in enumerate(names)}
    indptr, cols, vals = [0], [], []
    for row in rows:
        kept = sorted((index[g], c) for g, c in row.items() if g in index)
        cols += [i for i, _ in kept]
        vals += [float(c) for _, c in kept]
        indptr.append(len(cols))
    matrix = sp.csr_matrix(
        (np.array(vals), np.array(cols, dtype=np.int64), np.array(indptr)), shape=(len(rows), len(names))
    )
    return matrix, names


def unit_matrices(found: Sequence[Features]) -> UnitMatrices:
    chars, char_names = _counts([f.chars for f in found], MIN_DF)
    words, word_names = _counts([f.words for f in found], MIN_DF)
    dense = np.array([[f.dense[name] for name in DENSE] for f in found])
    return UnitMatrices(chars, words, dense, np.array([f.size for f in found]), char_names, word_names)


def _idf(counts: sp.csr_matrix) -> np.ndarray:
    df = np.asarray((counts > 0).sum(axis=0)).ravel()
    return np.asarray(np.log((1.0 + counts.shape[0]) / (1.0 + df)) + 1.0)


def _weighted(counts: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    """Sublinear tf times idf."""
    weighted = counts.copy().astype(float)
    weighted.data = 1.0 + np.log(weighted.data)
    return sp.csr_matrix(weighted.multiply(idf.reshape(1, -1)))


def _lengths(weighted: sp.csr_matrix) -> np.ndarray:
    return np.asarray(np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel()))


def _prior(counts: sp.csr_matrix, idf: np.ndarray, sizes: np.ndarray) -> float:
    """The block's ``k``: the median length of the units of :data:`EVIDENCE_WORDS` words."""
    if not EVIDENCE_WORDS:
        return 0.0
    lengths = _lengths(_weighted(counts[sizes == EVIDENCE_WORDS], idf))
    return float(np.median(lengths)) if len(lengths) else 1.0


def _tfidf(counts: sp.csr_matrix, idf: np.ndarray, prior: float) -> sp.csr_matrix:
    """Sublinear tf times idf, each row divided by ``sqrt(|row|^2 + prior^2)`` (what
    :class:`InjectionModel` computes)."""
    weighted = _weighted(counts, idf)
    norms = np.sqrt(_lengths(weighted) ** 2 + prior**2)
    norms[norms == 0] = 1.0
    return sp.csr_matrix(sp.diags(1.0 / norms) @ weighted)


@dataclass(frozen=True)
class DetectorFit:
    char_cols: np.ndarray
    char_idf: np.ndarray
    char_w: np.ndarray
    word_cols: np.ndarray
    word_idf: np.ndarray
    word_w: np.ndarray
    dense_w: np.ndarray
    bias: float
    prior: tuple[float, float]

    def decision(self, m: UnitMatrices, rows: np.ndarray) -> np.ndarray:
        chars = _tfidf(m.chars[rows][:, self.char_cols], self.char_idf, self.prior[0])
        words = _tfidf(m.words[rows][:, self.word_cols], self.word_idf, self.prior[1])
        return np.asarray(
            chars @ self.char_w + words @ self.word_w + m.dense[rows] @ self.dense_w + self.bias
        )


def fit_detector(m: UnitMatrices, rows: np.ndarray, labels: np.ndarray) -> DetectorFit:
    """Vocabulary (min df within ``rows``), idf, priors, a first fit, pruning to the strongest
    n-grams, priors again, refit."""
    sources = (m.chars[rows], m.words[rows])
    sizes = m.sizes[rows]

    def block(
        counts: sp.csr_matrix, cols: np.ndarray, idf: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, float]:
        return cols, idf, _prior(counts[:, cols], idf, sizes)

    blocks = []
    for counts in sources:
        cols = np.flatnonzero(np.asarray((counts > 0).sum(axis=0)).ravel() >= MIN_DF)
        blocks.append(block(counts, cols, _idf(counts[:, cols])))

    def solve(chosen: list[tuple[np.ndarray, np.ndarray, float]]) -> tuple[np.ndarray, float]:
        x = sp.hstack(
            [
                *(
                    _tfidf(counts[:, cols], idf, prior)
                    for counts, (cols, idf, prior) in zip(sources, chosen, strict=True)
                ),
                sp.csr_matrix(m.dense[rows]),
            ],
            format="csr",
        )
        model = LogisticRegression(C=STRENGTH, class_weight="balanced", max_iter=5000)
        model.fit(x, labels)
        return model.coef_.ravel(), float(model.intercept_[0])

    weights, _ = solve(blocks)
    pruned = []
    offset = 0
    for counts, (cols, idf, _), keep in zip(sources, blocks, (KEEP_CHARS, KEEP_WORDS), strict=True):
        w = weights[offset : offset + len(cols)]
        offset += len(cols)
        strongest = np.sort(np.argsort(-np.abs(w), kind="stable")[:keep])
        pruned.append(block(counts, cols[strongest], idf[strongest]))
    weights, bias = solve(pruned)
    (char_cols, char_idf, char_prior), (word_cols, word_idf, word_prior) = pruned
    n_chars, n_words = len(char_cols), len(word_cols)
    return DetectorFit(
        char_cols,
        char_idf,
        weights[:n_chars],
        word_cols,
        word_idf,
        weights[n_chars : n_chars + n_words],
        weights[n_chars + n_words :],
        bias,
        (char_prior, word_prior),
    )


def platt_curve(z: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    model = LogisticRegression(C=1e4, class_weight="balanced", max_iter=1000)
    model.fit(z.reshape(-1, 1), labels)
    return float(model.coef_[0][0]), float(model.intercept_[0])
