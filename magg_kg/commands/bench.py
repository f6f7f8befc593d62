"""``magg bench``: benchmarks that measure governance on labelled data.

``magg bench replay`` runs the replay ablation (:mod:`governance.ablation`): one labelled candidate
set (:mod:`governance.replay`) through flat, rules-only, judge-only and full governance.
``magg bench sample`` and ``magg bench score`` are the blind review of admitted edges
(:mod:`magg_kg.blind`): draw a blind sample from several databases, then score the filled labels.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from magg_kg.blind import (
    DatabaseScore,
    Rate,
    Scores,
    draw_sample,
    open_read_only,
    read_key,
    read_labels,
    refuse_overwrite,
    sample_paths,
    score_labels,
    wilson_interval,
    write_sample,
)
from magg_kg.clock import StepClock
from magg_kg.commands.scierc import scierc
from magg_kg.config import load_config
from magg_kg.errors import UserError
from magg_kg.llm.offline import Handler

__all__ = ["bench_app", "default_data", "replay", "sample", "score"]

bench_app = typer.Typer(help="Benchmarks: governance measured on labelled data.", no_args_is_help=True)
bench_app.command("scierc")(scierc)

REPLAY_START = "2026-01-01T00:00:00.000000Z"
"""The replay's clock starts here, so every run writes the same records."""


def default_data() -> Path:
    """``../shared/data/metacademy`` beside the repository root."""
    return Path(__file__).resolve().parents[2].parent / "shared" / "data" / "metacademy"


def _handlers() -> Mapping[str, Handler]:
    from agents.offline.handlers import offline_handlers

    return offline_handlers()


def _show(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def _section(report: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = report.get(key)
    return value if isinstance(value, Mapping) else {}


def print_report(report: Mapping[str, object], out: Console) -> None:
    """The ablation as three tables: admission, per kind of candidate, LLM calls by stage."""
    configurations = _section(report, "configurations")
    counts = ", ".join(f"{kind} {n}" for kind, n in _section(report, "counts").items())
    out.print(
        f"replay: {report['candidates']} candidates ({counts}) over {report['established_edges']} "
        f"established edges, seed {report['seed']}, from {report['candidates_source']}",
        markup=False,
        highlight=False,
    )
    summary = Table(title="admission against the labels")
    for column in ("config", "admitted", "precision", "recall", "F1", "calls/cand", "wall s"):
        summary.add_column(column, justify="left" if column == "config" else "right")
    for name, run in configurations.items():
        assert isinstance(run, Mapping)
        llm = _section(run, "llm")
        summary.add_row(
            name,
            *(_show(run.get(key)) for key in ("admitted", "precision", "recall", "f1")),
            _show(llm.get("calls_per_candidate")),
            _show(run.get("wall_s")),
        )
    out.print(summary)
    kinds = Table(title="per kind: recall (label 1) or rejection rate (label 0)")
    kinds.add_column("kind")
    kinds.add_column("n", justify="right")
    kinds.add_column("measure")
    for name in configurations:
        kinds.add_column(name, justify="right")
    for kind, n in _section(report, "counts").items():
        first = next(
            (run for run in configurations.values() if isinstance(run, Mapping) and "by_kind" in run), {}
        )
        measures = [
            m for m in ("recall", "rejection_rate") if m in _section(_section(first, "by_kind"), kind)
        ]
        for measure in measures or ["recall"]:
            cells = [
                _show(_section(_section(run, "by_kind"), kind).get(measure))
                for run in configurations.values()
                if isinstance(run, Mapping)
            ]
            kinds.add_row(kind, str(n), measure.replace("_", " "), *cells)
    out.print(kinds)
    stages = sorted(
        {
            stage
            for run in configurations.values()
            if isinstance(run, Mapping)
            for stage in _section(_section(run, "llm"), "by_stage")
        }
    )
    calls = Table(title="LLM calls per candidate, by stage")
    calls.add_column("stage")
    for name in configurations:
        calls.add_column(name, justify="right")
    for stage in stages:
        calls.add_row(
            stage,
            *(
                _show(_section(_section(_section(run, "llm"), "by_stage"), stage).get("calls_per_candidate"))
                for run in configurations.values()
                if isinstance(run, Mapping)
            ),
        )
    out.print(calls if stages else "LLM calls: none (no configuration asked a model)")


@bench_app.command("replay")
def replay(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            help="Metacademy, LectureBank (LB2) or AL-CPL folder (default: ../shared/data/metacademy).",
        ),
    ] = None,
    candidates: Annotated[
        Path | None,
        typer.Option("--candidates", help="Labelled candidates (JSON lines) to evaluate instead."),
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    out: Annotated[Path | None, typer.Option("--out", help="Also write the results as JSON here.")] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed of the candidate set (default: 7).")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, help="Evaluate the first N candidates.")
    ] = None,
    configuration: Annotated[
        list[str] | None,
        typer.Option("--configuration", "-c", help="Run only these (flat, rules, judge, full, full-sc)."),
    ] = None,
) -> None:
    """Replay ablation: labelled candidates through flat, rules-only, judge-only and full governance."""
    from governance.ablation import CONFIGURATIONS, run_ablation
    from governance.prerequisite_data import concept_split, layout_of, load_alcpl, load_lecturebank
    from governance.replay import build_candidates, load_dataset, read_candidates
    from governance.scorecard import ablation_report
    from magg_kg.cli import emit_report

    config = load_config(os.environ)
    chosen = configuration or list(CONFIGURATIONS)
    unknown = [name for name in chosen if name not in CONFIGURATIONS]
    if unknown:
        raise UserError(f"--configuration {unknown[0]!r} is not one of {', '.join(CONFIGURATIONS)}")
    folder = data or default_data()
    if not folder.is_dir():
        raise UserError(f"no data folder at {folder}: pass --data DIR (Metacademy, LectureBank or AL-CPL)")
    seed_value = config.seed if seed is None else seed
    layout = layout_of(folder)
    if layout == "metacademy":
        dataset = load_dataset(folder)
        built = build_candidates(dataset, seed_value)
    else:
        dataset, pairs = (load_lecturebank if layout == "lecturebank" else load_alcpl)(folder)
        built = concept_split(dataset, pairs, seed_value)
    candidate_set = (
        read_candidates(candidates, dataset, seed_value) if candidates is not None else built
    ).limited(limit)
    err = Console(stderr=True, soft_wrap=True)
    with err.status("replay") as status:
        results = run_ablation(
            candidate_set,
            dataset,
            llm_config=config.llm.checked(),
            policy=config.policy,
            clock_factory=lambda: StepClock(REPLAY_START),
            handlers=_handlers() if {"judge", "full", "full-sc"} & set(chosen) else {},
            configurations=chosen,
            progress=lambda name: status.update(
                f"replay: {name} ({len(candidate_set.candidates)} candidates)"
            ),
        )
    report = ablation_report(candidate_set, results, data=str(folder), policy=config.policy)
    emit_report(report, out, json_, print_report)


@bench_app.command("sample")
def sample(
    databases: Annotated[
        list[Path], typer.Argument(help="Databases that `magg ingest` wrote (governed, --flat...).")
    ],
    n: Annotated[int, typer.Option("--n", min=1, help="Active edges drawn from each database.")],
    out: Annotated[
        Path,
        typer.Option("--out", help="Prefix of PREFIX.blind.jsonl, PREFIX.labels.jsonl and PREFIX.key.json."),
    ],
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the draw (default: 7).")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the three files if they exist.")] = False,
) -> None:
    """Blind review: draw N active edges from each database, mixed and shuffled, for a reviewer."""
    given: dict[Path, str] = {}
    for path in databases:
        if path.resolve() in given:
            raise UserError(f"database {path} is given twice (as {given[path.resolve()]}): pass it once")
        given[path.resolve()] = str(path)
    refuse_overwrite(out, force=force)  # before reading any database
    seed_value = load_config(os.environ).seed if seed is None else seed
    with ExitStack() as opened:
        stores = []
        for path in databases:
            store = open_read_only(path)
            opened.callback(store.close)
            stores.append((str(path), store))
        drawn = draw_sample(stores, n, seed_value)
    if not drawn.rows:
        raise UserError(f"no active edges in {', '.join(given.values())}: nothing to review")
    err = Console(stderr=True, soft_wrap=True)
    for draw in drawn.key.databases:
        if draw.active_edges < n:
            err.print(
                f"note: {draw.db} has {draw.active_edges} active edges, fewer than --n {n}: "
                + (f"all {draw.active_edges} taken" if draw.active_edges else "none taken"),
                markup=False,
                highlight=False,
            )
    blind, labels, key = write_sample(drawn, out, force=force)
    counts = ", ".join(f"{d.db} {d.drawn} of {d.active_edges}" for d in drawn.key.databases)
    typer.echo(f"sampled {len(drawn.rows)} active edges (seed {seed_value}): {counts}")
    typer.echo(f"for the reviewer: {blind}")
    typer.echo(f"to fill in:       {labels}")
    typer.echo(f"keep it hidden:   {key}")


def _rate_text(rate: Rate) -> str:
    """``count/n percent [low, high]`` (a dash for no labels).

    >>> _rate_text(Rate(17, 20))
    '17/20  85.0% [64.0, 94.8]'
    """
    if not rate.n:
        return "—"
    low, high = wilson_interval(rate.count, rate.n)
    return f"{rate.count}/{rate.n} {100 * rate.count / rate.n:5.1f}% [{100 * low:.1f}, {100 * high:.1f}]"


def score_lines(scores: Scores) -> list[str]:
    """The scores as plain text: one block per database, a line overall and one per edge type."""
    labelled = scores.reviews - len(scores.unlabelled)
    lines = [
        f"blind review: {labelled} of {scores.reviews} reviews labelled; rates with 95% Wilson intervals"
    ]

    def rows(score: DatabaseScore) -> list[tuple[str, str, str, str]]:
        return [
            (name, str(counts.labelled), _rate_text(counts.acceptance), _rate_text(counts.genuine_endpoints))
            for name, counts in [("all", score.overall), *score.by_type]
        ]

    table = [("type", "N", "acceptance", "genuine endpoints")]
    table += [row for score in scores.databases for row in rows(score)]
    widths = [max(len(row[i]) for row in table) for i in range(3)]

    def line(row: tuple[str, str, str, str]) -> str:
        return f"  {row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}".rstrip()

    for score in scores.databases:
        lines += [score.db, line(table[0]), *(line(row) for row in rows(score))]
    return lines


@bench_app.command("score")
def score(
    prefix: Annotated[Path, typer.Argument(help="The --out prefix given to `magg bench sample`.")],
    labels: Annotated[Path, typer.Argument(help="The labels file the reviewer filled (JSON lines).")],
    json_: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Blind review: acceptance and genuine-endpoint rates per database and edge type, from the labels."""
    scores = score_labels(read_key(sample_paths(prefix)[2]), read_labels(labels))
    if scores.unlabelled:
        Console(stderr=True, soft_wrap=True).print(
            f"warning: {len(scores.unlabelled)} of {scores.reviews} reviews unlabelled, scored without them: "
            + ", ".join(scores.unlabelled),
            markup=False,
            highlight=False,
        )
    if json_:
        typer.echo(json.dumps(scores.as_json(), indent=2, sort_keys=True, ensure_ascii=False))
        return
    for text in score_lines(scores):
        typer.echo(text)
