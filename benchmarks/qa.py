"""Question answering: domain-routed vs flat retrieval on prerequisite questions of the curriculum.

The bundled curriculum has no separately labelled gold graph, so the gold here is the graph that
governed ingestion commits from it (``magg demo``; or ``--db`` for an existing database): for a
concept X, the gold answer to "What should I learn before X?" is the set of active edges
``Y prerequisite X`` and ``X builds_on Y``. This measures retrieval and routing (does the answer
find and cite the edges the graph holds), not whether the graph itself is right.

Questions: one per concept with at least one gold edge ("single"), and two-part questions
joining two such concepts of different domains ("What should I learn before A and what should I
learn before B?", "pair"). Each is answered routed and flat with the offline roles; per mode:
gold edge hit rate (gold edges cited / gold edges), citation precision (gold edges cited /
edges cited, over the questions that cited anything), the share of questions citing nothing,
concept recall (gold prerequisite concepts named in the answer / gold concepts),
model calls and seconds per question.

    python -m benchmarks.qa --out benchmarks/results/qa.json [--db magg.sqlite] [--limit 40]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from agents.offline.handlers import offline_handlers
from benchmarks.command import positive, run_command
from governance.qa import QAResult, answer_flat, answer_routed, bridges_of
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import curriculum_folder, run_ingest
from magg_kg.clock import SystemClock
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

__all__ = ["gold_questions", "main", "score"]

Question = tuple[str, str, frozenset[str]]  # kind, text, gold edge ids


def _gold(graph: GraphIndex, concept: str) -> frozenset[str]:
    return frozenset(
        e.edge_id
        for e in graph.edges.values()
        if (e.type == "prerequisite" and e.dst == concept) or (e.type == "builds_on" and e.src == concept)
    )


def gold_questions(graph: GraphIndex, limit: int) -> list[Question]:
    """Single questions (one per concept with gold edges) and two-part questions across domains."""
    answered = sorted(c for c in graph.concepts if _gold(graph, c))[:limit]
    single = [
        ("single", f"What should I learn before {graph.concepts[c].name}?", _gold(graph, c)) for c in answered
    ]
    pairs: list[Question] = []
    for first, second in zip(answered, answered[1:] + answered[:1], strict=True):
        if set(graph.owners.get(first, ())) & set(graph.owners.get(second, ())) or first == second:
            continue
        text = (
            f"What should I learn before {graph.concepts[first].name} and what should I learn "
            f"before {graph.concepts[second].name}?"
        )
        pairs.append(("pair", text, _gold(graph, first) | _gold(graph, second)))
    return single + pairs[: max(1, limit // 2)]


def score(graph: GraphIndex, result: QAResult, gold: frozenset[str]) -> dict[str, float]:
    cited = set(result.citations)
    concepts = {
        graph.edges[e].src if graph.edges[e].type == "prerequisite" else graph.edges[e].dst for e in gold
    }
    text = result.answer.lower()
    named = sum(1 for c in concepts if graph.concepts[c].name.lower() in text)
    return {
        "hit_rate": len(cited & gold) / len(gold),
        "precision": len(cited & gold) / len(cited) if cited else -1.0,  # -1: nothing cited
        "unanswered": 0.0 if cited else 1.0,
        "concept_recall": named / len(concepts) if concepts else 0.0,
        "calls": float(result.calls),
    }


def _precision(scores: list[dict[str, float]]) -> float:
    """Mean citation precision over the questions that cited something."""
    cited = [s["precision"] for s in scores if s["precision"] >= 0]
    return round(statistics.fmean(cited), 4) if cited else 0.0


def run(store: Store, limit: int) -> dict[str, object]:
    graph = build_graph_index(store)
    llm = OfflineLLM(offline_handlers())
    bridges = bridges_of(store.domains())
    questions = gold_questions(graph, limit)
    rows: dict[str, dict[str, dict[str, float]]] = {}
    for mode in ("routed", "flat"):
        for kind in ("single", "pair", "all"):
            picked = [q for q in questions if kind in ("all", q[0])]
            scores = []
            for _, text, gold in picked:
                started = time.perf_counter()
                result = (
                    answer_routed(llm, graph, text, bridges)
                    if mode == "routed"
                    else answer_flat(llm, graph, text)
                )
                scores.append({**score(graph, result, gold), "seconds": time.perf_counter() - started})
            rows.setdefault(mode, {})[kind] = {
                key: round(statistics.fmean(s[key] for s in scores), 4) if scores else 0.0
                for key in ("hit_rate", "concept_recall", "unanswered", "calls", "seconds")
            } | {"questions": float(len(picked)), "precision": _precision(scores)}
    return {
        "concepts": len(graph.concepts),
        "active_edges": len(graph.edges),
        "questions": {
            "single": sum(q[0] == "single" for q in questions),
            "pair": sum(q[0] == "pair" for q in questions),
        },
        "results": rows,
    }


def _demo_store(folder: Path) -> Store:
    path = folder / "magg.sqlite"
    with open_context(path, create=True) as ctx:
        run_ingest(ctx, [curriculum_folder()], show_progress=False)
    return SQLiteStore.open(str(path))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", type=Path, help="an existing database (default: a fresh `magg demo`)")
    parser.add_argument("--limit", type=positive(int), default=40, help="single questions at most")
    parser.add_argument("--out", type=Path, help="write the results as JSON here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        store = SQLiteStore.open(str(args.db), create=False) if args.db else _demo_store(Path(folder))
        try:
            report = run(store, args.limit) | {"measured_at": SystemClock().now()}
        finally:
            store.close()
    print(
        f"{'mode':<8}{'questions':<11}{'n':>4}{'hit rate':>10}{'precision':>11}{'recall':>8}"
        f"{'no cite':>9}{'calls':>7}{'s/q':>8}"
    )
    results = report["results"]
    assert isinstance(results, dict)
    for mode, kinds in results.items():
        for kind, row in kinds.items():
            print(
                f"{mode:<8}{kind:<11}{int(row['questions']):>4}{row['hit_rate']:>10.3f}{row['precision']:>11.3f}"
                f"{row['concept_recall']:>8.3f}{row['unanswered']:>9.3f}{row['calls']:>7.2f}{row['seconds']:>8.3f}"
            )
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, sort_keys=True) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    run_command(main)
