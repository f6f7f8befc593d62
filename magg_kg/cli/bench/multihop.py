"""``magg bench qa --multihop N``: MuSiQue and HotpotQA questions over graphs built from their paragraphs.

Each question's paragraphs become lessons (one Markdown file per paragraph, its title as heading)
ingested into a fresh database by governed ingestion; the question is then answered routed, flat
and global (:func:`governance.evaluation.multihop.answer_global`) from the graph's edges and its
lesson excerpts (:mod:`governance.excerpts`), and its short answer is scored by exact match and
token F1 against the answer and its aliases. The data are read where they are (``../shared/data``), never
copied.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from rich.console import Console
from rich.table import Table

from governance.evaluation.multihop import (
    MultiHopItem,
    answer_global,
    exact_match,
    load_hotpotqa,
    load_musique,
    short_answer,
    token_f1,
)
from governance.qa import answer_flat, answer_routed, bridges_of
from magg_kg.cli.context import open_context, read_config
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import build_graph_index

__all__ = ["print_multihop", "run_multihop"]

MODES = ("routed", "flat", "global")


def _item(item: MultiHopItem, folder: Path) -> list[dict[str, object]]:
    lessons = folder / "lessons"
    lessons.mkdir()
    for number, (title, text) in enumerate(item.paragraphs):
        (lessons / f"p{number:02d}.md").write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
    rows: list[dict[str, object]] = []
    with open_context(folder / "graph.sqlite", create=True, decides=True, asks=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
        graph = build_graph_index(ctx.store)
        llm, _ = ctx.llm(ctx.config.llm.checked())
        bridges = bridges_of(ctx.store.domains())
        for mode in MODES:
            started = time.perf_counter()
            if mode == "routed":
                result = answer_routed(llm, graph, item.question, bridges)
            elif mode == "flat":
                result = answer_flat(llm, graph, item.question)
            else:
                result = answer_global(llm, graph, item.question, bridges)
            said = short_answer(result)
            rows.append(
                {
                    "id": item.id,
                    "mode": mode,
                    "said": said,
                    "em": exact_match(said, item.answers),
                    "f1": token_f1(said, item.answers),
                    "calls": result.calls,
                    "context_tokens": result.context_tokens,
                    "excerpts": result.context_excerpts,
                    "edges": len(graph.edges),
                    "ms": (time.perf_counter() - started) * 1000.0,
                }
            )
    return rows


def _summary(rows: list[dict[str, object]]) -> dict[str, dict[str, float]]:
    summary: dict[str, dict[str, float]] = {}
    for mode in MODES:
        picked = [r for r in rows if r["mode"] == mode]
        if not picked:
            continue
        latency = sorted(float(str(r["ms"])) for r in picked)
        summary[mode] = {
            "n": float(len(picked)),
            **{
                key: round(statistics.fmean(float(str(r[key])) for r in picked), 4)
                for key in ("em", "f1", "calls", "context_tokens", "excerpts", "edges")
            },
            "p50_ms": round(latency[len(latency) // 2], 1),
            "p95_ms": round(latency[min(len(latency) - 1, int(0.95 * len(latency)))], 1),
        }
    return summary


def run_multihop(limit: int, musique: Path, hotpotqa: Path, err: Console) -> dict[str, object]:
    """The first ``limit`` questions of each sample, ingested and answered; rows and summaries."""
    read_config(decides=True).llm.checked()  # a bad configuration fails before any ingestion
    report: dict[str, object] = {}
    sets = (
        ("musique", load_musique(musique / "musique_ans_dev_sample.jsonl", limit)),
        ("hotpotqa", load_hotpotqa(hotpotqa / "hotpot_dev_distractor_sample.jsonl", limit)),
    )
    for name, items in sets:
        rows: list[dict[str, object]] = []
        with err.status(f"bench qa: {name}") as status:
            for number, item in enumerate(items):
                status.update(
                    f"bench qa: {name}: question {number + 1}/{len(items)} (ingesting its paragraphs)"
                )
                with tempfile.TemporaryDirectory() as folder:
                    rows += _item(item, Path(folder))
        report[name] = {"questions": len(items), "summary": _summary(rows), "rows": rows}
    return report


def print_multihop(report: object, out: Console) -> None:
    """One row per data set and mode: EM, token F1, calls, context tokens, the excerpts the experts
    were shown, the edges of the question's graph, latency."""
    table = Table(title="multi-hop QA (each question's paragraphs ingested into a fresh graph)")
    columns = (
        "data",
        "mode",
        "n",
        "EM",
        "F1",
        "calls",
        "ctx tokens",
        "excerpts",
        "graph edges",
        "p50 ms",
        "p95 ms",
    )
    for column in columns:
        table.add_column(column, justify="left" if column in ("data", "mode") else "right")
    sections = report if isinstance(report, Mapping) else {}
    for name, section in sections.items():
        summary = section.get("summary", {}) if isinstance(section, Mapping) else {}
        for mode, row in summary.items():
            table.add_row(
                name,
                mode,
                str(int(row["n"])),
                *(
                    f"{row[k]:.3f}"
                    for k in ("em", "f1", "calls", "context_tokens", "excerpts", "edges", "p50_ms", "p95_ms")
                ),
            )
    out.print(table)
