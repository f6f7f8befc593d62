"""Bounded walks: the simple paths between two concepts along one kind of edge, found by a
breadth-first walk that stops after a fixed amount of work (:class:`agents.support.GraphView` asks
them of the learning order and the part-of hierarchy)."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

__all__ = ["VISITS", "bounded_paths"]

VISITS = 5_000
"""A walk stops after this many expansions."""


def bounded_paths(
    step: Callable[[str], Iterable[str]], start: str, goal: str, hops: int, limit: int
) -> list[tuple[str, ...]]:
    """Simple paths start -> goal of at most ``hops`` edges, shortest first.

    A breadth-first walk that stops after :data:`VISITS` expansions, so a hub costs a bounded
    amount of work (a path it misses is a path the judge does not hear about, never a wrong one).
    """
    found: list[tuple[str, ...]] = []
    queue: deque[tuple[str, ...]] = deque([(start,)])
    visits = 0
    while queue and len(found) < limit and visits < VISITS:
        path = queue.popleft()
        visits += 1
        if len(path) > hops:
            continue
        for successor in sorted(step(path[-1])):
            if successor == goal:
                found.append((*path, goal))
                if len(found) >= limit:
                    break
            elif successor not in path and len(path) < hops:
                queue.append((*path, successor))
    return found
