"""Domains at scale: igraph's Louvain held to networkx's (the reference) on small graphs, the one-pass
cards equal to the card of each domain, and a rebuild from the store alone."""

from __future__ import annotations

import networkx as nx
import pytest

from governance.domain_rebuild import plan_rebuild, rebuild_domains
from governance.domains import (
    WeightedGraph,
    card,
    compute_layout,
    domain_cards,
    louvain_communities,
    weighted_graph,
)
from magg_kg.clock import StepClock
from magg_kg.coverage import coverage_report
from magg_kg.journal import journaled
from magg_kg.operations import AssignDomain, Batch, SetDomain
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import GraphShape
from tests.gates.world import seed, seeded_edge
from tests.scale.graphs import written


@pytest.fixture(scope="module")
def graph() -> SQLiteStore:
    return written(GraphShape(400, 1600, seed=5, community=40))


def weighted(store: SQLiteStore) -> WeightedGraph:
    concepts = [c.id for c in store.concepts()]
    return weighted_graph(concepts, [(s, d, 1.0) for s, _, d in store.triples()], [])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_igraph_finds_communities_as_good_as_networkx(graph: SQLiteStore, seed: int) -> None:
    g = weighted(graph)
    reference = louvain_communities(g, seed, backend="networkx")
    fast = louvain_communities(g, seed, backend="igraph")
    assert sorted(n for c in fast for n in c) == sorted(g.nodes)  # a partition of every concept
    quality = nx.community.modularity(g.to_networkx(), fast)
    assert quality > 0.5 and abs(quality - nx.community.modularity(g.to_networkx(), reference)) < 0.03
    assert abs(len(fast) - len(reference)) <= max(2, len(reference) // 5)


def test_the_weighted_graph_is_the_networkx_graph_of_the_same_ties() -> None:
    """Ties summed per pair, each pair once, in the order networkx reports them: igraph is given the
    graph networkx's Louvain reads (a different edge order would give other communities)."""
    ties = [
        ("c", "a", 1.0),
        ("b", "a", 0.5),
        ("a", "c", 0.25),
        ("d", "b", 1.0),
        ("x", "x", 1.0),
        ("a", "q", 1.0),
    ]
    g = weighted_graph(["d", "c", "b", "a", "x"], ties, [["b", "c", "d"], ["a", "c"]])
    reference = nx.Graph()
    reference.add_nodes_from(sorted("abcdx"))
    for a, b, weight in [*ties[:4], ("b", "c", 0.5), ("b", "d", 0.5), ("c", "d", 0.5), ("a", "c", 1.0)]:
        if reference.has_edge(a, b):
            reference[a][b]["weight"] += weight
        else:
            reference.add_edge(a, b, weight=weight)
    assert g.nodes == list(reference.nodes) == ["a", "b", "c", "d", "x"]
    assert list(g.edges()) == list(reference.edges(data="weight"))
    assert list(g.to_networkx().edges(data="weight")) == list(reference.edges(data="weight"))
    assert dict(g.adjacency["a"]) == {"c": 2.25, "b": 0.5}


def test_igraph_is_reproducible_per_seed(graph: SQLiteStore) -> None:
    g = weighted(graph)
    first = sorted(sorted(c) for c in louvain_communities(g, 4, backend="igraph"))
    assert first == sorted(sorted(c) for c in louvain_communities(g, 4, backend="igraph"))


def test_the_one_pass_cards_are_the_cards(graph: SQLiteStore) -> None:
    layout = compute_layout(weighted(graph), {}, {}, 7)
    facts = graph.triples()
    questions = [("p-1", facts[0][0], "related", facts[-1][2])]
    assert len(layout.domains) > 3
    cards = domain_cards(layout, facts, questions)
    assert cards == {d.id: card(d, facts, questions) for d in layout.domains}


def test_a_rebuild_writes_the_domains_and_a_second_changes_nothing(graph: SQLiteStore) -> None:
    first = rebuild_domains(graph, 7, StepClock("2026-02-01T00:00:00.000000Z"))
    assert first.layout.domains and first.ops
    owners = graph.concept_domains()
    assert set(owners) == {c.id for c in graph.concepts()}
    again = plan_rebuild(graph, 7, "2026-02-02T00:00:00.000000Z")
    assert again.layout == first.layout and again.ops == ()
    report = coverage_report(graph)
    domains = report["domains"]
    assert isinstance(domains, dict) and set(domains) == {d.id for d in first.layout.domains}


def test_coverage_per_domain_counts_the_edges_touching_its_concepts(graph: SQLiteStore) -> None:
    rebuild_domains(graph, 7, StepClock("2026-02-01T00:00:00.000000Z"))  # nothing when already built
    report = coverage_report(graph)
    edges = graph.triples()
    members: dict[str, set[str]] = {}
    for concept, ids in graph.concept_domains().items():
        for domain in ids:
            members.setdefault(domain, set()).add(concept)
    domains = report["domains"]
    assert isinstance(domains, dict) and members
    for domain, ids in members.items():
        inside = [e for e in edges if e[0] in ids or e[2] in ids]
        assert domains[domain]["active_edges"] == len(inside)
        assert domains[domain]["orphans"] == sorted(ids - {e[0] for e in inside} - {e[2] for e in inside})
        assert domains[domain]["prerequisite_cycles"] == []


def test_coverage_finds_a_prerequisite_cycle_overall_and_in_its_domain(store: SQLiteStore) -> None:
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    quote = "Calculus is a prerequisite for backpropagation."
    loop = [
        ("calculus", "backpropagation"),
        ("backpropagation", "linear-algebra"),
        ("linear-algebra", "calculus"),
    ]
    now = clock.now()
    ops = [op for src, dst in loop for op in seeded_edge(src, "prerequisite", dst, quote, now)]
    ops += seeded_edge("attention", "prerequisite", "transformer", quote, now)
    ops += [
        SetDomain(id="d-x", version=1, name="x", owner="owner:d-x", card={}, recorded_at=now),
        *(AssignDomain(concept_id=c, domain_id="d-x", recorded_at=now) for c in ("calculus", "k-means")),
        SetDomain(id="d-y", version=1, name="y", owner="owner:d-y", card={}, recorded_at=now),
        AssignDomain(concept_id="attention", domain_id="d-y", recorded_at=now),
    ]
    store.write(Batch.of("loop", now, journaled(ops, now)))
    report = coverage_report(store)
    overall, domains = report["overall"], report["domains"]
    assert isinstance(overall, dict) and isinstance(domains, dict)
    (cycle,) = overall["prerequisite_cycles"]
    assert sorted(cycle) == ["backpropagation", "calculus", "linear-algebra"]
    assert domains["d-x"]["prerequisite_cycles"] == []  # two of its three edges touch the domain
    assert domains["d-x"]["active_edges"] == 2 and domains["d-x"]["orphans"] == ["k-means"]
    assert domains["d-y"]["prerequisite_cycles"] == [] and domains["d-y"]["active_edges"] == 1


def test_an_unknown_backend_is_refused(graph: SQLiteStore) -> None:
    with pytest.raises(ValueError, match="unknown Louvain backend"):
        louvain_communities(weighted(graph), 1, backend="auto")
