"""Training the offline judgment models from development data, reproducibly.

Two models (:class:`agents.offline.model.JudgmentModel`): the *reference* model, fitted on the claims
of a Metacademy-layout folder, and the *lessons* model, fitted on labelled lesson claims alone.

Examples. Each labelled claim is turned into the judge prompt it would get in the pipeline
(:func:`governance.claims.build_claim` over a :class:`~agents.support.GraphView` of the graph it
would be judged against), and :func:`agents.offline.features.claim_features` reads the features
from that prompt, so training and judging see claims the same way. Sources:

- the replay candidate sets of a Metacademy-layout folder (:mod:`governance.evaluation.replay`) for several
  seeds: gold prerequisites against the established half of the graph, and their corruptions
  (reversed, wrong type, shortcut, unrelated, unknown concept, injected, contradiction);
- Metacademy's ``see_also`` links between two concepts as ``related`` claims (label 1), with
  unrelated pairs as ``related`` claims (label 0);
- for the lessons model, the implicit claims among the labelled lesson claims (JSON lines written
  by ``magg model claims`` and labelled by a reader with ``REVIEW-RUBRIC.md``,
  :mod:`governance.labelled`): the judge prompt's payload and data, and the label.

Validation is concept-disjoint, for each model apart: concepts are split into folds by a stable
hash; a claim is tested in its source concept's fold by a model trained on the claims that touch
no concept of that fold. The held-out margins calibrate the model (Platt scaling), and they give
the reported figures:
precision and recall at the commit threshold (0.80) and at the reject threshold (0.50), and a
reliability table (predicted probability against observed frequency, per bin).
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
from scipy.sparse import csr_matrix
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from agents.findings import read_quote
from agents.judge import judge_prompt
from agents.offline.features import FEATURES, LEXICAL, claim_features
from agents.offline.model import JudgmentModel, LinearModel
from agents.support import GraphView
from governance.claims import build_claim
from governance.evaluation.replay import Candidate, Dataset, Link, build_candidates, load_dataset
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.records import Concept, Proposal, Span

__all__ = [
    "GRAPH_STATE",
    "LESSON_FEATURES",
    "ClaimExample",
    "TrainingReport",
    "borrow_objections",
    "fit",
    "lesson_examples",
    "metacademy_examples",
    "train",
]

FOLDS = 5
SEEDS = (1, 2, 3)
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
COMMIT_AT, REJECT_BELOW = 0.80, 0.50
_AT = "2026-01-01T00:00:00.000000Z"


@dataclass(frozen=True)
class ClaimExample:
    """One labelled claim: its features, its label, the concepts it touches and where it came from."""

    values: dict[str, float]
    label: int
    src: str
    dst: str
    kind: str


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


def _concepts(dataset: Dataset) -> list[Concept]:
    return [
        Concept(id=c.tag, name=c.title, type="concept", description=c.summary[:20_000], recorded_at=_AT)
        for c in sorted(dataset.concepts.values(), key=lambda c: c.tag)
    ]


def _example(view: GraphView, candidate: Candidate, dataset: Dataset, number: int) -> ClaimExample:
    evidence = tuple(
        Span(lesson_id="metacademy", start=0, end=len(text), quote=text, kind="implicit")
        for text in candidate.evidence
    )
    proposal = Proposal(
        id=f"p-train-{number}",
        src=candidate.src,
        type=candidate.type,
        dst=candidate.dst,
        confidence=candidate.confidence,
        evidence=evidence,
        origin="replay",
        created_at=_AT,
    )
    claim = build_claim(view, proposal, evidence, confidence=candidate.confidence)
    prompt = judge_prompt(claim, COMMIT_AT, REJECT_BELOW)
    return ClaimExample(
        claim_features(prompt.payload, prompt.data),
        candidate.label,
        candidate.src,
        candidate.dst,
        candidate.kind,
    )


def metacademy_examples(folder: Path, seeds: Sequence[int] = SEEDS) -> list[ClaimExample]:
    """Labelled claims from a Metacademy-layout folder (see the module docstring)."""
    dataset = load_dataset(folder)
    concepts = _concepts(dataset)
    examples: list[ClaimExample] = []
    number = 0
    for seed in seeds:
        candidate_set = build_candidates(dataset, seed)
        edges = [(e.src, "prerequisite", e.dst) for e in candidate_set.established]
        view = GraphView(concepts, edges, courses=dataset.courses)  # the textbooks, as replay's judge
        for candidate in candidate_set.candidates:
            examples.append(_example(view, candidate, dataset, number))
            number += 1
    established = build_candidates(dataset, min(seeds)).established
    full = GraphView(concepts, [(e.src, "prerequisite", e.dst) for e in established], courses=dataset.courses)
    rng = random.Random(min(seeds))
    tags = sorted(dataset.concepts)
    linked = {(link.src, link.dst) for link in dataset.links} | {
        (link.dst, link.src) for link in dataset.links
    }
    related = [link for link in dataset.links if link.relation == "see_also" and link.both_concepts]
    examples += _typed_links(full, dataset, related, number)
    number = len(examples)
    for link in related:
        candidate = Candidate(
            link.src,
            "related",
            link.dst,
            dataset.evidence(link.src, link.dst, context=link.context),
            1,
            "see_also",
        )
        examples.append(_example(full, candidate, dataset, number))
        number += 1
        while True:
            a, b = rng.sample(tags, 2)
            if (a, b) not in linked:
                break
        negative = Candidate(a, "related", b, dataset.evidence(a, b), 0, "unrelated_related")
        examples.append(_example(full, negative, dataset, number))
        number += 1
    return examples


_TYPED = ("part_of", "builds_on", "contrasts_with", "prerequisite", "applies_to")


def _typed_links(view: GraphView, dataset: Dataset, links: Sequence[Link], number: int) -> list[ClaimExample]:
    """See-also links whose sentence states a typed relation between the two concepts ("X is a
    special case of Y", "X is an alternative to Y"), as claims of that type and direction (label 1)."""
    found: list[ClaimExample] = []
    for link in links:
        if not link.context:
            continue
        names = (_names(dataset, link.src), _names(dataset, link.dst))
        for type_ in _TYPED:
            claim = (link.src, type_, link.dst)
            reading = read_quote(0, "metacademy", "implicit", link.context, claim, names)
            if reading.stated in ("forward", "reverse"):
                src, dst = (link.src, link.dst) if reading.stated == "forward" else (link.dst, link.src)
                evidence = dataset.evidence(src, dst, context=link.context)
                candidate = Candidate(src, type_, dst, evidence, 1, "see_also_typed")
                found.append(_example(view, candidate, dataset, number + len(found)))
                break
    return found


def _names(dataset: Dataset, tag: str) -> list[str]:
    concept = dataset.concepts.get(tag)
    words = tag.replace("_", " ")
    return [concept.title, words] if concept is not None else [words]


def lesson_examples(path: Path) -> list[ClaimExample]:
    """Labelled lesson claims: JSON lines with ``payload``, ``data`` and ``label`` (0 or 1)."""
    examples = []
    for where, row in json_objects(path):
        payload, data, label = row.get("payload"), row.get("data"), row.get("label")
        proposal = payload.get("proposal") if isinstance(payload, dict) else None
        if (
            not isinstance(payload, dict)
            or not isinstance(proposal, dict)
            or not isinstance(data, str)
            or (label not in (0, 1))
        ):
            raise InputError(f"{where}: expected a labelled claim (payload.proposal, data, label 0 or 1)")
        src, dst = str(proposal.get("src")), str(proposal.get("dst"))
        examples.append(ClaimExample(claim_features(payload, data), int(label), src, dst, "lesson"))
    return examples


def _fold(concept: str, folds: int) -> int:
    return int(hashlib.sha256(concept.encode("utf-8")).hexdigest()[:8], 16) % folds


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
    src_fold = np.array([_fold(e.src, folds) for e in examples])
    dst_fold = np.array([_fold(e.dst, folds) for e in examples])
    for k in range(folds):
        train = (src_fold != k) & (dst_fold != k)
        test = src_fold == k
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
    held_p = 1.0 / (1.0 + np.exp(-(scale * margins[tested] + shift)))
    held_y = y[tested]
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
    report = TrainingReport(
        examples=len(examples),
        positives=int(y.sum()),
        folds=folds,
        at_commit=_rates(held_p, held_y, COMMIT_AT),
        at_reject=_rates(held_p, held_y, REJECT_BELOW),
        reliability=_reliability(held_p, held_y),
    )
    kinds = np.array([e.kind for e in examples])[tested]
    for kind in sorted(set(kinds)):
        inside = kinds == kind
        rates = _rates(held_p[inside], held_y[inside], COMMIT_AT)
        report.by_kind[kind] = {
            "count": int(inside.sum()),
            "true_share": round(float(held_y[inside].mean()), 4),
            "admitted_at_commit": round(float((held_p[inside] >= COMMIT_AT).mean()), 4),
            "precision_at_commit": rates["precision"],
            "kept_out_below_reject": round(float((held_p[inside] < REJECT_BELOW).mean()), 4),
        }
    report.by_source = {
        kind: int((np.array([e.kind for e in examples]) == kind).sum())
        for kind in sorted(set(e.kind for e in examples))
    }
    return model, report


def train(
    metacademy: Path, labelled: Sequence[ClaimExample] = ()
) -> tuple[JudgmentModel, dict[str, TrainingReport]]:
    """Builds the examples, fits the reference model on the Metacademy-layout claims and the lessons
    model on the ``labelled`` implicit lesson claims (when there are any:
    :func:`governance.labelled.lesson_labels`). The reports are by part: ``reference`` and
    ``lessons``; ``magg model build`` writes them into the model file."""
    reports: dict[str, TrainingReport] = {}
    reference, reports["reference"] = fit(metacademy_examples(metacademy))
    lesson_model = None
    if labelled:
        lesson_model, reports["lessons"] = fit(
            labelled, regularization=LESSON_REGULARIZATION, lexical=False, dense=LESSON_FEATURES
        )
        lesson_model = borrow_objections(lesson_model, reference, labelled)
    return JudgmentModel(reference, lesson_model), reports


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
