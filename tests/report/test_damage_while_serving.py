"""`magg serve` and a database file damaged while it runs: found before the next answer or page,
which is then refused (503), not read as if whole."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from magg_kg.cli import damage
from magg_kg.cli.serve import served_site
from magg_kg.cli.site import CSRF_COOKIE
from magg_kg.clock import StepClock, SystemClock
from magg_kg.config import load_config
from magg_kg.sqlite import SQLiteStore
from tests.damage import lose_the_edges
from tests.gates.world import CHAIN, seed, seeded_edge, write
from tests.report.conftest import on_loopback

QUESTION = {"question": "What comes before transformers?"}


def _graph(path: Path, edges: list[tuple[str, str, str, str]] = CHAIN) -> Path:
    store = SQLiteStore.open(path)
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"), edges)
    store.close()
    return path


def _alone(path: Path) -> tuple[str, int]:
    """What another process finds in the file at ``path``: SQLite's integrity check, and how many
    edge versions it reads (through whatever -wal file lies beside it)."""
    read = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "print(c.execute('PRAGMA integrity_check(1)').fetchone()[0]); "
        "print(c.execute('SELECT count(*) FROM concept_edges').fetchone()[0])"
    )
    done = subprocess.run([sys.executable, "-c", read, str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        return done.stderr.strip(), -1
    check, edges = done.stdout.split()
    return check, int(edges)


def _wal_frames(path: Path) -> int:
    """The bytes of the -wal file beside ``path`` (0 when it has none)."""
    wal = path.with_name(path.name + "-wal")
    return wal.stat().st_size if wal.exists() else 0


@contextmanager
def _served(db: Path) -> Iterator[httpx.Client]:
    with (
        served_site(load_config({}, db=str(db)), SystemClock(), None) as site,
        on_loopback(site) as url,
        httpx.Client(base_url=url) as client,
    ):
        yield client


def test_a_file_damaged_while_serving_is_refused_before_the_next_answer_or_page(tmp_path: Path) -> None:
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        answered = client.post("/api/ask", json=QUESTION)
        assert answered.status_code == 200, answered.text
        assert client.get("/queue").status_code == 200

        lose_the_edges(db)

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


def test_a_file_overwritten_with_what_is_not_a_database_is_refused(tmp_path: Path) -> None:
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        assert client.post("/api/ask", json=QUESTION).status_code == 200
        with db.open("r+b") as file:  # in place: the same file, its header gone
            file.write(b"this is no longer a database".ljust(100, b"!"))
        refused = client.post("/api/ask", json=QUESTION)
        assert refused.status_code == 503 and "damaged" in refused.json()["error"], refused.text


def test_what_serve_writes_leaves_no_frame_in_the_wal_for_another_file_to_inherit(tmp_path: Path) -> None:
    # Found by moving a sound graph over the served file: the usage rows of serve's answers, left
    # in g.sqlite-wal, were read with the new file's pages, which every command then said damaged.
    db = _graph(tmp_path / "g.sqlite")
    other = _graph(tmp_path / "other.sqlite", CHAIN[:1])
    with _served(db) as client:
        assert client.post("/api/ask", json=QUESTION).status_code == 200  # records its model usage
        assert _wal_frames(db) == 0
        moved = tmp_path / "new.sqlite"
        shutil.copyfile(other, moved)
        moved.replace(db)
        assert _alone(db) == _alone(other) == ("ok", 1)


def test_a_file_replaced_while_serving_is_refused_until_serve_restarts(tmp_path: Path) -> None:
    # Found by deleting the served file and making a new graph there: /api/ask went on answering
    # from the deleted file (and recorded its usage there), while the pages read the new one.
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        assert client.post("/api/ask", json=QUESTION).status_code == 200
        db.unlink()  # its -wal and -shm stay: they belong to the path
        _graph(db, CHAIN[:1])
        refused = client.post("/api/ask", json=QUESTION)
        assert refused.status_code == 503, refused.text
        assert "replaced" in refused.json()["error"] and "restart" in refused.json()["error"]
        page = client.get("/queue")
        assert page.status_code == 503 and "replaced" in page.text
    assert _alone(db) == ("ok", 1)  # serve's connections, closed, wrote nothing to the new file


def test_a_backup_copied_over_the_served_file_is_what_serve_and_others_read(tmp_path: Path) -> None:
    # Found by restoring a backup in place while serve ran: another command's writes, left in the
    # -wal file because serve held the database open, were read over the restored file, and were
    # written into it when serve stopped.
    later = ("calculus", "prerequisite", "backpropagation", "Calculus is a prerequisite for backpropagation.")
    question = {"question": "What comes before backpropagation?"}
    db = _graph(tmp_path / "g.sqlite")
    backup = tmp_path / "backup.sqlite"
    shutil.copyfile(db, backup)
    with _served(db) as client:
        before = client.post("/api/ask", json=question).json()
        writer = SQLiteStore.open(db)  # another command writes while serve runs
        write(
            writer,
            StepClock("2026-02-01T00:00:00.000000Z"),
            seeded_edge(*later, "2026-02-01T00:00:00.000000Z"),
        )
        writer.close()
        grown = client.post("/api/ask", json=question).json()
        assert grown != before and _alone(db) == ("ok", len(CHAIN) + 1)
        shutil.copyfile(backup, db)  # in place: the same inode
        assert _alone(db) == _alone(backup) == ("ok", len(CHAIN))
        restored = client.post("/api/ask", json=question)
        assert restored.status_code == 200 and restored.json() == before
    assert _alone(db) == ("ok", len(CHAIN))  # serve's close wrote no stale frame into it


def test_what_serve_writes_itself_is_not_checked_again_at_the_next_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its answers' usage rows reach the file at once (no frame left in the -wal file): that is no
    # change by another hand, which would have the whole file checked before every request.
    checked: list[Path] = []
    monkeypatch.setattr(damage, "first_damage", lambda path: checked.append(path) or "")
    db = _graph(tmp_path / "g.sqlite")
    with _served(db) as client:
        for _ in range(3):
            assert client.post("/api/ask", json=QUESTION).status_code == 200
            assert client.get("/queue").status_code == 200
    assert checked == [db]
