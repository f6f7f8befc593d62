"""Synthetic graphs for the scale tests, written into an in-memory store."""

from __future__ import annotations

from magg_kg.clock import StepClock
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import GraphShape, plan_graph, write_graph


def written(shape: GraphShape) -> SQLiteStore:
    """A new in-memory store holding the synthetic graph of ``shape``."""
    store = SQLiteStore.open(":memory:")
    write_graph(store, plan_graph(shape), StepClock(shape.start, 1.0))
    return store
