"""The teaching order: where the curriculum, and any other course it knows, teaches each concept.

A claim of learning order (``A prerequisite B``) is checked against the order in which concepts
are taught. The curriculum's own order is its lessons': the position (in ingestion order) of the
first lesson that teaches a concept. A data set may name other courses too, each with an order of
its own (Metacademy cites the textbook sections that teach each concept: each textbook is a course,
its concepts in the order of their sections). Positions of different courses are never compared:
a concept taught in chapter 2 of one book and another in chapter 14 of a second book say nothing
about each other.

:meth:`TeachingOrder.positions` gives, for two concepts, their positions in the order that teaches
both: the curriculum's when its lessons teach both; else the courses that teach both vote (each
says which comes first), and the positions are those of the first course on the winning side; a
tie, or no course teaching both, leaves the curriculum's positions as they are (``None`` for a
concept no lesson teaches).

>>> order = TeachingOrder({"a": 0})
>>> order.add_course({"b": 3, "c": 9})
>>> order.add_course({"b": 5, "c": 1})
>>> order.add_course({"b": 2, "c": 4})
>>> order.positions("b", "c"), order.positions("a", "c"), order.is_taught("b")
((3, 9), (0, None), False)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

__all__ = ["TeachingOrder"]


class TeachingOrder:
    """The curriculum's lesson order (concept -> position of the first lesson teaching it) and
    the orders of other courses."""

    def __init__(
        self, lessons: Mapping[str, int] | None = None, courses: Iterable[Mapping[str, int]] = ()
    ) -> None:
        self._lessons = dict(lessons or {})
        self._courses: list[dict[str, int]] = []
        for order in courses:
            self.add_course(order)

    def add_course(self, order: Mapping[str, int]) -> None:
        """Another course's order: concept -> position in it."""
        if order:
            self._courses.append(dict(order))

    def is_taught(self, concept: str) -> bool:
        """Whether a lesson of the curriculum teaches the concept."""
        return concept in self._lessons

    def positions(self, first: str, later: str) -> tuple[int | None, int | None]:
        """Where ``first`` and ``later`` are taught, in the order that teaches both (see the module
        docstring)."""
        own = (self._lessons.get(first), self._lessons.get(later))
        if own[0] is not None and own[1] is not None:
            return own
        both = [
            (course[first], course[later]) for course in self._courses if first in course and later in course
        ]
        vote = sum((a < b) - (a > b) for a, b in both)
        if vote == 0:
            return own
        return next((a, b) for a, b in both if (a < b) == (vote > 0) and a != b)
