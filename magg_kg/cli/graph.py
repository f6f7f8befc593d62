"""``magg coverage`` and ``magg export``: the graph read as it stands (or as it stood, ``--as-of``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated

import typer
from rich.table import Table

from magg_kg.cli.context import (
    AsOfOption,
    DbOption,
    JsonOption,
    as_of_time,
    note_nothing_then,
    one_line,
    open_context,
    print_json,
)
from magg_kg.coverage import coverage_report
from magg_kg.export import export_graph

__all__ = ["coverage", "coverage_table", "export", "register"]


def register(app: typer.Typer) -> None:
    """Adds ``coverage`` and ``export`` to the ``magg`` app."""
    app.command("coverage")(coverage)
    app.command("export")(export)


def export(
    db: DbOption = None,
    as_of: AsOfOption = None,
    json_: Annotated[
        bool,
        typer.Option("--json", help="Accepted for scripts: the export is always JSON.", show_default=False),
    ] = True,
) -> None:
    """Print the graph as canonical JSON (concepts, active edges with grounding, lessons)."""
    when = as_of_time(as_of)  # a bad option is refused before the database is opened
    with open_context(db) as ctx:
        note_nothing_then(ctx.store, ctx.err, when)
        print_json(export_graph(ctx.store, when))


def coverage(db: DbOption = None, as_of: AsOfOption = None, json_: JsonOption = False) -> None:
    """Concepts, active edges, edge types, orphans and prerequisite cycles, overall and per domain."""
    when = as_of_time(as_of)
    with open_context(db) as ctx:
        note_nothing_then(ctx.store, ctx.err, when)
        report = coverage_report(ctx.store, when)
        if json_:
            print_json(report)
            return
        overall = report["overall"]
        assert isinstance(overall, dict)
        ctx.out.print(coverage_table(report))
        ctx.out.print(f"edge types: {overall['edge_types']}")
        ctx.out.print(f"lessons without concepts: {len(overall['lessons_without_concepts'])}")


def coverage_table(report: Mapping[str, object]) -> Table:
    """One line per scope (overall, then each domain: its id and name, cut with an ellipsis when
    the width runs out)."""
    table = Table(title=f"coverage{' as of ' + str(report['as_of']) if report['as_of'] else ''}")
    table.add_column("scope")
    for column in ("concepts", "active edges", "orphans", "prerequisite cycles"):
        table.add_column(column, max_width=max(len(word) for word in column.split()))
    overall, domains = report["overall"], report["domains"]
    assert isinstance(overall, dict) and isinstance(domains, dict)
    rows = [("overall", overall)]
    rows += [(f"{key} {value['name']}", value) for key, value in domains.items()]
    for scope, section in rows:
        table.add_row(
            one_line(scope),
            str(section["concepts"]),
            str(section["active_edges"]),
            str(len(section["orphans"])),
            str(len(section["prerequisite_cycles"])),
        )
    return table
