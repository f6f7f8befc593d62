"""Opening a database: read commands never create one, and several openers of a new file at once
all get the same, complete schema."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import threading
from contextlib import closing
from pathlib import Path
from typing import NoReturn

import pytest

from magg_kg.cli import ask
from magg_kg.clock import StepClock
from magg_kg.migrations import migrations
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import SCHEMA_VERSION
from tests.cli import magg
from tests.gates.world import CHAIN, seed

READ_COMMANDS = [
    ["audit", "verify"],
    ["export"],
    ["coverage"],
    ["coverage", "--json"],
    ["review", "list"],
    ["review", "show", "p-0"],
    ["domains"],
    ["usage"],
    # A question the graph answers with no model call: a model call records its usage (`magg usage`),
    # and a prerequisite question the graph has no edge for is read in the lessons by the experts.
    ["ask", "What does attention unlock?"],
    ["recheck"],
    ["discover"],
]


@pytest.mark.parametrize("command", READ_COMMANDS, ids=" ".join)
def test_a_command_that_reads_creates_no_database(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mistyped.sqlite"
    code, out, err = magg([*command, "--db", str(path)], capsys)
    assert code == 2
    assert err == f"error: no database at {path}; run `magg init --db {path}` first\n"
    assert out == ""
    assert list(tmp_path.iterdir()) == []


def test_a_file_of_another_kind_is_said_to_be_no_database_not_damaged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("a note, not a database\n" * 10)
    code, out, err = magg(["coverage", "--db", str(path)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "another kind of file" in err and "damaged" not in err and ".recover" not in err


@pytest.mark.parametrize(
    "command", [["audit", "verify"], ["export"], ["usage"], ["model", "claims", "--out", "x"]], ids=" ".join
)
def test_an_empty_file_is_no_database_and_stays_empty(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.sqlite"
    path.touch()
    code, _, err = magg([*command, "--db", str(path)], capsys)
    assert code == 2
    assert err.startswith(f"error: no database at {path} (the file is empty)") and err.count("\n") == 1
    assert path.stat().st_size == 0


def test_a_read_command_on_a_missing_folder_names_the_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no" / "such" / "magg.sqlite"
    code, _, err = magg(["coverage", "--db", str(path)], capsys)
    assert code == 2 and err.startswith(f"error: no database at {path};")
    assert not (tmp_path / "no").exists()


def test_init_creates_and_then_read_commands_work(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "new.sqlite"
    assert magg(["init", "--db", str(path)], capsys)[0] == 0
    assert path.is_file()
    code, out, _ = magg(["audit", "verify", "--db", str(path)], capsys)
    assert code == 0 and out.startswith("ok: 0 audit events")


def _schema(path: Path) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    with sqlite3.connect(path) as db:
        objects = db.execute("SELECT type, name FROM sqlite_master ORDER BY type, name").fetchall()
        versions = db.execute("SELECT version, name FROM schema_version").fetchall()
    return objects, versions


def _expected_schema(tmp_path: Path) -> tuple[list[tuple[str, str]], list[tuple[int, str]]]:
    alone = tmp_path / "alone.sqlite"
    SQLiteStore.open(alone).close()
    return _schema(alone)


def test_threads_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    expected = _expected_schema(tmp_path)
    assert expected[1] == [(version, name.removesuffix(".sql")) for version, name, _ in migrations()]
    for attempt in range(5):  # before the fix, 19 rounds in 20 had a loser
        path = tmp_path / f"new-{attempt}.sqlite"
        start = threading.Barrier(8)
        outcomes: list[object] = []

        def open_new(
            path: Path = path, start: threading.Barrier = start, outcomes: list[object] = outcomes
        ) -> None:
            start.wait()
            try:
                store = SQLiteStore.open(path)
                outcomes.append(store.schema_version())
                store.close()
            except Exception as error:  # the failure is the outcome under test
                outcomes.append(error)

        threads = [threading.Thread(target=open_new) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert outcomes == [SCHEMA_VERSION] * 8
        assert _schema(path) == expected


_OPEN = (
    "import sys; from magg_kg.sqlite import SQLiteStore; SQLiteStore.open(sys.argv[1]).close(); print('ok')"
)


def test_processes_opening_a_new_file_at_once_all_succeed(tmp_path: Path) -> None:
    expected = _expected_schema(tmp_path)
    path = tmp_path / "shared.sqlite"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", _OPEN, str(path)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    results = [process.communicate(timeout=120) for process in processes]
    assert [process.returncode for process in processes] == [0] * 6, [err for _, err in results]
    assert [out for out, _ in results] == ["ok\n"] * 6
    assert _schema(path) == expected


def test_ingest_of_a_mistyped_lesson_path_creates_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "magg.sqlite"
    code, _, err = magg(["ingest", str(tmp_path / "no-such-lesson.md"), "--db", str(path)], capsys)
    assert code == 2 and err.startswith("error: ") and "no such file or folder" in err
    assert not path.exists()


def test_a_database_of_schema_1_is_migrated_on_opening_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    [(_, _, first), *_] = migrations()
    with sqlite3.connect(path) as db:
        db.executescript(first)
        row = ("a", "A", "math", "2026-01-01T00:00:00.000000Z")
        db.execute("INSERT INTO concepts (id, name, type, recorded_at) VALUES (?, ?, ?, ?)", row)
    store = SQLiteStore.open(path)
    try:
        assert store.schema_version() == SCHEMA_VERSION == 4
        assert [c.id for c in store.concepts()] == ["a"]
    finally:
        store.close()
    with sqlite3.connect(path) as db:
        triggers = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    assert "edge_invalidations_in_time" in triggers and "domains_in_order" in triggers


def _schema_1_file(path: Path) -> Path:
    """A database of schema version 1 (the first migration only), with one concept."""
    [(_, _, first), *_] = migrations()
    with closing(sqlite3.connect(path)) as db, db:
        db.executescript(first)
        row = ("a", "A", "math", "2026-01-01T00:00:00.000000Z")
        db.execute("INSERT INTO concepts (id, name, type, recorded_at) VALUES (?, ?, ?, ?)", row)
    return path


OLDER_SCHEMA_READS = [
    *(command for command in READ_COMMANDS if command[0] not in ("recheck", "discover")),
    ["audit", "report"],
    ["model", "claims", "--out", "claims.jsonl"],
]


@pytest.mark.parametrize("command", OLDER_SCHEMA_READS, ids=" ".join)
def test_a_command_that_reads_refuses_an_older_schema_and_leaves_the_file_as_it_was(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    path = _schema_1_file(tmp_path / "old.sqlite")
    before = path.read_bytes()

    code, out, err = magg([*command, "--db", str(path)], capsys)

    assert (code, out) == (2, "") and err.count("\n") == 1
    assert "schema version 1" in err and f"magg init --db {path}" in err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


WRONG_MODEL_SETTINGS = {
    "no key": {"MAGG_LLM": "deepseek"},
    "off the gateway": {
        "MAGG_LLM": "deepseek",
        "DEEPSEEK_API_KEY": "sk-test",
        "MAGG_LLM_BASE_URL": "https://example.com/v1",
    },
}
ASK_THE_MODEL = [
    ["ingest", str(Path(__file__).parents[1] / "magg_kg" / "curriculum" / "01-math-linear-algebra.md")],
    ["demo"],
    ["recheck"],
    ["reconsider"],
    ["discover"],
    ["serve", "--port", "0"],
]


@pytest.mark.parametrize("settings", WRONG_MODEL_SETTINGS.values(), ids=WRONG_MODEL_SETTINGS.keys())
@pytest.mark.parametrize("command", ASK_THE_MODEL, ids=" ".join)
def test_a_command_that_asks_the_model_refuses_a_wrong_setting_before_it_creates_or_migrates_anything(
    command: list[str],
    settings: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # `magg demo` made the database, and `magg ingest` migrated a schema-1 file to schema 4, then
    # said the key was missing (a wrong MAGG_POLICY already stopped them before).
    monkeypatch.chdir(tmp_path)
    for name, value in settings.items():
        monkeypatch.setenv(name, value)
    path = _schema_1_file(tmp_path / "old.sqlite")
    before = path.read_bytes()

    code, out, err = magg([*command, "--db", str(path)], capsys)

    assert (code, out) == (2, "") and err.count("\n") == 1 and err.startswith("error: MAGG_LLM")
    assert path.read_bytes() == before
    new = tmp_path / "new.sqlite"
    assert magg([*command, "--db", str(new)], capsys)[0] == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


def test_ask_refuses_a_wrong_model_setting_before_it_reads_the_graph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Said 5 to 8 s late on a large graph: after reading it.
    path = tmp_path / "g.sqlite"
    store = SQLiteStore.open(path)
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"), CHAIN)
    store.close()
    monkeypatch.setenv("MAGG_LLM", "deepseek")
    read: list[str] = []

    def read_graph(*args: object) -> NoReturn:
        read.append("graph")
        raise AssertionError("the graph was read before the model's settings were checked")

    monkeypatch.setattr(ask, "read_graph", read_graph)

    code, out, err = magg(["ask", "What comes before attention?", "--db", str(path)], capsys)

    assert (code, out) == (2, "") and err.startswith("error: MAGG_LLM=deepseek needs DEEPSEEK_API_KEY")
    assert read == []


def test_init_migrates_an_older_schema_then_reads_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _schema_1_file(tmp_path / "old.sqlite")

    assert magg(["init", "--db", str(path)], capsys)[0] == 0

    assert _schema(path)[1] == [(version, name.removesuffix(".sql")) for version, name, _ in migrations()]
    code, out, _ = magg(["export", "--db", str(path)], capsys)
    assert code == 0 and '"a"' in out


def test_a_store_closed_beside_another_leaves_nothing_in_the_wal_file(tmp_path: Path) -> None:
    # The -wal file belongs to the path: frames a writer left there while `magg serve` held the
    # database open were read with a backup copied over it, and written into it when serve stopped.
    from magg_kg.clock import StepClock
    from tests.gates.world import CHAIN, seed

    db = tmp_path / "g.sqlite"
    held = SQLiteStore.open(db)
    held.schema_version()
    writer = SQLiteStore.open(db)
    seed(writer, StepClock("2026-01-01T00:00:00.000000Z"), CHAIN)
    assert (tmp_path / "g.sqlite-wal").stat().st_size > 0
    writer.close()
    assert (tmp_path / "g.sqlite-wal").stat().st_size == 0
    held.close()
    with closing(sqlite3.connect(db)) as connection:
        assert connection.execute("SELECT count(*) FROM concept_edges").fetchone()[0] == len(CHAIN)


def test_closing_a_store_whose_file_cannot_be_read_any_more_raises_nothing(tmp_path: Path) -> None:
    # Leaving WAL mode reads the file: a file overwritten meanwhile ("file is not a database",
    # "malformed") made the close a traceback, in place of the one line the command's reads gave.
    db = tmp_path / "g.sqlite"
    store = SQLiteStore.open(db)
    store.schema_version()
    with db.open("r+b") as file:
        file.write(b"no longer a database".ljust(100, b"!"))
    store.close()
    with pytest.raises(sqlite3.ProgrammingError):  # closed all the same
        store._db.execute("SELECT 1")


@pytest.mark.parametrize("done", ["close", "settle"])
def test_a_store_whose_file_was_replaced_leaves_the_new_ones_log_alone(tmp_path: Path, done: str) -> None:
    # Leaving WAL mode checkpoints and deletes the -wal file of the path: a store of a file deleted
    # (or moved away) under it, as `magg serve`'s, took with it what another process had just
    # written to the new file at the path, which then read as having no table.
    db = tmp_path / "g.sqlite"
    old = SQLiteStore.open(db)
    old.schema_version()
    db.unlink()
    holder = "\n".join(
        [
            "import sqlite3, sys",
            "c = sqlite3.connect(sys.argv[1], isolation_level=None)",
            "c.execute('PRAGMA journal_mode = WAL'); c.execute('PRAGMA wal_autocheckpoint = 0')",
            "c.execute('CREATE TABLE t(x)'); c.execute('INSERT INTO t VALUES (1)')",
            "print('written', flush=True); sys.stdin.readline()",
        ]
    )
    with subprocess.Popen(
        [sys.executable, "-c", holder, str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as new:
        assert new.stdout is not None and new.stdin is not None
        assert new.stdout.readline().strip() == "written"  # in the -wal file, held open
        getattr(old, done)()  # settle: a checkpoint, which would copy the new file's log into the old
        read = (
            "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT x FROM t').fetchall())"
        )
        seen = subprocess.run([sys.executable, "-c", read, str(db)], capture_output=True, text=True)
        new.stdin.write("\n")
    old.close()
    assert seen.stdout.strip() == "[(1,)]", seen.stderr


def _older_file(path: Path, version: int) -> Path:
    """A database of schema ``version`` (the first migrations only) holding the lesson, concepts
    and two active edges of the gate tests' world."""
    from magg_kg.clock import StepClock
    from tests.gates.world import CHAIN, seed

    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.row_factory = sqlite3.Row
        for _, _, sql in migrations()[:version]:
            db.executescript(sql)
        seed(SQLiteStore(db, str(path)), StepClock("2026-01-01T00:00:00.000000Z"), CHAIN)
    return path


DECISIONS_ON_AN_ID = [
    ["review", "approve", "p-nosuch", "--reviewer", "ann"],
    ["review", "reject", "p-nosuch", "--reviewer", "ann", "--reason", "wrong"],
    ["review", "invalidate", "e-nosuch", "--reviewer", "ann", "--reason", "wrong"],
    ["review", "restore", "e-nosuch", "--reviewer", "ann", "--reason", "right"],
    ["review", "withdraw", "no-such-lesson", "--reviewer", "ann", "--reason", "gone"],
    ["review", "reinstate", "no-such-lesson", "--reviewer", "ann", "--reason", "back"],
]


@pytest.mark.parametrize("version", [2, 3])
@pytest.mark.parametrize("command", DECISIONS_ON_AN_ID, ids=lambda command: " ".join(command[:2]))
def test_a_decision_on_an_unknown_id_leaves_an_older_schema_as_it_was(
    command: list[str], version: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The file was migrated on opening, before the id was looked up: the command failed, and had
    # written (a migration no one asked for, on a file an older magg may still use).
    path = _older_file(tmp_path / "old.sqlite", version)
    before = path.read_bytes()

    code, out, err = magg([*command, "--db", str(path)], capsys)

    assert (code, out) == (2, "") and err.startswith("error: ") and err.count("\n") == 1
    assert _schema(path)[1][-1][0] == version
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["old.sqlite"]


def test_a_decision_on_an_older_schema_migrates_it_with_the_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from magg_kg.ids import edge_id

    path = _older_file(tmp_path / "old.sqlite", 2)
    edge = edge_id("linear-algebra", "prerequisite", "neural-network")

    code, out, err = magg(
        ["review", "invalidate", edge, "--reviewer", "ann", "--reason", "wrong", "--db", str(path)], capsys
    )

    assert code == 0 and out.startswith(f"invalidated {edge}"), err
    assert _schema(path)[1] == [(version, name.removesuffix(".sql")) for version, name, _ in migrations()]
    with closing(sqlite3.connect(path)) as db:
        active = db.execute("SELECT count(*) FROM concept_edges WHERE status = 'active'").fetchone()[0]
    assert active == 1


def _written(path: Path) -> Path:
    """A database of this schema that a writer (a store in WAL mode) wrote and closed."""
    from magg_kg.clock import StepClock
    from tests.gates.world import CHAIN, seed

    store = SQLiteStore.open(path)
    seed(store, StepClock("2026-01-01T00:00:00.000000Z"), CHAIN)
    store.close()
    return path


@pytest.mark.parametrize("command", OLDER_SCHEMA_READS, ids=" ".join)
def test_a_command_that_reads_leaves_the_file_byte_for_byte_as_it_was(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every store switched the file to WAL mode on opening and back on closing: two writes to the
    # header (its change counter twice) by a command that only reads.
    monkeypatch.chdir(tmp_path)
    path = _written(tmp_path / "g.sqlite")
    before = path.read_bytes()
    assert before[18:20] == b"\x01\x01"  # at rest in rollback-journal mode

    code, _, err = magg([*command, "--db", str(path)], capsys)

    nothing_there = command[:2] in (["review", "show"], ["model", "claims"])  # no such proposal here
    assert code == (2 if nothing_there else 0), err  # it read the graph
    assert path.read_bytes()[:100] == before[:100]
    assert path.read_bytes() == before
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith("g.sqlite-")]


def test_a_store_that_reads_and_closes_last_puts_the_file_back_in_rollback_journal_mode(
    tmp_path: Path,
) -> None:
    path = _written(tmp_path / "g.sqlite")
    reader = SQLiteStore.open(path, upgrade=False, write_late=True)
    writer = SQLiteStore.open(path)  # sets WAL mode
    assert path.read_bytes()[18:20] == b"\x02\x02"
    assert len(reader.concepts()) == len(writer.concepts()) > 0  # the reader now reads the WAL
    writer.close()  # cannot leave WAL mode while the reader holds the log
    assert path.read_bytes()[18:20] == b"\x02\x02"
    reader.close()
    assert path.read_bytes()[18:20] == b"\x01\x01"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.sqlite"]
