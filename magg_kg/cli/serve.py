"""``magg serve``: the review site (:mod:`magg_kg.cli.site`) over one database, and its questions
(:mod:`magg_kg.cli.questions`): ``POST /api/ask``, which ``magg ask --server URL`` sends to.

It listens on 127.0.0.1 unless told otherwise; any other address needs ``MAGG_SERVE_TOKEN`` (read
when the command runs), which every request must then carry.
"""

from __future__ import annotations

from typing import Annotated

import typer
import uvicorn

from magg_kg.backends import open_store
from magg_kg.cli.context import DbOption, open_context, serve_token
from magg_kg.cli.questions import Questions
from magg_kg.cli.site import Site, build_site
from magg_kg.cli.web import is_loopback
from magg_kg.clock import SystemClock
from magg_kg.errors import UserError
from magg_kg.store import Store

__all__ = ["MIN_TOKEN_LENGTH", "register", "serve"]

MIN_TOKEN_LENGTH = 16


def register(app: typer.Typer) -> None:
    """Adds ``serve`` to the ``magg`` app."""
    app.command("serve")(serve)


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=0, max=65535, help="Port to listen on.")] = 8765,
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
    with open_context(db) as ctx:  # refuses a missing database before anything listens
        config = ctx.config
        # The server's own clock: its requests run in other threads, each with a store of its own,
        # after this one is closed. It observes the recorded history now, and the site again
        # before each decision it records.
        clock = SystemClock()
        clock.observe(ctx.store.latest_time())
        ctx.out.print(
            f"serving {config.db} at http://{host}:{port}/"
            f"{' (every request needs the token)' if token else ''}; Ctrl-C stops",
            markup=False,
            highlight=False,
        )

    def opened() -> Store:
        return open_store(config)

    questions = Questions(open_store=opened, llm=config.llm, clock=clock)
    site = build_site(
        Site(
            open_store=opened,
            clock=clock,
            policy=config.policy,
            token=token,
            questions=questions,
        )
    )
    try:
        uvicorn.run(site, host=host, port=port, log_level="warning", server_header=False)
    finally:
        questions.close()
