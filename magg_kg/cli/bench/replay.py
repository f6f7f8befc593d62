"""``magg bench replay``: the replay ablation (:mod:`governance.evaluation.ablation`): one labelled candidate
set (:mod:`governance.evaluation.replay`) through flat, rules-only, judge-only and full governance.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from governance.evaluation.ablation import CONFIGURATIONS, run_ablation
from governance.evaluation.prerequisite_data import concept_split, layout_of, load_alcpl, load_lecturebank
from governance.evaluation.replay import build_candidates, load_dataset, read_candidates
from governance.evaluation.scorecard import ablation_report
from magg_kg.cli.bench.figures import CLOCK_START, figure
from magg_kg.cli.context import (
    OutOption,
    ResultsJsonOption,
    check_out,
    emit_report,
    err_console,
    read_config,
    shared_data,
)
from magg_kg.clock import StepClock
from magg_kg.config import Config
from magg_kg.errors import UserError

__all__ = ["print_report", "register", "replay", "replay_report"]


def register(bench: typer.Typer) -> None:
    """Adds ``replay`` to the ``magg bench`` group."""
    bench.command("replay")(replay)


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
            *(figure(run.get(key)) for key in ("admitted", "precision", "recall", "f1")),
            figure(llm.get("calls_per_candidate")),
            figure(run.get("wall_s")),
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
                figure(_section(_section(run, "by_kind"), kind).get(measure))
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
                figure(_section(_section(_section(run, "llm"), "by_stage"), stage).get("calls_per_candidate"))
                for run in configurations.values()
                if isinstance(run, Mapping)
            ),
        )
    out.print(calls if stages else "LLM calls: none (no configuration asked a model)")
    agreement = report.get("bundling_agreement")
    if isinstance(agreement, Mapping):
        out.print(
            f"bundling: full-bundled ends {figure(agreement.get('same_state'))} of "
            f"{agreement.get('candidates')} candidates in the state full does "
            f"({figure(agreement.get('same_verdict'))} at the same stage and verdict)",
            markup=False,
            highlight=False,
        )


def replay(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data",
            metavar="FOLDER",
            help="Metacademy, LectureBank (LB2) or AL-CPL folder (default: ../shared/data/metacademy).",
        ),
    ] = None,
    candidates: Annotated[
        Path | None,
        typer.Option(
            "--candidates", metavar="FILE", help="Labelled candidates (JSON lines) to evaluate instead."
        ),
    ] = None,
    json_: ResultsJsonOption = False,
    out: OutOption = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="SEED", help="Seed of the candidate set (default: 7).")
    ] = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, metavar="N", help="Evaluate the first N candidates.")
    ] = None,
    configuration: Annotated[
        list[str] | None,
        typer.Option(
            "--configuration", "-c", metavar="NAME", help=f"Run only these ({', '.join(CONFIGURATIONS)})."
        ),
    ] = None,
) -> None:
    """Replay ablation: labelled candidates through flat, rules-only, judge-only and full governance."""
    check_out(out)
    report = replay_report(
        data or shared_data("metacademy"),
        read_config(decides=True),
        candidates=candidates,
        seed=seed,
        limit=limit,
        configurations=configuration or list(CONFIGURATIONS),
    )
    emit_report(report, out, json_, print_report, width=max(160, Console().width))


def replay_report(
    folder: Path,
    config: Config,
    *,
    candidates: Path | None = None,
    seed: int | None = None,
    limit: int | None = None,
    configurations: Sequence[str] = CONFIGURATIONS,
) -> dict[str, object]:
    """The replay ablation on the data in ``folder`` (or the labelled ``candidates`` file), its
    progress shown on stderr; what ``magg bench replay`` prints and writes."""
    from agents.offline.handlers import offline_handlers  # imported here: the offline roles load models

    unknown = [name for name in configurations if name not in CONFIGURATIONS]
    if unknown:
        raise UserError(f"--configuration {unknown[0]!r} is not one of {', '.join(CONFIGURATIONS)}")
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
    with err_console().status("replay") as status:
        results = run_ablation(
            candidate_set,
            dataset,
            llm_config=config.llm.checked(),
            policy=config.policy,
            clock_factory=lambda: StepClock(CLOCK_START),
            handlers=offline_handlers() if set(configurations) - {"flat", "rules"} else {},
            configurations=configurations,
            progress=lambda name: status.update(
                f"replay: {name} ({len(candidate_set.candidates)} candidates)"
            ),
        )
    return ablation_report(candidate_set, results, data=str(folder), policy=config.policy)
