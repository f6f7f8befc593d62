"""`magg serve` and a database file damaged while it runs: found before the next answer or page,
which is then refused (503), not read as if whole."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

from starlette.testclient import TestClient

from magg_kg.cli.serve import served_site
from magg_kg.cli.site import CSRF_COOKIE
from magg_kg.clock import StepClock, SystemClock
from magg_kg.config import load_config
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import CHAIN, seed

QUESTION = {"question": "What comes before transformers?"}


def _graph(path: Path) -> Path:
    store = SQLiteStore.open(path)
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"), CHAIN)
    store.close()
    return path


def _lose_the_edges(path: Path) -> None:
    """The page of the edges reads as holding no row (its cell count written over with 0), as in
    tests/test_bad_input.py: a read finds no edge and no error; SQLite's integrity check finds it."""
    with closing(sqlite3.connect(path)) as connection:
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'concept_edges'"
        ).fetchone()
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((root - 1) * size + 3)
        file.write(b"\0\0")


@contextmanager
def _served(db: Path) -> Iterator[TestClient]:
    with (
        served_site(load_config({}, db=str(db)), SystemClock(), None) as site,
        TestClient(site, base_url="http://127.0.0.1") as client,
    ):
        yield client


def test_a_file_damaged_while_serving_is_refused_before_the_next_answer_or_page(tmp_path: Path) -> None:
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        answered = client.post("/api/ask", json=QUESTION)
        assert answered.status_code == 200, answered.text
        assert client.get("/queue").status_code == 200

        _lose_the_edges(db)

        refused = client.post("/api/ask", json=QUESTION)
        assert refused.status_code == 503, refused.text
        [message] = refused.json().values()
        assert list(refused.json()) == ["error"] and "damaged" in message and "\n" not in message
        page = client.get("/queue")
        assert page.status_code == 503 and "damaged" in page.text
        form = {"csrf": client.cookies.get(CSRF_COOKIE), "action": "approve", "reviewer": "Ada"}
        decided = client.post("/proposals/p-none/decision", data=form)
        assert decided.status_code == 503 and "damaged" in decided.text


def test_a_file_removed_while_serving_is_refused_and_not_made_again(tmp_path: Path) -> None:
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        assert client.post("/api/ask", json=QUESTION).status_code == 200

        for path in tmp_path.iterdir():  # moved away, or deleted, with its -wal and -shm files
            path.unlink()

        refused = client.post("/api/ask", json=QUESTION)
        assert refused.status_code == 503 and "no database file" in refused.json()["error"]
        page = client.get("/queue")
        assert page.status_code == 503 and "no database file" in page.text
        assert list(tmp_path.iterdir()) == []  # a request made no new, empty database there
