"""``magg bench qa``: typed curriculum questions, routed vs flat, and the multi-hop samples.

1. The gold graph of ``--data`` (a Metacademy-layout folder, default ``../shared/data/metacademy``)
   is loaded through the store as established edges; typed questions with gold answers are
   generated from it and answered routed and flat (:mod:`governance.evaluation.qa_benchmark`).
2. ``--demo``: the same on the graph ``magg demo`` builds from the bundled curriculum (its gold is
   the graph itself: this measures answering, not the graph).
3. ``--multihop N``: the first N questions of each of the MuSiQue and HotpotQA samples
   (``../shared/data/musique``, ``../shared/data/hotpotqa``, used where they are), each question's
   paragraphs ingested into a fresh graph, answered routed, flat and global
   (:mod:`governance.evaluation.multihop`): exact match and token F1.

Every section prints a table; ``--out`` writes everything as JSON. The LLM is whatever the
configuration names (offline by default; the same command runs with ``MAGG_LLM=deepseek``).
"""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from magg_kg.cli.bench.figures import CLOCK_START
from magg_kg.cli.context import (
    OutOption,
    ResultsJsonOption,
    check_out,
    emit_report,
    err_console,
    open_context,
    read_config,
    shared_data,
)
from magg_kg.clock import StepClock, SystemClock
from magg_kg.errors import UserError
from magg_kg.sqlite import SQLiteStore

__all__ = ["print_qa_summary", "qa", "register"]

_MEASURES = (
    ("quality", "quality"),
    ("citation_precision", "cite prec"),
    ("citation_recall", "cite rec"),
    ("length_ratio", "len ratio"),
    ("edges_read", "edges read"),
    ("graph_tokens", "graph tokens"),
    ("context_edges", "ctx edges"),
    ("context_tokens", "ctx tokens"),
    ("expert_tokens", "expert tokens"),
    ("calls", "calls"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
)


def print_qa_summary(
    title: str, summary: Mapping[str, Mapping[str, Mapping[str, float]]], out: Console
) -> None:
    """One row per kind and mode: the kind's quality measure, citations, context, calls, latency."""
    from governance.evaluation.qa_benchmark import MODES

    table = Table(title=title)
    table.add_column("kind", no_wrap=True)
    table.add_column("mode", no_wrap=True)
    table.add_column("n", justify="right")
    for _, label in _MEASURES:
        table.add_column(label, justify="right")
    for kind, modes in summary.items():
        for mode in MODES:
            row = modes.get(mode)
            if row is None:
                continue
            cells = [_cell(row[key]) if key in row else "—" for key, _ in _MEASURES]
            table.add_row(kind, mode, str(int(row["n"])), *cells)
    out.print(table)


def _cell(value: float) -> str:
    """Three decimals for rates and small means, fewer for counts of tokens and edges.

    >>> _cell(0.8571), _cell(387.875), _cell(42375.0)
    ('0.857', '387.9', '42,375')
    """
    return f"{value:.3f}" if abs(value) < 100 else f"{value:.1f}" if abs(value) < 10_000 else f"{value:,.0f}"


def _curriculum(data: Path, per_type: int, seed: int, out: Console) -> dict[str, object]:
    from agents.offline.handlers import offline_handlers
    from governance.evaluation.qa_benchmark import load_gold_graph, run_questions
    from magg_kg.llm.provider import open_llm

    config = read_config(decides=True)
    store = SQLiteStore.open(":memory:")
    try:
        clock = StepClock(CLOCK_START)
        with open_llm(config.llm.checked(), store, clock, offline_handlers()) as (llm, usage):
            edges = load_gold_graph(
                data, store, llm=llm, usage=usage, clock=clock, policy=config.policy, seed=seed
            )
            with out.status(f"bench qa: {data}") as status:
                report = run_questions(
                    store,
                    llm,
                    per_type=per_type,
                    seed=seed,
                    progress=lambda done, total: status.update(
                        f"bench qa: {data}: question {done + 1}/{total}"
                    ),
                )
        return report | {"data": str(data), "gold_edges": edges}
    finally:
        store.close()


def _demo(per_type: int, seed: int, out: Console) -> dict[str, object]:
    from governance.evaluation.qa_benchmark import run_questions
    from magg_kg.cli.ingestion import curriculum_folder, run_ingest

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "demo.sqlite"
        with open_context(path, create=True, decides=True, asks=True) as ctx:
            with out.status("bench qa: building the demo graph"):
                run_ingest(ctx, [curriculum_folder()], show_progress=False)
            llm, _ = ctx.llm(ctx.config.llm.checked())
            return run_questions(ctx.store, llm, per_type=per_type, seed=seed) | {"data": "magg demo"}


def register(bench: typer.Typer) -> None:
    """Adds ``qa`` to the ``magg bench`` group."""
    bench.command("qa")(qa)


def qa(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            metavar="FOLDER",
            help="A gold graph: a folder in Metacademy's layout (default: ../shared/data/metacademy), "
            "LectureBank's or AL-CPL's.",
        ),
    ] = None,
    demo: Annotated[bool, typer.Option("--demo", help="Also on the graph `magg demo` builds.")] = False,
    multihop: Annotated[
        int,
        typer.Option(
            "--multihop", min=0, metavar="N", help="Also the first N MuSiQue and HotpotQA questions."
        ),
    ] = 0,
    per_type: Annotated[
        int, typer.Option("--per-type", min=1, metavar="N", help="Questions of each kind at most.")
    ] = 40,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="SEED", help="Seed of the questions (default: 7).")
    ] = None,
    out: OutOption = None,
    json_: ResultsJsonOption = False,
) -> None:
    """Question answering: typed curriculum questions from a gold graph, routed vs flat, by kind."""
    # The answering and ingestion code is imported by the functions that run it, so that other
    # commands start without it.
    from magg_kg.cli.bench.multihop import print_multihop, run_multihop

    check_out(out)
    folder = data or shared_data("metacademy")
    if not folder.is_dir():
        raise UserError(f"no data folder at {folder}: pass --data DIR (a folder with Metacademy's layout)")
    seed_value = read_config().seed if seed is None else seed
    err = err_console()
    report: dict[str, object] = {"measured_at": SystemClock().now()}
    report["curriculum"] = _curriculum(folder, per_type, seed_value, err)
    if demo:
        report["demo"] = _demo(per_type, seed_value, err)
    if multihop:
        report["multihop"] = run_multihop(multihop, shared_data("musique"), shared_data("hotpotqa"), err)

    def show(report: Mapping[str, object], console: Console) -> None:
        for key, title in (
            ("curriculum", f"typed questions on {folder}"),
            ("demo", "typed questions on the demo graph"),
        ):
            section = report.get(key)
            if isinstance(section, dict):
                summary = section["summary"]
                assert isinstance(summary, Mapping)
                sized = f"{title}: {section['concepts']} concepts, {section['active_edges']} edges"
                if section.get("unaskable") or section.get("in_cycles"):  # see curriculum_questions
                    sized += (
                        f"; {section['unaskable']} concepts not asked about (a name another concept's reads "
                        f"as), {section['in_cycles']} in prerequisite cycles (no which-first within one)"
                    )
                print_qa_summary(sized, summary, console)
        if multihop:
            print_multihop(report["multihop"], console)

    # Thirteen columns of figures: wider than a terminal's 80, never narrower than 160.
    emit_report(report, out, json_, show, width=max(160, Console().width))
