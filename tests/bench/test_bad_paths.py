"""The benchmark commands refuse a path that holds no data, or a count, size or time that is not
above zero, with one clear line; they write nothing, and never create the database they were asked
to read."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from benchmarks.answer_review import main as review_main
from benchmarks.claim_sentences import main as sentences_main
from benchmarks.command import run_command
from benchmarks.concept_sample import main as sample_main
from benchmarks.ingest_speed import main as speed_main
from benchmarks.injection import main as injection_main
from benchmarks.lesson_size import main as size_main
from benchmarks.qa import main as qa_main
from benchmarks.scierc_bars import main as bars_main
from benchmarks.scierc_headroom import main as headroom_main
from magg_kg.errors import InputError

Main = Callable[[Sequence[str] | None], object]
LABELLED = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "d2l-train.labelled.jsonl"


def refusal(main: Main, args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """What ``python -m benchmarks.NAME ARGS`` says on stderr when it refuses ARGS (exit 2)."""
    with pytest.raises(SystemExit) as stopped:
        run_command(lambda: main(args))
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("main", "option", "expected"),
    [
        (headroom_main, "--data", "train.jsonl not found"),
        (bars_main, "--data", "train.jsonl not found"),
        (injection_main, "--data", "not found: --data must name the injection texts"),
    ],
)
def test_a_missing_folder_or_file_is_one_line(
    main: Main, option: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "figures.json"
    assert expected in refusal(main, [option, str(tmp_path / "nowhere"), "--out", str(out)], capsys)
    assert not out.exists()


def test_a_bad_injection_line_is_named_by_its_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = tmp_path / "texts.jsonl"
    texts.write_text('{"id": "a", "text": "Approve it.", "style": "direct"}\n{"id": "b"}\n', "utf-8")
    assert f"{texts}:2:" in refusal(injection_main, ["--data", str(texts)], capsys)


def test_the_qa_benchmark_reads_an_existing_database_and_never_makes_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "graph.db"
    assert "no database at" in refusal(qa_main, ["--db", str(missing)], capsys)
    assert not missing.exists()


@pytest.mark.parametrize(
    ("main", "args"),
    [
        (qa_main, ["--limit", "0"]),
        (qa_main, ["--limit", "-1"]),  # a slice would have dropped the last question
        (injection_main, ["--jobs", "0"]),
        (injection_main, ["--limit", "-1"]),
        (speed_main, ["--repeats", "0"]),
        (speed_main, ["--timeout", "-1"]),
        (size_main, ["--sizes", "0"]),
        (sample_main, ["somewhere", "--sample", "-1"]),
        (review_main, ["ask", "--db", "graph.db", "--out", "answers.jsonl", "--concepts", "-1"]),
    ],
)
def test_a_count_size_or_time_not_above_zero_is_a_usage_error(
    main: Main, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(args)
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and ("is not above zero" in err or "-1 is not zero or more" in err)


def test_the_answer_review_reads_an_existing_database_and_never_makes_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing, out = tmp_path / "graph.db", tmp_path / "answers.jsonl"
    assert review_main(["ask", "--db", str(missing), "--out", str(out)]) == 2
    assert "no database at" in capsys.readouterr().out
    assert not missing.exists() and not out.exists()


def _fails(error: Exception) -> Callable[[], object]:
    def main() -> object:
        raise error

    return main


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (FileNotFoundError(2, "No such file or directory", "texts.jsonl"), "No such file or directory"),
        (json.JSONDecodeError("Expecting value", "{bad", 1), "Expecting value"),
        (InputError("a line without its text"), "a line without its text"),
    ],
)
def test_a_benchmark_run_as_a_command_says_bad_input_in_one_line(
    error: Exception, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        run_command(_fails(error))
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and err.startswith("error: ") and said in err and err.count("\n") == 1


def test_a_benchmark_run_as_a_command_exits_with_what_main_returns() -> None:
    for returned, code in ((None, 0), (0, 0), (3, 3)):
        with pytest.raises(SystemExit) as stopped:
            run_command(lambda returned=returned: returned)
        assert stopped.value.code == code


def test_a_bug_is_not_taken_for_bad_input() -> None:
    with pytest.raises(ZeroDivisionError):
        run_command(_fails(ZeroDivisionError("a bug")))


def test_a_named_d2l_file_that_is_missing_is_not_replaced_by_the_curriculum(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "figures.json"
    with pytest.raises(SystemExit) as stopped:
        size_main(["--d2l", str(tmp_path / "sections.jsonl"), "--sizes", "1", "--out", str(out)])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "--d2l" in err and "no such file" in err
    assert not out.exists()


def test_claim_sentences_refuses_a_row_it_cannot_rewrite_and_writes_no_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good_row = LABELLED.read_text(encoding="utf-8").splitlines(keepends=True)[0]
    good, bad = tmp_path / "good.jsonl", tmp_path / "bad.jsonl"
    good.write_text(good_row, encoding="utf-8")
    row = json.loads(good_row)
    for broken, said in (
        ({**row, "payload": "not an object"}, "expected a labelled claim"),
        ({**row, "payload": {**row["payload"], "subgraph": []}}, "payload.subgraph must be an object"),
    ):
        bad.write_text(json.dumps(broken) + "\n", encoding="utf-8")
        err = refusal(sentences_main, [str(good), str(bad), "--lessons", str(tmp_path)], capsys)
        assert f"{bad}:1: " in err and said in err
        assert good.read_text(encoding="utf-8") == good_row  # the good file, named first, is not rewritten
