"""``magg model``: the offline provider's learned models, rebuilt reproducibly from data.

``magg model build`` rebuilds the four models of the offline provider from the development data
beside the repository (``../shared/data``): the termhood model of concept extraction
(:mod:`agents.offline.terms_training`), the injection detector
(:mod:`agents.offline.injection_training`), the judgment model of the judge and the owners
(:mod:`governance.training`: a reference model from Metacademy, and a lessons model from the
labelled lesson claims kept in ``benchmarks/data/``) and the question-type model of ``magg ask``
(:mod:`agents.offline.question_training`, from the questions kept in the package); it prints
their cross-validated figures and the judgment models' reliability tables, and writes the JSON
files the offline roles read.
``magg model claims`` exports a sample of an ingested database's proposals as judge prompts, with a
blind file for a reader to label by ``REVIEW-RUBRIC.md``; the labels join the training data with
``magg model label``.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from magg_kg.cli.context import (
    BY_METAVAR,
    DbOption,
    JsonOption,
    check_out,
    err_console,
    open_context,
    print_json,
    repository,
    shared_data,
    write_whole,
)
from magg_kg.errors import UserError

if TYPE_CHECKING:
    from governance.training import TrainingReport

# The training and labelling code (scikit-learn) is imported by the commands that use it, so that
# every other command starts without it.

__all__ = [
    "build_command",
    "claims",
    "default_labels",
    "default_statements",
    "evaluate_command",
    "label",
    "register",
]

MODELS = ("judgment", "terms", "injection", "questions")
"""The offline models: the judgment (judge and owners), termhood (concepts), the injection detector,
the question types (``magg ask``)."""
FEW_LESSON_CLAIMS = 100
"""Below this many labelled lesson claims, the lessons model's cross-validated figures are warned rough."""
READS = {
    "judgment": ("metacademy/concepts.jsonl", "metacademy/edges.csv"),
    "terms": ("d2l-lessons/sections.jsonl", "metacademy/concepts.jsonl", "metacademy/resource_catalog.jsonl"),
    "injection": ("d2l-lessons/sections.jsonl",),
    "questions": (),
}
"""The files of the development data (``--data``) each model is built from (the question types are
built from the questions kept in the package)."""


def register(app: typer.Typer) -> None:
    """Adds the ``model`` group (``build``, ``claims``, ``label``, ``evaluate``) to the ``magg`` app."""
    model = typer.Typer(help="The offline provider's learned models.", no_args_is_help=True)
    model.command("build")(build_command)
    model.command("claims")(claims)
    model.command("label")(label)
    model.command("evaluate")(evaluate_command)
    app.add_typer(model, name="model")


def default_labels() -> list[Path]:
    """The labelled lesson claims kept with the benchmarks."""
    return _kept("*.labelled.jsonl")


def default_statements() -> list[Path]:
    """The labelled lesson statements kept with the benchmarks."""
    return _kept("*.statements.jsonl")


def _kept(pattern: str) -> list[Path]:
    """The files kept with the benchmarks (``benchmarks/data``) whose names match ``pattern``, sorted."""
    folder = repository() / "benchmarks" / "data"
    return sorted(folder.glob(pattern)) if folder.is_dir() else []


def _check_data(folder: Path, models: list[str]) -> None:
    """Refuses a ``--data`` folder without the files ``models`` are built from, naming them."""
    if not folder.is_dir() and any(READS[model] for model in models):
        raise UserError(f"--data {folder}: no such folder; pass the development data, e.g. ../shared/data")
    missing = sorted({name for model in models for name in READS[model] if not (folder / name).is_file()})
    if missing:
        needing = [model for model in models if set(READS[model]) & set(missing)]
        which = (
            f"the {needing[0]} model reads"
            if len(needing) == 1
            else (f"the {', '.join(needing[:-1])} and {needing[-1]} models read")
        )
        raise UserError(
            f"--data {folder}: no {', '.join(missing)}, which {which}; "
            "pass the development data, e.g. ../shared/data"
        )


def _writable(place: Path) -> Path:
    """The nearest folder of ``place`` that exists (where the files are staged), refused, before any
    model is trained (minutes), when it cannot be written: a file is made there and removed."""
    folder = place
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".magg-probe-"):
            pass
    except OSError as error:
        raise UserError(f"--out {place}: cannot write there ({error.strerror}); nothing was built") from None
    return folder


def build_command(
    data: Annotated[
        Path | None,
        typer.Option("--data", metavar="FOLDER", help="The development data (default: ../shared/data)."),
    ] = None,
    labels: Annotated[
        list[Path] | None,
        typer.Option(
            "--labels",
            metavar="FILE",
            help="Labelled lesson claims for the judgment's lessons model, in place of the default files "
            "(benchmarks/data/*.labelled.jsonl), not added to them; repeat it to give several.",
        ),
    ] = None,
    statements: Annotated[
        list[Path] | None,
        typer.Option(
            "--statements",
            metavar="FILE",
            help="Labelled lesson statements for the judgment's statements model, in place of the default "
            "files (benchmarks/data/*.statements.jsonl); repeat it to give several.",
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="FOLDER", help="Folder to write the model files to (default: agents/offline)."
        ),
    ] = None,
    only: Annotated[
        str,
        typer.Option(
            "--only",
            metavar="MODEL",
            help="Build one model: judgment, terms, injection or questions (default: all four).",
        ),
    ] = "all",
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the judgment model's figures as JSON.")
    ] = False,
) -> None:
    """Rebuild the offline models from data; print their cross-validated figures and reliability tables."""
    from agents.offline import injection_training, question_training, terms_training
    from governance.evaluation.replay import load_dataset
    from governance.labelled import lesson_labels, statement_labels
    from governance.training import train

    if only not in ("all", *MODELS):
        raise UserError(f"--only {only!r}: choose one of {', '.join(MODELS)}")
    if as_json and only != "judgment":
        raise UserError("--json reports the judgment model only: add --only judgment")
    built = [model for model in MODELS if only in ("all", model)]
    for given, option in ((labels, "--labels"), (statements, "--statements")):
        if given is not None and "judgment" not in built:
            raise UserError(
                f"{option} is read by the judgment model only, not by --only {only}: drop {option}"
            )
    folder = data or shared_data()
    place = out or repository() / "agents" / "offline"
    # Every input is checked before anything is built or written: --out may be the shipped models.
    _check_data(folder, built)
    if place.exists() and not place.is_dir():
        raise UserError(f"--out {place} is a file: give the folder to write the model files to")
    nearest = _writable(place)
    metacademy = folder / "metacademy"
    files = (labels if labels is not None else default_labels()) if "judgment" in built else []
    stated = (statements if statements is not None else default_statements()) if "judgment" in built else []
    for path in (*files, *stated):
        if not path.is_file():
            raise UserError(f"{path}: no such labelled claims file")
    labelled, said = lesson_labels(files), statement_labels(stated)
    if "judgment" in built:
        load_dataset(metacademy)  # a malformed line is refused now, not after the other models
    # The judgment is trained first, into memory: its lessons model can still find the labels too
    # few to cross-validate, and then nothing is written.
    judgment, reports = train(metacademy, labelled, said) if "judgment" in built else (None, {})
    figures = {part: report.as_dict() for part, report in reports.items()}
    lessons = reports.get("lessons")
    if lessons is not None and lessons.examples < FEW_LESSON_CLAIMS:
        err_console().print(
            f"warning: the lessons model learned from {lessons.examples} labelled claims only, about "
            f"{lessons.examples // lessons.folds} a held-out fold: its figures below are rough",
            markup=False,
            highlight=False,
        )
    # Every file is built before any reaches --out, beside it (one file system: each arrives whole).
    with tempfile.TemporaryDirectory(dir=nearest, prefix=".magg-models-") as staging:
        stage = Path(staging)
        try:
            if "terms" in built:
                terms_training.build_terms_model(folder, stage / "terms.json")
            if "injection" in built:
                typer.echo(injection_training.build_injection_model(folder, stage / "injection.json").table())
            if "questions" in built:
                typer.echo(question_training.build_questions_model(stage / "questions.json"))
        except (ValueError, KeyError, TypeError) as error:  # bad JSON or UTF-8, a line without its field
            raise UserError(
                f"--data {folder}: a file the models read is malformed ({type(error).__name__}: {error}); "
                "nothing was written"
            ) from None
        if judgment is not None:
            (stage / "judgment.json").write_text(judgment.to_json(figures) + "\n", encoding="utf-8")
        moved: list[Path] = []
        try:  # each file replaces the old one whole (os.replace is atomic)
            place.mkdir(parents=True, exist_ok=True)
            for file in sorted(stage.iterdir()):
                os.replace(file, place / file.name)
                moved.append(place / file.name)
        except OSError as error:
            raise UserError(f"--out {place}: cannot write the model files ({error.strerror})") from error
    others = [file.name for file in moved if file.name != "judgment.json"]
    if others:  # the judgment's own line follows, with its figures
        typer.echo(f"model files written to {place}: {', '.join(others)}")
    if judgment is None:
        return
    target = place / "judgment.json"
    if as_json:
        typer.echo(json.dumps(figures, indent=1, sort_keys=True))
        return
    console = Console()
    console.print(f"judgment models written to {target}")
    for part, report in reports.items():
        _print_report(console, part, report)


def _print_report(console: Console, part: str, report: TrainingReport) -> None:
    console.print(
        f"{part} model: {report.examples} labelled claims ({report.positives} true), "
        f"{report.folds} concept-disjoint folds"
    )
    sources = Table(title=f"{part}: training claims by source")
    for column in ("source", "claims"):
        sources.add_column(column)
    for source, count in report.by_source.items():
        sources.add_row(source, str(count))
    console.print(sources)
    gates = Table(title=f"{part}: held-out folds, at the gate's thresholds")
    for column in ("threshold", "admitted", "precision", "recall"):
        gates.add_column(column, justify="right")
    for rates in (report.at_commit, report.at_reject):
        gates.add_row(*(f"{rates[k]:g}" for k in ("threshold", "admitted", "precision", "recall")))
    console.print(gates)
    table = Table(title=f"{part}: reliability on held-out folds")
    for column in ("bin", "claims", "mean predicted", "observed true"):
        table.add_column(column, justify="right")
    for row in report.reliability:
        table.add_row(
            f"[{row['low']:.2f}, {row['high']:.2f})",
            str(int(row["count"])),
            f"{row['predicted']:.3f}",
            f"{row['observed']:.3f}",
        )
    console.print(table)
    kinds = Table(title=f"{part}: held-out folds by kind of claim")
    for column in ("kind", "claims", "true", "scored >= 0.80", "precision there", "< 0.50"):
        kinds.add_column(column, justify="right")
    for kind, row in report.by_kind.items():
        kinds.add_row(
            kind,
            str(int(row["count"])),
            f"{row['true_share']:.3f}",
            f"{row['admitted_at_commit']:.3f}",
            f"{row['precision_at_commit']:.3f}",
            f"{row['kept_out_below_reject']:.3f}",
        )
    console.print(kinds)


def claims(
    out: Annotated[Path, typer.Option("--out", metavar="PREFIX", help="Prefix of the files to write.")],
    n: Annotated[int, typer.Option("--n", min=1, metavar="N", help="How many proposals.")] = 200,
    seed: Annotated[int, typer.Option("--seed", metavar="SEED", help="Seed of the sample.")] = 7,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the two files if they exist.")] = False,
    db: DbOption = None,
) -> None:
    """Export an ingested graph's proposals as judge prompts (PREFIX.claims.jsonl) and a blind file
    to label."""
    from governance.labelled import lesson_claims

    claims_path, blind_path = Path(f"{out}.claims.jsonl"), Path(f"{out}.blind.jsonl")
    if out.is_dir() or str(out).endswith(("/", os.sep)):
        raise UserError(f"--out {out} is a folder: pass a file prefix such as {out / 'claims'}")
    check_out(claims_path, "claims")  # a prefix under a file is refused before any work
    if not force and (existing := [str(p) for p in (claims_path, blind_path) if p.exists()]):
        raise UserError(f"{', '.join(existing)} already exist: pass --force to overwrite, or another --out")
    with open_context(db) as ctx:  # the configured store, as every command that reads a graph
        rows = lesson_claims(ctx.store, n, seed)
        where = ctx.config.where
    if not rows:
        raise UserError(f"{where}: no proposal with lesson evidence to export; nothing written")
    claims_path.parent.mkdir(parents=True, exist_ok=True)
    with claims_path.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n")
    with blind_path.open("w", encoding="utf-8") as handle:
        for row in rows:
            shown = row["shown"]
            if isinstance(shown, dict):
                handle.write(json.dumps({"id": row["id"], **shown}, ensure_ascii=False) + "\n")
    typer.echo(f"{len(rows)} claims: {claims_path} (for training), {blind_path} (for the reader)")


def label(
    claims_file: Annotated[
        Path,
        typer.Argument(
            metavar="CLAIMS",
            click_type=BY_METAVAR,
            help="PREFIX.claims.jsonl written by `magg model claims`.",
        ),
    ],
    labels_file: Annotated[
        Path,
        typer.Argument(
            metavar="LABELS",
            click_type=BY_METAVAR,
            help="The reader's labels: JSON lines with id and verdict.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", metavar="FILE", help="The labelled claims file to write.")],
    force: Annotated[bool, typer.Option("--force", help="Overwrite --out if it exists.")] = False,
) -> None:
    """Join exported claims with a reader's labels into a training file."""
    from governance.labelled import labelled_claims

    for path in (claims_file, labels_file):
        if not path.is_file():
            raise UserError(f"{path}: no such file" if not path.exists() else f"{path} is no regular file")
        if out.resolve() == path.resolve():
            raise UserError(f"--out {out} is one of the files read; write the labelled claims elsewhere")
    check_out(out, "labelled.jsonl")  # a folder is said to be one, not to exist already
    if out.exists() and not force:  # an earlier labelled file is a reader's work
        raise UserError(f"{out} already exists: pass --force to overwrite, or another --out")
    text, written, unlabelled = labelled_claims(claims_file, labels_file)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        write_whole(out, text)  # whole or not at all: an interrupted run leaves the earlier file
    except OSError as error:
        raise UserError(f"--out {out}: cannot write it ({error.strerror or error})") from None
    if unlabelled:
        err_console().print(
            f"note: {unlabelled} of {written + unlabelled} claims of {claims_file} have no label",
            markup=False,
            highlight=False,
        )
    typer.echo(f"{written} labelled claims written to {out}")


def evaluate_command(
    labelled: Annotated[
        Path,
        typer.Argument(
            metavar="LABELLED",
            click_type=BY_METAVAR,
            help="Labelled claims (magg model label), never trained on.",
        ),
    ],
    json_: JsonOption = False,
) -> None:
    """Precision of the shipped judgment model on labelled claims, at the gate's thresholds."""
    from agents.offline.model import judgment_model
    from governance.claim_examples import lesson_examples
    from governance.labelled import evaluate

    if not labelled.is_file():
        raise UserError(f"{labelled}: no such labelled claims file")
    examples = lesson_examples(labelled)
    if not examples:
        raise UserError(f"{labelled}: holds no labelled claim; write one with `magg model label`")
    rows = evaluate(judgment_model(), examples)
    if json_:
        counted = [{**row, "admitted": int(row["admitted"] or 0)} for row in rows]
        print_json({"labelled": str(labelled), "claims": len(examples), "rows": counted})
        return
    table = Table(title=f"judgment model on {labelled.name}")
    for column in ("score at least", "claims", "acceptable"):
        table.add_column(column, justify="right")
    for row in rows:
        precision = row["precision"]
        shown = "—" if precision is None else f"{precision:.3f}"  # no claim reaches the bar
        table.add_row(f"{row['threshold']:.2f}", str(int(row["admitted"] or 0)), shown)
    Console().print(table)
