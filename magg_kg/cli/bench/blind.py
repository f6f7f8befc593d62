"""``magg bench sample`` and ``magg bench score``: the blind review of admitted edges
(:mod:`magg_kg.blind`): draw a blind sample from several databases, then score the filled labels.
"""

from __future__ import annotations

import json
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from magg_kg.blind import (
    OUTCOMES,
    draw_sample,
    open_read_only,
    read_key,
    read_labels,
    refuse_overwrite,
    sample_paths,
    write_sample,
)
from magg_kg.blind_scores import DatabaseScore, Rate, Scores, score_labels, wilson_interval
from magg_kg.cli.context import BY_METAVAR, err_console, read_config
from magg_kg.errors import UserError

__all__ = ["register", "sample", "score", "score_lines"]


def _identity(path: Path) -> object:
    """What names one file however it is reached (``./x``, a symlink, a hard link): its device and
    inode, or its resolved path when it cannot be read (the open refuses it next)."""
    try:
        found = path.stat()
    except OSError:
        return path.resolve()
    return (found.st_dev, found.st_ino)


def register(bench: typer.Typer) -> None:
    """Adds ``sample`` and ``score`` to the ``magg bench`` group."""
    bench.command("sample")(sample)
    bench.command("score")(score)


def sample(
    databases: Annotated[
        list[Path],
        typer.Argument(
            metavar="DATABASE...",
            click_type=BY_METAVAR,
            help="SQLite files that `magg ingest` wrote (governed, --flat...), read as given, "
            "whatever MAGG_STORE says.",
        ),
    ],
    n: Annotated[
        int,
        typer.Option(
            "--n",
            min=1,
            metavar="N",
            help="Edges drawn from each database: active ones, or proposed ones with --proposals.",
        ),
    ],
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            metavar="PREFIX",
            help="Prefix of PREFIX.blind.jsonl, PREFIX.labels.jsonl and PREFIX.key.json.",
        ),
    ],
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="SEED", help="Seed of the draw (default: 7).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the three files if they exist.")] = False,
    proposals: Annotated[
        bool,
        typer.Option(
            "--proposals",
            help="Draw N proposed edges, whatever became of them (admitted, open, rejected), instead of "
            "N active ones: scored, the share of the acceptable ones that was admitted.",
        ),
    ] = False,
) -> None:
    """Blind review: draw N active (or proposed) edges from each database, mixed and shuffled, for a
    reviewer."""
    given: dict[object, str] = {}
    for path in databases:
        if (same := _identity(path)) in given:
            raise UserError(f"database {path} is given twice (as {given[same]}): pass it once")
        given[same] = str(path)
    refuse_overwrite(out, force=force)  # before reading any database
    config = read_config()
    seed_value = config.seed if seed is None else seed
    with ExitStack() as opened:
        stores = []
        for path in databases:
            store = open_read_only(path)
            opened.callback(store.close)
            stores.append((str(path), store))
        drawn = draw_sample(stores, n, seed_value, proposals=proposals)
    what = "proposed edges" if proposals else "active edges"
    if not drawn.rows:
        raise UserError(f"no {what} in {', '.join(given.values())}: nothing to review")
    err = err_console()
    if config.store == "d1":  # the files are compared as given; the configured graph is not one of them
        err.print(
            f"note: MAGG_STORE=d1 is not read here: the SQLite files given were sampled, not {config.where}",
            markup=False,
            highlight=False,
        )
    pools = [
        (d.db, d.drawn, d.active_edges if d.proposed_edges is None else d.proposed_edges)
        for d in drawn.key.databases
    ]
    for db, _, pool in pools:
        if pool < n:
            err.print(
                f"note: {db} has {pool} {what}, fewer than --n {n}: "
                + (f"all {pool} taken" if pool else "none taken"),
                markup=False,
                highlight=False,
            )
    blind, labels, key = write_sample(drawn, out, force=force)
    counts = ", ".join(f"{db} {taken} of {pool}" for db, taken, pool in pools)
    typer.echo(f"sampled {len(drawn.rows)} {what} (seed {seed_value}): {counts}")
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
    if any(score.by_outcome for score in scores.databases):
        widths[0] = max(widths[0], len("outcome"), *(len(outcome) for outcome in OUTCOMES))

    def line(row: tuple[str, str, str, str]) -> str:
        return f"  {row[0]:<{widths[0]}}  {row[1]:>{widths[1]}}  {row[2]:<{widths[2]}}  {row[3]}".rstrip()

    for score in scores.databases:
        lines += [score.db, line(table[0]), *(line(row) for row in rows(score))]
        if (recall := score.acceptable_admitted) is not None:
            outcomes = [(outcome, counts) for outcome, counts in score.by_outcome if counts.labelled]
            lines += [f"  {'outcome':<{widths[0]}}  {'N':>{widths[1]}}  acceptance"]
            lines += [
                f"  {outcome:<{widths[0]}}  {counts.labelled:>{widths[1]}}  {_rate_text(counts.acceptance)}"
                for outcome, counts in outcomes
            ]
            lines.append(f"  acceptable edges admitted: {_rate_text(recall)}")
    return lines


def score(
    prefix: Annotated[
        Path,
        typer.Argument(
            metavar="PREFIX", click_type=BY_METAVAR, help="The --out prefix given to `magg bench sample`."
        ),
    ],
    labels: Annotated[
        Path,
        typer.Argument(
            metavar="LABELS", click_type=BY_METAVAR, help="The labels file the reviewer filled (JSON lines)."
        ),
    ],
    json_: Annotated[bool, typer.Option("--json", help="Print the scores as JSON.")] = False,
) -> None:
    """Blind review: acceptance and genuine-endpoint rates per database and edge type, from the labels."""
    scores = score_labels(read_key(sample_paths(prefix)[2]), read_labels(labels))
    if scores.unlabelled:
        err_console().print(
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
