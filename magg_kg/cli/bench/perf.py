"""``magg bench perf``: scale on seeded synthetic graphs (:mod:`governance.evaluation.perf`)."""

from __future__ import annotations

from typing import Annotated

import typer

from magg_kg.cli.context import OutOption, ResultsJsonOption, check_out, emit_report, err_console
from magg_kg.errors import UserError

__all__ = ["perf", "register"]


def register(bench: typer.Typer) -> None:
    """Adds ``perf`` to the ``bench`` group."""
    bench.command("perf")(perf)


def perf(
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help="One small graph (300 concepts), three runs, four questions: seconds, for CI. "
            "--sizes, --repeats and --questions given beside it win.",
        ),
    ] = False,
    sizes: Annotated[
        str | None,
        typer.Option(
            "--sizes",
            metavar="N,...",
            help="Concept counts, comma-separated, five edges per concept (default: 1000,10000,100000).",
            show_default=False,
        ),
    ] = None,
    repeats: Annotated[
        int | None,
        typer.Option(
            "--repeats", min=1, metavar="N", help="Runs per figure; medians are reported (default: 3)."
        ),
    ] = None,
    questions: Annotated[
        int | None,
        typer.Option("--questions", min=1, metavar="N", help="Questions asked per run (default: 20)."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", metavar="SEED", help="The synthetic graphs' seed.")] = 0,
    json_: ResultsJsonOption = False,
    out: OutOption = None,
) -> None:
    """Scale: domains, discovery, re-check, ask p95 and coverage on synthetic graphs, against goals
    (under the default policy: MAGG_POLICY is not read, the goals are set for the default's)."""
    from governance.evaluation.perf import run, show  # imported here: it loads the answering code

    check_out(out)
    try:
        counts = None if sizes is None else [int(part) for part in sizes.split(",") if part.strip()]
    except ValueError:
        raise UserError(f"--sizes must be whole numbers separated by commas, got {sizes!r}") from None
    if counts == []:
        raise UserError(
            f"--sizes {sizes!r} names no size: give whole numbers separated by commas, e.g. 100,1000"
        )
    log = err_console()
    try:
        result = run(
            counts,
            repeats=repeats,
            questions=questions,
            seed=seed,
            quick=quick,
            log=lambda line: log.print(line, markup=False, highlight=False),
        )
    except ValueError as error:
        raise UserError(str(error)) from None
    emit_report(result.as_json(), out, json_, show)
