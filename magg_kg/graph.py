"""Graph views: the active edges of a store as networkx graphs."""

from __future__ import annotations

import json
from collections.abc import Iterable

import networkx as nx

from magg_kg.records import Concept, EdgeVersion
from magg_kg.store import Store

__all__ = ["Adjacency", "concept_graph", "find_cycle", "typed_digraph"]


class Adjacency:
    """The undirected neighbourhoods of the active graph, any edge type: the one structure that
    sampling needs, without the indexes a judge's view keeps.

    >>> near = Adjacency([("a", "prerequisite", "b"), ("b", "related", "c"), ("a", "part_of", "b")])
    >>> sorted(near.neighbors("b")), near.degree("a"), near.concept_ids()
    (['a', 'c'], 1, ['a', 'b', 'c'])
    """

    def __init__(self, triples: Iterable[tuple[str, str, str]]) -> None:
        self._near: dict[str, set[str]] = {}
        for src, _, dst in triples:
            self._near.setdefault(src, set()).add(dst)
            self._near.setdefault(dst, set()).add(src)

    @classmethod
    def of_store(cls, store: Store) -> Adjacency:
        """The active graph's neighbourhoods, read one row per source concept."""
        near = cls(())
        for row in store.query("active_targets"):
            src = str(row["src"])
            targets = [str(dst) for dst in json.loads(str(row["targets"]))]
            near._near.setdefault(src, set()).update(targets)
            for dst in targets:
                near._near.setdefault(dst, set()).add(src)
        return near

    def concept_ids(self) -> list[str]:
        """The concepts with at least one edge."""
        return list(self._near)

    def neighbors(self, concept_id: str) -> set[str]:
        return set(self._near.get(concept_id, ()))

    def degree(self, concept_id: str) -> int:
        return len(self._near.get(concept_id, ()))


def concept_graph(concepts: Iterable[Concept], edges: Iterable[EdgeVersion]) -> nx.MultiDiGraph:
    """All concepts as nodes (with name and type) and every edge version given as a keyed edge."""
    graph = nx.MultiDiGraph()
    for concept in concepts:
        graph.add_node(concept.id, name=concept.name, type=concept.type)
    for edge in edges:
        graph.add_edge(edge.src, edge.dst, key=edge.type, version_id=edge.version_id)
    return graph


def typed_digraph(edges: Iterable[EdgeVersion], types: Iterable[str]) -> nx.DiGraph:
    """A plain directed graph of the edges whose type is one of ``types``."""
    wanted = set(types)
    graph = nx.DiGraph()
    graph.add_edges_from((edge.src, edge.dst) for edge in edges if edge.type in wanted)
    return graph


def find_cycle(graph: nx.DiGraph) -> list[str] | None:
    """One directed cycle as a node list, or None.

    >>> g = nx.DiGraph([("a", "b"), ("b", "c"), ("c", "a")])
    >>> find_cycle(g)
    ['a', 'b', 'c']
    >>> find_cycle(nx.DiGraph([("a", "b")])) is None
    True
    """
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return None
    return [str(src) for src, _dst in cycle]
