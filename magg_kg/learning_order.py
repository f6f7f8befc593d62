"""The curriculum's graph algorithms: what comes before, what follows, paths, order, parts.

Every function reads the graph through ``touching`` (concept id -> the active edges that touch
it), so the caller decides how much of the graph may be read and counts what was read: the whole
graph at once (the flat baseline) or one domain at a time, loaded when the search first reaches
one of its concepts (routing, :class:`magg_kg.graph_reader.DomainReader`).

Learning order: ``A prerequisite B`` and ``B builds_on A`` both say A is learned before B; such an
edge read in learning order is a :class:`Step` ``A -> B``. ``A part_of W`` says A is part of W.

- :func:`steps_into` / :func:`steps_out_of`: the direct prerequisites of X / what X unlocks;
- :func:`steps_before`: every concept learned before X (the ancestors in learning order), each
  with the step that leads from it, ordered so that each comes after its own prerequisites
  (``networkx.lexicographical_topological_sort``);
- :func:`learning_path`: the shortest chain of steps from A to B (bidirectional Dijkstra, each step
  weighing 1 plus a thousandth of its doubt ``1 - confidence``, so the best-supported of the
  shortest chains wins); it settles the fewest concepts from both ends, so a routed search reads
  few domains;
- :func:`connection`: the edges between A and B, else the shortest chain of edges of any type
  and direction joining them (how A relates to B);
- :func:`starting_points`: where to start, the concepts nothing comes before that lead on to the
  most.

>>> from magg_kg.learning_order import Step
>>> Step("a", "b", "e-1").src
'a'
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from magg_kg.records import EdgeVersion

__all__ = [
    "ORDER_TYPES",
    "Step",
    "Touching",
    "connection",
    "learning_path",
    "order_step",
    "starting_points",
    "steps_before",
    "steps_into",
    "steps_out_of",
    "wholes_and_parts",
]

ORDER_TYPES = ("prerequisite", "builds_on")
"""The edge types that state a learning order."""
CANDIDATES = 50
"""How many roots :func:`starting_points` counts the descendants of."""
DOUBT_WEIGHT = 1e-3
"""What a step's doubt (1 - confidence) adds to its length: a tie-break between equally short chains."""

Touching = Callable[[str], Sequence[EdgeVersion]]


@dataclass(frozen=True)
class Step:
    """``src`` is learned before ``dst``, as edge ``edge_id`` says (or, for :func:`connection`,
    ``src`` and ``dst`` are joined by it in either direction)."""

    src: str
    dst: str
    edge_id: str
    weight: float = 1.0


def order_step(edge: EdgeVersion) -> Step | None:
    """The edge read in learning order (``builds_on`` turned round), or None for an edge that
    states no order."""
    weight = 1.0 + DOUBT_WEIGHT * (1.0 - edge.grounding.confidence)
    if edge.type == "prerequisite":
        return Step(edge.src, edge.dst, edge.edge_id, weight)
    if edge.type == "builds_on":
        return Step(edge.dst, edge.src, edge.edge_id, weight)
    return None


def _steps(touching: Touching, concept: str) -> list[Step]:
    steps = [order_step(edge) for edge in touching(concept)]
    return sorted((s for s in steps if s is not None), key=lambda s: (s.src, s.dst, s.edge_id))


def steps_into(touching: Touching, concept: str) -> list[Step]:
    """The steps that end at ``concept``: its direct prerequisites."""
    return [s for s in _steps(touching, concept) if s.dst == concept and s.src != concept]


def steps_out_of(touching: Touching, concept: str) -> list[Step]:
    """The steps that start at ``concept``: what it unlocks."""
    return [s for s in _steps(touching, concept) if s.src == concept and s.dst != concept]


def steps_before(touching: Touching, concept: str) -> tuple[list[str], list[Step]]:
    """Every concept learned before ``concept`` in learning order, and one step from each.

    The concepts are ordered so that each comes after its own prerequisites (ties by id); the
    step of each is the one by which the search first reached it (breadth first from ``concept``).
    """
    found: dict[str, Step] = {}
    order = nx.DiGraph()
    frontier = [concept]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for step in steps_into(touching, node):
                order.add_edge(step.src, step.dst)
                if step.src != concept and step.src not in found:
                    found[step.src] = step
                    following.append(step.src)
        frontier = following
    ancestors = order.subgraph(found)
    try:
        ordered = list(nx.lexicographical_topological_sort(ancestors))
    except nx.NetworkXUnfeasible:  # a cycle through the two order types: nearest first, reversed
        ordered = list(reversed(list(found)))
    return [str(c) for c in ordered], [found[str(c)] for c in ordered]


def starting_points(
    touching: Touching, concepts: Iterable[str], most: int = 5
) -> list[tuple[str, list[Step]]]:
    """Where to start: the concepts that nothing comes before in learning order and that lead on to
    others, those that lead on to the most concepts first (ties by id), at most ``most``, each with
    the steps out of it. Only the :data:`CANDIDATES` with the most steps out are followed, so that
    a graph of many roots is not searched from each.

    >>> from types import SimpleNamespace as E
    >>> edges = [E(edge_id=i, type="prerequisite", src=a, dst=b, grounding=E(confidence=1.0))
    ...          for i, (a, b) in enumerate([("a", "b"), ("b", "c"), ("d", "c")])]
    >>> touching = lambda c: [e for e in edges if c in (e.src, e.dst)]
    >>> [(root, [s.dst for s in steps]) for root, steps in starting_points(touching, "abcd")]
    [('a', ['b']), ('d', ['c'])]
    """
    order = nx.DiGraph()
    out: dict[str, list[Step]] = {}
    for concept in concepts:
        steps = _steps(touching, concept)
        order.add_edges_from((step.src, step.dst) for step in steps)
        out[concept] = [step for step in steps if step.src == concept and step.dst != concept]
    roots = [c for c in out if out[c] and order.in_degree(c) == 0]
    followed = sorted(roots, key=lambda c: (-len(out[c]), c))[:CANDIDATES]
    ranked = sorted(followed, key=lambda c: (-len(nx.descendants(order, c)), c))[:most]
    return [(c, out[c]) for c in ranked]


def learning_path(touching: Touching, start: str, goal: str) -> list[Step] | None:
    """The shortest chain of steps from ``start`` to ``goal`` (best supported among equals), or None.

    Bidirectional Dijkstra: forward along steps out of ``start``, backward along steps into
    ``goal``; it stops when the two smallest frontier distances add up to the best chain found.
    """
    if start == goal:
        return []
    return _bidirectional(
        start, goal, lambda node: steps_out_of(touching, node), lambda node: steps_into(touching, node)
    )


def connection(touching: Touching, first: str, second: str) -> list[Step]:
    """The edges between two concepts, else the shortest chain of edges of any type or direction
    that joins them (steps read as ``src`` then ``dst`` along the chain); empty if none."""
    if first == second:
        return []
    direct = [
        Step(e.src, e.dst, e.edge_id)
        for e in sorted(touching(first), key=lambda e: e.edge_id)
        if {e.src, e.dst} == {first, second}
    ]
    if direct:
        return direct

    def either(node: str) -> list[Step]:
        steps = []
        for edge in sorted(touching(node), key=lambda e: e.edge_id):
            other = edge.dst if edge.src == node else edge.src
            if other != node:
                doubt = DOUBT_WEIGHT * (1.0 - edge.grounding.confidence)
                steps.append(Step(node, other, edge.edge_id, 1.0 + doubt))
        return steps

    def backward(node: str) -> list[Step]:
        return [Step(s.dst, s.src, s.edge_id, s.weight) for s in either(node)]

    return _bidirectional(first, second, either, backward) or []


def wholes_and_parts(touching: Touching, concept: str) -> tuple[list[EdgeVersion], list[EdgeVersion]]:
    """(the ``part_of`` edges from ``concept`` to what it is part of, those from its parts to it)."""
    edges = sorted((e for e in touching(concept) if e.type == "part_of"), key=lambda e: e.edge_id)
    wholes = [e for e in edges if e.src == concept and e.dst != concept]
    parts = [e for e in edges if e.dst == concept and e.src != concept]
    return wholes, parts


def _bidirectional(
    start: str,
    goal: str,
    forward: Callable[[str], Iterable[Step]],
    backward: Callable[[str], Iterable[Step]],
) -> list[Step] | None:
    dist = ({start: 0.0}, {goal: 0.0})
    came: tuple[dict[str, Step], dict[str, Step]] = ({}, {})
    heaps: tuple[list[tuple[float, str]], list[tuple[float, str]]] = ([(0.0, start)], [(0.0, goal)])
    settled: tuple[set[str], set[str]] = (set(), set())
    best, meet = float("inf"), ""
    while heaps[0] and heaps[1]:
        if heaps[0][0][0] + heaps[1][0][0] >= best:
            break
        side = 0 if heaps[0][0] <= heaps[1][0] else 1
        distance, node = heapq.heappop(heaps[side])
        if node in settled[side]:
            continue
        settled[side].add(node)
        for step in (forward if side == 0 else backward)(node):
            other = step.dst if side == 0 else step.src
            reached = distance + step.weight
            if reached < dist[side].get(other, float("inf")):
                dist[side][other] = reached
                came[side][other] = step
                heapq.heappush(heaps[side], (reached, other))
            if other in dist[1 - side] and reached + dist[1 - side][other] < best:
                best, meet = reached + dist[1 - side][other], other
    if not meet:
        return None
    head: list[Step] = []
    node = meet
    while node != start:
        step = came[0][node]
        head.append(step)
        node = step.src
    tail: list[Step] = []
    node = meet
    while node != goal:
        step = came[1][node]
        tail.append(step)
        node = step.dst
    return [*reversed(head), *tail]
