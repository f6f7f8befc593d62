"""The ``magg`` command: the app, its commands in the order a person uses them, and :func:`main`.

User errors print one line on stderr and exit 2; run failures exit 1; nothing prints a traceback
unless ``MAGG_DEBUG=1``.
"""

from __future__ import annotations

import contextlib
import inspect
import os
import signal
import sys
from collections.abc import Callable
from importlib.metadata import version
from typing import Annotated

import typer
from typer.core import TyperGroup

from magg_kg.cli import ask, audit, bench, graph, ingest, model, review, serve
from magg_kg.cli.context import Stopped, debug_setting_error, debugging, err_console
from magg_kg.errors import MaggError, UserError

__all__ = [
    "COMMANDS",
    "INTERRUPTED",
    "USE_ORDER",
    "InOrderOfUse",
    "app",
    "build_app",
    "main",
    "one_line_paragraphs",
]

COMMANDS: tuple[Callable[[typer.Typer], None], ...] = (
    ingest.register,
    ask.register,
    review.register,
    serve.register,
    graph.register,
    audit.register,
    bench.register,
    model.register,
)
"""Every command module's ``register``: each adds its commands and groups to the app."""

USE_ORDER = (
    "init",
    "ingest",
    "demo",
    "domains",
    "ask",
    "review",
    "serve",
    "recheck",
    "reconsider",
    "discover",
    "coverage",
    "export",
    "audit",
    "usage",
    "bench",
    "model",
)
"""The order of ``magg --help``: the order a person meets the commands in (``serve`` beside
``review``, whose page it serves; ``model`` after ``bench``, both about measured data)."""


class InOrderOfUse(TyperGroup):
    """Lists the commands in :data:`USE_ORDER` (click's own order is alphabetical, typer's puts
    every group after every command); one missing from it comes last."""

    def list_commands(self, ctx: object) -> list[str]:  # any click context: the order needs none
        last = len(USE_ORDER)
        return sorted(self.commands, key=lambda name: USE_ORDER.index(name) if name in USE_ORDER else last)


def _version(shown: bool) -> None:
    if shown:
        typer.echo(f"magg-kg {version('magg-kg')}")
        raise typer.Exit()


def _options(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """The options of ``magg`` itself, before any command."""


def one_line_paragraphs(text: str) -> str:
    """A help text with each paragraph on one line, for the terminal to wrap at its width: typer
    keeps a docstring's line breaks in a group's list of commands and in a help's later paragraphs.
    A paragraph click keeps as written (``\\b``) and what follows a ``\\f`` are left as they are.

    >>> one_line_paragraphs("Serve the queue, and\\n    answer questions.\\n\\n    Exit: 0 when\\n    done.")
    'Serve the queue, and answer questions.\\n\\nExit: 0 when done.'
    """
    shown, cut, hidden = inspect.cleandoc(text).partition("\f")
    paragraphs = shown.split("\n\n")
    flowed = [p if p.startswith("\b") else " ".join(p.split()) for p in paragraphs]
    return "\n\n".join(flowed) + cut + hidden


def _reflow_help(typer_app: typer.Typer) -> None:
    """Gives every help text of ``typer_app``, its commands' and its groups' (theirs too), one line
    per paragraph (:func:`one_line_paragraphs`), before typer reads them to build the command."""
    if isinstance(typer_app.info.help, str):
        typer_app.info.help = one_line_paragraphs(typer_app.info.help)
    for command in typer_app.registered_commands:
        text = command.help if command.help is not None else inspect.getdoc(command.callback)
        if text:
            command.help = one_line_paragraphs(text)
    for group in typer_app.registered_groups:
        if isinstance(group.help, str):
            group.help = one_line_paragraphs(group.help)
        if isinstance(group.typer_instance, typer.Typer):
            _reflow_help(group.typer_instance)


def build_app() -> typer.Typer:
    """A new ``magg`` app with every command registered."""
    built = typer.Typer(
        name="magg",
        cls=InOrderOfUse,
        help="magg-kg: a governed knowledge graph for an AI-engineer curriculum.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    built.callback()(_options)
    for register in COMMANDS:
        register(built)
    _reflow_help(built)
    return built


app = build_app()


INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as shells report it)."""
TERMINATED = 143
"""The exit code of a command stopped by SIGTERM (128 + 15)."""
BATCHES_WHOLE = (
    "every batch written is whole (the one being written was rolled back); run the command again to finish"
)
"""What a stopped command left, unless it says so itself (:class:`~magg_kg.cli.context.Stopped`)."""


def _drop_stdout() -> None:
    """Points stdout at the null device, so that what it still buffers is not written (and fails
    again) when the interpreter exits."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())


MAX_MESSAGE = 2000
"""The most characters of an error message shown (an argument echoed in it may be any size)."""


def plain_message(message: str) -> str:
    """An error message as one line of plain text: what an argument may carry into it (a newline, a
    terminal escape, a bidirectional override) written as an escape, and a long one cut.

    >>> plain_message("no such edge: e-1\\n\\x1b[31m\\u202e")
    'no such edge: e-1\\\\n\\\\x1b[31m\\\\u202e'
    """
    shown = "".join(
        char if char.isprintable() or char == " " else char.encode("unicode_escape").decode("ascii")
        for char in message
    )
    if len(shown) > MAX_MESSAGE:
        shown = f"{shown[:MAX_MESSAGE]}... ({len(shown) - MAX_MESSAGE:,} characters more)"
    return shown


def main() -> None:
    """Entry point: runs the app, turning magg errors into one clear line."""
    wrong = debug_setting_error()
    if wrong is not None:
        err_console().print(f"error: {wrong}", markup=False, highlight=False)
        sys.exit(2)
    # SIGTERM (a service manager's stop, `docker stop`) is read as Ctrl-C is: the batch being
    # written is rolled back and the database closed whole. Typer may turn the interrupt into a
    # code, so the handler notes which signal it was.
    terminated: list[int] = []

    def terminate(signum: int, frame: object) -> None:
        terminated.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        _run(terminated)
    finally:  # the work is done or given up: a signal now would only end the exit with a traceback
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)


def _run(terminated: list[int]) -> None:
    try:
        # Without standalone mode, typer returns (not raises) the code of a `typer.Exit`.
        code = app(standalone_mode=False)
        sys.stdout.flush()  # a full disk under the output fails here, not at exit
    except MaggError as error:
        if debugging():
            raise
        err_console().print(f"error: {plain_message(str(error))}", markup=False, highlight=False)
        sys.exit(2 if isinstance(error, UserError) else 1)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except typer.TyperException as error:  # a usage error: unknown option, missing argument
        if error.format_message():  # empty when the help was shown instead
            said = plain_message(error.format_message())
            err_console().print(f"error: {said}", markup=False, highlight=False)
        sys.exit(error.exit_code)
    except Stopped as stopped:
        _interrupted(bool(terminated), str(stopped))
    except typer.Abort:
        if terminated:
            _interrupted(True)
        err_console().print("aborted", markup=False)
        sys.exit(INTERRUPTED)
    except KeyboardInterrupt:
        _interrupted(bool(terminated))
    except BrokenPipeError:  # the reader left (`magg export | head`): nothing more to say to it
        _drop_stdout()
        sys.exit(1)
    except OSError as error:  # the output could not be written: a full disk
        if debugging():
            raise
        _drop_stdout()
        what = error.filename or "cannot write the output"  # no file named: stdout
        err_console().print(f"error: {what}: {error.strerror or error}", markup=False, highlight=False)
        sys.exit(1)
    if code == INTERRUPTED:  # typer turns Ctrl-C into this code, and returns it
        _interrupted(bool(terminated))
    if isinstance(code, int) and code:
        sys.exit(code)


def _interrupted(terminated: bool = False, said: str = BATCHES_WHOLE) -> None:
    err_console().print(f"{'terminated' if terminated else 'interrupted'}: {said}", markup=False)
    sys.exit(TERMINATED if terminated else INTERRUPTED)
