"""``magg model build``'s inputs are checked before anything is built or written: a missing labels
file, a data folder without the files a model reads, labelled claims that cannot train the lessons
model (none, or of one class) are one line and exit 2, and the --out folder is left as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.bench.conftest import write_dataset
from tests.cli import magg

LABELLED = Path(__file__).resolve().parent.parent / "benchmarks" / "data" / "d2l-train.labelled.jsonl"


def _data(tmp_path: Path) -> Path:
    """A development data folder with every file the four models read (the Metacademy part tiny)."""
    folder = tmp_path / "data"
    write_dataset(folder / "metacademy")
    (folder / "metacademy" / "resource_catalog.jsonl").write_text("", encoding="utf-8")
    (folder / "d2l-lessons").mkdir()
    (folder / "d2l-lessons" / "sections.jsonl").write_text("", encoding="utf-8")
    return folder


def _claims(tmp_path: Path, accepted: int, rejected: int) -> Path:
    """The first labelled lesson claims of each class from the kept training file."""
    rows = [json.loads(line) for line in LABELLED.read_text("utf-8").splitlines()]
    chosen = [row for row in rows if row["label"] == 1][:accepted]
    chosen += [row for row in rows if row["label"] == 0][:rejected]
    assert len(chosen) == accepted + rejected  # the precondition: the file holds that many
    path = tmp_path / f"labels-{accepted}-{rejected}.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in chosen), encoding="utf-8")
    return path


def _refused(args: list[str], out: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, _, err = magg(["model", "build", *args, "--out", str(out)], capsys)
    assert code == 2 and len(err.splitlines()) == 1 and err.startswith("error: "), err
    assert not out.exists()  # nothing created, nothing written
    return err


def test_a_missing_labels_file_is_refused_before_any_model_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    err = _refused(["--data", str(_data(tmp_path)), "--labels", str(missing)], tmp_path / "out", capsys)
    assert str(missing) in err


@pytest.mark.parametrize("only", ["all", "terms", "injection", "judgment"])
def test_a_data_folder_without_the_models_files_is_refused_naming_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], only: str
) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    err = _refused(["--only", only, "--data", str(empty)], tmp_path / "out", capsys)
    assert str(empty) in err and ("d2l-lessons" in err or "metacademy" in err)
    assert "No such file" not in err
    err = _refused(["--only", only, "--data", str(tmp_path / "absent")], tmp_path / "out", capsys)
    assert str(tmp_path / "absent") in err


def test_broken_metacademy_data_is_refused_before_any_model_is_built(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _data(tmp_path)
    (data / "metacademy" / "concepts.jsonl").write_text("{not json\n", encoding="utf-8")
    err = _refused(["--data", str(data), "--labels", str(_claims(tmp_path, 3, 3))], tmp_path / "out", capsys)
    assert "concepts.jsonl:1" in err


@pytest.mark.parametrize(
    ("accepted", "rejected", "said"),
    [
        (5, 0, "5 acceptable, 0 rejected"),
        (0, 4, "0 acceptable, 4 rejected"),
        (0, 0, "0 acceptable, 0 rejected"),
    ],
    ids=["all acceptable", "all rejected", "empty"],
)
def test_labels_that_cannot_train_the_lessons_model_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], accepted: int, rejected: int, said: str
) -> None:
    labels = _claims(tmp_path, accepted, rejected)
    args = ["--only", "judgment", "--data", str(_data(tmp_path)), "--labels", str(labels)]
    err = _refused(args, tmp_path / "out", capsys)
    assert str(labels) in err and "both acceptable and rejected" in err and said in err


def test_labels_too_few_to_cross_validate_are_refused_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = _claims(tmp_path, 1, 1)
    args = ["--only", "judgment", "--data", str(_data(tmp_path)), "--labels", str(labels)]
    err = _refused(args, tmp_path / "out", capsys)
    assert "too few" in err and "Traceback" not in err


@pytest.mark.parametrize(
    ("only", "broken", "text"),
    [
        ("terms", "metacademy/concepts.jsonl", "{not json\n"),
        ("injection", "d2l-lessons/sections.jsonl", '{"no text": 1}\n'),
        ("terms", "d2l-lessons/sections.jsonl", "\udcff"),
    ],
)
def test_a_malformed_file_of_another_model_is_one_line_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], only: str, broken: str, text: str
) -> None:
    data = _data(tmp_path)
    (data / broken).write_bytes(text.encode("utf-8", "surrogateescape"))
    err = _refused(["--only", only, "--data", str(data)], tmp_path / "out", capsys)
    assert str(data) in err and "malformed" in err and "nothing was written" in err


def test_labels_given_to_a_build_without_the_judgment_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothere.jsonl"
    args = ["--only", "questions", "--data", str(_data(tmp_path)), "--labels", str(missing)]
    err = _refused(args, tmp_path / "out", capsys)
    assert "--labels is read by the judgment model only" in err


def test_a_lessons_model_learned_from_few_claims_is_warned_rough(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = _claims(tmp_path, 20, 20)
    args = ["model", "build", "--only", "judgment", "--data", str(_data(tmp_path)), "--labels", str(labels)]
    code, _, err = magg([*args, "--out", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert "warning: the lessons model learned from" in err and "its figures below are rough" in err


def test_an_out_folder_that_cannot_be_written_is_refused_before_any_model_is_trained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It was found only when the files were moved there, after training (minutes for the judgment).
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    code, out, err = magg(["model", "build", "--only", "questions", "--out", str(blocker / "models")], capsys)
    assert code == 2 and "cannot write there" in err and "nothing was built" in err, err
    assert out == ""  # no model's figures: nothing was trained


STATEMENTS = LABELLED.parent / "metacademy.statements.jsonl"


def _statements(tmp_path: Path, accepted: int, rejected: int, implicit: int = 0) -> Path:
    """Labelled statements of each class from the kept file, and ``implicit`` co-mention claims."""
    rows = [json.loads(line) for line in STATEMENTS.read_text("utf-8").splitlines()]
    chosen = [row for row in rows if row["label"] == 1][:accepted]
    chosen += [row for row in rows if row["label"] == 0][:rejected]
    others = [json.loads(line) for line in LABELLED.read_text("utf-8").splitlines()]
    chosen += [row for row in others if '"kind": "implicit"' in row["data"]][:implicit]
    assert len(chosen) == accepted + rejected + implicit
    path = tmp_path / f"statements-{accepted}-{rejected}-{implicit}.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in chosen), encoding="utf-8")
    return path


def test_a_statements_file_holding_a_claim_no_lesson_states_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    statements = _statements(tmp_path, 10, 10, implicit=1)
    args = ["--only", "judgment", "--data", str(_data(tmp_path)), "--statements", str(statements)]
    err = _refused(args, tmp_path / "out", capsys)
    assert str(statements) in err and "claim 21" in err and "statements only" in err


def test_statements_of_one_label_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    statements = _statements(tmp_path, 0, 6)
    args = ["--only", "judgment", "--data", str(_data(tmp_path)), "--statements", str(statements)]
    err = _refused(args, tmp_path / "out", capsys)
    assert "both acceptable and rejected lesson statements" in err and "0 acceptable, 6 rejected" in err


def test_statements_given_to_a_build_without_the_judgment_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--only", "terms", "--data", str(_data(tmp_path)), "--statements", str(tmp_path / "no.jsonl")]
    err = _refused(args, tmp_path / "out", capsys)
    assert "--statements is read by the judgment model only" in err


def test_the_statements_model_is_built_from_the_statements_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    statements = _statements(tmp_path, 30, 12)
    args = ["model", "build", "--only", "judgment", "--data", str(_data(tmp_path)), "--json"]
    code, out, err = magg([*args, "--statements", str(statements), "--out", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert json.loads(out)["statements"]["examples"] == 42
    built = json.loads((tmp_path / "out" / "judgment.json").read_text("utf-8"))
    assert built["statements"]["version"] == "judgment-statements"
