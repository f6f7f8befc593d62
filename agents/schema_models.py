"""Learned extraction for a fixed schema: an entity-span model and a relation model.

Both are trained at run time from annotated documents (SciERC's DyGIE layout, read by
:mod:`governance.evaluation.scierc`); nothing they learn is written to disk, so no model derived from data
without a license is ever shipped.

Entity spans (:class:`SpanModel`). Every span of up to :data:`MAX_WIDTH` tokens of a sentence
that neither starts nor ends with punctuation or a function word is a candidate; a multinomial
logistic regression over hashed features (its words, first and last word, the last word's suffix
and shape, the words around it, its width) gives each candidate a probability per entity type and
``NONE``. Decoding keeps, best first, the spans whose entity probability reaches the threshold and
that overlap no kept span (a flat decoding: SciERC's few nested mentions are missed).

Relations (:class:`RelationModel`). Every ordered pair of entities of one sentence is a candidate;
a multinomial logistic regression over hashed features (both mentions' words and types, the words
between them, their distance and order) gives a probability per relation label and ``NONE``.
Symmetric labels are learned and predicted with the earlier mention as head.

>>> tokens = "We use CRF models for named entity recognition .".split()
>>> [(s, e) for s, e in candidate_spans(tokens) if e - s == 1][:3]
[(1, 2), (2, 3), (3, 4)]
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.feature_extraction import FeatureHasher
from sklearn.linear_model import LogisticRegression

__all__ = [
    "MAX_WIDTH",
    "NONE",
    "Annotated",
    "Mention",
    "RelationModel",
    "SpanModel",
    "candidate_spans",
    "pair_features",
    "span_features",
]

MAX_WIDTH = 8
"""The longest candidate entity span, in tokens."""
NONE = "NONE"
_FUNCTION = frozenset(
    "a an the of and or to in on for with by from as at is are was were be been this that these "
    "those which we our it its their can into than such both also not".split()
)
_PUNCT = re.compile(r"^\W+$")
_FEATURES = 2**20


@dataclass(frozen=True)
class Mention:
    """An entity mention: tokens ``start``..``end`` (end exclusive) of one sentence, with its type."""

    start: int
    end: int
    type: str
    probability: float = 1.0


@dataclass(frozen=True)
class Annotated:
    """One sentence with its entity mentions and relations (head index, label, tail index)."""

    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    relations: tuple[tuple[int, str, int], ...]


def _shape(word: str) -> str:
    shape = re.sub("[A-Z]+", "A", re.sub("[a-z]+", "a", re.sub("[0-9]+", "0", word)))
    return shape[:6]


def _bad_edge(word: str) -> bool:
    return bool(_PUNCT.match(word)) or word.lower() in _FUNCTION


def candidate_spans(tokens: Sequence[str]) -> Iterator[tuple[int, int]]:
    """The candidate entity spans of a sentence (start, end exclusive), see the module docstring."""
    for start in range(len(tokens)):
        if _bad_edge(tokens[start]) and tokens[start].lower() not in ("this", "these", "it"):
            continue
        for end in range(start + 1, min(len(tokens), start + MAX_WIDTH) + 1):
            last = tokens[end - 1]
            if end - start > 1 and _bad_edge(last):
                continue
            if any(t in (".", ";", ":") for t in tokens[start:end]):
                break
            yield start, end


def span_features(tokens: Sequence[str], start: int, end: int) -> list[str]:
    """The hashed feature names of one candidate span."""
    words = [t.lower() for t in tokens[start:end]]
    before = tokens[start - 1].lower() if start > 0 else "<s>"
    before2 = tokens[start - 2].lower() if start > 1 else "<s>"
    after = tokens[end].lower() if end < len(tokens) else "</s>"
    after2 = tokens[end + 1].lower() if end + 1 < len(tokens) else "</s>"
    last, first = words[-1], words[0]
    feats = [
        f"first={first}",
        f"last={last}",
        f"suffix={last[-3:]}",
        f"shape={_shape(tokens[end - 1])}",
        f"fshape={_shape(tokens[start])}",
        f"before={before}",
        f"before2={before2}",
        f"after={after}",
        f"after2={after2}",
        f"width={min(end - start, 6)}",
        f"before_after={before}|{after}",
        f"first_last={first}|{last}",
        f"text={' '.join(words)}",
        f"comma={',' in words or 'and' in words}",
        f"paren={'(' in words or ')' in words}",
    ]
    feats += [f"word={w}" for w in words]
    feats += [f"pair={a}|{b}" for a, b in itertools.pairwise(words)]
    return feats


def _hash(rows: Iterable[list[str]]) -> object:
    return FeatureHasher(n_features=_FEATURES, input_type="string", alternate_sign=False).transform(rows)


def _fit(rows: list[list[str]], labels: list[str], c: float) -> LogisticRegression:
    # saga visits the rows in a random order: seeded, so that a benchmark run can be repeated
    model = LogisticRegression(C=c, max_iter=300, solver="saga", tol=1e-3, random_state=0)
    model.fit(_hash(rows), labels)
    return model


class SpanModel:
    """Entity spans and their types (module docstring)."""

    def __init__(self, model: LogisticRegression) -> None:
        self._model = model
        self._none = list(model.classes_).index(NONE)

    @classmethod
    def train(cls, sentences: Sequence[Annotated], *, c: float = 1.0, negatives: int = 4) -> SpanModel:
        """Fits the span model; every ``negatives``-th non-entity span is kept (deterministically)."""
        rows, labels = [], []
        counter = 0
        for sentence in sentences:
            gold = {(m.start, m.end): m.type for m in sentence.mentions}
            for start, end in candidate_spans(sentence.tokens):
                label = gold.get((start, end), NONE)
                if label == NONE:
                    counter += 1
                    if counter % negatives:
                        continue
                rows.append(span_features(sentence.tokens, start, end))
                labels.append(label)
            for (start, end), label in gold.items():  # a gold span the candidate rule misses
                if not any(s == start and e == end for s, e in candidate_spans(sentence.tokens)):
                    rows.append(span_features(sentence.tokens, start, end))
                    labels.append(label)
        return cls(_fit(rows, labels, c))

    def scores(self, tokens: Sequence[str], spans: Sequence[tuple[int, int]]) -> list[tuple[str, float]]:
        """Each span's most likely entity type and the probability that it is an entity at all."""
        if not spans:
            return []
        probs = self._model.predict_proba(_hash(span_features(tokens, s, e) for s, e in spans))
        out = []
        for row in np.asarray(probs):
            masked = row.copy()
            masked[self._none] = -1.0
            best = int(masked.argmax())
            out.append((str(self._model.classes_[best]), float(1.0 - row[self._none])))
        return out

    def mentions(self, tokens: Sequence[str], threshold: float) -> list[Mention]:
        """The decoded mentions of a sentence, in token order (module docstring)."""
        spans = list(candidate_spans(tokens))
        scored = sorted(
            (
                (p, s, e, kind)
                for (s, e), (kind, p) in zip(spans, self.scores(tokens, spans), strict=True)
                if p >= threshold
            ),
            key=lambda row: (-row[0], row[1], row[2]),
        )
        kept: list[Mention] = []
        for p, s, e, kind in scored:
            if not any(s < m.end and m.start < e for m in kept):
                kept.append(Mention(s, e, kind, round(p, 4)))
        return sorted(kept, key=lambda m: (m.start, m.end))


def pair_features(tokens: Sequence[str], head: Mention, tail: Mention) -> list[str]:
    """The hashed feature names of one ordered pair of mentions of a sentence."""
    h = [t.lower() for t in tokens[head.start : head.end]]
    t = [w.lower() for w in tokens[tail.start : tail.end]]
    left, right = (head, tail) if head.start < tail.start else (tail, head)
    between = [w.lower() for w in tokens[left.end : right.start]]
    order = "ht" if head.start < tail.start else "th"
    distance = min(len(between), 10)
    feats = [
        f"order={order}",
        f"types={head.type}|{tail.type}|{order}",
        f"htype={head.type}",
        f"ttype={tail.type}",
        f"hlast={h[-1]}",
        f"tlast={t[-1]}",
        f"distance={distance}|{order}",
        f"nested={head.start <= tail.start < head.end or tail.start <= head.start < tail.end}",
        f"before={tokens[left.start - 1].lower() if left.start else '<s>'}|{order}",
        f"after={tokens[right.end].lower() if right.end < len(tokens) else '</s>'}|{order}",
    ]
    if between:
        feats += [f"bfirst={between[0]}|{order}", f"blast={between[-1]}|{order}"]
        if len(between) <= 4:
            feats.append(f"between={' '.join(between)}|{order}")
    else:
        feats.append(f"adjacent|{order}")
    feats += [f"bw={w}|{order}" for w in between[:12]]
    feats += [f"hw={w}" for w in h] + [f"tw={w}" for w in t]
    return feats


class RelationModel:
    """Relation labels between two mentions of a sentence (module docstring)."""

    def __init__(self, model: LogisticRegression, symmetric: frozenset[str]) -> None:
        self._model = model
        self.symmetric = symmetric
        self.labels = tuple(str(label) for label in model.classes_)

    @classmethod
    def train(
        cls, sentences: Sequence[Annotated], symmetric: frozenset[str], *, c: float = 1.0
    ) -> RelationModel:
        rows, labels = [], []
        for sentence in sentences:
            gold: dict[tuple[int, int], str] = {}
            for h, label, t in sentence.relations:
                if label in symmetric and sentence.mentions[t].start < sentence.mentions[h].start:
                    h, t = t, h
                gold[(h, t)] = label
            for i, head in enumerate(sentence.mentions):
                for j, tail in enumerate(sentence.mentions):
                    if i != j:
                        rows.append(pair_features(sentence.tokens, head, tail))
                        labels.append(gold.get((i, j), NONE))
        return cls(_fit(rows, labels, c), symmetric)

    def probabilities(
        self, tokens: Sequence[str], pairs: Sequence[tuple[Mention, Mention]]
    ) -> list[Mapping[str, float]]:
        """Each ordered pair's probability per label (``NONE`` included)."""
        if not pairs:
            return []
        probs = np.asarray(self._model.predict_proba(_hash(pair_features(tokens, h, t) for h, t in pairs)))
        return [dict(zip(self.labels, (float(p) for p in row), strict=True)) for row in probs]

    def relations(
        self, tokens: Sequence[str], mentions: Sequence[Mention], threshold: float
    ) -> list[tuple[int, str, int, float]]:
        """(head index, label, tail index, probability) for each pair whose best label reaches
        ``threshold``; a symmetric label only with the earlier mention as head."""
        pairs = [(i, j) for i in range(len(mentions)) for j in range(len(mentions)) if i != j]
        found = []
        probs = self.probabilities(tokens, [(mentions[i], mentions[j]) for i, j in pairs])
        for (i, j), row in zip(pairs, probs, strict=True):
            label, p = max(((k, v) for k, v in row.items() if k != NONE), key=lambda kv: kv[1])
            if label in self.symmetric and mentions[j].start < mentions[i].start:
                continue
            if p >= threshold:
                found.append((i, label, j, round(p, 4)))
        return found
