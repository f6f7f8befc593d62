"""Which domain owns a concept, answered from the graph's domains, routed and flat."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.course_cues import owner_asked
from agents.offline.handlers import offline_handlers
from governance.qa import QAResult, answer_flat, answer_routed
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.operations import AssignDomain, SetDomain
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import seed, write

LLM = OfflineLLM(offline_handlers())
QUOTE = "Calculus is a prerequisite for backpropagation."
NAMES = {"d-math": "Calculus / gradient descent", "d-models": "neural network / transformer"}
DOMAINS = {
    "d-math": ("calculus", "gradient-descent", "backpropagation"),
    "d-models": ("neural-network", "transformer", "backpropagation"),
}
"""Backpropagation is a bridge: both domains own it."""


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    edges = [
        ("calculus", "prerequisite", "backpropagation"),
        ("neural-network", "prerequisite", "transformer"),
    ]
    seed(store, clock, [(s, t, d, QUOTE) for s, t, d in edges])
    now = clock.now()
    write(
        store,
        clock,
        [
            *(
                SetDomain(id=d, version=1, name=NAMES[d], owner=f"owner:{d}", card={}, recorded_at=now)
                for d in DOMAINS
            ),
            *(
                AssignDomain(concept_id=c, domain_id=d, recorded_at=now)
                for d, cs in DOMAINS.items()
                for c in cs
            ),
        ],
    )
    yield build_graph_index(store)
    store.close()


def _ask(graph: GraphIndex, question: str, mode: str) -> QAResult:
    return answer_routed(LLM, graph, question, {}) if mode == "routed" else answer_flat(LLM, graph, question)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Which domain owns transformers?", "transformers"),
        ("What domain is the transformer in?", "the transformer"),
        ("Which domain does calculus belong to?", "calculus"),
        ("In which domain is k-means?", "k-means"),
        ("Which expert answers questions about attention?", "attention"),
        ("What expert covers gradient descent?", "gradient descent"),
        ("What is a domain?", None),
        ("Which domain adaptation method works best?", None),
        ("What is the transformer used in?", None),
        # Where a concept is applied in the world is no question about the graph's domains.
        ("What domain is gradient descent used in?", None),
        ("In which domains is reinforcement learning applied?", None),
    ],
)
def test_a_question_about_which_domain_owns_a_concept_is_recognised(question: str, asked: str | None) -> None:
    assert owner_asked(question) == asked


@pytest.mark.parametrize("mode", ["routed", "flat"])
def test_which_domain_owns_a_concept_is_answered_with_the_domains_names(graph: GraphIndex, mode: str) -> None:
    # "Which domain owns X?" had no graph answer: it was read as an open question and answered with
    # a span of some excerpt ("Alex").
    result = _ask(graph, "Which domain owns transformers?", mode)
    assert result.covered and result.calls == 0
    assert result.short_answer == "neural network / transformer"
    assert result.answer == 'transformer is owned by the domain "neural network / transformer" (d-models).'
    assert result.sub_questions[0]["type"] == "domain" and result.domains_read == ["d-models"]


@pytest.mark.parametrize("mode", ["routed", "flat"])
def test_a_courtesy_around_a_domain_question_is_no_part_of_it(graph: GraphIndex, mode: str) -> None:
    # "Thanks! Which domain owns X?" was answered "Here": the domain question was recognised before
    # the courtesy was left out, so it was no domain question at all.
    for question in ("Thanks! Which domain owns transformers?", "Which domain owns transformers? Thanks."):
        result = _ask(graph, question, mode)
        assert result.sub_questions[0]["type"] == "domain" and result.domains_read == ["d-models"]
        assert result.question == question
    # "Which domain owns it?" names nothing: no domain answer, whose text was empty.
    assert _ask(graph, "Which domain owns it?", mode).sub_questions[0]["type"] != "domain"


def test_a_concept_two_domains_own_names_both(graph: GraphIndex) -> None:
    result = _ask(graph, "What domain is backpropagation in?", "routed")
    assert result.covered and result.domains_read == ["d-math", "d-models"]
    assert '"Calculus / gradient descent" (d-math)' in result.answer
    assert '"neural network / transformer" (d-models)' in result.answer


@pytest.mark.parametrize("mode", ["routed", "flat"])
def test_which_domain_owns_an_unknown_name_is_not_covered(graph: GraphIndex, mode: str) -> None:
    result = _ask(graph, "Which expert answers questions about quantum chromodynamics?", mode)
    assert not result.covered and result.short_answer == "Not covered by the graph."
    assert result.answer == "The graph does not cover quantum chromodynamics."
    assert result.sub_questions[0]["unknown"] == ["quantum chromodynamics"]
