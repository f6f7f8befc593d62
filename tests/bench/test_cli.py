"""`magg bench replay`: the table, the JSON, and a clear error for a missing data folder."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from magg_kg.cli.app import app
from magg_kg.errors import UserError

RUNNER = CliRunner()


def test_replay_prints_the_table_and_writes_json(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "results" / "replay.json"
    result = RUNNER.invoke(
        app, ["bench", "replay", "--data", str(data_dir), "-c", "flat", "-c", "rules", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "admission against the labels" in result.output
    assert "unknown_concept" in result.output and "rejection rate" in result.output
    written = json.loads(out.read_text("utf-8"))
    assert set(written["configurations"]) == {"flat", "rules"}
    assert written["candidates"] == sum(written["counts"].values())


def test_replay_json_goes_to_stdout(data_dir: Path) -> None:
    result = RUNNER.invoke(
        app,
        ["bench", "replay", "--data", str(data_dir), "-c", "flat", "--json", "--seed", "3", "--limit", "5"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["seed"] == 3 and report["candidates"] == 5
    assert report["configurations"]["flat"]["admitted"] == 5


def test_replay_evaluates_a_candidate_file(data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "mine.jsonl"
    path.write_text(
        json.dumps(
            {
                "src": "sorting",
                "dst": "nowhere",
                "type": "prerequisite",
                "evidence": ["x"],
                "label": 0,
                "kind": "unknown",
            }
        )
        + "\n",
        encoding="utf-8",
    )
    result = RUNNER.invoke(
        app, ["bench", "replay", "--data", str(data_dir), "--candidates", str(path), "-c", "rules", "--json"]
    )
    assert result.exit_code == 0, result.output
    rules = json.loads(result.stdout)["configurations"]["rules"]
    assert rules["by_kind"] == {
        "unknown": {"n": 1, "admitted": 0, "rejection_rate": 1.0, "outcomes": {"rules:rejected": 1}}
    }


def test_a_missing_data_folder_is_a_user_error_naming_the_flag(tmp_path: Path) -> None:
    result = RUNNER.invoke(app, ["bench", "replay", "--data", str(tmp_path / "absent"), "-c", "flat"])
    assert isinstance(result.exception, UserError)
    assert "--data" in str(result.exception)


def test_an_unknown_configuration_is_refused(data_dir: Path) -> None:
    result = RUNNER.invoke(app, ["bench", "replay", "--data", str(data_dir), "-c", "nope"])
    assert isinstance(result.exception, UserError)
    assert "flat, rules, judge, full" in str(result.exception)
