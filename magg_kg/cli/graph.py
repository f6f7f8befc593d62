"""``magg coverage``, ``magg export`` and ``magg domains``: the graph read as it stands (or as it
stood, ``--as-of``; the domains as they are now)."""

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

__all__ = [
    "coverage",
    "coverage_table",
    "domains",
    "domains_table",
    "export",
    "lessons_without_concepts",
    "register",
]


def register(app: typer.Typer) -> None:
    """Adds ``coverage``, ``export`` and ``domains`` to the ``magg`` app."""
    app.command("coverage")(coverage)
    app.command("export")(export)
    app.command("domains")(domains)


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
        ctx.out.print(
            lessons_without_concepts(overall["lessons_without_concepts"]), markup=False, highlight=False
        )


def lessons_without_concepts(lessons: object, most: int = 10) -> str:
    """The lines that name the lessons no concept was found in, one a line (the first ``most``;
    ``--json`` has them all).

    >>> lessons_without_concepts([])
    'lessons without concepts: 0'
    >>> print(lessons_without_concepts(["045-bptt@ab12", "l1", "l2"], most=2))
    lessons without concepts: 3
      045-bptt@ab12
      l1
      and 1 more (--json lists them all)
    """
    assert isinstance(lessons, list)
    lines = [f"lessons without concepts: {len(lessons)}", *(f"  {lesson}" for lesson in lessons[:most])]
    if len(lessons) > most:
        lines.append(f"  and {len(lessons) - most} more (--json lists them all)")
    return "\n".join(lines)


def coverage_table(report: Mapping[str, object]) -> Table:
    """One line per scope (overall, then each domain: its id and name, cut with an ellipsis when
    the width runs out)."""
    table = Table(
        title=f"coverage{' as of ' + str(report['as_of']) if report['as_of'] else ''}",
        caption="a domain's active edges: one end in it or both (`magg domains` facts: both)",
    )
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


def domains(db: DbOption = None, json_: JsonOption = False) -> None:
    """List the domains: id, name, concepts, bridge concepts and memory card (and owner, with --json)."""
    # Not the retired ones, which own nothing: their ids are kept in the history (see
    # governance.domains: given back only to a community holding the same anchor).
    from governance.domain_rebuild import current_cards  # imported here: networkx

    with open_context(db) as ctx:
        owners = ctx.store.concept_domains()
        cards = current_cards(ctx.store)  # facts and open questions as they are now
        listing = []
        for row in ctx.store.domains():
            card = cards.get(str(row["id"]))
            if card is None:  # retired
                continue
            concepts = sorted(c for c, ids in owners.items() if str(row["id"]) in ids)
            listing.append(
                {
                    "id": row["id"],
                    "name": row["name"],
                    "owner": row["owner"],
                    "version": row["version"],
                    "concepts": concepts,
                    "bridges": card.get("bridges", []),
                    "card": card,
                }
            )
        if json_:
            print_json(listing)
            return
        ctx.out.print(domains_table(listing))


def domains_table(listing: list[dict[str, object]]) -> Table:
    """One line per domain, whatever the width: a long name is cut with an ellipsis (``--json`` has
    it whole, and the owner, always the agent ``owner:<id>``, which the table leaves out)."""
    table = Table(
        title="domains",
        caption="facts: its active edges with both ends in it (`magg coverage`: one or both)\n"
        "open questions: the abstained and quarantined proposals touching it",
    )
    table.add_column("id", no_wrap=True)
    table.add_column("name")
    for column in ("concepts", "bridges", "facts", "open questions"):
        table.add_column(column, max_width=max(len(word) for word in column.split()))
    for item in listing:
        card = item["card"]
        concepts = item["concepts"]
        assert isinstance(card, dict) and isinstance(concepts, list)
        table.add_row(
            str(item["id"]),
            one_line(str(item["name"])),
            str(len(concepts)),
            *(str(len(card.get(key, []))) for key in ("bridges", "facts", "open_questions")),
        )
    return table
