"""The ``magg`` command: the one composition root.

Configuration is built here, once, from the environment and the options, and passed down.
User errors print one line on stderr and exit 2; run failures exit 1; nothing prints a traceback
unless ``MAGG_DEBUG=1``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from magg_kg.backends import open_store
from magg_kg.clock import Clock, SystemClock, parse_time
from magg_kg.commands import ingest as ingest_commands
from magg_kg.commands.ask import register as register_ask
from magg_kg.commands.bench import bench_app
from magg_kg.commands.bench_qa import register as register_bench_qa
from magg_kg.commands.model import model_app
from magg_kg.commands.report import register as register_report
from magg_kg.commands.review import register as register_review
from magg_kg.commands.serve import register as register_serve
from magg_kg.config import Config, load_config
from magg_kg.coverage import coverage_report
from magg_kg.errors import MaggError, UserError
from magg_kg.export import export_graph
from magg_kg.store import Row, Store
from magg_kg.verification import verify_store

__all__ = ["Context", "DbOption", "JsonOption", "app", "main", "open_context"]

app = typer.Typer(
    name="magg",
    help="magg-kg: a governed knowledge graph for an AI-engineer curriculum.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
audit_app = typer.Typer(help="The audit log and the database's invariants.", no_args_is_help=True)
app.add_typer(audit_app, name="audit")
app.add_typer(bench_app, name="bench")
register_bench_qa(bench_app)  # bench qa
app.add_typer(model_app, name="model")
register_review(app)  # review, recheck, discover
register_ask(app)  # ask
register_report(audit_app)  # audit report
register_serve(app)  # serve

DbOption = Annotated[
    Path | None,
    typer.Option("--db", help="Database file (default: $MAGG_DB, else ./magg.sqlite).", show_default=False),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
AsOfOption = Annotated[
    str | None, typer.Option("--as-of", help="Read the graph as known at this time (ISO 8601).")
]


@dataclass(frozen=True)
class Context:
    """What every command receives: configuration, the store, a clock and the consoles."""

    config: Config
    store: Store
    clock: Clock
    out: Console
    err: Console


@contextmanager
def open_context(db: Path | None, *, create: bool = False) -> Iterator[Context]:
    """Builds the configuration once and opens the store for one command.

    Only the commands that write a new graph (``init``, ``ingest``, ``demo``) pass ``create``: any
    other command on a path with no database says so and exits 2, and creates no file.
    """
    config = load_config(os.environ, db=None if db is None else str(db))
    store = open_store(config, create=create)
    try:
        yield Context(
            config=config,
            store=store,
            clock=SystemClock(),
            out=Console(soft_wrap=True),
            err=Console(stderr=True, soft_wrap=True),
        )
    finally:
        store.close()


def print_json(value: object) -> None:
    """Prints JSON to stdout, unstyled, so that it can be piped."""
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def emit_report(
    report: Mapping[str, object],
    out: Path | None,
    as_json: bool,
    show: Callable[[Mapping[str, object], Console], None],
) -> None:
    """A benchmark's results: written as JSON to ``out`` when given, then printed as JSON or shown
    as tables by ``show``."""
    text = json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, encoding="utf-8")
    if as_json:
        typer.echo(text, nl=False)
        return
    console = Console(soft_wrap=True)
    show(report, console)
    if out is not None:
        console.print(f"results written to {out}", markup=False, highlight=False)


def as_of_time(value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return parse_time(value)
    except ValueError:
        raise UserError(f"--as-of {value!r} is not an ISO 8601 time (e.g. 2026-11-29T12:00:00Z)") from None


def not_yet(command: str, stage: str) -> None:
    """Refuses, clearly, a command whose pipeline stage is not built yet."""
    raise UserError(f"`magg {command}` is not available yet: {stage} is not built in this version")


@app.command()
def init(db: DbOption = None) -> None:
    """Create (or migrate) the database."""
    with open_context(db, create=True) as ctx:
        version = ctx.store.schema_version()
        ctx.out.print(f"database ready: {ctx.config.db} (schema version {version})")


@app.command()
def export(db: DbOption = None, as_of: AsOfOption = None, json_: JsonOption = True) -> None:
    """Print the graph as canonical JSON (concepts, active edges with grounding, lessons)."""
    when = as_of_time(as_of)  # a bad option is refused before the database is opened
    with open_context(db) as ctx:
        print_json(export_graph(ctx.store, when))


@app.command()
def coverage(db: DbOption = None, as_of: AsOfOption = None, json_: JsonOption = False) -> None:
    """Concepts, active edges, edge types, orphans and prerequisite cycles, overall and per domain."""
    when = as_of_time(as_of)
    with open_context(db) as ctx:
        report = coverage_report(ctx.store, when)
        if json_:
            print_json(report)
            return
        overall = report["overall"]
        assert isinstance(overall, dict)
        table = Table(title=f"coverage{' as of ' + str(report['as_of']) if report['as_of'] else ''}")
        for column in ("scope", "concepts", "active edges", "orphans", "prerequisite cycles"):
            table.add_column(column)
        rows = [("overall", overall)]
        domains = report["domains"]
        assert isinstance(domains, dict)
        rows += [(f"{key} {value['name']}", value) for key, value in domains.items()]
        for scope, section in rows:
            table.add_row(
                scope,
                str(section["concepts"]),
                str(section["active_edges"]),
                str(len(section["orphans"])),
                str(len(section["prerequisite_cycles"])),
            )
        ctx.out.print(table)
        ctx.out.print(f"edge types: {overall['edge_types']}")
        ctx.out.print(f"lessons without concepts: {len(overall['lessons_without_concepts'])}")


@audit_app.command("verify")
def audit_verify(db: DbOption = None, json_: JsonOption = False) -> None:
    """Check the audit hash chain and every invariant; exit 1 if anything is broken."""
    with open_context(db) as ctx:
        problems = verify_store(ctx.store)
        events = len(ctx.store.audit_events())
        if json_:
            print_json({"ok": not problems, "audit_events": events, "problems": problems})
        elif problems:
            for problem in problems:
                ctx.err.print(f"broken: {problem}", markup=False, highlight=False)
        else:
            ctx.out.print(f"ok: {events} audit events chained, all invariants hold")
        if problems:
            raise typer.Exit(1)


@app.command()
def usage(db: DbOption = None, json_: JsonOption = False) -> None:
    """LLM calls and tokens by stage."""
    with open_context(db) as ctx:
        rows = ctx.store.usage_by_stage()
        totals = {
            key: sum(int(row[key] or 0) for row in rows)
            for key in ("calls", "cache_hits", "attempts", "prompt_tokens", "completion_tokens")
        }
        if json_:
            print_json({"by_stage": rows, "total": totals})
            return
        table = Table(title="LLM usage by stage")
        columns = ("stage", "calls", "cache_hits", "attempts", "prompt_tokens", "completion_tokens")
        for column in columns:
            table.add_column(column)
        total: Row = {"stage": "total", **totals}
        for row in [*rows, total]:
            table.add_row(*(str(row.get(column, "")) for column in columns))
        ctx.out.print(table)


@app.command("ingest")
def ingest_cmd(
    paths: ingest_commands.PathsArgument,
    db: DbOption = None,
    json_: JsonOption = False,
    max_calls: ingest_commands.MaxCalls = None,
    max_tokens: ingest_commands.MaxTokens = None,
    flat: ingest_commands.Flat = False,
    max_bytes: ingest_commands.MaxBytes = ingest_commands.DEFAULT_MAX_BYTES,
) -> None:
    """Ingest Markdown lessons (files or folders) through governed admission."""
    ingest_commands.ingest_command(paths, db, json_, max_calls, max_tokens, flat, max_bytes)


@app.command("demo")
def demo_cmd(db: DbOption = None) -> None:
    """Ingest the bundled sample curriculum with the embedded defaults and show what happened."""
    ingest_commands.demo_command(db)


@app.command("domains")
def domains_cmd(db: DbOption = None, json_: JsonOption = False) -> None:
    """List the domains: id, name, owner, concepts, bridge concepts and memory card."""
    ingest_commands.domains_command(db, json_)


def main() -> None:
    """Entry point: runs the app, turning magg errors into one clear line."""
    try:
        # Without standalone mode, typer returns (not raises) the code of a `typer.Exit`.
        code = app(standalone_mode=False)
    except MaggError as error:
        if os.environ.get("MAGG_DEBUG") == "1":
            raise
        Console(stderr=True, soft_wrap=True).print(f"error: {error}", markup=False, highlight=False)
        sys.exit(2 if isinstance(error, UserError) else 1)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.TyperException as error:  # a usage error: unknown option, missing argument
        if error.format_message():  # empty when the help was shown instead
            Console(stderr=True, soft_wrap=True).print(
                f"error: {error.format_message()}", markup=False, highlight=False
            )
        sys.exit(error.exit_code)
    except typer.Abort:
        Console(stderr=True, soft_wrap=True).print("aborted", markup=False)
        sys.exit(130)
    except KeyboardInterrupt:
        Console(stderr=True, soft_wrap=True).print(
            "interrupted: the last batch was rolled back", markup=False
        )
        sys.exit(130)
    if isinstance(code, int) and code:
        sys.exit(code)


if __name__ == "__main__":
    main()
