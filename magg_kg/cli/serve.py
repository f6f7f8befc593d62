"""``magg serve``: the review site (:mod:`magg_kg.cli.site`) over one database, and its questions
(:mod:`magg_kg.cli.questions`): ``POST /api/ask``, which ``magg ask --server URL`` sends to.

It listens on 127.0.0.1 unless told otherwise; any other address needs ``MAGG_SERVE_TOKEN`` (read
when the command runs), which every request must then carry. The address is bound before the
server says it serves there (a port in use is one line and exit 2). A connection that has not sent
a request's headers within :data:`HEADER_TIMEOUT_S` is closed, so that clients that open
connections and trickle nothing (slowloris) do not hold them, and with them every file the process
may open; at most :data:`MAX_CONNECTIONS` are served at once (503 beyond).
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.h11_impl import H11Protocol

from magg_kg.backends import open_store
from magg_kg.cli.context import DbOption, Stopped, open_context, serve_token
from magg_kg.cli.damage import DamageWatch, GoneFile
from magg_kg.cli.questions import Questions
from magg_kg.cli.site import Site, build_site
from magg_kg.clock import Clock, SystemClock
from magg_kg.config import Config, is_loopback
from magg_kg.errors import UserError
from magg_kg.store import Store

__all__ = ["HEADER_TIMEOUT_S", "MAX_CONNECTIONS", "MIN_TOKEN_LENGTH", "register", "serve", "served_site"]

MIN_TOKEN_LENGTH = 16
HEADER_TIMEOUT_S = 10.0
"""How long a connection may take to send a request's headers."""
MAX_CONNECTIONS = 256
"""How many connections and requests are served at once; more get 503."""


def register(app: typer.Typer) -> None:
    """Adds ``serve`` to the ``magg`` app."""
    app.command("serve")(serve)


def serve(
    host: Annotated[
        str, typer.Option("--host", metavar="ADDRESS", help="Address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=0, max=65535, metavar="PORT", help="Port to listen on.")
    ] = 8765,
    db: DbOption = None,
) -> None:
    """Serve the review queue, proposals, the audit report and domain graphs in a browser, and
    answer questions (POST /api/ask; `magg ask --server URL`) from a graph it keeps."""
    token = serve_token()
    if token is None and not is_loopback(host):
        raise UserError(
            f"--host {host} is reachable from other machines: set MAGG_SERVE_TOKEN (a long random "
            "secret) first, or serve on 127.0.0.1"
        )
    if token is not None and len(token) < MIN_TOKEN_LENGTH:
        raise UserError(f"MAGG_SERVE_TOKEN is too short: use at least {MIN_TOKEN_LENGTH} random characters")
    if token is not None and not (token.isascii() and token.isprintable() and token.split() == [token]):
        raise UserError(
            "MAGG_SERVE_TOKEN must be printable ASCII without spaces (a header and a cookie carry it): "
            "e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    with open_context(
        db, decides=True, asks=True
    ) as ctx:  # refuses a missing database before anything listens
        config = ctx.config
        # The server's own clock: its requests run in other threads, each with a store of its own,
        # after this one is closed. It observes the recorded history now, and the site again
        # before each decision it records.
        clock = SystemClock()
        clock.observe(ctx.store.latest_time())
        listener = _listen(host, port)
        out = ctx.out
    try:  # from here on, a stop leaves nothing to finish: what the server writes, it writes whole
        out.print(
            f"serving {config.where} at http://{_address(host, listener.getsockname()[1])}/"
            f"{' (every request needs the token)' if token else ''}; Ctrl-C stops",
            markup=False,
            highlight=False,
        )
        with served_site(config, clock, token) as site:
            server = uvicorn.Server(
                uvicorn.Config(
                    site,
                    http=TimedHeaders,
                    log_level="warning",
                    server_header=False,
                    limit_concurrency=MAX_CONNECTIONS,
                )
            )
            server.run(sockets=[listener])
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM, raised again by uvicorn once it has shut down
        raise Stopped(
            "magg serve stopped; what it recorded is whole (each decision is written at once or not at all)"
        ) from None
    finally:
        listener.close()


@contextmanager
def served_site(config: Config, clock: Clock, token: str | None) -> Iterator[Starlette]:
    """What ``magg serve`` serves over the store ``config`` names: the site and the questions it
    answers, whose worker is stopped when the block ends.

    Each request first checks a SQLite file again if it changed
    (:class:`~magg_kg.cli.damage.DamageWatch`): a damaged one is refused, 503, and so is another
    file at the path (moved over it, or made after it was deleted) until serve starts again; the
    connections to the old one are then closed. The question worker's store stays open while
    serving, so that the file stays in WAL mode: a request's store, opened and closed, then leaves
    the file as it was (the last connection to close turns WAL off, which writes to the file and
    would have it checked again at every request: 0.09 s each on the 52 MB d2l graph). What serve
    writes (model usage, decisions) is copied from the -wal file into the database file at once
    (:meth:`~magg_kg.store.Store.settle`, and a request's store as it closes): SQLite's -wal and
    -shm files belong to the path, and frames left there would be read with a file later moved or
    copied over it, which then read as damaged, or as the graph before a restore."""
    sqlite = config.store == "sqlite"
    watch = DamageWatch(config.db) if sqlite else None
    check = watch.check if watch is not None else lambda: 0

    def kept() -> Store:  # the worker's, which checks the file itself first
        store = open_store(config, create=False)
        if sqlite:
            store.schema_version()  # a read: only then does the connection hold the file in WAL mode
        return store

    def opened() -> Store:
        try:
            check()
        except GoneFile:
            questions.release()
            raise
        return open_store(config, create=False)  # a file gone since would be made again, empty

    own = watch.own if watch is not None else lambda write: write()
    questions = Questions(open_store=kept, llm=config.llm, clock=clock, check=check, own=own)
    try:
        if sqlite:
            questions.start()
        yield build_site(
            Site(open_store=opened, clock=clock, policy=config.policy, token=token, questions=questions)
        )
    finally:
        questions.close()


def _address(host: str, port: int) -> str:
    """``host:port`` as a URL writes it: an IPv6 address in brackets, since its colons are not the port's.

    >>> _address("127.0.0.1", 8765), _address("::1", 8765), _address("localhost", 80)
    ('127.0.0.1:8765', '[::1]:8765', 'localhost:80')
    """
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening; :class:`UserError` when it cannot be."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        return socket.create_server((host, port), family=family, backlog=2048)
    except (OSError, UnicodeError) as error:
        why = getattr(error, "strerror", None) or error
        raise UserError(
            f"cannot listen on {_address(host, port)} ({why}): choose another --host or --port"
        ) from None


class TimedHeaders(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, closing a connection whose request's headers have not come
    within :data:`HEADER_TIMEOUT_S` of its opening or of its last response."""

    _deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_response_complete(self) -> None:
        self._arm()  # before a pipelined request starts its cycle, which must not be timed
        super().on_response_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        waiting_for = self.cycle  # a request whose headers came starts a new cycle
        self._deadline = self.loop.call_later(HEADER_TIMEOUT_S, self._expire, waiting_for)

    def _expire(self, waiting_for: object) -> None:
        if self.cycle is waiting_for and not self.transport.is_closing():
            self.transport.close()
