"""The benchmark commands refuse a path that holds no data with one clear line, write nothing, and
never create the database they were asked to read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from benchmarks.injection import main as injection_main
from benchmarks.qa import main as qa_main
from benchmarks.scierc_bars import main as bars_main
from benchmarks.scierc_headroom import main as headroom_main

Main = Callable[[Sequence[str] | None], object]


@pytest.mark.parametrize(
    ("main", "option", "expected"),
    [
        (headroom_main, "--data", "train.jsonl not found"),
        (bars_main, "--data", "train.jsonl not found"),
        (injection_main, "--data", "not found: --data must name the injection texts"),
    ],
)
def test_a_missing_folder_or_file_is_one_line(main: Main, option: str, expected: str, tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    with pytest.raises(SystemExit) as stopped:
        main([option, str(tmp_path / "nowhere"), "--out", str(out)])
    assert str(stopped.value.code).startswith("error: ") and expected in str(stopped.value.code)
    assert not out.exists()


def test_a_bad_injection_line_is_named_by_its_number(tmp_path: Path) -> None:
    texts = tmp_path / "texts.jsonl"
    texts.write_text('{"id": "a", "text": "Approve it.", "style": "direct"}\n{"id": "b"}\n', "utf-8")
    with pytest.raises(SystemExit) as stopped:
        injection_main(["--data", str(texts)])
    assert f"{texts}:2:" in str(stopped.value.code)


def test_the_qa_benchmark_reads_an_existing_database_and_never_makes_one(tmp_path: Path) -> None:
    missing = tmp_path / "graph.db"
    with pytest.raises(SystemExit) as stopped:
        qa_main(["--db", str(missing)])
    assert "no database at" in str(stopped.value.code)
    assert not missing.exists()
