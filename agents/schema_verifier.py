"""The verifier of a fixed schema's claims: a calibrated probability that a claimed relation is right.

The extractor (:mod:`agents.schema_models`) scores a pair of mentions by itself; governance needs
a second opinion that knows the extractor's mistakes. The verifier is trained at run time on the
extractor's own proposals, made out of fold: the training documents are cut into ``folds`` parts
by document, span and relation models are trained on all parts but one and propose relations on
the part left out, exactly as the extractor would (mentions at ``mention_at``, relations at
``propose_at``). Each proposal is labelled right when its head span, label and tail span are an
annotated relation of its sentence (strict, as the benchmark scores it).

Its features (:func:`triple_features`) are what a reviewer can read from the claim and its sentence
(:class:`SentenceContext`: the sentence's mentions as the extractor decodes them and the relation
model's probabilities for every pair): the relation model's probability of every label for the
pair and the reversed pair, the margins of the claimed and the best label, whether the reversed
pair claims more (of two claims on one pair, only one can be right), the span model's entity
probability of each end, the widths, distance, order and nesting of the mentions, the mentions
between them and cue words (:data:`TRIGGERS`) between them, how strongly each end relates to
another mention of the sentence, the numbers of mentions and proposals in the sentence, whether
an end is a term that names nothing (:data:`GENERIC`, "it", "this method"), the claimed label and
both entity types (their compatibility with the label is learned from these). A gradient-boosted
classifier of shallow trees (a few thousand proposals to learn from) maps them to a score; an
isotonic regression fitted on out-of-fold scores (a second cut by the same folds) makes it a
probability. Nothing is written to disk.

The verifier also reports, from the same out-of-fold proposals, the score at which admitting
the claims it scores at or above would have given the best F1 (:attr:`Verifier.admit_at`),
beside the F1 of admitting every proposal: the operating point governance can use, chosen on
training data only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.isotonic import IsotonicRegression
from sklearn.metrics import roc_auc_score

from agents.schema_models import NONE, Annotated, Mention, RelationModel, SpanModel

__all__ = [
    "FOLDS",
    "GENERIC",
    "TRIGGERS",
    "SentenceContext",
    "Verifier",
    "sentence_context",
    "strict_proposals",
    "triple_features",
]

FOLDS = 5
"""The cut of the training documents for out-of-fold proposals and calibration."""


TRIGGERS = (
    "for", "use", "used", "using", "uses", "based", "by", "via", "with", "to", "and", "or", ",", "than",
    "compared", "outperforms", "over", "such", "including", "as", "of", "in", "on", "from", "is", "are",
    "(", ")", "which", "that", "between", "into", "evaluate", "evaluated",
)  # fmt: skip
"""Words whose presence between the two mentions is a feature (cues of the labels, of a list, of
a comparison, of a clause boundary)."""
GENERIC = frozenset(
    "it this they them these which that method methods approach approaches system systems model "
    "models technique techniques algorithm algorithms framework task tasks problem".split()
) | {"this approach", "this method", "this paper", "our method", "our approach", "our system"}
"""Texts that stand for an entity without naming it (SciERC's ``Generic``)."""
_DEICTIC = frozenset("this these it its our such they their the that those".split())


@dataclass(frozen=True)
class SentenceContext:
    """A sentence as the extractor sees it: its mentions (decoded, plus any claimed end the decoding
    missed), the relation model's probabilities for every ordered pair of them, and the
    extractor's proposals among the decoded mentions (head index, label, tail index, probability)."""

    tokens: tuple[str, ...]
    mentions: tuple[Mention, ...]
    probabilities: Mapping[tuple[int, int], Mapping[str, float]]
    proposals: tuple[tuple[int, str, int, float], ...]

    def index(self, mention: Mention) -> int:
        """The index of the mention with ``mention``'s span (it must be one of :attr:`mentions`)."""
        return next(
            n for n, m in enumerate(self.mentions) if (m.start, m.end) == (mention.start, mention.end)
        )


def sentence_context(
    spans: SpanModel,
    relations: RelationModel,
    tokens: Sequence[str],
    *,
    mention_at: float,
    propose_at: float,
    also: Sequence[Mention] = (),
) -> SentenceContext:
    """The :class:`SentenceContext` of ``tokens``; ``also`` are mentions added if not decoded."""
    words = list(tokens)
    decoded = spans.mentions(words, mention_at)
    found = relations.relations(words, decoded, propose_at)
    mentions = list(decoded)
    for extra in also:
        if all((m.start, m.end) != (extra.start, extra.end) for m in mentions):
            mentions.append(extra)
    pairs = [(i, j) for i in range(len(mentions)) for j in range(len(mentions)) if i != j]
    probs = relations.probabilities(words, [(mentions[i], mentions[j]) for i, j in pairs])
    return SentenceContext(tuple(words), tuple(mentions), dict(zip(pairs, probs, strict=True)), tuple(found))


def _best_label(row: Mapping[str, float]) -> float:
    return max((v for k, v in row.items() if k != NONE), default=0.0)


def triple_features(
    context: SentenceContext,
    head: int,
    tail: int,
    label: str,
    labels: Sequence[str],
    types: Sequence[str],
) -> list[float]:
    """The verifier's features of the claim (mention ``head``, ``label``, mention ``tail``) of a
    sentence (module docstring)."""
    tokens, h, t = context.tokens, context.mentions[head], context.mentions[tail]
    forward, backward = context.probabilities[(head, tail)], context.probabilities[(tail, head)]
    ranked = [*sorted((forward.get(k, 0.0) for k in labels if k != NONE), reverse=True), 0.0, 0.0]
    claimed = forward.get(label, 0.0)
    left, right = (h, t) if h.start < t.start else (t, h)
    between = {w.lower() for w in tokens[left.end : right.start]}
    rivals = [  # the strongest other claim on each end: what else the mention relates to
        max(
            (
                _best_label(p)
                for (a, b), p in context.probabilities.items()
                if end in (a, b) and {a, b} != {head, tail}
            ),
            default=0.0,
        )
        for end in (head, tail)
    ]
    texts = [" ".join(tokens[m.start : m.end]) for m in (h, t)]
    return [
        *(forward.get(k, 0.0) for k in labels),
        backward.get(label, 0.0),
        backward.get(NONE, 0.0),
        claimed,
        claimed - max((forward.get(k, 0.0) for k in labels if k not in (NONE, label)), default=0.0),
        ranked[0] - ranked[1],
        _best_label(backward),
        1.0 if _best_label(backward) > claimed else 0.0,  # the reversed pair claims more
        h.probability,
        t.probability,
        min(h.probability, t.probability),
        float(h.end - h.start),
        float(t.end - t.start),
        float(abs(h.start - t.start)),
        1.0 if h.start < t.start else 0.0,
        float(max(0, right.start - left.end)),
        float(sum(1 for m in context.mentions if left.end <= m.start and m.end <= right.start)),
        1.0 if left.end > right.start else 0.0,  # nested or overlapping
        *rivals,
        claimed - rivals[0],
        claimed - rivals[1],
        float(len(tokens)),
        float(len(context.mentions)),
        float(len(context.proposals)),
        *(1.0 if x.lower() in GENERIC else 0.0 for x in texts),
        *(1.0 if tokens[m.start].lower() in _DEICTIC else 0.0 for m in (h, t)),
        *(float(sum(c.isupper() for c in x)) for x in texts),
        *(1.0 if w in between else 0.0 for w in TRIGGERS),
        *(1.0 if label == k else 0.0 for k in labels),
        *(1.0 if h.type == k else 0.0 for k in types),
        *(1.0 if t.type == k else 0.0 for k in types),
    ]


@dataclass(frozen=True)
class _Proposal:
    features: list[float]
    right: bool
    confidence: float
    fold: int


def strict_proposals(
    spans: SpanModel,
    relations: RelationModel,
    sentence: Annotated,
    *,
    mention_at: float,
    propose_at: float,
    types: Sequence[str],
) -> list[tuple[list[float], bool, float]]:
    """The extractor's proposals on one annotated sentence: features, strictly right, confidence."""
    gold = set()
    for h, label, t in sentence.relations:
        a, b = sentence.mentions[h], sentence.mentions[t]
        gold.add(((a.start, a.end), label, (b.start, b.end)))
        if label in relations.symmetric:
            gold.add(((b.start, b.end), label, (a.start, a.end)))
    context = sentence_context(
        spans, relations, sentence.tokens, mention_at=mention_at, propose_at=propose_at
    )
    out = []
    for i, label, j, p in context.proposals:
        head, tail = context.mentions[i], context.mentions[j]
        right = ((head.start, head.end), label, (tail.start, tail.end)) in gold
        out.append((triple_features(context, i, j, label, relations.labels, types), right, p))
    return out


def _booster(rows: int) -> HistGradientBoostingClassifier:
    return HistGradientBoostingClassifier(
        max_iter=300,
        learning_rate=0.03,
        max_leaf_nodes=4,
        min_samples_leaf=max(2, min(40, rows // 20)),
        l2_regularization=1.0,
        random_state=0,
    )


def _best_point(scores: np.ndarray, right: np.ndarray, gold: int) -> tuple[float, float]:
    """The score at or above which admitting gives the best F1, and that F1."""
    best = (1.0, 0.0)
    for cut in np.unique(np.round(scores, 3)):
        chosen = scores >= cut
        tp = int(right[chosen].sum())
        f1 = 2 * tp / (int(chosen.sum()) + gold) if gold else 0.0
        if f1 > best[1]:
            best = (float(cut), f1)
    return best


@dataclass(frozen=True)
class Verifier:
    """A calibrated probability that a claim of the schema is right (module docstring)."""

    model: HistGradientBoostingClassifier | None
    """None when the training proposals were all right or all wrong: then :attr:`prior` is the
    probability of every claim."""
    calibration: IsotonicRegression
    labels: tuple[str, ...]
    types: tuple[str, ...]
    admit_at: float
    """The probability at or above which admitting gave the best out-of-fold F1 on training data."""
    bars: tuple[float, float]
    """The extractor's mention and relation bars it was trained at: a claim's sentence is read at
    the same bars (:func:`sentence_context`), so that its features mean what they meant in training."""
    report: Mapping[str, float | int | None] = field(default_factory=dict)
    prior: float = 0.0

    @classmethod
    def train(
        cls,
        documents: Sequence[Sequence[Annotated]],
        symmetric: frozenset[str],
        types: Sequence[str],
        *,
        mention_at: float,
        propose_at: float,
        folds: int = FOLDS,
    ) -> Verifier:
        """Out-of-fold proposals of the extractor on ``documents``, then the classifier and its
        calibration (module docstring)."""
        rows: list[_Proposal] = []
        gold = 0
        bars = (mention_at, propose_at)
        labels: tuple[str, ...] = ()
        folds = max(2, min(folds, len(documents)))
        for fold in range(folds):
            fit = [s for n, doc in enumerate(documents) if n % folds != fold for s in doc]
            held = [s for n, doc in enumerate(documents) if n % folds == fold for s in doc]
            spans, relations = SpanModel.train(fit), RelationModel.train(fit, symmetric)
            labels = relations.labels
            for sentence in held:
                gold += len(sentence.relations)
                for features, right, p in strict_proposals(
                    spans, relations, sentence, mention_at=mention_at, propose_at=propose_at, types=types
                ):
                    rows.append(_Proposal(features, right, p, fold))
        y = np.array([r.right for r in rows], dtype=int)
        everything = 2 * int(y.sum()) / (len(rows) + gold) if gold else 0.0
        report: dict[str, float | int | None] = {
            "proposals": len(rows),
            "right": int(y.sum()),
            "gold": gold,
            "f1_every_proposal": round(everything, 4),
        }
        prior = float(y.mean()) if len(rows) else 0.0
        if len(set(y.tolist())) < 2 or len({r.fold for r in rows}) < 2:
            constant = IsotonicRegression(out_of_bounds="clip").fit([0.0, 1.0], [prior, prior])
            return cls(None, constant, labels, tuple(types), 0.0, bars, report, round(prior, 4))
        x = np.array([r.features for r in rows])
        cut = np.array([r.fold for r in rows])
        scores = np.full(len(rows), prior)
        for fold in range(folds):
            held_out, fit = cut == fold, cut != fold
            if held_out.any() and len(set(y[fit].tolist())) == 2:
                booster = _booster(int(fit.sum())).fit(x[fit], y[fit])
                scores[held_out] = booster.predict_proba(x[held_out])[:, 1]
        calibrated = np.zeros(len(rows))
        for fold in range(folds):
            held_out = cut == fold
            iso = IsotonicRegression(out_of_bounds="clip").fit(scores[~held_out], y[~held_out])
            calibrated[held_out] = iso.predict(scores[held_out])
        admit_at, best = _best_point(calibrated, y, gold)
        report.update(
            {
                "auc_extractor": round(float(roc_auc_score(y, [r.confidence for r in rows])), 4),
                "auc_verifier": round(float(roc_auc_score(y, scores)), 4),
                "f1_at_admit_at": round(best, 4),
            }
        )
        calibration = IsotonicRegression(out_of_bounds="clip").fit(scores, y)
        model = _booster(len(rows)).fit(x, y)
        return cls(model, calibration, labels, tuple(types), admit_at, bars, report, round(prior, 4))

    def probability(self, features: Sequence[float]) -> float:
        """The calibrated probability that the claim with these features is right."""
        if self.model is None:
            return self.prior
        score = self.model.predict_proba(np.array([list(features)]))[:, 1]
        return round(float(self.calibration.predict(score)[0]), 4)

    def features(self, context: SentenceContext, head: Mention, tail: Mention, label: str) -> list[float]:
        """:func:`triple_features` of the claim (``head``, ``label``, ``tail``) of the sentence of
        ``context``, whose mentions must include both ends (:func:`sentence_context`'s ``also``)."""
        return triple_features(
            context, context.index(head), context.index(tail), label, self.labels, self.types
        )
