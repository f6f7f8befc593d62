"""The question-answering benchmark on a gold curriculum graph: routed vs flat, by question kind.

:func:`load_gold_graph` writes a gold data set (in Metacademy's layout, LectureBank's or AL-CPL's:
:func:`gold_dataset`) into a store through the ordinary write path, as the replay seeds its
established graph
(:func:`governance.evaluation.ablation_bench.seed_store`): every concept, every prerequisite edge
committed as established with its grounding record, and the domains as communities of that graph.
:func:`run_questions` asks every generated question
(:mod:`governance.evaluation.curriculum_questions`) routed and flat and scores the structured
answers (:mod:`governance.evaluation.qa_scoring`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import networkx as nx

from governance.evaluation.ablation_bench import Bench, seed_store
from governance.evaluation.curriculum_questions import askable, generate_questions, gold_order
from governance.evaluation.prerequisite_data import layout_of, load_alcpl, load_lecturebank
from governance.evaluation.qa_scoring import score_answer, summarize
from governance.evaluation.replay import CandidateSet, Dataset, load_dataset
from governance.qa import answer_flat, answer_routed, bridges_of
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.port import LLM
from magg_kg.llm.usage import UsageLog
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM

__all__ = ["MODES", "gold_dataset", "load_gold_graph", "run_questions"]

MODES = ("routed", "flat")


def load_gold_graph(
    folder: Path, store: SQLiteStore, *, llm: LLM, usage: UsageLog, clock: Clock, policy: Policy, seed: int
) -> int:
    """Writes the data set's concepts, prerequisite edges (established) and domains; the edge count."""
    dataset = gold_dataset(folder)
    bench = Bench(store, clock, llm, usage, policy, CURRICULUM, dataset, seed)
    seed_store(bench, CandidateSet(dataset.gold, (), seed, str(folder)))
    return len(dataset.gold)


def gold_dataset(folder: Path) -> Dataset:
    """The gold graph of a folder in any layout the replay reads: Metacademy's, LectureBank's (LB2
    topics and edges) or AL-CPL's (each domain's concepts and positive pairs)."""
    layout = layout_of(folder)
    if layout == "lecturebank":
        return load_lecturebank(folder)[0]
    if layout == "al-cpl":
        return load_alcpl(folder)[0]
    return load_dataset(folder)


def run_questions(
    store: Store,
    llm: LLM,
    *,
    per_type: int,
    seed: int,
    timer: Callable[[], float] = time.perf_counter,
    progress: Callable[[int, int], None] = lambda done, total: None,
) -> dict[str, object]:
    """Every generated question, routed and flat: per-question rows and the summary by kind."""
    graph = build_graph_index(store)
    bridges = bridges_of(store.domains())
    order = gold_order(graph)
    questions = generate_questions(graph, per_type=per_type, seed=seed)
    rows: list[dict[str, object]] = []
    for number, question in enumerate(questions):
        progress(number, len(questions))
        for mode in MODES:
            started = timer()
            if mode == "routed":
                result = answer_routed(llm, graph, question.text, bridges)
            else:
                result = answer_flat(llm, graph, question.text)
            elapsed = (timer() - started) * 1000.0
            rows.append(
                {
                    "kind": question.kind,
                    "mode": mode,
                    "question": question.text,
                    "type": result.question_type,
                    "ms": round(elapsed, 3),
                    "scores": score_answer(question, result, graph, order),
                }
            )
    return {
        "concepts": len(graph.concepts),
        "active_edges": len(graph.edges),
        "unaskable": len(graph.concepts) - len(askable(graph)),
        "in_cycles": sum(len(part) for part in nx.strongly_connected_components(order) if len(part) > 1),
        "domains": len(bridges),
        "questions": len(questions),
        "seed": seed,
        "per_type": per_type,
        "summary": summarize(rows),
        "rows": rows,
    }
