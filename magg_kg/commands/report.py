"""``magg audit report``: the per-domain audit report as Markdown, HTML or JSON.

Registered on the ``audit`` group by :func:`register`. The report is read from a snapshot of the
store (:mod:`magg_kg.snapshot`), so ``--as-of`` shows what was known then. Without ``--out`` it is
printed; a path that cannot be written is one line on stderr and exit 2, and nothing is written.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from governance.report import Prices, audit_report
from magg_kg.errors import UserError
from magg_kg.snapshot import read_snapshot
from magg_kg.views.documents import report_html, report_json, report_markdown

__all__ = ["Format", "register", "report"]

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Database file (default: $MAGG_DB, else ./magg.sqlite).", show_default=False),
]


class Format(StrEnum):
    md = "md"
    html = "html"
    json = "json"


def register(audit_app: typer.Typer) -> None:
    """Adds ``report`` to the ``magg audit`` group."""
    audit_app.command("report")(report)


def report(
    domain: Annotated[str | None, typer.Option("--domain", help="Only this domain (its id).")] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="As known at this time (ISO 8601).", show_default=False)
    ] = None,
    format_: Annotated[Format, typer.Option("--format", help="md, html or json.")] = Format.md,
    out: Annotated[
        Path | None, typer.Option("--out", help="Write to this file instead of printing.", show_default=False)
    ] = None,
    db: DbOption = None,
    usd_prompt: Annotated[
        float | None,
        typer.Option(
            "--usd-per-mtok-in",
            min=0.0,
            help="Price of a million prompt tokens, in US dollars: the report gives the cost in money.",
            show_default=False,
        ),
    ] = None,
    usd_completion: Annotated[
        float | None,
        typer.Option(
            "--usd-per-mtok-out",
            min=0.0,
            help="Price of a million completion tokens, in US dollars (with --usd-per-mtok-in).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Per-domain audit report: decisions, scores, debates, quarantine, rejections, evidence, cost, time."""
    from magg_kg.cli import as_of_time, open_context

    when = as_of_time(as_of)
    if (usd_prompt is None) != (usd_completion is None):
        raise UserError("give both --usd-per-mtok-in and --usd-per-mtok-out, or neither")
    prices = None
    if usd_prompt is not None and usd_completion is not None:
        prices = Prices(usd_prompt, usd_completion)
    if out is not None and out.is_dir():
        raise UserError(
            f"--out {out} is a folder; give a file path, e.g. {out / ('report.' + format_.value)}"
        )
    with open_context(db) as ctx:
        data = audit_report(read_snapshot(ctx.store, when, ctx.clock.now()), domain, prices)
    render = {Format.md: report_markdown, Format.html: report_html, Format.json: report_json}[format_]
    text = render(data)
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UserError(
            f"cannot write the report to {out} ({error.strerror or error}); choose a writable --out"
        ) from None
    ctx.out.print(f"wrote {out} ({len(text.encode('utf-8')):,} bytes)", markup=False, highlight=False)
