"""Bad input as a person gives it: a clear line and an exit code, never a traceback, nothing lost.

Each case here was found by trying the command line as a new user would (a spend cap of -1, a
damaged database file, a full disk under the output, a lesson in German, a question with terminal
escapes in it), and each failed before its fix: a traceback, a lesson recorded as ingested with
nothing of it read, a damaged file reported sound.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli import magg

CURRICULUM = Path(__file__).resolve().parent.parent / "magg_kg" / "curriculum"
LESSON = "02-math-calculus-gradients.md"


def _lesson(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir(exist_ok=True)
    shutil.copy(CURRICULUM / LESSON, folder / LESSON)
    return folder


def _lessons_in(db: Path) -> int:
    with sqlite3.connect(db) as connection:
        return int(connection.execute("SELECT COUNT(*) FROM lessons").fetchone()[0])


@pytest.mark.parametrize(
    ("option", "value", "said"),
    [
        ("--max-calls", "-1", "'--max-calls'"),
        ("--max-tokens", "-5", "'--max-tokens'"),
        ("--max-bytes", "0", "'--max-bytes'"),
    ],
)
def test_a_negative_budget_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, said: str
) -> None:
    db = tmp_path / "g.sqlite"
    code, _, err = magg(["ingest", str(_lesson(tmp_path)), "--db", str(db), option, value], capsys)
    assert code == 2 and said in err and "Traceback" not in err
    assert not db.exists()


def test_a_lesson_the_spend_cap_cut_short_is_not_recorded_and_the_next_run_reads_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, folder = tmp_path / "g.sqlite", _lesson(tmp_path)
    code, _, err = magg(["ingest", str(folder), "--db", str(db), "--max-calls", "0"], capsys)
    assert code == 1 and "nothing of it written" in err and "run `magg ingest` again" in err
    assert _lessons_in(db) == 0
    code, out, _ = magg(["ingest", str(folder), "--db", str(db), "--json"], capsys)
    assert code == 0 and '"new": 1' in out.replace("\n", "").replace("  ", " ")
    assert _lessons_in(db) == 1


def test_a_damaged_database_file_fails_verification(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    assert magg(["ingest", str(_lesson(tmp_path)), "--db", str(db)], capsys)[0] == 0
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0
    with db.open("r+b") as file:  # bytes over the pages past the first few: tables and indexes
        size = file.seek(0, os.SEEK_END)
        file.seek(size // 2)
        file.write(b"\xde\xad\xbe\xef" * 1024)
    code, _, err = magg(["audit", "verify", "--db", str(db)], capsys)
    assert code == 1 and "broken: " in err and "Traceback" not in err


def test_an_empty_labelled_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "labels.jsonl"
    empty.write_text("", encoding="utf-8")
    code, _, err = magg(["model", "evaluate", str(empty)], capsys)
    assert code == 2 and "holds no labelled claim" in err


def test_a_lesson_that_gives_nothing_is_said_to(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    german = tmp_path / "de.md"
    german.write_text(
        "# Einführung\n\nDas neuronale Netz lernt aus Daten. Der Gradientenabstieg minimiert den Verlust.\n",
        encoding="utf-8",
    )
    code, _, err = magg(["ingest", str(german), "--db", str(tmp_path / "g.sqlite")], capsys)
    assert code == 0 and "no new concept and no relation came out of it" in err
    assert "English prose only" in err


def test_control_characters_of_a_question_reach_neither_the_answer_nor_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    assert magg(["ingest", str(_lesson(tmp_path)), "--db", str(db)], capsys)[0] == 0
    code, out, err = magg(["ask", "--db", str(db), "what is \x01\x1b[31m gradient descent?"], capsys)
    assert code == 0 and out.strip()
    assert "\x1b" not in out + err and "\x01" not in out + err


def test_a_malformed_worker_url_is_a_configuration_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAGG_STORE", "d1")
    monkeypatch.setenv("MAGG_D1_URL", "notaurl")
    monkeypatch.setenv("MAGG_D1_TOKEN", "x")
    code, _, err = magg(["ask", "what is x?"], capsys)
    assert code == 2 and "MAGG_D1_URL='notaurl': not an http(s) URL" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full, a device that is always full")
@pytest.mark.parametrize("args", [["--version"], ["export", "--db", "DB"]])
def test_output_to_a_full_disk_is_one_line_and_exit_1(tmp_path: Path, args: list[str]) -> None:
    db = tmp_path / "g.sqlite"
    if "DB" in args:
        setup = [sys.executable, "-m", "magg_kg.cli", "ingest", str(_lesson(tmp_path)), "--db", str(db)]
        subprocess.run(setup, check=True, capture_output=True, timeout=300)
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "magg_kg.cli", *(str(db) if a == "DB" else a for a in args)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=300,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == "error: cannot write the output: No space left on device"
