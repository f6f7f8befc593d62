"""``magg ask``: domain-routed question answering over the graph (or the flat baseline).

Exit codes: 0 with an answer, or with a plain message when the graph does not cover the concepts
asked about; 2 for an empty database (nothing to answer from) or a bad ``--as-of``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from agents.offline.handlers import offline_handlers
from governance.qa import QAResult, answer_flat, answer_routed, bridges_of
from magg_kg.cli.context import AsOfOption, DbOption, JsonOption, as_of_time, open_context, print_json
from magg_kg.clock import Clock
from magg_kg.errors import StoreError, UserError
from magg_kg.graph_index import build_graph_index
from magg_kg.ids import KINDS
from magg_kg.llm.provider import build_llm
from magg_kg.llm.usage import UsageLog
from magg_kg.store import Store

__all__ = ["ask_command", "register"]

QuestionArgument = Annotated[str, typer.Argument(help="The question, in plain words.", show_default=False)]
FlatOption = Annotated[
    bool, typer.Option("--flat", help="Ablation: one retrieval over the whole graph, no domain routing.")
]


def register(app: typer.Typer) -> None:
    """Adds ``ask`` to the ``magg`` app."""
    app.command("ask")(ask_command)


def ask_command(
    question: QuestionArgument,
    db: DbOption = None,
    json_: JsonOption = False,
    flat: FlatOption = False,
    as_of: AsOfOption = None,
) -> None:
    """Answer a question from the graph, routed to the domains that own its concepts."""
    when = as_of_time(as_of)
    if not question.strip():
        raise UserError("the question is empty: e.g. `magg ask 'What should I learn before transformers?'`")
    with open_context(db) as ctx:
        if not ctx.store.concepts(when):
            scope = f" as of {when}" if when else ""
            raise UserError(
                f"the graph in {ctx.config.db} is empty{scope}: run `magg demo` or `magg ingest` first"
            )
        graph = build_graph_index(ctx.store, when)
        llm, usage = build_llm(ctx.config.llm, ctx.store, ctx.clock, offline_handlers())
        try:
            if flat:
                result = answer_flat(llm, graph, question)
            else:
                result = answer_routed(llm, graph, question, bridges_of(ctx.store.domains(when)))
        finally:
            _record_usage(usage, ctx.store, ctx.clock, ctx.err)
        if json_:
            print_json(result.as_json(graph))
            return
        _print(result, ctx.out, ctx.err)


def _record_usage(usage: UsageLog, store: Store, clock: Clock, err: Console) -> None:
    """Writes the usage of the question's model calls; a database that refuses writes only costs a note.

    Asking is a read: on a read-only database the answer stands and the usage goes unrecorded.
    """
    try:
        usage.flush(store, clock)
    except StoreError as error:
        note = f"note: the usage of this question was not recorded: {error}"
        err.print(note, markup=False, highlight=False)


def _print(result: QAResult, out: Console, err: Console) -> None:
    if not result.covered:
        out.print(result.answer, markup=False, highlight=False)
        return
    out.print(f"[bold]{escape(result.short_answer)}[/bold]")
    out.print(result.answer, markup=False, highlight=False)
    if result.path:
        out.print(f"  path: {' → '.join(result.path)}", markup=False, highlight=False)
    for sub in result.sub_questions:
        out.print(
            f"  sub-question ({sub.get('type', 'open')}): {sub['text']} "
            f"-> domains {sub['domains'] or '(flat)'}",
            markup=False,
            highlight=False,
        )
    excerpts = sum(1 for c in result.citations if c.startswith(f"{KINDS['chunk'].prefix}-"))
    cited = f"{len(result.citations) - excerpts} edge(s)" + (
        f" and {excerpts} excerpt(s)" if excerpts else ""
    )
    out.print(f"{cited} cited; {result.calls} model call(s) ({result.mode})")
    if result.dropped:
        err.print(
            f"warning: dropped {len(result.dropped)} citation(s) of edges or excerpts not retrieved: "
            + ", ".join(result.dropped),
            markup=False,
            highlight=False,
        )
    for failure in result.failures:
        err.print(f"warning: {failure}", markup=False, highlight=False)
