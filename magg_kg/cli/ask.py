"""``magg ask``: domain-routed question answering over the graph (or the flat baseline).

The question is answered in this process, from the graph read whole from the store; or, with
``--server URL``, by a running ``magg serve`` (``POST /api/ask``, :mod:`magg_kg.cli.questions`),
which keeps the graph between questions: on a large graph, reading it is most of the time.

Exit codes: 0 with an answer, or with a plain message when the graph does not cover the concepts
asked about or held none at the ``--as-of`` time (one before anything was recorded); 2 for an
empty database (nothing to answer from), a bad ``--as-of`` (no time, or a time to come) or a
request the server refuses; 1 when the server cannot be reached or fails, or when every model call
failed (the answer, from the graph alone, is still given). With ``--json`` an error is also written
to stdout as ``{"error": "..."}``, for a script that reads only stdout.
"""

from __future__ import annotations

import importlib
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import httpx
import typer
from rich.console import Console
from rich.markup import escape

from magg_kg.cli.context import (
    BY_METAVAR,
    AsOfOption,
    DbOption,
    JsonOption,
    as_of_time,
    err_console,
    note_nothing_then,
    open_context,
    out_console,
    print_json,
    serve_token,
)
from magg_kg.cli.questions import answered, question_text, read_graph
from magg_kg.clock import Clock
from magg_kg.config import Config, is_http_url
from magg_kg.errors import BackendUnavailable, MaggError, RunError, UserError
from magg_kg.store import Store

__all__ = ["SERVER_TIMEOUT_S", "SLOW_READ_S", "ask_command", "failed_calls", "register"]

SLOW_READ_S = 5.0
"""A graph that takes this long to read gets a note: a server keeps it between questions."""
SERVER_TIMEOUT_S = 600.0
"""How long ``--server`` waits for an answer: the server's first question reads the whole graph."""
SERVER_REPLY_BYTES = 16 * 1024 * 1024
"""The most bytes of a server's answer ``--server`` reads (an answer is a few kilobytes)."""

QuestionArgument = Annotated[
    str,
    typer.Argument(
        metavar="QUESTION", click_type=BY_METAVAR, help="The question, in plain words.", show_default=False
    ),
]
FlatOption = Annotated[
    bool, typer.Option("--flat", help="Ablation: one retrieval over the whole graph, no domain routing.")
]
ServerOption = Annotated[
    str | None,
    typer.Option(
        "--server",
        metavar="URL",
        help="Ask a running `magg serve` at this URL (e.g. http://127.0.0.1:8765), which keeps the graph.",
        show_default=False,
    ),
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
    server: ServerOption = None,
) -> None:
    """Answer a question from the graph, routed to the domains that own its concepts.

    Exit codes: 0 with an answer, or a plain message when the graph does not cover the question or
    held no concept at the --as-of time; 1 when every model call failed, or the spend cap let none
    be made (the answer is then the graph's alone), or the server failed; 2 for a usage error or an
    empty database. With --json, an error is also written to stdout, as {"error": "..."}.
    """
    try:
        answer = _answer(question, db, flat, as_of, server)
    except MaggError as error:
        if json_:  # a script reading stdout learns what happened, not just that nothing came
            print_json({"error": str(error)})
        raise
    err = err_console()
    if json_:
        print_json(answer)
    else:
        _print(answer, out_console(), err)
    failed = failed_calls(answer)
    if failed:
        err.print(
            f"warning: every model call failed ({failed} of {failed}): this answer is from the graph "
            "alone; check MAGG_LLM and the model's gateway",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(1)
    capped = [failure for failure in _strings(answer.get("failures")) if ": over_budget: " in failure]
    if capped and answer.get("calls") == 0:  # no call was made: none failed, the cap (named above) kept them
        err.print(
            f"warning: the spend cap kept every model call from being made ({len(capped)} of "
            f"{len(capped)}): this answer is from the graph alone",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(1)


def _answer(
    question: str, db: Path | None, flat: bool, as_of: str | None, server: str | None
) -> Mapping[str, object]:
    when = as_of_time(as_of)
    question = question_text(question)  # no control character reaches a prompt or the terminal
    if not question.strip():
        raise UserError("the question is empty: e.g. `magg ask 'What should I learn before transformers?'`")
    if server is not None:
        if db is not None:
            raise UserError("--server answers from the server's database: leave out --db")
        return ask_server(server, question, flat, when)
    with open_context(db, asks=True) as ctx:  # a model that cannot be asked stops it before the graph is read
        return _ask_here(ctx.config, ctx.store, ctx.clock, ctx.err, question, flat, when)


def failed_calls(answer: Mapping[str, object]) -> int:
    """How many model calls an answer (as ``magg ask --json`` prints it) made, when every one of
    them failed; 0 when one succeeded or none was made (the offline provider never fails; a call
    the spend cap refused was not made, and did not fail).

    >>> failed_calls({"calls": 2, "failures": ["orchestrator: refused", "expert d-1: refused"]})
    2
    >>> failed_calls({"calls": 2, "failures": ["orchestrator: refused"]}), failed_calls({"calls": 0})
    (0, 0)
    >>> failed_calls({"calls": 1, "failures": ["expert d-1: over_budget: the spend cap ..."]})
    0
    """
    calls = answer.get("calls")
    if not isinstance(calls, int) or calls <= 0:
        return 0
    failed = [failure for failure in _strings(answer.get("failures")) if ": over_budget: " not in failure]
    return calls if len(failed) >= calls else 0


def _ask_here(
    config: Config, store: Store, clock: Clock, err: Console, question: str, flat: bool, when: str | None
) -> Mapping[str, object]:
    # What reading imports is loaded before the clock starts: the note below is about reading the
    # graph, which a server does once, not the libraries (3 to 7 s of llama_index and scikit-learn,
    # by magg_kg.embedding, against 0.1 s to read genai's graph).
    for module in ("magg_kg.embedding", "magg_kg.graph_index", "governance.qa"):
        importlib.import_module(module)
    started = time.monotonic()
    graph, bridges = read_graph(store, when, f"the graph in {config.where}")
    took = time.monotonic() - started
    if not graph.concepts:  # only as of a past time (read_graph refuses an empty graph now)
        note_nothing_then(store, err, when)
    elif took >= SLOW_READ_S:
        err.print(
            f"note: reading the graph ({len(graph.concepts):,} concepts, {len(graph.edges):,} edges) took "
            f"{took:.0f} s; `magg serve{config.db_option}` reads it once and keeps it: ask it with "
            "`magg ask --server http://127.0.0.1:8765 QUESTION`",
            markup=False,
            highlight=False,
        )
    answer, unrecorded = answered(config.llm, store, clock, graph, bridges, question, flat)
    if unrecorded is not None:
        note = f"note: the usage of this question was not recorded: {unrecorded}"
        err.print(note, markup=False, highlight=False)
    return answer


def ask_server(url: str, question: str, flat: bool, as_of: str | None) -> Mapping[str, object]:
    """The answer of the ``magg serve`` at ``url`` (its ``/api/ask``), as ``magg ask --json`` prints it."""
    if not is_http_url(url):
        raise UserError(
            f"--server {url!r} is not an http(s) URL with a host (and a valid port): e.g. http://127.0.0.1:8765"
        )
    token = serve_token()
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    target = url.rstrip("/") + "/api/ask"
    try:
        status, raw = _post_bounded(
            target, {"question": question, "flat": flat, "as_of": as_of}, headers, url
        )
    except httpx.HTTPError as error:
        raise BackendUnavailable(
            f"cannot reach the magg server at {url} ({error}): is `magg serve` running?"
        ) from None
    if status == 401:
        raise UserError(f"the magg server at {url} needs its token: set MAGG_SERVE_TOKEN to the server's")
    try:
        body = json.loads(raw)
    except ValueError:
        body = None
    if not isinstance(body, dict):
        raise RunError(f"the magg server at {url} answered {status} without a JSON answer")
    wrong = [
        key
        for key in ("citations", "path", "failures", "sub_questions")
        if not isinstance(body.get(key, []), list)
    ]
    if status < 400 and (not isinstance(body.get("answer", ""), str) or wrong):
        raise RunError(
            f"the magg server at {url} answered with an answer of the wrong shape: is it `magg serve`?"
        )
    if status >= 400:
        message = str(body.get("error") or f"status {status}")
        if status >= 500:
            raise RunError(f"the magg server at {url} failed: {message}")
        raise UserError(message)
    return body


def _post_bounded(target: str, payload: object, headers: dict[str, str], url: str) -> tuple[int, bytes]:
    """(status, body) of a POST to the server, read at most :data:`SERVER_REPLY_BYTES` bytes and
    within :data:`SERVER_TIMEOUT_S` seconds in all (a reply that never ends, or drips a byte at a
    time, is refused with :class:`RunError`, not waited on)."""
    deadline = time.monotonic() + SERVER_TIMEOUT_S
    timeout = httpx.Timeout(SERVER_TIMEOUT_S, connect=10.0)
    with (
        httpx.Client(timeout=timeout) as client,
        client.stream("POST", target, json=payload, headers=headers) as reply,
    ):
        chunks: list[bytes] = []
        size = 0
        for chunk in reply.iter_bytes():
            size += len(chunk)
            if size > SERVER_REPLY_BYTES:
                raise RunError(
                    f"the magg server at {url} sent more than {SERVER_REPLY_BYTES:,} bytes: not an answer"
                )
            if time.monotonic() > deadline:
                raise RunError(
                    f"the magg server at {url} did not finish its answer in {SERVER_TIMEOUT_S:.0f} s"
                )
            chunks.append(chunk)
        return reply.status_code, b"".join(chunks)


def _print(answer: Mapping[str, object], out: Console, err: Console) -> None:
    """An answer (as ``magg ask --json`` prints it) for a person."""
    if answer.get("covered", True):
        _print_covered(answer, out, err)
    else:
        out.print(str(answer.get("answer", "")), markup=False, highlight=False)
        if _items(answer.get("citations")) or _items(answer.get("excerpts_cited")):
            _print_cited(answer, out)  # what the graph holds beside what it does not cover, cited
    for failure in _strings(answer.get("failures")):
        err.print(f"warning: {failure}", markup=False, highlight=False)


def _print_covered(answer: Mapping[str, object], out: Console, err: Console) -> None:
    short = str(answer.get("short_answer", ""))
    if short:  # none for a question asked yes or no: the answer quotes what bears on it
        out.print(f"[bold]{escape(short)}[/bold]")
    out.print(str(answer.get("answer", "")), markup=False, highlight=False)
    path = _strings(answer.get("path"))
    if path:
        out.print(f"  path: {' → '.join(path)}", markup=False, highlight=False)
    for sub in _items(answer.get("sub_questions")):
        out.print(
            f"  sub-question ({sub.get('type', 'open')}): {sub.get('text', '')} "
            f"-> domains {sub.get('domains') or '(flat)'}",
            markup=False,
            highlight=False,
        )
    _print_cited(answer, out)
    dropped = _strings(answer.get("dropped_citations"))
    if dropped:
        err.print(
            f"warning: dropped {len(dropped)} citation(s) of edges or excerpts not retrieved: "
            + ", ".join(dropped),
            markup=False,
            highlight=False,
        )


def _print_cited(answer: Mapping[str, object], out: Console) -> None:
    edges, excerpts = len(_items(answer.get("citations"))), len(_items(answer.get("excerpts_cited")))
    cited = f"{edges} edge(s)" + (f" and {excerpts} excerpt(s)" if excerpts else "")
    out.print(f"{cited} cited; {answer.get('calls', 0)} model call(s) ({answer.get('mode', '')})")


def _items(value: object) -> list[Mapping[str, object]]:
    return [item for item in value if isinstance(item, Mapping)] if isinstance(value, Sequence) else []


def _strings(value: object) -> list[str]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        return []
    return [str(item) for item in value]
