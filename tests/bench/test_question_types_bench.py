"""``python -m benchmarks.question_types``: shares of questions whose type and concepts are read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.question_types import main, score_file

ROWS = [
    {"question": "What should I learn before calculus?", "type": "prerequisites", "concepts": ["calculus"]},
    {"question": "What comes after calculus?", "type": "unlocks", "concepts": ["calculus"]},
    # Labelled wrongly on purpose: a scorer that agreed with any label would pass it.
    {"question": "What comes after algebra?", "type": "prerequisites", "concepts": ["algebra"]},
]


def test_a_question_counts_when_its_type_and_concepts_are_read(tmp_path: Path) -> None:
    path = tmp_path / "q.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    scores = score_file(path)
    assert scores["all"] == {"n": 3, "type": round(2 / 3, 4), "exact": round(2 / 3, 4)}
    assert scores["prerequisites"]["exact"] == 0.5 and scores["unlocks"]["exact"] == 1.0


def test_the_command_prints_a_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, out = tmp_path / "q.jsonl", tmp_path / "out.json"
    path.write_text("".join(json.dumps(row) + "\n" for row in ROWS), encoding="utf-8")
    assert main([str(path), "--out", str(out)]) == 0
    assert "question types read" in capsys.readouterr().out
    assert json.loads(out.read_text("utf-8"))[str(path)]["all"]["n"] == 3
