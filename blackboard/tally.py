"""The tally: the weight-normalized score of the votes posted on one hypothesis.

The tally is a weighted mean, so it does not depend on the order in which owners posted:
``score = sum(weight * score) / sum(weight)``; with no weight at all there is no score.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

__all__ = ["Ballot", "Tally", "tally"]


class Ballot(Protocol):
    """Anything with a weight and a score in [0, 1] (a vote)."""

    @property
    def weight(self) -> float: ...

    @property
    def score(self) -> float: ...


@dataclass(frozen=True)
class Tally:
    score: float | None
    weight: float
    votes: int


def tally(ballots: Iterable[Ballot]) -> Tally:
    """The weighted mean of the ballots' scores, independent of their order.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class B:
    ...     weight: float
    ...     score: float
    >>> tally([B(1.0, 0.9), B(0.5, 0.3)]).score
    0.7
    """
    items = sorted((float(b.weight), float(b.score)) for b in ballots)
    weight = math.fsum(w for w, _ in items if w > 0)
    if weight <= 0:
        return Tally(None, 0.0, len(items))
    score = math.fsum(w * s for w, s in items if w > 0) / weight
    return Tally(round(min(1.0, max(0.0, score)), 12), weight, len(items))
