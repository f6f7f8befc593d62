"""The injection detector's two bars, chosen on out-of-fold probabilities by what a flag costs.

- The **instruction threshold** (:func:`unit_bar`): a quote scoring at or above it is treated as an
  instruction (owners reject it, grounding drops it), so a false alarm costs knowledge. It is the
  lowest bar at which at most a budget of the units of each lesson source is flagged.
- The **suspicion threshold** (:func:`suspicion_bar`): a unit scoring at or above it holds every
  claim within :data:`agents.offline.injection.NEAR` characters of it (of its whole section, when
  it reaches the instruction threshold) for a person
  (:meth:`agents.offline.injection.Scan.held`). What it catches is its recall of the
  instruction texts; what it costs is counted where it falls, as the share of a real course's
  text that its flags hold (one review per claim held), each lesson read whole (a heading
  repeated in every lesson holds a section in every lesson, though it is one training unit).
  The bar is the cheapest one that still catches a required share of the instruction texts:
  the highest bar whose recall reaches that floor. :class:`BarRow` lays out the trade-off.

Bars are multiples of 0.01; a bar never exceeds 0.99.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from agents.offline.injection import Scan, scan_score
from agents.offline.lesson_units import sections, units

__all__ = ["BARS", "BarRow", "CourseLesson", "held_share", "suspicion_bar", "unit_bar"]

BARS = tuple(round(0.01 * i, 2) for i in range(30, 100))
"""The bars considered, lowest first."""


def unit_bar(probability: np.ndarray, sources: np.ndarray, names: Sequence[str], budget: float) -> float:
    """The lowest bar (a multiple of 0.01) that flags at most ``budget`` of the units of each of
    the sources ``names``."""
    bars = []
    for source in names:
        scores = np.sort(probability[sources == source])[::-1]
        allowed = math.floor(budget * len(scores))
        bars.append(float(scores[allowed]) if allowed < len(scores) else 0.0)
    return min(0.99, math.floor(max(bars) * 100 + 1e-9) / 100 + 0.01)


@dataclass(frozen=True)
class CourseLesson:
    """A real lesson read whole: its source (a course), text, sections and units."""

    source: str
    text: str
    sections: tuple[tuple[int, int], ...]
    units: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, source: str, text: str) -> CourseLesson:
        return cls(source, text, tuple(sections(text)), tuple(units(text)))


def held_share(
    lessons: Sequence[CourseLesson], probability: Callable[[str], float], bar: float
) -> dict[str, float]:
    """By source, the share of the lessons' characters that units scoring at least ``bar`` hold (as a
    scan reads them: :func:`agents.offline.injection.scan_score`)."""
    held: dict[str, int] = {}
    total: dict[str, int] = {}
    for lesson in lessons:
        flagged = tuple(
            (s, e, p)
            for s, e in lesson.units
            if (p := scan_score(unit := lesson.text[s:e], probability(unit))) >= bar
        )
        found = Scan(lesson.text, lesson.sections, flagged, ()).held()
        held[lesson.source] = held.get(lesson.source, 0) + sum(e - s for s, e in found)
        total[lesson.source] = total.get(lesson.source, 0) + len(lesson.text)
    return {source: held[source] / max(1, total[source]) for source in sorted(total)}


@dataclass(frozen=True)
class BarRow:
    """One bar of the trade-off: its recall of instruction texts, and the share of each real
    course's text it holds for a person."""

    bar: float
    recall: float
    held: Mapping[str, float]


def suspicion_bar(
    lessons: Sequence[CourseLesson],
    probability: Callable[[str], float],
    positives: np.ndarray,
    floor: float,
    ceiling: float,
) -> tuple[float, list[BarRow]]:
    """The highest bar, at most ``ceiling``, whose recall of the instruction texts is at least
    ``floor`` (the lowest bar considered when none is), and the trade-off at every bar considered.

    The held share only falls as the bar rises, so this is the bar that holds the least text for
    a person among those that catch enough. ``probability`` gives a lesson unit's out-of-fold
    probability by its text; ``positives`` are the instruction texts' out-of-fold probabilities.
    """
    rows = [
        BarRow(
            bar,
            float((positives >= bar).mean()) if len(positives) else 0.0,
            held_share(lessons, probability, bar),
        )
        for bar in BARS
        if bar <= ceiling
    ]
    enough = [row.bar for row in rows if row.recall >= floor]
    return (max(enough) if enough else rows[0].bar), rows
