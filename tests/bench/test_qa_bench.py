"""``magg bench qa`` on the tiny Metacademy-layout data set: gold graph through the store, typed
questions, routed vs flat scored by kind."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest

from agents.offline.handlers import offline_handlers
from governance.evaluation.curriculum_questions import generate_questions, gold_order
from governance.evaluation.qa_benchmark import load_gold_graph, run_questions
from governance.evaluation.qa_scoring import score_answer, summarize
from governance.experts import QAResult
from governance.graph_answer import GraphAnswer
from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig, Policy
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.provider import build_llm
from magg_kg.sqlite import SQLiteStore
from tests.bench.conftest import PREREQUISITES
from tests.cli import magg


def _gold_store(data_dir: Path) -> SQLiteStore:
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    llm, usage = build_llm(LLMConfig(), store, clock, offline_handlers())
    edges = load_gold_graph(data_dir, store, llm=llm, usage=usage, clock=clock, policy=Policy(), seed=7)
    assert edges == len(PREREQUISITES)
    return store


def _gold_graph(data_dir: Path) -> GraphIndex:
    store = _gold_store(data_dir)
    try:
        return build_graph_index(store)
    finally:
        store.close()


def test_the_gold_graph_is_loaded_through_the_store_as_established_edges(data_dir: Path) -> None:
    store = _gold_store(data_dir)
    try:
        active = {(e.src, e.type, e.dst) for e in store.edges()}
        assert active == {(s, "prerequisite", d) for s, d, _ in PREREQUISITES}
        assert store.domains() and all(e.grounding.confidence == 1.0 for e in store.edges())
    finally:
        store.close()


def test_every_kind_is_asked_and_routed_matches_flat_reading_less(data_dir: Path) -> None:
    store = _gold_store(data_dir)
    try:
        llm, _ = build_llm(LLMConfig(), store, StepClock("2026-01-02T00:00:00.000000Z"), offline_handlers())
        report = run_questions(store, llm, per_type=4, seed=7)
    finally:
        store.close()
    summary = report["summary"]
    assert isinstance(summary, dict)
    kinds = {"prerequisites", "prerequisites_full", "unlocks", "path", "which_first", "relation", "two_part"}
    assert kinds <= set(summary)
    for kind in kinds:
        assert summary[kind]["routed"]["quality"] >= summary[kind]["flat"]["quality"] > 0.5, kind
    assert summary["all"]["routed"]["edges_read"] < summary["all"]["flat"]["edges_read"]


def test_a_wrong_answer_scores_zero(data_dir: Path) -> None:
    graph = _gold_graph(data_dir)
    order = gold_order(graph)
    questions = generate_questions(graph, per_type=3, seed=1)
    path = next(q for q in questions if q.kind == "path")
    wrong = QAResult(question=path.text, mode="routed", as_of=None)
    wrong.graph_answers = [
        GraphAnswer("path", list(path.concepts), path=[path.concepts[0], path.concepts[1]])
    ]
    assert score_answer(path, wrong, graph, order)["validity"] == 0.0  # not one edge: a shortcut
    first = next(q for q in questions if q.kind == "which_first")
    other = next(c for c in first.concepts if c != first.gold[0])
    wrong.graph_answers = [GraphAnswer("which_first", list(first.concepts), first=other)]
    assert score_answer(first, wrong, graph, order)["exact_match"] == 0.0


def test_citation_recall_is_the_share_of_the_chosen_edges_the_answer_cites(data_dir: Path) -> None:
    graph = _gold_graph(data_dir)
    path = next(q for q in generate_questions(graph, per_type=3, seed=1) if q.kind == "path")
    chosen = [e.edge_id for e in graph.edges.values()][:2]
    result = QAResult(question=path.text, mode="flat", as_of=None)
    result.graph_answers = [GraphAnswer("path", list(path.concepts), edges=chosen)]
    result.citations = chosen[:1]
    assert score_answer(path, result, graph, gold_order(graph))["citation_recall"] == 0.5
    result.graph_answers = []
    assert score_answer(path, result, graph, gold_order(graph))["citation_recall"] == -1.0
    rows = [{"kind": "path", "mode": "flat", "ms": 1.0, "scores": {"citation_recall": -1.0}}]
    assert "citation_recall" not in summarize(rows)["path"]["flat"]


def test_the_command_prints_a_table_and_writes_json(
    data_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "qa.json"
    code, printed, err = magg(
        ["bench", "qa", "--data", str(data_dir), "--per-type", "3", "--out", str(out)], capsys
    )
    assert code == 0, err
    assert "which_first" in printed and "routed" in printed and "flat" in printed
    written = json.loads(out.read_text("utf-8"))
    assert written["curriculum"]["gold_edges"] == len(PREREQUISITES)
    assert {row["mode"] for row in written["curriculum"]["rows"]} == {"routed", "flat"}


def test_a_missing_data_folder_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = magg(["bench", "qa", "--data", str(tmp_path / "nowhere")], capsys)
    assert (code, out) == (2, "") and err.startswith("error: no data folder at ")


def test_lecturebank_and_al_cpl_folders_are_gold_graphs_too(tmp_path: Path) -> None:
    lecturebank = tmp_path / "lb"
    lecturebank.mkdir()
    (lecturebank / "lb2_topics.csv").write_text("topic_id,topic\n1,syntax\n2,parsing\n3,learning\n", "utf-8")
    (lecturebank / "lb2_prerequisite_edges.csv").write_text(
        "source_id,source,target_id,target\n1,syntax,2,parsing\n3,learning,2,parsing\n", "utf-8"
    )
    alcpl = tmp_path / "al"
    alcpl.mkdir()
    (alcpl / "physics_concepts.csv").write_text(
        "concept_wikipedia_title\nForce\nMass\nAcceleration\n", "utf-8"
    )
    (alcpl / "physics_pairs.csv").write_text(
        "source_prerequisite,target,is_prerequisite\nMass,Force,1\nForce,Acceleration,1\nMass,Acceleration,0\n",
        "utf-8",
    )
    for folder, gold in (
        (lecturebank, {("syntax", "parsing"), ("learning", "parsing")}),
        (alcpl, {("Mass", "Force"), ("Force", "Acceleration")}),
    ):
        store = SQLiteStore.open(":memory:")
        clock = StepClock("2026-01-01T00:00:00.000000Z")
        llm, usage = build_llm(LLMConfig(), store, clock, offline_handlers())
        try:
            assert (
                load_gold_graph(folder, store, llm=llm, usage=usage, clock=clock, policy=Policy(), seed=7)
                == 2
            )
            assert {(e.src, e.dst) for e in store.edges()} == gold
        finally:
            store.close()


def test_no_question_is_asked_whose_answer_the_gold_graph_does_not_decide(tmp_path: Path) -> None:
    # LectureBank's gold graph has prerequisite cycles ("which comes first" has no answer within
    # one) and topics whose names read as one ("context free grammar", "context free grammars"),
    # which a question can name only as one: asked anyway, which-first scored 0.900 on a copy of it.
    folder = tmp_path / "lb"
    folder.mkdir()
    topics = [
        "syntax",
        "parsing",
        "semantics",
        "context free grammar",
        "context free grammars",
        "logic",
        "algebra",
    ]
    (folder / "lb2_topics.csv").write_text(
        "topic_id,topic\n" + "".join(f"{i},{t}\n" for i, t in enumerate(topics, 1)), "utf-8"
    )
    edges = [
        (1, 2),
        (2, 3),
        (3, 1),
        (3, 6),
        (4, 6),
        (5, 2),
        (7, 1),
    ]  # syntax -> parsing -> semantics -> syntax
    (folder / "lb2_prerequisite_edges.csv").write_text(
        "source_id,source,target_id,target\n"
        + "".join(f"{a},{topics[a - 1]},{b},{topics[b - 1]}\n" for a, b in edges),
        "utf-8",
    )
    store = SQLiteStore.open(":memory:")
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    llm, usage = build_llm(LLMConfig(), store, clock, offline_handlers())
    try:
        load_gold_graph(folder, store, llm=llm, usage=usage, clock=clock, policy=Policy(), seed=7)
        graph = build_graph_index(store)
        order = gold_order(graph)
        assert {"context_free_grammar", "context_free_grammars"} <= set(graph.concepts)
        assert not nx.is_directed_acyclic_graph(order)
        questions = [q for seed in range(5) for q in generate_questions(graph, per_type=20, seed=seed)]
        named = {c for q in questions for c in q.concepts}
        assert named and not named & {"context_free_grammar", "context_free_grammars"}
        pairs = [q.concepts for q in questions if q.kind == "which_first"]
        assert pairs and all(not (nx.has_path(order, a, b) and nx.has_path(order, b, a)) for a, b in pairs)
        assert any(q.kind == "path" and nx.has_path(order, *reversed(q.concepts)) for q in questions)
    finally:
        store.close()


def test_a_two_part_question_scores_each_part_by_its_own_type(data_dir: Path) -> None:
    graph = _gold_graph(data_dir)
    order = gold_order(graph)
    two = [q for q in generate_questions(graph, per_type=4, seed=7) if q.kind == "two_part"]
    assert {q.parts[1][1] for q in two} == {"prerequisites", "unlocks"}
    unlocking = next(q for q in two if q.parts[1][1] == "unlocks")
    (a, _, before), (b, _, after) = unlocking.parts
    result = QAResult(question=unlocking.text, mode="flat", as_of=None)
    result.graph_answers = [GraphAnswer("prerequisites", [a], found=list(before))]
    assert score_answer(unlocking, result, graph, order)["set_f1"] == 0.5  # the second part left out
    result.graph_answers.append(GraphAnswer("prerequisites", [b], found=list(after)))
    assert (
        score_answer(unlocking, result, graph, order)["set_f1"] == 0.5
    )  # the right set, read as the wrong type
    result.graph_answers[1] = GraphAnswer("unlocks", [b], found=list(after))
    assert score_answer(unlocking, result, graph, order)["set_f1"] == 1.0
