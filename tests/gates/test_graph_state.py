"""One graph state per run: the rules, the owners' memory and the judge's view never disagree."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.support import GraphView
from governance.admission import AdmissionContext
from governance.domains import Layout
from governance.graph_state import GraphState
from governance.judgment import Judgment
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Concept
from magg_kg.sqlite import SQLiteStore

AT = "2026-01-01T00:00:00.000000Z"
IDS = ("a", "b", "c", "d")
TYPES = ("prerequisite", "builds_on", "part_of", "related", "contrasts_with")
TRIPLES = [(s, t, d) for s, t, d in product(IDS, TYPES, IDS) if s != d]


def concepts(ids: tuple[str, ...] = IDS) -> list[Concept]:
    return [Concept(id=c, name=c, type="concept", recorded_at=AT) for c in ids]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.sampled_from(TRIPLES)), max_size=30))
def test_commits_and_invalidations_reach_every_reader(steps: list[tuple[bool, tuple[str, str, str]]]) -> None:
    state = GraphState(GraphView(concepts(), []))
    active: set[tuple[str, str, str]] = set()
    for commit, triple in steps:
        canonical = state.schema.canonical(*triple)
        if commit:
            state.commit(*triple)
            active.add(canonical)
        else:
            state.invalidate(*triple)
            active.discard(canonical)
        assert set(state.view.triples()) == active
        assert set(state.memory.facts) == active
        for other in TRIPLES:
            seen = state.schema.canonical(*other) in active
            assert state.view.is_active(*other) == seen == state.rules.is_active(*other)
            duplicate = state.rules.check(*other).rule == "no-duplicate"
            assert duplicate <= seen  # a rule refuses a duplicate only of an active edge


def test_a_commit_is_seen_by_the_rules_of_the_next_proposal() -> None:
    state = GraphState(GraphView(concepts(), [("a", "prerequisite", "b")]))
    assert state.rules.check("b", "prerequisite", "c").passed
    state.commit("b", "prerequisite", "c")
    assert state.rules.check("c", "prerequisite", "a").rule == "acyclic"
    state.invalidate("b", "prerequisite", "c")
    assert state.rules.check("c", "prerequisite", "a").passed


def test_concepts_of_the_batch_are_known_to_rules_and_judge() -> None:
    state = GraphState(GraphView(concepts(("a",)), []))
    assert state.rules.check("a", "prerequisite", "e").rule == "endpoint-exists"
    state.add_concepts(concepts(("e",)))
    assert state.view.has_concept("e") and state.rules.check("a", "prerequisite", "e").passed


def test_the_gate_must_judge_against_the_admissions_own_state(store: SQLiteStore) -> None:
    clock = StepClock(AT)
    llm = OfflineLLM({})
    gate = Judgment(llm, Policy(), clock, store)
    layout = Layout(domains=())
    with pytest.raises(ValueError, match="own graph state"):
        AdmissionContext(
            llm=llm,
            graph=GraphState.of_store(store),
            layout=layout,
            policy=Policy(),
            clock=clock,
            names=lambda c: [c],
            gate=gate,
        )
    AdmissionContext(
        llm=llm, graph=gate.graph, layout=layout, policy=Policy(), clock=clock, names=lambda c: [c], gate=gate
    )
