"""How two concepts relate, when no edge joins them: a chain of edges is the answer only when it is
short or every step orders or contains; a longer walk through related concepts is not, and the
lessons are read instead."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.offline.handlers import offline_handlers
from governance.graph_answer import answer_by_graph, names_from
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.clock import StepClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.operations import UnassignDomain
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import own, seed, write
from tests.qa.courses import course_graph, write_lessons

QUOTE = "Attention is related to transformers."
EDGES = [  # calculus - k-means - gradient descent - attention: related, related, related
    ("calculus", "related", "k-means"),
    ("gradient-descent", "related", "k-means"),
    ("attention", "related", "gradient-descent"),
    # linear algebra -> neural network -> transformer -> attention: two prerequisites and a part
    ("linear-algebra", "prerequisite", "neural-network"),
    ("neural-network", "prerequisite", "transformer"),
    ("attention", "part_of", "transformer"),
]
LLM = OfflineLLM(offline_handlers())


@pytest.fixture(scope="module")
def graph() -> Iterator[GraphIndex]:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    seed(store, clock, [(s, t, d, QUOTE) for s, t, d in EDGES])
    own(store, clock, {"d-math": ("calculus", "k-means", "gradient-descent", "linear-algebra")})
    yield build_graph_index(store)
    store.close()


def relation(graph: GraphIndex, first: str, second: str) -> tuple[bool, list[str], str]:
    touching = graph.touching()
    (answer,) = answer_by_graph(
        "relation", [first, second], False, lambda c: touching.get(c, ()), names_from(graph.concepts)
    )
    return answer.covered, answer.path, answer.headline


def test_a_long_chain_of_related_edges_is_not_how_two_concepts_relate(graph: GraphIndex) -> None:
    covered, path, headline = relation(graph, "calculus", "attention")
    assert not covered and path == []
    assert headline == (
        "The graph does not cover how Calculus relates to Attention: no edge joins them, only a chain of "
        "3 steps through other concepts."
    )


def test_a_short_chain_or_one_that_orders_every_step_still_answers(graph: GraphIndex) -> None:
    covered, path, headline = relation(graph, "calculus", "gradient-descent")  # two related steps
    assert covered and path == ["calculus", "k-means", "gradient-descent"]
    assert headline == "Calculus relates to gradient descent through: Calculus → k-means → gradient descent."
    covered, path, _ = relation(graph, "linear-algebra", "attention")  # three steps, each orders or contains
    assert covered and path == ["linear-algebra", "neural-network", "transformer", "attention"]


def test_the_answer_to_a_long_related_chain_cites_none_of_it(graph: GraphIndex) -> None:
    question = "How does calculus relate to attention?"
    for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
        assert result.graph_answers and not result.graph_answers[0].edges
        assert "through:" not in result.answer and "k-means" not in result.answer
        assert "The graph does not cover how Calculus relates to Attention" in result.answer


ZERO = "**Zero-shot prompting** is a prompt that gives the model no example."
FEW = "**Few-shot prompting** is a prompt that gives the model a few examples."
TOGETHER = "Unlike zero-shot prompting, few-shot prompting shows the model how to answer first."


@pytest.mark.parametrize("flat", [False, True])
def test_a_sentence_that_names_both_leads_what_the_lessons_say(tmp_path: Path, flat: bool) -> None:
    lessons = {
        "zero.md": f"# Zero-shot prompting\n\n{ZERO}\n",
        "few.md": f"# Few-shot prompting\n\n{FEW}\n\nSome tasks need more. {TOGETHER}\n",
    }
    with course_graph(tmp_path, lessons) as graph:
        pair = {"zero-shot-prompting", "few-shot-prompting"}
        assert pair <= set(graph.concepts) and not any({e.src, e.dst} == pair for e in graph.edges.values())
        question = "How does zero-shot prompting relate to few-shot prompting?"
        answer = answer_flat(LLM, graph, question) if flat else answer_routed(LLM, graph, question, {})
    assert answer.covered and "no edge" in answer.answer
    lead = f'zero-shot prompting and few-shot prompting: the lesson says "{TOGETHER}"'
    assert answer.answer.lower().startswith(lead.lower()), answer.answer
    assert f'the lesson says "{FEW}"' in answer.answer


def test_routed_the_first_concepts_expert_reads_both_when_a_sentence_names_both(tmp_path: Path) -> None:
    lessons = {
        "zero.md": f"# Zero-shot prompting\n\n{ZERO}\n",
        "few.md": f"# Few-shot prompting\n\n{FEW}\n\nSome tasks need more. {TOGETHER}\n",
    }
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [write_lessons(tmp_path, lessons)], show_progress=False)
        clock = StepClock("2027-01-01T00:00:00.000000Z", step_seconds=1.0)
        given = build_graph_index(ctx.store).owners  # the course's one domain, owning both
        write(ctx.store, clock, [UnassignDomain(concept_id=c, domain_id=d, expired_at=clock.now())
                                 for c, ds in given.items() for d in ds])  # fmt: skip
        own(ctx.store, clock, {"d-zero": ("zero-shot-prompting",), "d-few": ("few-shot-prompting",)})
        graph = build_graph_index(ctx.store)
        question = "How does zero-shot prompting relate to few-shot prompting?"
        answer = answer_routed(LLM, graph, question, {})
    assert graph.owners["zero-shot-prompting"] != graph.owners["few-shot-prompting"]
    assert [report.domain for report in answer.experts] == ["d-zero"]
    assert f'the lesson says "{TOGETHER}"' in answer.answer
