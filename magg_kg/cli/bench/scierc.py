"""``magg bench scierc``: SciERC triple F1, flat vs governed (:mod:`governance.evaluation.scierc_bench`).

The extractor is trained on the ``train`` split at the start of every run (SciERC has no license:
no model derived from it is written anywhere); ``--split`` picks the evaluated split, ``dev`` by
default. Never choose anything by looking at ``test``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

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
from magg_kg.errors import UserError

__all__ = ["print_scierc", "register", "scierc"]


def register(bench: typer.Typer) -> None:
    """Adds ``scierc`` to the ``magg bench`` group."""
    bench.command("scierc")(scierc)


def _get(report: object, *keys: str) -> object:
    value: object = report
    for key in keys:
        value = value.get(key) if isinstance(value, Mapping) else None
    return value


def print_scierc(report: Mapping[str, object], out: Console) -> None:
    """The benchmark as two tables: scores against the paper's, and strict F1 per label."""
    out.print(
        f"scierc {report['split']}: {report['documents']} abstracts, {report['gold_triples']} gold triples; "
        f"extractor trained on train in {report['train_s']} s, mentions at >= {report.get('mention_at')}, "
        f"proposes at >= {report['propose_at']} (flat-best: {report.get('flat_best_bars')})",
        markup=False,
        highlight=False,
    )
    verifier = _get(report, "verifier")
    if isinstance(verifier, Mapping):
        cv = verifier.get("train_out_of_fold")
        cv = cv if isinstance(cv, Mapping) else {}
        out.print(
            f"verifier (train, out of fold): AUC {cv.get('auc_verifier')} (extractor's own score "
            f"{cv.get('auc_extractor')}); admits at >= {verifier.get('admit_at')}: F1 "
            f"{cv.get('f1_at_admit_at')} vs {cv.get('f1_every_proposal')} admitting every proposal",
            markup=False,
            highlight=False,
        )
    runs = _get(report, "configurations")
    names = list(runs) if isinstance(runs, Mapping) else []
    table = Table(
        title="strict and mapped triple F1 (MAGG, GPT-5: flat 0.106, governed 0.156 / mapped 0.290)"
    )
    for column in (
        "config",
        "admitted",
        "strict P",
        "strict R",
        "strict F1",
        "mapped F1",
        "calls",
        "calls/doc",
        "tokens",
    ):
        if column == "config":
            table.add_column(column, no_wrap=True, min_width=9)  # "flat-best" whole in 80 columns
        else:
            table.add_column(column, justify="right")
    for name in names:
        table.add_row(
            name,
            figure(_get(report, "configurations", name, "admitted")),
            *(
                figure(_get(report, "configurations", name, "strict", k))
                for k in ("precision", "recall", "f1")
            ),
            figure(_get(report, "configurations", name, "mapped", "f1")),
            *(
                figure(_get(report, "configurations", name, "llm", k))
                for k in ("calls", "calls_per_document", "tokens")
            ),
        )
    out.print(table)
    governed = _get(report, "configurations", "governed", "strict", "f1")
    ratios = [
        f"governed / {name} {governed / base:.2f}x"
        for name in names
        if name != "governed"
        and isinstance(governed, float)
        and isinstance(base := _get(report, "configurations", name, "strict", "f1"), float)
        and base > 0
    ]
    if ratios:
        out.print("strict F1: " + ", ".join(ratios) + " (MAGG: 1.47x flat)", markup=False, highlight=False)
    labels = Table(title="strict F1 per relation label")
    labels.add_column("label")
    labels.add_column("gold", justify="right")
    for name in names:
        labels.add_column(f"{name} P/R/F1", justify="right")
    first = _get(report, "configurations", names[0], "by_label") if names else None
    for label in sorted(first) if isinstance(first, Mapping) else []:
        cells = []
        for name in names:
            row = _get(report, "configurations", name, "by_label", label)
            cells.append(
                "/".join(
                    figure(_get(row, k)) if isinstance(row, Mapping) else "—"
                    for k in ("precision", "recall", "f1")
                )
                if isinstance(row, Mapping)
                else "—"
            )
        labels.add_row(label, figure(_get(first, label, "gold")), *cells)
    out.print(labels)


def scierc(
    data: Annotated[
        Path | None,
        typer.Option(
            "--data", metavar="FOLDER", help="SciERC's DyGIE files (default: ../shared/data/scierc)."
        ),
    ] = None,
    split: Annotated[str, typer.Option("--split", metavar="<dev|test>", help="The evaluated split.")] = "dev",
    json_: ResultsJsonOption = False,
    out: OutOption = None,
    limit: Annotated[
        int | None, typer.Option("--limit", min=1, metavar="N", help="Evaluate the first N abstracts.")
    ] = None,
) -> None:
    """SciERC: each abstract ingested flat and governed; strict and mapped triple F1, per label, calls."""
    # Imported here: the extractor's training code (scikit-learn) is not loaded for other commands.
    from agents.offline.handlers import offline_handlers
    from agents.schema_extraction import SchemaRoles
    from governance.evaluation.scierc import load_split
    from governance.evaluation.scierc_bench import run_split, scierc_report
    from magg_kg.vocabulary import SCIERC

    check_out(out)
    if split not in ("dev", "test"):
        raise UserError(f"--split {split!r}: evaluate on dev or test (the extractor is trained on train)")
    config = read_config(decides=True)
    folder = data or shared_data("scierc")
    if not folder.is_dir():
        raise UserError(f"no data folder at {folder}: pass --data DIR (SciERC's DyGIE files)")
    docs = load_split(folder, split)[:limit]
    train = load_split(folder, "train")
    err = err_console()
    started = time.perf_counter()
    with err.status("scierc: training the extractor on train") as status:
        roles = SchemaRoles.train([d.annotated for d in train], SCIERC)
        trained = time.perf_counter() - started
        runs = run_split(
            docs,
            roles,
            llm_config=config.llm.checked(),
            policy=config.policy,
            clock_factory=lambda: StepClock(CLOCK_START),
            handlers=offline_handlers(),
            seed=config.seed,
            progress=status.update,
        )
    report = scierc_report(
        docs,
        runs,
        split=split,
        data=str(folder),
        policy=config.policy,
        train_s=trained,
        started=started,
        verifier=roles.verifier,
    )
    emit_report(report, out, json_, print_scierc, width=max(160, Console().width))
