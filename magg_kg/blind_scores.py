"""Scores of a blind review (:mod:`magg_kg.blind`): the filled labels read against the sample's key.

Scoring reads the key and the filled labels. Per database, and per edge type within it:

- acceptance rate = labels with verdict ``ACCEPT`` / labelled reviews;
- genuine-endpoint rate = labels with both ``src_ok`` and ``dst_ok`` true / labelled reviews;

each with its 95% Wilson score interval. In a sample of proposals, the same per outcome (admitted,
open, rejected), and the share of the reviews labelled ACCEPT that were admitted. A review whose
label is missing or left empty (all of ``src_ok``, ``dst_ok``, ``verdict`` null) is unlabelled: it
is reported and left out.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from magg_kg.blind import OUTCOMES, Label, Outcome, SampleKey
from magg_kg.errors import UserError

__all__ = ["DatabaseScore", "LabelCounts", "Rate", "Scores", "score_labels", "wilson_interval"]

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(count: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``count`` successes in ``n`` trials ((0, 1) when n is 0).

    >>> [round(x, 4) for x in wilson_interval(17, 20)]
    [0.6396, 0.9476]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return (0.0, 1.0)
    p = count / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rate:
    """``count`` of ``n``, with its share and 95% Wilson interval."""

    count: int
    n: int

    def as_json(self) -> dict[str, float | int | None]:
        low, high = wilson_interval(self.count, self.n)
        share = self.count / self.n if self.n else None
        return {
            "count": self.count,
            "n": self.n,
            "rate": None if share is None else round(share, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }


@dataclass(frozen=True)
class LabelCounts:
    """Labelled reviews, accepted ones, and ones with both endpoints genuine."""

    labelled: int
    accepted: int
    genuine: int

    @property
    def acceptance(self) -> Rate:
        return Rate(self.accepted, self.labelled)

    @property
    def genuine_endpoints(self) -> Rate:
        return Rate(self.genuine, self.labelled)

    @classmethod
    def of(cls, labels: Sequence[Label]) -> LabelCounts:
        """The counts of filled-in labels."""
        return cls(
            labelled=len(labels),
            accepted=sum(label.verdict == "ACCEPT" for label in labels),
            genuine=sum(bool(label.src_ok and label.dst_ok) for label in labels),
        )

    def as_json(self) -> dict[str, object]:
        return {
            "labelled": self.labelled,
            "acceptance": self.acceptance.as_json(),
            "genuine_endpoints": self.genuine_endpoints.as_json(),
        }


@dataclass(frozen=True)
class DatabaseScore:
    """One database's label counts, overall and per edge type (types sorted); in a sample of
    proposals, also per outcome (admitted, open, rejected, in that order)."""

    db: str
    overall: LabelCounts
    by_type: tuple[tuple[str, LabelCounts], ...]
    by_outcome: tuple[tuple[Outcome, LabelCounts], ...] = ()

    @property
    def acceptable_admitted(self) -> Rate | None:
        """Of the reviews labelled ACCEPT, the share admitted: the recall of admission on the
        edges the extractor proposed (None outside a sample of proposals)."""
        if not self.by_outcome:
            return None
        outcomes = dict(self.by_outcome)
        admitted = outcomes["admitted"].accepted if "admitted" in outcomes else 0
        return Rate(admitted, sum(counts.accepted for counts in outcomes.values()))

    def as_json(self) -> dict[str, object]:
        shown: dict[str, object] = {
            **self.overall.as_json(),
            "by_type": {type_: counts.as_json() for type_, counts in self.by_type},
        }
        if (recall := self.acceptable_admitted) is not None:
            shown["by_outcome"] = {outcome: counts.as_json() for outcome, counts in self.by_outcome}
            shown["acceptable_admitted"] = recall.as_json()
        return shown


@dataclass(frozen=True)
class Scores:
    """Every database's score, in the order the sample was drawn, and the unlabelled review ids."""

    reviews: int
    unlabelled: tuple[str, ...]
    databases: tuple[DatabaseScore, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "reviews": self.reviews,
            "labelled": self.reviews - len(self.unlabelled),
            "unlabelled": list(self.unlabelled),
            "confidence": 0.95,
            "databases": {score.db: score.as_json() for score in self.databases},
        }


def _named(ids: Sequence[str]) -> str:
    return ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")


def score_labels(key: SampleKey, labels: Sequence[Label]) -> Scores:
    """Scores the filled labels against the key; refuses labels that do not fit the sample: of
    review ids not in the key, or with another sample's fingerprint (labels without one pass)."""
    others = sorted({label.sample for label in labels if label.sample not in (None, key.sample)})
    if others:
        raise UserError(
            f"the labels are of sample {', '.join(map(str, others))}, the key of sample "
            f"{key.sample or '(none: written before samples had a fingerprint)'}: "
            "pass the labels filled from this key's PREFIX.labels.jsonl"
        )
    unknown = sorted({label.review_id for label in labels if label.review_id not in key.reviews})
    if unknown:
        raise UserError(
            f"labels for review ids not in the key: {_named(unknown)}; were they made for another sample?"
        )
    twice = sorted(id_ for id_, count in Counter(label.review_id for label in labels).items() if count > 1)
    if twice:
        raise UserError(f"more than one label for review ids {_named(twice)}: keep one line per review")
    filled = {label.review_id: label for label in labels if label.verdict is not None}
    if not filled:
        raise UserError(
            f"no review is labelled yet ({len(key.reviews)} in the key): fill in the labels file first"
        )
    databases = []
    for draw in key.databases:
        mine = [(key.reviews[id_], label) for id_, label in filled.items() if key.reviews[id_].db == draw.db]
        types = sorted({entry.type for entry, _ in mine})
        by_type = [(t, LabelCounts.of([label for entry, label in mine if entry.type == t])) for t in types]
        by_outcome = [
            (outcome, LabelCounts.of([label for entry, label in mine if entry.outcome == outcome]))
            for outcome in OUTCOMES
            if key.unit == "proposals"
        ]
        overall = LabelCounts.of([label for _, label in mine])
        databases.append(DatabaseScore(draw.db, overall, tuple(by_type), tuple(by_outcome)))
    unlabelled = tuple(sorted(id_ for id_ in key.reviews if id_ not in filled))
    return Scores(reviews=len(key.reviews), unlabelled=unlabelled, databases=tuple(databases))
