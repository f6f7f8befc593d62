"""Graph views: the active edges of a store as networkx graphs."""

from __future__ import annotations

from collections.abc import Iterable

import networkx as nx

from magg_kg.records import Concept, EdgeVersion

__all__ = ["concept_graph", "find_cycle", "typed_digraph"]


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
