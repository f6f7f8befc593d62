"""``--out`` of the benchmarks: a path that cannot be written is refused before the run (exit 2,
nothing run, nothing written), and results that still cannot be written at the end are printed."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from rich.console import Console

from magg_kg.cli.context import emit_report
from magg_kg.errors import UserError
from tests.cli import magg

COMMANDS = {
    "qa": ["bench", "qa", "--per-type", "1"],
    "replay": ["bench", "replay", "-c", "flat"],
    "perf": ["bench", "perf", "--quick"],
    "scierc": ["bench", "scierc", "--limit", "1"],
}


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("where", ["under a file", "a folder"])
def test_an_unwritable_out_is_refused_before_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, where: str
) -> None:
    file = tmp_path / "x.txt"
    file.write_text("keep me\n", encoding="utf-8")
    out = file / "y.json" if where == "under a file" else tmp_path
    code, stdout, err = magg([*COMMANDS[command], "--out", str(out)], capsys)
    assert (code, stdout) == (2, ""), err
    assert len(err.splitlines()) == 1 and err.startswith(f"error: --out {out}"), err
    assert file.read_text("utf-8") == "keep me\n" and sorted(tmp_path.iterdir()) == [file]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_an_out_in_a_folder_without_permission_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    code, stdout, err = magg([*COMMANDS["perf"], "--out", str(locked / "perf.json")], capsys)
    assert (code, stdout) == (2, "") and "permission" in err


@pytest.mark.parametrize("as_json", [True, False])
def test_results_that_cannot_be_written_at_the_end_are_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    blocker = tmp_path / "x.txt"
    blocker.write_text("", encoding="utf-8")  # made a file after the check, before the write
    report = {"benchmark": "test", "figure": 0.5}

    def show(report: object, console: Console) -> None:
        console.print("the table")

    with pytest.raises(UserError, match=f"cannot write the results to {blocker / 'r.json'}"):
        emit_report(report, blocker / "r.json", as_json, show)
    assert json.loads(capsys.readouterr().out) == report
