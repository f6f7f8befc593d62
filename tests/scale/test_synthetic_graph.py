"""The synthetic graph: seeded, acyclic where the schema says so, and written like real writes."""

from __future__ import annotations

from collections import Counter

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from magg_kg.clock import StepClock
from magg_kg.operations import CommitEdge
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import BATCH_LIMIT, EDGE_MIX, GraphShape, graph_batches, plan_graph, write_graph
from magg_kg.verification import verify_store
from magg_kg.vocabulary import CURRICULUM

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
shapes = st.builds(
    lambda concepts, share, seed, community: GraphShape(
        concepts, int(concepts * share), seed=seed, community=community, lesson=7
    ),
    st.integers(10, 80),
    st.floats(0.0, 1.5),
    st.integers(0, 2**32),
    st.integers(8, 30),
)


def digests(shape: GraphShape) -> list[str]:
    return [b.digest for b in graph_batches(plan_graph(shape), StepClock(shape.start, 1.0))]


@PROPERTY
@given(shapes)
def test_the_same_seed_gives_the_same_batches(shape: GraphShape) -> None:
    assert digests(shape) == digests(shape)


@PROPERTY
@given(shapes)
def test_the_acyclic_types_and_the_learning_order_are_acyclic(shape: GraphShape) -> None:
    plan = plan_graph(shape)
    assert len(plan.edges) == shape.edges and len(set(plan.ids)) == shape.concepts
    order = CURRICULUM.order_types()
    learning = nx.DiGraph()
    for type_ in ("prerequisite", "builds_on", "part_of"):
        graph = nx.DiGraph((e.src, e.dst) for e in plan.edges if e.type == type_)
        assert nx.is_directed_acyclic_graph(graph), type_
    for edge in plan.edges:
        if edge.type in order:
            learning.add_edge(*((edge.src, edge.dst) if order[edge.type] == "src" else (edge.dst, edge.src)))
    assert nx.is_directed_acyclic_graph(learning)
    assert len({frozenset((e.src, e.dst)) for e in plan.edges}) == len(plan.edges)  # one edge per pair
    assert all(e.src != e.dst for e in plan.edges)


def test_another_seed_gives_another_graph() -> None:
    assert digests(GraphShape(60, 120, seed=1)) != digests(GraphShape(60, 120, seed=2))


def test_the_written_graph_passes_every_invariant(store: SQLiteStore) -> None:
    shape = GraphShape(300, 1200, seed=3, community=40)
    plan = plan_graph(shape)
    batches = write_graph(store, plan, StepClock(shape.start, 1.0))
    assert batches >= 1 and verify_store(store) == []
    assert len(store.concepts()) == 300 and len(store.edges()) == 1200
    types = Counter(e.type for e in store.edges())
    assert set(types) == {name for name, _ in EDGE_MIX}
    assert types["prerequisite"] > types["part_of"]
    for edge in store.edges()[:50]:  # every grounding quote is its lesson's text at its offsets
        span = edge.grounding.evidence[0]
        lesson = store.lesson(span.lesson_id)
        assert lesson is not None and lesson.text[span.start : span.end] == span.quote
    # Most edges stay inside their planted community: domains have something to find.
    inside = sum(plan.community_of(e.src) == plan.community_of(e.dst) for e in plan.edges)
    assert inside / len(plan.edges) > 0.75


def test_batches_are_bounded() -> None:
    shape = GraphShape(2_000, 12_000, seed=0)
    batches = list(graph_batches(plan_graph(shape), StepClock(shape.start, 1.0)))
    assert len(batches) > 2 and all(len(b.ops) <= BATCH_LIMIT for b in batches)
    commits = [op for b in batches for op in b.ops if isinstance(op, CommitEdge)]
    assert len(commits) == 12_000
    assert [b.sent_at for b in batches] == sorted(b.sent_at for b in batches)  # time moves on


def test_an_impossible_shape_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot place"):
        plan_graph(GraphShape(4, 10))
    with pytest.raises(ValueError, match="at least 2 concepts"):
        GraphShape(1, 0)
