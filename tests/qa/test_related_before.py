"""What comes before X, when the graph states no prerequisite of X: it says so, then names the
concepts the graph relates to X that the lessons teach before X, labelled as related (never as
prerequisites), with the edges cited; nothing more when none is taught before X."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.offline.handlers import offline_handlers
from governance.prior_relations import related_before
from governance.qa import answer_flat, answer_routed
from magg_kg.cli.questions import Questions
from magg_kg.clock import SystemClock
from magg_kg.config import LLMConfig
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.qa.courses import course_graph

LESSONS = {
    "01-rnn.md": "# Recurrent networks\n\nA **recurrent neural network** is a network that keeps a "
    "**hidden state** across time steps.\n\n"
    "The **hidden state** is a vector that summarizes the past inputs.\n",
    "02-dropout.md": "# Dropout\n\n**Dropout** is a regularization technique that zeroes units.\n",
    "03-lstm.md": "# Long short-term memory\n\nAn **LSTM** is a recurrent neural network with a memory cell. "
    "The LSTM is related to the hidden state and to the recurrent neural network.\n",
    "04-gru.md": "# Gated units\n\nA **GRU** is a gated network. The GRU is related to the LSTM.\n",
}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("before")


@pytest.fixture(scope="module")
def graph(folder: Path) -> Iterator[GraphIndex]:
    with course_graph(folder, LESSONS) as built:
        yield built


def _edge(graph: GraphIndex, src: str, type_: str, dst: str) -> str:
    found = [e.edge_id for e in graph.edges.values() if (e.src, e.type, e.dst) == (src, type_, dst)]
    assert len(found) == 1, f"the course no longer yields {src} {type_} {dst}"
    return found[0]


def _lstm_cites(graph: GraphIndex) -> list[str]:
    """The edges "What should I learn before LSTM?" cites, in the answer's order."""
    return [
        _edge(graph, "lstm", "part_of", "recurrent-neural-network"),
        _edge(graph, "hidden-state", "related", "lstm"),
    ]


def _answers(graph: GraphIndex, question: str) -> list[str]:
    llm = OfflineLLM(offline_handlers())
    results = (answer_routed(llm, graph, question, {}), answer_flat(llm, graph, question))
    return [result.answer for result in results]


def test_related_concepts_taught_before_are_named_as_related_with_their_edges(graph: GraphIndex) -> None:
    assert not any(e.type in ("prerequisite", "builds_on") for e in graph.edges.values())
    part = _edge(graph, "lstm", "part_of", "recurrent-neural-network")
    related = _edge(graph, "hidden-state", "related", "lstm")
    assert graph.edges[part].grounding.confidence > graph.edges[related].grounding.confidence
    for answer in _answers(graph, "What should I learn before LSTM?"):
        assert answer == (
            "The graph states no prerequisite of LSTM. Related concepts the lessons teach before it: "
            f'recurrent neural network ("Recurrent networks") [{part}], '
            f'hidden state ("Recurrent networks") [{related}].'
        )
    assert _lstm_cites(graph) == [part, related]


def test_a_related_concept_the_lessons_teach_later_is_left_out(graph: GraphIndex) -> None:
    later = _edge(graph, "gru", "related", "lstm")
    for answer in _answers(graph, "What do I need to know before learning GRU?"):
        assert answer == (
            "The graph states no prerequisite of GRU. Related concepts the lessons teach before it: "
            f'LSTM ("Long short-term memory") [{later}].'
        )
    # hidden state: related to LSTM (taught later) and to the RNN (taught in the same lesson)
    assert _edge(graph, "hidden-state", "related", "recurrent-neural-network")
    # Nothing related is taught before it: the graph says nothing, and no lesson sentence is read for
    # it (a question of what to learn first finds sentences that share "learn" or "need" in the lessons).
    for answer in _answers(graph, "What should I learn before hidden state?"):
        assert answer == "The graph does not cover what comes before hidden state."


def test_an_edge_that_puts_the_concept_first_is_never_listed(graph: GraphIndex) -> None:
    touching = graph.touching()
    related = graph.edges[_edge(graph, "hidden-state", "related", "lstm")]
    # the same edge turned into "LSTM is a prerequisite for hidden state": LSTM first
    first = related.model_copy(update={"src": "lstm", "type": "prerequisite", "dst": "hidden-state"})
    said, cited = related_before(graph, "lstm", lambda c: [first if e is related else e for e in touching[c]])
    assert "recurrent neural network" in said and cited == [
        _edge(graph, "lstm", "part_of", "recurrent-neural-network")
    ]
    assert "hidden state" not in said
    assert "hidden state" in related_before(graph, "lstm", lambda c: touching[c])[0]


def test_the_edges_the_related_concepts_cite_are_the_answers_citations_and_cover_nothing(
    graph: GraphIndex,
) -> None:
    cited = _lstm_cites(graph)
    llm = OfflineLLM(offline_handlers())
    question = "What should I learn before LSTM?"
    for result in (answer_routed(llm, graph, question, {}), answer_flat(llm, graph, question)):
        assert all(f"[{edge}]" in result.answer for edge in cited)
        assert result.citations == cited and not result.dropped
        assert result.covered is False and [a.covered for a in result.graph_answers] == [False]
        assert result.graph_answers[0].edges == []  # no expert is asked to explain them
    # beside an open question, synthesis merges: they are kept, not dropped; covered as before
    mixed = "What should I learn before LSTM, and what is dropout?"
    for result in (answer_routed(llm, graph, mixed, {}), answer_flat(llm, graph, mixed)):
        assert all(f"[{edge}]" in result.answer for edge in cited), result.answer
        assert set(cited) <= set(result.citations) and not set(cited) & set(result.dropped)
        assert result.covered is True and any(e.citations for e in result.experts)


def test_magg_ask_and_the_api_carry_them(
    graph: GraphIndex, folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cited = _lstm_cites(graph)
    db, question = folder / "magg.sqlite", "What should I learn before LSTM?"
    code, out, err = magg(["ask", question, "--db", str(db), "--json"], capsys)
    assert code == 0, err
    asked = json.loads(out)
    assert [c["edge_id"] for c in asked["citations"]] == cited and asked["covered"] is False
    code, out, err = magg(["ask", question, "--db", str(db)], capsys)
    assert code == 0, err
    assert out.startswith("The graph states no prerequisite of LSTM.")
    assert out.splitlines()[-1] == "2 edge(s) cited; 0 model call(s) (routed)"
    api = Questions(open_store=lambda: SQLiteStore.open(db), llm=LLMConfig(), clock=SystemClock())
    try:  # what POST /api/ask returns
        for flat in (False, True):
            answered = api.answer(question, flat=flat)
            citations = answered["citations"]
            assert isinstance(citations, list) and [c["edge_id"] for c in citations] == cited, flat
            assert answered["covered"] is False
    finally:
        api.close()
