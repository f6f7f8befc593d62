"""Training the offline judgment models from development data, reproducibly.

Four models (:class:`agents.offline.model.JudgmentModel`): the *reference* model, fitted on the
claims of a Metacademy-layout folder, the *lessons* model, fitted on labelled lesson claims alone,
the *names* model, fitted on the Metacademy claims between bare names, and the *statements* model,
the reference model with its type indicators learned again from labelled lesson statements
(:func:`fit_statements`).

The labelled claims are built by :mod:`governance.claim_examples`.

Validation is concept-disjoint, for each model apart: concepts are split into folds by a stable
hash; a claim is tested in its source concept's fold by a model trained on the claims that touch
no concept of that fold. The held-out margins calibrate the model (Platt scaling), and they give
the reported figures:
precision and recall at the commit threshold (0.80) and at the reject threshold (0.50), and a
reliability table (predicted probability against observed frequency, per bin).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from scipy.optimize import minimize
from scipy.sparse import csr_matrix
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from agents.offline.features import EDGE_TYPES, FEATURES, LEXICAL
from agents.offline.model import JudgmentModel, LinearModel
from governance.claim_examples import (
    COMMIT_AT,
    REJECT_BELOW,
    ClaimExample,
    concept_part,
    metacademy_examples,
    names_examples,
)
from magg_kg.errors import InputError

__all__ = [
    "GRAPH_STATE",
    "LESSON_FEATURES",
    "TYPE_INDICATORS",
    "TrainingReport",
    "borrow_objections",
    "fit",
    "fit_statements",
    "train",
]

FOLDS = 5
REGULARIZATION = 1.0
"""The reference model's inverse regularization strength (scikit-learn's ``C``)."""
LESSON_REGULARIZATION = 0.1
"""The lessons model's: stronger, as it learns from about a thousand labelled claims, not
thousands, and its lexical features are left out (a course's wording is too varied for them)."""
GRAPH_STATE = frozenset(
    {
        "path",
        "implied",
        "already_related",
        "shared",
        "degree_src",
        "degree_dst",
        "isolated",
        "base_earlier",
        "base_later",
        "dependent_earlier",
        "dependent_later",
    }
)
"""Features that read the edges committed so far in support of a claim, left out of the lessons
model: a lesson claim is judged while its graph is being built, so that most of the graph it was
labelled against is not there yet when it is judged. With them, the same claim would score one
way in training and another at ingestion; without them the held-out ranking of lesson claims is no
worse (ROC AUC 0.743 against 0.739 on the d2l chapters never trained on). The graph's objections
(a conflicting edge, an order the other way) stay: they can only hold a claim back."""
LESSON_FEATURES = tuple(name for name in FEATURES if name not in GRAPH_STATE)
MIN_COUNT = 3
TYPE_INDICATORS = tuple(f"type_{name}" for name in EDGE_TYPES)


@dataclass
class TrainingReport:
    """What training measured on held-out folds."""

    examples: int = 0
    positives: int = 0
    by_source: dict[str, int] = field(default_factory=dict)
    folds: int = FOLDS
    at_commit: dict[str, float] = field(default_factory=dict)
    at_reject: dict[str, float] = field(default_factory=dict)
    reliability: list[dict[str, float]] = field(default_factory=list)
    by_kind: dict[str, dict[str, float]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return {
            "examples": self.examples,
            "positives": self.positives,
            "by_source": self.by_source,
            "folds": self.folds,
            "at_commit": self.at_commit,
            "at_reject": self.at_reject,
            "reliability": self.reliability,
            "by_kind": self.by_kind,
        }


def _vocabulary(
    examples: Sequence[ClaimExample], lexical: bool = True, dense: Sequence[str] = FEATURES
) -> list[str]:
    """The ``dense`` features, and (when ``lexical``) the lexical ones seen in at least
    :data:`MIN_COUNT` examples."""
    if not lexical:
        return list(dense)
    counts: dict[str, int] = {}
    for example in examples:
        for name in example.values:
            if name.startswith(LEXICAL):
                counts[name] = counts.get(name, 0) + 1
    return [*dense, *sorted(name for name, count in counts.items() if count >= MIN_COUNT)]


def _matrix(examples: Sequence[ClaimExample], names: Sequence[str]) -> csr_matrix:
    vectorizer = DictVectorizer(sort=False)
    vectorizer.fit([dict.fromkeys(names, 1.0)])
    matrix: csr_matrix = vectorizer.transform([e.values for e in examples])
    return matrix


def _logistic(x: csr_matrix, y: np.ndarray, regularization: float) -> LogisticRegression:
    model = LogisticRegression(C=regularization, max_iter=2000, class_weight="balanced")
    model.fit(x, y)
    return model


def _concept_folds(examples: Sequence[ClaimExample], folds: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """Concept-disjoint folds, as training and test masks: a claim is tested in its source
    concept's fold, by a model trained on the claims that touch no concept of that fold."""
    src_fold = np.array([concept_part(e.src, folds) for e in examples])
    dst_fold = np.array([concept_part(e.dst, folds) for e in examples])
    return [((src_fold != k) & (dst_fold != k), src_fold == k) for k in range(folds)]


def _platt(margins: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    calibrator = LogisticRegression(C=1e6, max_iter=1000)
    calibrator.fit(margins.reshape(-1, 1), y)
    return float(calibrator.coef_[0][0]), float(calibrator.intercept_[0])


def _rates(p: np.ndarray, y: np.ndarray, at: float) -> dict[str, float]:
    chosen = p >= at
    kept = int(chosen.sum())
    hits = int((chosen & (y == 1)).sum())
    return {
        "threshold": at,
        "admitted": kept,
        "precision": round(hits / kept, 4) if kept else 0.0,
        "recall": round(hits / int((y == 1).sum()), 4) if (y == 1).any() else 0.0,
    }


def _reliability(p: np.ndarray, y: np.ndarray) -> list[dict[str, float]]:
    rows = []
    edges = [0.0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 1.0001]
    for low, high in itertools.pairwise(edges):
        inside = (p >= low) & (p < high)
        if inside.any():
            rows.append(
                {
                    "low": low,
                    "high": min(1.0, high),
                    "count": int(inside.sum()),
                    "predicted": round(float(p[inside].mean()), 4),
                    "observed": round(float(y[inside].mean()), 4),
                }
            )
    return rows


def fit(
    examples: Sequence[ClaimExample],
    folds: int = FOLDS,
    version: str = "judgment",
    regularization: float = REGULARIZATION,
    lexical: bool = True,
    dense: Sequence[str] = FEATURES,
) -> tuple[LinearModel, TrainingReport]:
    """Concept-disjoint cross-validation, Platt calibration on held-out margins, final fit, over
    the ``dense`` features and (when ``lexical``) the lexical ones."""
    names = _vocabulary(examples, lexical, dense)
    x, y = _matrix(examples, names), np.array([e.label for e in examples])
    margins = np.full(len(examples), np.nan)
    for train, test in _concept_folds(examples, folds):
        if len(set(y[train])) < 2 or not test.any():
            continue
        margins[test] = _logistic(x[train], y[train], regularization).decision_function(x[test])
    tested = ~np.isnan(margins)
    if len(set(y[tested])) < 2:
        raise InputError(
            f"{len(examples)} labelled claims ({int(y.sum())} true) are too few to cross-validate over "
            f"{folds} concept-disjoint folds: label more claims, of both kinds, over more concepts"
        )
    scale, shift = _platt(margins[tested], y[tested])
    final = _logistic(x, y, regularization)
    kept = [
        (n, float(w))
        for n, w in zip(names, final.coef_[0], strict=True)
        if not n.startswith(LEXICAL) or abs(w) >= 0.01
    ]
    model = LinearModel(
        tuple(n for n, _ in kept),
        tuple(w for _, w in kept),
        float(final.intercept_[0]),
        scale,
        shift,
        version,
    )
    held = np.full(len(examples), np.nan)
    held[tested] = _sigmoid(scale * margins[tested] + shift)
    sources = [e.kind for e in examples]
    by_source = {kind: sources.count(kind) for kind in sorted(set(sources))}
    return model, _report(held, y, np.array(sources), folds, by_source)


def train(
    metacademy: Path, labelled: Sequence[ClaimExample] = (), statements: Sequence[ClaimExample] = ()
) -> tuple[JudgmentModel, dict[str, TrainingReport]]:
    """Builds the examples, fits the reference model on the Metacademy-layout claims, the lessons
    model on the ``labelled`` implicit lesson claims (when there are any:
    :func:`governance.labelled.lesson_labels`), the names model on the Metacademy-layout claims
    between bare names, and the statements model on the labelled lesson ``statements`` (when there
    are any: :func:`governance.labelled.statement_labels`). The reports are by part:
    ``reference``, ``lessons``, ``names`` and ``statements``; ``magg model build`` writes them into
    the model file."""
    reports: dict[str, TrainingReport] = {}
    reference, reports["reference"] = fit(metacademy_examples(metacademy))
    lesson_model = None
    if labelled:
        lesson_model, reports["lessons"] = fit(
            labelled, regularization=LESSON_REGULARIZATION, lexical=False, dense=LESSON_FEATURES
        )
        lesson_model = borrow_objections(lesson_model, reference, labelled)
    names, reports["names"] = fit(names_examples(metacademy), version="judgment-names")
    stated = None
    if statements:
        stated, reports["statements"] = fit_statements(reference, statements)
    return JudgmentModel(reference, lesson_model, names, stated), reports


def fit_statements(
    reference: LinearModel, examples: Sequence[ClaimExample], folds: int = FOLDS
) -> tuple[LinearModel, TrainingReport]:
    """The statements model: the reference model with its edge-type indicators learned anew from
    labelled lesson statements (``examples``: relations a lesson states in so many words, "Adam is
    an optimizer").

    The reference model's type indicators learn how its claims were made: Metacademy has no part or
    contrast among its true claims, only among its corruptions, so ``type_part_of`` counts against
    any part, stated or not; its prerequisites and see-also links (``related``) are true claims, and
    their indicators mean what they say. Everything else it learned (a stated cue, hedging, the
    descriptions, the graph) keeps its weight and its calibration, validated on held-out Metacademy
    concepts. The statements fit the six indicators alone (each claim has one type: they are its
    intercept), as a logistic regression with the reference model's calibrated score without them as
    a fixed offset, and a penalty that pulls each toward the reference model's own value
    (``(b - b_reference)^2 / (2C)``, ``C`` = :data:`REGULARIZATION`): a type shown by many statements
    gets the value they tell, one shown by few moves less from the reference model's, one shown by
    none keeps it, and a claim of that type scores as the reference model scores it. The weight of the
    reference score is not refitted, as the statements of Metacademy's own summaries, where the
    reference model was fitted, would teach it that the score tells nothing. Concept-disjoint folds
    give the reported figures, as in :func:`fit`."""
    rows = [_statement_row(reference, example.values) for example in examples]
    offset = np.array([reference.scale * row[0] + reference.shift for row in rows])
    x = np.array([row[1:] for row in rows])
    y = np.array([example.label for example in examples])
    prior = np.array([reference.scale * reference.table.get(name, 0.0) for name in TYPE_INDICATORS])
    held = np.full(len(examples), np.nan)
    for train, test in _concept_folds(examples, folds):
        if len(set(y[train])) < 2 or not test.any():
            continue
        held[test] = _sigmoid(
            offset[test] + x[test] @ _offset_logistic(offset[train], x[train], y[train], prior)
        )
    tested = ~np.isnan(held)
    if len(set(y)) < 2 or len(set(y[tested])) < 2:
        raise InputError(
            f"{len(examples)} labelled lesson statements ({int(y.sum())} acceptable) are too few to "
            f"cross-validate over {folds} concept-disjoint folds: label more, of both kinds"
        )
    indicators = _offset_logistic(offset, x, y, prior)
    kept = [name for name in reference.features if name not in TYPE_INDICATORS]
    model = LinearModel(
        (*kept, *TYPE_INDICATORS),
        (*(reference.scale * reference.table[name] for name in kept), *(float(b) for b in indicators)),
        reference.scale * reference.intercept + reference.shift,
        1.0,
        0.0,
        "judgment-statements",
    )
    types = np.array([_type_of(example.values) for example in examples])
    return model, _report(held, y, types, folds, {"statement": len(examples)})


def _report(
    held: np.ndarray, y: np.ndarray, groups: np.ndarray, folds: int, by_source: dict[str, int]
) -> TrainingReport:
    """The figures of held-out probabilities ``held`` (NaN where a claim was never tested) against
    the labels ``y``: at the gate's thresholds, the reliability table, and by group of claim."""
    tested = ~np.isnan(held)
    held_p, held_y, groups = held[tested], y[tested], groups[tested]
    report = TrainingReport(
        examples=len(y),
        positives=int(y.sum()),
        by_source=by_source,
        folds=folds,
        at_commit=_rates(held_p, held_y, COMMIT_AT),
        at_reject=_rates(held_p, held_y, REJECT_BELOW),
        reliability=_reliability(held_p, held_y),
    )
    for group in sorted(set(groups)):
        inside = groups == group
        report.by_kind[str(group)] = {
            "count": int(inside.sum()),
            "true_share": round(float(held_y[inside].mean()), 4),
            "admitted_at_commit": round(float((held_p[inside] >= COMMIT_AT).mean()), 4),
            "precision_at_commit": _rates(held_p[inside], held_y[inside], COMMIT_AT)["precision"],
            "kept_out_below_reject": round(float((held_p[inside] < REJECT_BELOW).mean()), 4),
        }
    return report


def _offset_logistic(offset: np.ndarray, x: np.ndarray, y: np.ndarray, prior: np.ndarray) -> np.ndarray:
    """The coefficients of a logistic regression of ``y`` on ``x`` (no intercept) with a fixed
    ``offset`` added to the log-odds, each pulled toward its ``prior`` value as above."""

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray]:
        z = offset + x @ beta
        pulled = beta - prior
        gradient = x.T @ (_sigmoid(z) - y) + pulled / REGULARIZATION
        value = float(np.sum(np.logaddexp(0.0, z) - y * z) + 0.5 * pulled @ pulled / REGULARIZATION)
        return value, gradient

    found = minimize(loss, prior.copy(), jac=True, method="L-BFGS-B")
    return np.asarray(found.x, dtype=float)


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.clip(z, -60.0, 60.0))), dtype=float)


def _statement_row(reference: LinearModel, values: dict[str, float]) -> list[float]:
    """A statement's inputs: the reference margin without the type indicators, then the indicators."""
    untyped = {name: value for name, value in values.items() if name not in TYPE_INDICATORS}
    return [reference.margin(untyped), *(float(values.get(name, 0.0)) for name in TYPE_INDICATORS)]


def _type_of(values: dict[str, float]) -> str:
    return next((name.removeprefix("type_") for name in TYPE_INDICATORS if values.get(name)), "unknown")


def borrow_objections(
    lessons: LinearModel, reference: LinearModel, labelled: Sequence[ClaimExample]
) -> LinearModel:
    """The lessons model, with the reference model's objections it could not learn: for each
    feature that no labelled lesson claim shows (zero in every one) and that lowers the reference
    model's score, that weight, in calibrated log-odds.

    Labelled proposals never carry an instruction to the reviewer, a quote stating the reverse, or a
    conflicting edge: a model fitted on them alone gives these a weight of zero, and would judge a
    lesson claim that carries one as if it did not. What the lesson claims cannot teach, the
    reference claims (injected, reversed, contradicting candidates) do; but only as an objection:
    a feature the lesson claims never showed does not raise one's score, and the edge type's
    indicators (an intercept for each type, in another model) are not borrowed."""
    unseen = {
        name
        for name in lessons.features
        if not name.startswith("type_") and all(not e.values.get(name) for e in labelled)
    }
    table = dict(zip(reference.features, reference.weights, strict=True))
    weights = tuple(
        reference.scale * min(0.0, table.get(name, 0.0)) / lessons.scale if name in unseen else weight
        for name, weight in zip(lessons.features, lessons.weights, strict=True)
    )
    return replace(lessons, weights=weights)
