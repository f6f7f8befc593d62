"""Routing, scoping and citation checks of the question-answering loop on a two-domain graph."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents import qa
from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat, answer_routed
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Prompt
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import ScriptedLLM, own, seed

EDGES = [
    (
        "linear-algebra",
        "prerequisite",
        "neural-network",
        "Linear algebra is a prerequisite for neural networks.",
    ),
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("transformer", "builds_on", "attention", "Transformers build on attention."),
    ("calculus", "prerequisite", "backpropagation", "Calculus is a prerequisite for backpropagation."),
    (
        "backpropagation",
        "prerequisite",
        "linear-algebra",
        "Backpropagation is a prerequisite for linear algebra.",
    ),
]
DOMAINS = {
    "d-models": ("linear-algebra", "neural-network", "transformer", "attention"),
    "d-training": ("calculus", "backpropagation"),
}
CROSS = edge_id("backpropagation", "prerequisite", "linear-algebra")


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=0.001)
    seed(store, clock, EDGES)
    own(store, clock, DOMAINS)
    yield build_graph_index(store)
    store.close()


def _expert_edges(prompt: Prompt) -> list[tuple[str, str]]:
    edges = prompt.payload["edges"]
    assert isinstance(edges, list)
    return [(str(e["src"]), str(e["dst"])) for e in edges]


def test_each_sub_question_goes_to_the_owning_domain_and_its_expert_sees_only_its_edges(
    graph: GraphIndex,
) -> None:
    recorder = ScriptedLLM(replies=dict(qa.offline_handlers()))
    result = answer_routed(
        recorder, graph, "What should I learn before transformers and what comes before backpropagation?", {}
    )
    assert [s["domains"] for s in result.sub_questions] == [["d-models"], ["d-training"]]
    experts = [p for p in recorder.calls if p.task == qa.ANSWER_TASK]
    assert [p.domain for p in experts] == ["d-models", "d-training"]
    for prompt in experts:
        members = set(DOMAINS[prompt.domain])
        assert all({src, dst} <= members for src, dst in _expert_edges(prompt))
    assert result.calls == 4
    assert set(result.citations) == {
        edge_id("neural-network", "prerequisite", "transformer"),
        edge_id("transformer", "builds_on", "attention"),
        edge_id("calculus", "prerequisite", "backpropagation"),
    }


def test_open_retrieval_crosses_domains_flat_where_routing_does_not(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    question = "Tell me about linear algebra."
    flat = answer_flat(llm, graph, question)
    routed = answer_routed(llm, graph, question, {})
    assert CROSS in flat.citations
    assert CROSS not in routed.citations
    assert all(CROSS not in expert.edges_seen for expert in routed.experts)
    assert flat.calls == 1 and routed.calls == 3


def test_a_typed_question_reads_an_edge_between_domains_from_the_domain_it_reached(graph: GraphIndex) -> None:
    # Both owners reviewed the cross-domain edge, so both experts know it: the typed answer finds it
    # while reading one domain only.
    llm = OfflineLLM(offline_handlers())
    routed = answer_routed(llm, graph, "What should I learn before linear algebra?", {})
    assert routed.citations == [CROSS]
    assert routed.domains_read == ["d-models"] and routed.graph_answers[0].found == ["backpropagation"]


def test_a_bridge_concept_brings_its_edges_into_the_domain(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    routed = answer_routed(
        llm, graph, "What should I learn before linear algebra?", {"d-models": ["backpropagation"]}
    )
    assert CROSS in routed.citations


def test_a_citation_of_an_edge_not_retrieved_is_dropped(graph: GraphIndex) -> None:
    real = edge_id("neural-network", "prerequisite", "transformer")
    unknown = "e-00000000deadbeef"
    shown_elsewhere = edge_id("calculus", "prerequisite", "backpropagation")
    reply = {
        "reasoning": "made up",
        "answer": f"Neural networks come first [{real}], also [{unknown}] and [{shown_elsewhere}].",
        "short_answer": "Neural networks.",
        "citations": [real, unknown, shown_elsewhere],
    }
    llm = ScriptedLLM(replies={**qa.offline_handlers(), qa.ANSWER_TASK: lambda _p: reply})
    result = answer_routed(llm, graph, "What should I learn before transformers?", {})
    assert result.experts[0].citations == [real]
    assert result.dropped == [unknown, shown_elsewhere]
    assert result.citations == [real]


def test_a_question_about_unknown_concepts_is_not_answered(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    for result in (
        answer_routed(llm, graph, "What is quantum chromodynamics?", {}),
        answer_flat(llm, graph, "What is quantum chromodynamics?"),
    ):
        assert not result.covered and not result.citations
        assert "does not cover" in result.answer
