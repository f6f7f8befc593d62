"""Scale: every figure of issue 10 on seeded synthetic graphs, as a table and as JSON.

For each size (concepts; five edges per concept, so 500k edges at 100k) a synthetic graph
(:mod:`magg_kg.synthetic_graph`) is written through the store, then each operation is timed
``repeats`` times in this process and the median is reported beside its goal:

- ``domains``: the domains of the whole graph (:func:`governance.domain_rebuild.plan_rebuild`:
  read, weighted graph, Louvain, layout, cards, the writes) - goal 60 s; the layout is written once,
  untimed, so that the later figures read a graph with domains;
- ``discovery``: 1,000 candidate pairs sampled from the store (read the triples, sample two-hop
  pairs, never all pairs) - goal 5 s;
- ``recheck``: the 25 most recent edges re-judged by the offline judge (not written) - goal: time
  independent of graph size, read as the largest size's median within twice the median of the
  next smaller size (a graph ten times larger; the smallest graph is no larger than the
  neighbourhood a re-check reads, so its figure is lower);
- ``ask p95``: the 95th percentile latency of ``questions`` routed questions once each domain they
  reach has its index (the index of a domain is built once and kept: ``ask cold p95`` is the same
  questions the first time, building included, and ``ask index`` the read of the graph) - goal 2 s.
  The process keeps the graph as a server would: read once and frozen out of the cyclic garbage
  collector (``gc.freeze``, again once the first pass has built the domains' indexes); without that
  a full collection over the 100k graph pauses a question for about 6 s;
- ``coverage``: :func:`magg_kg.coverage.coverage_report` - goal 5 s.

Timings are wall-clock seconds on this machine (CPU seconds beside them would not show waits on the
database file). ``ratio`` is each median over the smallest size's, ``step`` over the next smaller
size's.

    magg bench perf --quick
    magg bench perf --sizes 1000,10000,100000 --repeats 3 --out perf.json
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import cast

from rich.console import Console
from rich.table import Table

from agents.offline.handlers import offline_handlers
from governance.discovery import sample_pairs
from governance.domain_rebuild import plan_rebuild, rebuild_domains
from governance.qa import answer_routed, bridges_of
from governance.recheck import recheck
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.coverage import coverage_report
from magg_kg.graph import Adjacency
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.sqlite import SQLiteStore
from magg_kg.synthetic_graph import GraphShape, plan_graph, write_graph

__all__ = [
    "GOALS",
    "MAX_SIZE",
    "MIN_SIZE",
    "QUICK_SIZES",
    "SIZES",
    "Figure",
    "PerfResult",
    "SizeResult",
    "perf_table",
    "run",
    "show",
]

EDGES_PER_CONCEPT = 5
CANDIDATES = 1_000
RECHECKED = 25
GOALS: dict[str, float | None] = {
    "domains": 60.0,
    "discovery": 5.0,
    "recheck": None,
    "ask_p95": 2.0,
    "coverage": 5.0,
    "ask_cold_p95": None,
    "ask_index": None,
}
"""Seconds; ``None``: shown, with no goal of its own (recheck's goal is its ratio)."""
RECHECK_RATIO = 2.0
"""Re-check counts as independent of size while the largest size's median is within this ratio of
the next smaller size's."""
SIZES = (1_000, 10_000, 100_000)
QUICK_SIZES = (300,)
MIN_SIZE, MAX_SIZE = 25, 10_000_000
"""The fewest concepts a size may have: the synthetic graph must place five edges per concept
among them (12 is the least that ever can; from 25 every seed of 30,000 tried does), and the most
(50 million edges: far past the 100k the goals are set at, and hours of writing)."""


@dataclass
class Figure:
    """One figure at one size: the runs, their median, and the goal."""

    name: str
    runs: list[float]
    goal: float | None
    ratio: float | None = None
    step: float | None = None
    passed: bool | None = None

    @property
    def median(self) -> float:
        return statistics.median(self.runs)

    def as_json(self) -> dict[str, object]:
        return {
            "median_s": round(self.median, 4),
            "runs_s": [round(r, 4) for r in self.runs],
            "goal_s": self.goal,
            "ratio_to_smallest": None if self.ratio is None else round(self.ratio, 3),
            "ratio_to_previous": None if self.step is None else round(self.step, 3),
            "passed": self.passed,
        }


@dataclass
class SizeResult:
    concepts: int
    edges: int
    generate_s: float
    domains: int
    figures: dict[str, Figure] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        return {
            "concepts": self.concepts,
            "edges": self.edges,
            "generate_s": round(self.generate_s, 3),
            "domains": self.domains,
            "figures": {name: figure.as_json() for name, figure in self.figures.items()},
        }


@dataclass
class PerfResult:
    quick: bool
    seed: int
    repeats: int
    questions: int
    sizes: list[SizeResult]

    def as_json(self) -> dict[str, object]:
        return {
            "benchmark": "perf",
            "quick": self.quick,
            "seed": self.seed,
            "repeats": self.repeats,
            "questions": self.questions,
            "goals_s": GOALS,
            "recheck_ratio_goal": RECHECK_RATIO,
            "python": platform.python_version(),
            "machine": platform.machine(),
            "sizes": [size.as_json() for size in self.sizes],
        }

    def table(self) -> Table:
        return perf_table(self.as_json())


def _mapping(value: object) -> Mapping[str, object]:
    assert isinstance(value, Mapping), value
    return value


def perf_table(report: Mapping[str, object]) -> Table:
    """The figures of a report (:meth:`PerfResult.as_json`) as a table: one row a figure, one column
    a size, the goal and the verdict at the largest size beside them."""
    sizes = [_mapping(size) for size in cast(list[object], report["sizes"])]
    table = Table(
        title=f"magg bench perf (medians of {report['repeats']} runs, seconds; "
        "x ratio to the smallest size; x ratio to the next smaller)"
    )
    for column in ("figure", *(f"{s['concepts']:,} / {s['edges']:,}" for s in sizes), "goal", "pass"):
        table.add_column(column, justify="left" if column in ("figure", "pass") else "right")
    for name, goal in GOALS.items():
        cells = []
        for number, size in enumerate(sizes):
            figure = _mapping(_mapping(size["figures"])[name])
            ratio, step = figure["ratio_to_smallest"], figure["ratio_to_previous"]
            shown = (
                f" (x{ratio:.2f}; x{step:.2f})" if number and ratio is not None and step is not None else ""
            )
            cells.append(f"{figure['median_s']:.3f}{shown}")
        passed = _mapping(_mapping(sizes[-1]["figures"])[name])["passed"]
        wanted = (
            f"<= {goal:g}"
            if goal is not None
            else (f"step x <= {RECHECK_RATIO:g}" if name == "recheck" else "")
        )
        table.add_row(name, *cells, wanted, "" if passed is None else ("pass" if passed else "FAIL"))
    return table


def show(report: Mapping[str, object], console: Console) -> None:
    """Prints a report's table (the ``show`` of ``magg_kg.cli``'s ``emit_report``)."""
    console.print(perf_table(report))


def _timed(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return time.perf_counter() - started


def _questions(graph: GraphIndex, count: int, seed: int) -> list[str]:
    """Questions about the graph's concepts, one kind in three: what comes before a concept, how
    two joined concepts relate, and an open question."""
    rng = random.Random(seed)
    edges = sorted(graph.edges)
    asked = []
    for number in range(count):
        edge = graph.edges[rng.choice(edges)]
        src, dst = graph.concepts[edge.src].name, graph.concepts[edge.dst].name
        kind = number % 3
        if kind == 0:
            asked.append(f"What should I learn before {dst}?")
        elif kind == 1:
            asked.append(f"How is {src} related to {dst}?")
        else:
            asked.append(f"What is {src} used for?")
    return asked


def _p95(values: Sequence[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(0.95 * len(ordered)) - 1))]


def _ask(store: SQLiteStore, llm: OfflineLLM, questions: int, seed: int) -> tuple[float, float, float]:
    """(reading the graph, p95 of the questions the first time, p95 once their domains are indexed)."""
    started = time.perf_counter()
    graph = build_graph_index(store)
    index = time.perf_counter() - started
    bridges = bridges_of(store.domains())
    asked = _questions(graph, questions, seed)
    passes = []
    # What a process that keeps the graph does: what it has read and built is set aside from the
    # cyclic garbage collector (after the read, and again once the domains' indexes are built),
    # whose full passes over the 100k graph's millions of objects otherwise stop a question for
    # seconds.
    try:
        for _ in range(2):
            gc.freeze()
            latencies = []
            for question in asked:
                started = time.perf_counter()
                answer_routed(llm, graph, question, bridges)
                latencies.append(time.perf_counter() - started)
            passes.append(_p95(latencies))
    finally:
        gc.unfreeze()
    return index, passes[0], passes[1]


def _discover(store: SQLiteStore, seed: int) -> None:
    sample_pairs(Adjacency.of_store(store), CANDIDATES, seed)


def _measure(store: SQLiteStore, repeats: int, questions: int, seed: int) -> dict[str, list[float]]:
    llm = OfflineLLM(offline_handlers())
    clock = StepClock("2030-01-01T00:00:00.000000Z")
    runs: dict[str, list[float]] = {name: [] for name in GOALS}
    for _ in range(repeats):
        runs["domains"].append(_timed(lambda: plan_rebuild(store, seed, clock.now())))
    for repeat in range(repeats):
        runs["discovery"].append(_timed(partial(_discover, store, seed + repeat)))
    for _ in range(repeats):
        runs["recheck"].append(_timed(lambda: list(recheck(store, llm, Policy(), clock, RECHECKED))))
        runs["coverage"].append(_timed(lambda: coverage_report(store)))
    for _ in range(repeats):
        index, cold, warm = _ask(store, llm, questions, seed)
        runs["ask_index"].append(index)
        runs["ask_cold_p95"].append(cold)
        runs["ask_p95"].append(warm)
    return runs


def _size(
    concepts: int, repeats: int, questions: int, seed: int, folder: Path, log: Callable[[str], None]
) -> SizeResult:
    shape = GraphShape(concepts, concepts * EDGES_PER_CONCEPT, seed=seed)
    path = folder / f"synthetic-{concepts}-{shape.edges}-{seed}.sqlite"
    store = SQLiteStore.open(path)
    try:
        log(f"{concepts:,} concepts: writing the synthetic graph ({shape.edges:,} edges)")
        generate = _timed(lambda: write_graph(store, plan_graph(shape), StepClock(shape.start, 1.0)))
        built = rebuild_domains(store, seed, StepClock("2029-01-01T00:00:00.000000Z"))
        domains = len(built.layout.domains)
        log(f"{concepts:,} concepts: {domains} domains; timing {repeats} run(s) of each figure")
        runs = _measure(store, repeats, questions, seed)
    finally:
        store.close()
        path.unlink(missing_ok=True)
    result = SizeResult(concepts, shape.edges, generate, domains)
    result.figures = {name: Figure(name, values, GOALS[name]) for name, values in runs.items()}
    return result


def _judge(sizes: list[SizeResult]) -> None:
    for number, size in enumerate(sizes):
        for name, figure in size.figures.items():
            smallest, previous = sizes[0].figures[name].median, sizes[max(0, number - 1)].figures[name].median
            figure.ratio = figure.median / smallest if smallest > 0 else None
            figure.step = figure.median / previous if previous > 0 else None
            if figure.goal is not None:
                figure.passed = figure.median <= figure.goal
            elif name == "recheck" and number > 0:
                figure.passed = figure.step is not None and figure.step <= RECHECK_RATIO


def run(
    sizes: Sequence[int] | None = None,
    *,
    repeats: int | None = None,
    questions: int | None = None,
    seed: int = 0,
    quick: bool = False,
    folder: Path | None = None,
    log: Callable[[str], None] = lambda line: None,
) -> PerfResult:
    """Every figure at every size. Left out, ``sizes``, ``repeats`` and ``questions`` are
    :data:`SIZES`, 3 and 20, or with ``quick`` one small graph, three runs and four questions
    (seconds); given, they win over ``quick``'s. Sizes are checked first, against
    :data:`MIN_SIZE` and :data:`MAX_SIZE`: a ValueError before anything is written.

    ``folder`` holds the synthetic databases while they are measured (a temporary folder if none);
    ``log`` is told what is being done.
    """
    sizes = (QUICK_SIZES if quick else SIZES) if sizes is None else sizes
    repeats = 3 if repeats is None else repeats  # of two, the "median" is their mean: a cold first run
    questions = (4 if quick else 20) if questions is None else questions
    if not sizes or repeats < 1 or questions < 1:
        raise ValueError("sizes, repeats and questions must be positive")
    wrong = [n for n in sizes if not MIN_SIZE <= n <= MAX_SIZE]
    if wrong:
        raise ValueError(
            f"a size must be from {MIN_SIZE} to {MAX_SIZE:,} concepts (five edges each), "
            f"got {', '.join(map(str, wrong))}"
        )
    with tempfile.TemporaryDirectory() as scratch:
        where = folder or Path(scratch)
        measured = [_size(n, repeats, questions, seed, where, log) for n in sorted(sizes)]
    _judge(measured)
    return PerfResult(quick, seed, repeats, questions, measured)
