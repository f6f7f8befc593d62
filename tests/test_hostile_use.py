"""Hostile use of the command line, found by a second run of every command with bad input: an
output path that is the database, years before 1000, settings that no header or URL can carry.
Each case failed before its fix (a destroyed database with exit 0, a traceback)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from magg_kg.cli.app import app
from tests.cli import magg

CURRICULUM = Path(__file__).resolve().parent.parent / "magg_kg" / "curriculum"


@pytest.fixture(scope="module")
def ingested(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with one lesson ingested (read it; copy it to write)."""
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "lessons").mkdir()
    shutil.copy(CURRICULUM / "02-math-calculus-gradients.md", folder / "lessons")
    db = folder / "g.sqlite"
    done = CliRunner().invoke(app, ["ingest", str(folder / "lessons"), "--db", str(db)])
    assert done.exit_code == 0, done.output
    return db


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("side", ["", "-wal", "-journal"])
def test_a_report_is_never_written_over_a_database(
    ingested: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], side: str
) -> None:
    # `magg audit report --out magg.sqlite` replaced the database by Markdown, with exit 0.
    db = tmp_path / "g.sqlite"
    shutil.copy(ingested, db)
    out = tmp_path / f"g.sqlite{side}"
    if side:
        out.write_bytes(b"log")
    before = _digest(out)
    code, _, err = magg(["audit", "report", "--db", str(db), "--out", str(out)], capsys)
    assert code == 2 and f"--out {out} is a database, which writing would destroy" in err
    assert _digest(out) == before
    code, _, err = magg(["audit", "report", "--db", str(db), "--out", str(tmp_path / "r.md")], capsys)
    assert code == 0 and (tmp_path / "r.md").read_text(encoding="utf-8").startswith("# Audit report")


def test_a_benchmark_is_never_written_over_a_database(
    ingested: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other.sqlite"
    shutil.copy(ingested, other)
    before = _digest(other)
    code, _, err = magg(["bench", "qa", "--per-type", "1", "--out", str(other)], capsys)
    assert code == 2 and "is a database, which writing would destroy" in err
    assert _digest(other) == before


@pytest.mark.parametrize("when", ["0001-01-01", "0999-12-31", "0500-06-01T12:00:00Z"])
def test_a_year_before_1000_is_a_time_like_any_other(
    ingested: Path, capsys: pytest.CaptureFixture[str], when: str
) -> None:
    # The year lost its leading zeros ("1-01-01T00:00:00.000000Z"): a traceback on every command.
    code, out, err = magg(["export", "--db", str(ingested), "--as-of", when], capsys)
    assert code == 0 and "Traceback" not in err and "nothing had been recorded as of 0" in err
    assert '"edges": []' in out


def test_a_time_before_the_first_in_utc_is_said_to_be_one(
    ingested: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = magg(["coverage", "--db", str(ingested), "--as-of", "0001-01-01T00:00:00+01:00"], capsys)
    assert code == 2 and "is before the first time or after the last" in err
