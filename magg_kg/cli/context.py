"""What every ``magg`` command shares: its context (configuration, store, clock, consoles), the
shared options, JSON printing, time parsing and the one way a command writes a batch.

This is the one module of the command line that reads the environment, and only when a command
runs: configuration is built here and passed down. Errors are raised as :class:`UserError` (exit
2) or another :class:`MaggError` (exit 1); :func:`magg_kg.cli.app.main` turns them into one line.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.text import Text
from typer._click.core import Context as ClickContext
from typer._click.core import Parameter
from typer._click.types import StringParamType

from magg_kg.backends import open_store
from magg_kg.cli.damage import NOT_A_DATABASE, first_damage
from magg_kg.clock import Clock, OutOfRange, SystemClock, parse_time
from magg_kg.config import Config, LLMConfig, is_yes, load_config, yes_no_error
from magg_kg.errors import BatchRefused, ConfigError, StoreError, UserError
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.llm.port import LLM
from magg_kg.llm.usage import UsageLog
from magg_kg.operations import Batch, Operation, PutCache, RecordUsage
from magg_kg.store import Store

__all__ = [
    "AS_OF_SKEW_S",
    "BY_METAVAR",
    "AsOfOption",
    "Context",
    "DbOption",
    "JsonOption",
    "OutOption",
    "ResultsJsonOption",
    "Stopped",
    "as_of_time",
    "check_out",
    "debugging",
    "emit_report",
    "err_console",
    "is_database",
    "note_nothing_then",
    "one_line",
    "open_context",
    "out_console",
    "print_json",
    "read_config",
    "repository",
    "serve_token",
    "shared_data",
    "write_batch",
    "write_whole",
]


class _ByMetavar(StringParamType):
    """Text shown in ``--help`` by the argument's metavar alone. typer prints the type's name beside
    an argument whatever its metavar (``PATH...  <str>``): only the type can leave it out, and
    typer's public API has no such type, so this one comes from the click it vendors (0.26 on)."""

    def get_metavar(self, param: Parameter, ctx: ClickContext) -> str:
        return ""


BY_METAVAR = _ByMetavar()
"""The ``click_type`` of every argument (a ``Path`` one too: typer makes the text a path)."""
DbOption = Annotated[
    Path | None,
    typer.Option(
        "--db",
        metavar="FILE",
        help="Database file (default: $MAGG_DB, else ./magg.sqlite).",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
AsOfOption = Annotated[
    str | None,
    typer.Option(
        "--as-of", metavar="TIME", help="Read the graph as known at this time (ISO 8601).", show_default=False
    ),
]
AS_OF_SKEW_S = 60.0
"""How far past this machine's clock ``--as-of`` may be: a time stamp taken from another machine
whose clock runs a little ahead (a server's, a colleague's) still reads as now, not as a mistake.
Past a minute it is no skew but a time to come, which nothing can be known at."""
ResultsJsonOption = Annotated[bool, typer.Option("--json", help="Print the results as JSON.")]
"""``--json`` of a benchmark: its whole report on stdout."""
OutOption = Annotated[
    Path | None, typer.Option("--out", metavar="FILE", help="Also write the results as JSON here.")
]
"""``--out`` of a benchmark: its report written as JSON, and still printed; a command passes it to
:func:`check_out` before its run."""


def read_config(db: Path | None = None, *, decides: bool = False, asks: bool = False) -> Config:
    """The configuration of this run, from the environment and ``--db``; a ``--db`` given with
    ``MAGG_STORE=d1`` is refused, not ignored (a write meant for the file would go to D1).

    A command that ``decides`` (judges, admits, reviews: what records a decision under the policy)
    reads the policy file (``MAGG_POLICY``) now, so that a wrong one stops it before any work; the
    others never read it, and run whatever the file holds. A command that ``asks`` the model
    checks its settings now (:meth:`LLMConfig.checked`: ``MAGG_LLM=deepseek`` without its key, a
    ``MAGG_LLM_BASE_URL`` off the gateway), before it creates, migrates or reads a database."""
    config = load_config(os.environ, db=None if db is None else str(db))
    if db is not None and config.store == "d1":
        raise ConfigError(
            f"--db {db} names a SQLite file, but MAGG_STORE=d1 names {config.where}: leave out --db "
            "to use D1, or unset MAGG_STORE to use the file"
        )
    if decides:
        config.policy  # noqa: B018  (read and checked now, not halfway through the command)
    if asks:
        config.llm.checked()
    return config


class Stopped(Exception):
    """Ctrl-C or SIGTERM stopped a command that says itself what that left (``magg serve``, which
    has no batch to finish): :func:`magg_kg.cli.app.main` prints the message after "interrupted:"
    or "terminated:" and exits as for any stop; other commands get its words on batches."""


def serve_token() -> str | None:
    """``MAGG_SERVE_TOKEN``, the secret every request to ``magg serve`` carries (None when unset)."""
    return os.environ.get("MAGG_SERVE_TOKEN") or None


def debugging() -> bool:
    """Whether ``MAGG_DEBUG`` (a yes/no setting) asks for tracebacks instead of one line per
    error; a value that is no yes or no is refused when a command starts
    (:func:`debug_setting_error`), so it is never quietly read as no."""
    return is_yes(os.environ, "MAGG_DEBUG")


def debug_setting_error() -> str | None:
    """The error of a ``MAGG_DEBUG`` that is no yes/no value, or None."""
    return yes_no_error(os.environ, "MAGG_DEBUG")


def repository() -> Path:
    """The root of the source checkout this package runs from."""
    return Path(__file__).resolve().parents[2]


def shared_data(name: str = "") -> Path:
    """``../shared/data/NAME`` beside the repository root: the development and benchmark data."""
    return repository().parent / "shared" / "data" / name


def out_console() -> Console:
    """stdout; a pipe gets 80 columns (or ``$COLUMNS``), as rich sizes any non-terminal."""
    return Console(soft_wrap=True)


def err_console() -> Console:
    return Console(stderr=True, soft_wrap=True)


def one_line(name: str) -> Text:
    """A table cell that never wraps: when its column is narrowed to fit the console (80 columns
    in a pipe), the name is cut with an ellipsis, and its row stays one line."""
    return Text(name, no_wrap=True, overflow="ellipsis")


@dataclass(frozen=True)
class Context:
    """What every command receives: configuration, the store, a clock and the consoles; and what
    the command opens for its length (``closing``: the LLM it asks), closed when it ends."""

    config: Config
    store: Store
    clock: Clock
    out: Console
    err: Console
    closing: ExitStack = field(default_factory=ExitStack)

    def llm(self, config: LLMConfig | None = None, *, bundled: Sequence[str] = ()) -> tuple[LLM, UsageLog]:
        """The LLM stack of this command (``config``, else the configured one, with the offline
        roles) and its usage log; its provider (deepseek's HTTP client) is closed when the command
        ends, with an error or without."""
        from agents.offline.handlers import offline_handlers  # imported here: the offline roles load models
        from magg_kg.llm.provider import open_llm

        chosen = self.config.llm if config is None else config
        return self.closing.enter_context(
            open_llm(chosen, self.store, self.clock, offline_handlers(), bundled=bundled)
        )


@contextmanager
def open_context(
    db: Path | None,
    *,
    create: bool = False,
    sound: bool = True,
    decides: bool = False,
    held: bool = False,
    asks: bool = False,
) -> Iterator[Context]:
    """Builds the configuration once and opens the store for one command; when the command ends,
    closes what it opened (:meth:`Context.llm`), then the store.

    Only the commands that write a new graph (``init``, ``ingest``, ``demo``) pass ``create``: any
    other command on a path with no database says so and exits 2, and creates no file. A SQLite
    file SQLite's integrity check finds damaged is refused (a read of it could miss rows
    without an error), but by ``audit verify``, which passes ``sound=False`` to say what is wrong.
    A command that ``decides`` reads the policy file first, and one that ``asks`` the model checks
    its settings first (:func:`read_config`). Only a command
    that creates a graph or decides (and so writes) migrates a file of an older schema; the others
    refuse it in one line naming ``magg init``, and leave it as it was: byte for byte, as the
    store of a command that reads is opened ``write_late`` (it leaves the journal mode as it is).

    A command ``held`` (a person's decision on an id) runs under the store's write lock
    (:meth:`~magg_kg.store.Store.exclusive`) from its first read to its write, so that two people
    settling one proposal at once are served one after the other. It writes nothing to the file
    before its decision: an older schema is migrated in the decision's own transaction, so that a
    decision refused (an unknown id, a proposal already settled) leaves the file as it was.
    """
    config = read_config(db, decides=decides, asks=asks)
    # Checked before the store opens it: opening may write (a migration, the journal's files).
    # A file that is no SQLite database at all is said so by the store's opening (another kind of file?).
    damage = first_damage(config.db) if sound and config.store == "sqlite" and config.db.is_file() else ""
    if damage and damage != NOT_A_DATABASE:
        raise StoreError(
            f"{config.db} is damaged ({damage}): nothing is read or written; restore it from a backup, "
            f"or recover what is readable with `sqlite3 {config.db} .recover` (`magg audit verify` lists "
            "what is wrong)"
        )
    writes = create or decides
    store = open_store(config, create=create, upgrade=writes, write_late=held or not writes)
    try:
        clock = SystemClock(history=store.latest_time)  # a clock behind the history writes after it
        ctx = Context(config=config, store=store, clock=clock, out=out_console(), err=err_console())
        with ctx.closing, store.exclusive() if held else nullcontext():
            yield ctx
    finally:
        store.close()


def print_json(value: object) -> None:
    """Prints JSON to stdout, unstyled, so that it can be piped."""
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n")


def check_out(out: Path | None, example: str = "results.json") -> None:
    """Refuses, before any work, an ``--out`` file that could not be written: a folder, a path
    under a file, a folder this user may not write in, and a database (see :func:`is_database`),
    which the output would destroy. Creates nothing."""
    if out is None:
        return
    if out.is_dir():
        raise UserError(f"--out {out} is a folder; give a file path, e.g. {out / example}")
    if is_database(out):
        raise UserError(f"--out {out} is a database, which writing would destroy; choose another --out")
    folder = out.parent
    while not folder.exists() and folder != folder.parent:  # the folders to make, made at the end
        folder = folder.parent
    if not folder.is_dir():
        raise UserError(f"--out {out}: {folder} is a file, not a folder; choose another --out")
    if not os.access(out if out.exists() else folder, os.W_OK):
        raise UserError(f"--out {out}: no permission to write there; choose a writable --out")


_SQLITE = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")


def is_database(path: Path) -> bool:
    """Whether ``path`` is an SQLite database file, or the write-ahead log, shared memory or
    journal file beside one (``magg.sqlite-wal``): what an output file must never replace.

    >>> is_database(Path("/no/such/file.json"))
    False
    """
    for suffix in _SIDE_FILES:
        if path.name.endswith(suffix) and is_database(path.with_name(path.name[: -len(suffix)])):
            return True
    if not path.is_file():  # a pipe is never opened: that would wait for a writer
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(len(_SQLITE)) == _SQLITE
    except OSError:
        return False


def write_whole(path: Path, text: str) -> None:
    """Writes ``text`` to ``path`` whole or not at all: into a new file beside it, then renamed
    over it, so that an interrupted run leaves the old file (or none), never half of the new. A
    link is written through; what is no regular file (``/dev/stdout``, a pipe) is written to."""
    if path.exists() and not path.is_file():
        path.write_text(text, encoding="utf-8")
        return
    target = Path(os.path.realpath(path))
    part = target.with_name(f".{target.name}.{os.getpid()}.part")
    try:
        part.write_text(text, encoding="utf-8")
        os.replace(part, target)
    finally:
        part.unlink(missing_ok=True)


def emit_report(
    report: Mapping[str, object],
    out: Path | None,
    as_json: bool,
    show: Callable[[Mapping[str, object], Console], None],
    *,
    width: int | None = None,
) -> None:
    """A benchmark's results: written as JSON to ``out`` when given, then printed as JSON or shown
    as tables by ``show`` (on a console ``width`` wide, when given). When ``out`` cannot be written
    after all (the run checked it first), the JSON goes to stdout, so that the run is not lost, and
    a :class:`UserError` says so."""
    text = json.dumps(report, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    if out is not None:
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
            write_whole(out, text)
        except OSError as error:
            typer.echo(text, nl=False)
            raise UserError(
                f"cannot write the results to {out} ({error.strerror or error}); "
                "they went to stdout as JSON instead: choose a writable --out"
            ) from None
    if as_json:
        typer.echo(text, nl=False)
        return
    console = out_console() if width is None else Console(soft_wrap=True, width=width)
    show(report, console)
    if out is not None:
        console.print(f"results written to {out}", markup=False, highlight=False)


def as_of_time(value: str | None, clock: Clock | None = None, *, name: str = "--as-of") -> str | None:
    """``--as-of`` (or the field ``name`` of a request) as a canonical time; a value that is no
    time, or a time still to come by ``clock`` (the system's when None; past
    :data:`AS_OF_SKEW_S`), is a usage error: nothing is known yet of a time to come.

    >>> from magg_kg.clock import StepClock
    >>> clock = StepClock("2026-11-29T12:00:00Z")
    >>> as_of_time("2026-11-29T12:00:00Z", clock), as_of_time(None, clock)
    ('2026-11-29T12:00:00.000000Z', None)
    >>> as_of_time("2026-11-30", clock)
    Traceback (most recent call last):
    magg_kg.errors.UserError: --as-of 2026-11-30T00:00:00.000000Z is in the future (now is ...
    """
    if value is None:
        return None
    try:
        when = parse_time(value)
    except OutOfRange as error:
        raise UserError(f"{name} {error}") from None
    except ValueError:
        raise UserError(f"{name} {value!r} is not an ISO 8601 time (e.g. 2026-11-29T12:00:00Z)") from None
    now = (clock or SystemClock()).now()
    if datetime.fromisoformat(when) > datetime.fromisoformat(now) + timedelta(seconds=AS_OF_SKEW_S):
        raise UserError(
            f"{name} {when} is in the future (now is {now}): give a time up to now, "
            f"or leave out {name} to read the graph as it stands"
        )
    return when


def note_nothing_then(store: Store, err: Console, when: str | None) -> str | None:
    """When ``--as-of`` (``when``) is before the first lesson was ingested, says on ``err`` that
    nothing had been recorded then, and returns the first ingestion's time: every command reads the
    graph of that time as the empty graph it was, and exits 0. None for no ``--as-of``, a later
    one, or a database without lessons (which each command treats as it does without ``--as-of``).
    """
    if when is None:
        return None
    lessons = store.query("lessons", {"as_of": None})  # in order of ingestion
    first = str(lessons[0]["ingested_at"]) if lessons else None
    if first is None or when >= first:
        return None
    err.print(
        f"note: nothing had been recorded as of {when} (the first lesson was ingested at {first}): "
        "the graph was empty then",
        markup=False,
        highlight=False,
    )
    return first


def write_batch(
    store: Store, clock: Clock, kind: str, key: str, ops: Sequence[Operation], usage: UsageLog | None
) -> str:
    """Writes one journaled batch with the usage rows of its work; returns "" or, if the store
    refused it, why.

    ``magg review``, ``recheck`` and ``discover`` write through this, and so does a decision taken
    on the page of ``magg serve``: a review is recorded the same way wherever it is made.
    """
    now = clock.now()
    extra = usage.drain() if usage is not None else []
    batch = Batch.of(make_id("batch", kind, key, now), now, journaled([*ops, *extra], now))
    try:
        store.write(batch)
    except BatchRefused as refused:
        for op in extra:  # the model calls were made all the same: their rows are written later
            if isinstance(op, RecordUsage | PutCache) and usage is not None:
                usage.outbox.add(op)
        return refused.reason
    return ""
