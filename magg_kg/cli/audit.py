"""``magg audit verify``, ``magg audit report`` and ``magg usage``: the record of what was decided,
checked, reported and paid for.

The report is read from a snapshot of the store (:mod:`magg_kg.snapshot`), so ``--as-of`` shows
what was known then (before the first ingestion: nothing, and the report is the empty graph's).
Without ``--out`` it is printed; a path that cannot be written is one line on stderr and exit 2,
and nothing is written.
"""

from __future__ import annotations

import math
import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from magg_kg.audit import CHAIN_HEAD
from magg_kg.cli.context import (
    AsOfOption,
    DbOption,
    JsonOption,
    as_of_time,
    check_out,
    note_nothing_then,
    open_context,
    print_json,
    write_whole,
)
from magg_kg.errors import StoreError, UserError
from magg_kg.records import AuditEvent
from magg_kg.store import Row

__all__ = ["Format", "register", "report_command", "usage", "verify_command"]


def register(app: typer.Typer) -> None:
    """Adds the ``audit`` group (``verify``, ``report``) and ``usage`` to the ``magg`` app."""
    audit = typer.Typer(help="The audit log and the database's invariants.", no_args_is_help=True)
    audit.command("verify")(verify_command)
    audit.command("report")(report_command)
    app.add_typer(audit, name="audit")
    app.command("usage")(usage)


def verify_command(
    db: DbOption = None,
    json_: JsonOption = False,
    since: Annotated[
        str | None,
        typer.Option(
            "--since",
            metavar="SEQ:HASH",
            help="A head an earlier verify printed: the log must still hold that event, with that "
            "hash, so that nothing up to it was rewritten (a chain rehashed whole checks out without it).",
        ),
    ] = None,
) -> None:
    """Check the audit hash chain and every invariant; exit 1 if anything is broken."""
    from magg_kg.verification import file_damage, verification  # imported here: networkx, templates

    kept = _head(since) if since is not None else None
    with open_context(db, sound=False) as ctx:
        problems = file_damage(ctx.config.db) if ctx.config.store == "sqlite" else []
        events: list[AuditEvent] = []
        notes: tuple[str, ...] = ()
        try:
            found = verification(ctx.store)
            problems += found.problems
            notes = found.notes
            events = ctx.store.audit_events()
        except StoreError as error:  # a damaged file can fail the reads the invariants need
            problems.append(f"the invariants could not be checked: {error}")
        if kept is not None and kept[0] and not any((e.seq, e.hash) == kept for e in events):
            problems.append(
                f"the audit log no longer holds event {kept[0]} with hash {kept[1]}: the history up "
                "to it was rewritten since that head was kept"
            )
        head = f"{events[-1].seq}:{events[-1].hash}" if events else "0:"
        if json_:
            print_json(
                {
                    "ok": not problems,
                    "audit_events": len(events),
                    "head": head,
                    "problems": problems,
                    "notes": list(notes),
                }
            )
        elif problems:
            for problem in problems:
                ctx.err.print(f"broken: {problem}", markup=False, highlight=False)
        else:
            ctx.out.print(f"ok: {len(events)} audit events chained, all invariants hold")
            ctx.out.print(f"head: {head} (keep it for `magg audit verify --since`)")
        if notes and not json_:
            for note in notes:
                ctx.err.print(f"note: {note}", markup=False, highlight=False)
        if problems:
            raise typer.Exit(1)


def _head(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as :func:`verify_command` prints it, the hash in either case; ``0:`` is the
    head of an empty log, which every log holds.

    >>> _head("12:" + "AB" * 32)[0], _head("12:" + "AB" * 32)[1][:4], _head(" 0: ")
    (12, 'abab', (0, ''))
    """
    head = text.strip().lower()
    if not CHAIN_HEAD.match(head):
        raise UserError(f"--since {text!r} is no audit head: pass SEQ:HASH as `magg audit verify` printed it")
    seq, _, digest = head.partition(":")
    return int(seq), digest


_HEADINGS = {"capped": "not made (spend cap)"}


def usage(db: DbOption = None, json_: JsonOption = False) -> None:
    """LLM calls and tokens by stage."""
    with open_context(db) as ctx:
        rows = ctx.store.usage_by_stage()
        totals = {
            key: sum(int(row[key] or 0) for row in rows)
            for key in ("calls", "capped", "cache_hits", "attempts", "prompt_tokens", "completion_tokens")
        }
        if json_:
            print_json({"by_stage": rows, "total": totals})
            return
        table = Table(title="LLM usage by stage")
        columns = ["stage", "calls", "cache_hits", "attempts", "prompt_tokens", "completion_tokens"]
        if totals["capped"]:  # calls the spend cap kept from being made, as `magg ingest` names them
            columns.append("capped")
        longest = max((len(str(row["stage"])) for row in rows), default=0)
        table.add_column("stage", min_width=min(longest, 20))  # a stage's name is not cut
        for column in columns[1:]:  # headed in words, as `magg ingest`'s cost table is: they wrap, not cut
            heading = _HEADINGS.get(column, column.replace("_", " "))
            table.add_column(heading, min_width=max(len(word) for word in heading.split()))
        total: Row = {"stage": "total", **totals}
        for row in [*rows, total]:
            table.add_row(*(str(row.get(column, "")) for column in columns))
        ctx.out.print(table)


class Format(StrEnum):
    md = "md"
    html = "html"
    json = "json"


def report_command(
    domain: Annotated[
        str | None,
        typer.Option(
            "--domain",
            metavar="DOMAIN",
            help="Only this domain: its id or its name as `magg domains` shows it, in any case, or the "
            "start of one that no other domain's starts with.",
        ),
    ] = None,
    as_of: AsOfOption = None,
    format_: Annotated[Format, typer.Option("--format", help="md, html or json.")] = Format.md,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", metavar="FILE", help="Write to this file instead of printing.", show_default=False
        ),
    ] = None,
    db: DbOption = None,
    usd_prompt: Annotated[
        float | None,
        typer.Option(
            "--usd-per-mtok-in",
            min=0.0,
            metavar="USD",
            help="Price of a million prompt tokens, in US dollars: the report gives the cost in money.",
            show_default=False,
        ),
    ] = None,
    usd_completion: Annotated[
        float | None,
        typer.Option(
            "--usd-per-mtok-out",
            min=0.0,
            metavar="USD",
            help="Price of a million completion tokens, in US dollars (with --usd-per-mtok-in).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Per-domain audit report: decisions, scores, debates, quarantine, rejections, evidence, cost, time."""
    from governance.report import Prices, audit_report
    from magg_kg.snapshot import read_snapshot
    from magg_kg.views.documents import report_html, report_json, report_markdown

    when = as_of_time(as_of)
    if (usd_prompt is None) != (usd_completion is None):
        raise UserError("give both --usd-per-mtok-in and --usd-per-mtok-out, or neither")
    prices = None
    if usd_prompt is not None and usd_completion is not None:
        if not (math.isfinite(usd_prompt) and math.isfinite(usd_completion)):
            raise UserError("a price must be a number of dollars (not inf or nan)")
        prices = Prices(usd_prompt, usd_completion)
    check_out(out, f"report.{format_.value}")
    with open_context(db) as ctx:
        note_nothing_then(ctx.store, ctx.err, when)
        data = audit_report(read_snapshot(ctx.store, when, ctx.clock.now()), domain, prices)
    render = {Format.md: report_markdown, Format.html: report_html, Format.json: report_json}[format_]
    text = render(data)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.parent.mkdir(parents=True, exist_ok=True)  # as every other --out: its folders are made
        write_whole(out, text)
    except OSError as error:
        raise UserError(
            f"cannot write the report to {out} ({error.strerror or error}); choose a writable --out"
        ) from None
    ctx.out.print(f"wrote {out} ({len(text.encode('utf-8')):,} bytes)", markup=False, highlight=False)
