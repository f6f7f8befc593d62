"""Fixtures of the report and review-site tests: the demo database (built once), a copy to write
to, and the review site served by uvicorn on a free loopback port."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from starlette.applications import Starlette
from typer.testing import CliRunner

from magg_kg.cli.app import app
from magg_kg.cli.questions import Questions
from magg_kg.cli.site import Site, build_site
from magg_kg.clock import SystemClock
from magg_kg.config import Policy
from magg_kg.sqlite import SQLiteStore


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled curriculum ingested once (read it; write to ``db`` instead)."""
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    result = CliRunner().invoke(app, ["demo", "--db", str(path)])
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture
def db(demo_db: Path, tmp_path: Path) -> Path:
    """A copy of the demo database that a test may change."""
    copy = tmp_path / "demo.sqlite"
    shutil.copyfile(demo_db, copy)
    return copy


@contextmanager
def serving(db: Path, token: str | None = None, questions: Questions | None = None) -> Iterator[str]:
    """The review site over ``db`` on 127.0.0.1 (answering ``questions`` when given); yields its
    base URL."""
    site = build_site(
        Site(
            open_store=lambda: SQLiteStore.open(db),
            clock=SystemClock(),
            policy=Policy(),
            token=token,
            questions=questions,
        )
    )
    with on_loopback(site) as url:
        yield url


@contextmanager
def on_loopback(site: Starlette) -> Iterator[str]:
    """``site`` served by uvicorn on a free port of 127.0.0.1, in a thread; yields its base URL."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(site, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the review site did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


@pytest.fixture
def site_url(db: Path) -> Iterator[str]:
    with serving(db) as url:
        yield url
