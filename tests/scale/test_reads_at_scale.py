"""Reads that do not grow with the graph: discovery sampling over the light adjacency, and the
neighbourhood a re-check judges against, both equal to what the whole graph would say."""

from __future__ import annotations

import pytest

from agents.neighbourhood import neighbourhood_view
from agents.support import GraphView
from governance.discovery import sample_pairs
from magg_kg.graph import Adjacency
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import GraphShape
from tests.scale.graphs import written

STRUCTURE = (
    "src_neighbors",
    "dst_neighbors",
    "shared_neighbors",
    "paths",
    "reverse_paths",
    "between",
    "contradicting",
    "degrees",
    "order_degrees",
    "order",
    "first_taught",
    "together",
    "sentences",
    "lessons",
)


@pytest.fixture(scope="module")
def graph() -> SQLiteStore:
    return written(GraphShape(500, 2500, seed=9, community=50))


def test_sampling_over_the_adjacency_finds_the_judge_views_pairs(graph: SQLiteStore) -> None:
    assert Adjacency.of_store(graph).__dict__ == Adjacency(graph.triples()).__dict__
    light = sample_pairs(Adjacency.of_store(graph), 200, 3)
    assert len(light) == 200 and light == sample_pairs(GraphView.of_store(graph), 200, 3)
    near = Adjacency(graph.triples())
    for candidate in light:
        assert candidate.c not in near.neighbors(candidate.a)
        assert all({candidate.a, candidate.c} <= near.neighbors(b) for b in candidate.via)


def test_the_neighbourhood_supports_a_claim_as_the_whole_graph_does(graph: SQLiteStore) -> None:
    whole = GraphView.of_store(graph)
    edges = graph.recent_edges(25)
    local = neighbourhood_view(graph, {e.src for e in edges} | {e.dst for e in edges})
    assert local.edge_count() < whole.edge_count()  # it did not read the whole graph
    assert any(whole.support(e.src, e.type, e.dst).paths for e in edges)  # paths were compared
    for edge in edges:
        for view in (whole, local):
            view.remove_edge(edge.src, edge.type, edge.dst)
        expected = whole.support(edge.src, edge.type, edge.dst)
        found = local.support(edge.src, edge.type, edge.dst)
        for view in (whole, local):
            view.add_edge(edge.src, edge.type, edge.dst)
        for name in STRUCTURE:
            assert getattr(found, name) == getattr(expected, name), (edge.edge_id, name)
