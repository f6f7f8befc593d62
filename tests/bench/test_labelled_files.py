"""`magg model claims` and `magg model label`: the files a reader's labels are joined through."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli import magg


@pytest.fixture
def exported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Claims exported from a seeded graph, into a folder that did not exist."""
    db, lesson = tmp_path / "graph.sqlite", tmp_path / "calculus.md"
    lesson.write_text(
        "# Calculus\n\n**Calculus** is a prerequisite for **backpropagation**. Backpropagation "
        "requires the **chain rule**, and the chain rule is a part of calculus.\n",
        encoding="utf-8",
    )
    code, _, err = magg(["ingest", "--db", str(db), str(lesson)], capsys)
    assert code == 0, err
    prefix = tmp_path / "new" / "claims"
    code, _, err = magg(["model", "claims", "--db", str(db), "--out", str(prefix), "--n", "10"], capsys)
    assert code == 0, err
    return prefix


def test_claims_are_exported_into_a_new_folder_and_labels_join_them(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims = Path(f"{exported}.claims.jsonl")
    ids = [json.loads(line)["id"] for line in claims.read_text("utf-8").splitlines()]
    assert ids
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": ids[0], "verdict": "ACCEPT"}) + "\n", encoding="utf-8")
    out = tmp_path / "more" / "labelled.jsonl"
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(out)], capsys)
    assert code == 0, err
    [row] = [json.loads(line) for line in out.read_text("utf-8").splitlines()]
    assert row["id"] == ids[0] and row["label"] == 1 and {"payload", "data"} <= set(row)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"id": "p-1", "verdict": "ACCEPT"}\n{"id": \n', ":2: not JSON"),
        ('{"review_id": "r-0001", "verdict": "ACCEPT"}\n', ":1: no 'id'"),
        ('["p-1", "ACCEPT"]\n', ":1: expected a JSON object"),
    ],
    ids=["broken line", "a bench sample's labels", "not an object"],
)
def test_a_malformed_labels_file_is_named_with_its_line_and_nothing_is_written(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    labels = tmp_path / "labels.jsonl"
    labels.write_text(text, encoding="utf-8")
    out = tmp_path / "labelled.jsonl"
    code, _, err = magg(
        ["model", "label", f"{exported}.claims.jsonl", str(labels), "--out", str(out)], capsys
    )
    assert code == 2 and said in err and "Traceback" not in err
    assert not out.exists()


def _labels_of_the_first(exported: Path, tmp_path: Path, *verdicts: str) -> tuple[Path, Path, str]:
    """(the exported claims, a labels file giving the first claim each verdict in turn, its id)."""
    claims = Path(f"{exported}.claims.jsonl")
    first = json.loads(claims.read_text("utf-8").splitlines()[0])["id"]
    labels = tmp_path / "labels.jsonl"
    rows = [{"id": first, "verdict": verdict} for verdict in verdicts]
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return claims, labels, first


def test_labels_that_name_a_claim_twice_or_an_output_that_is_an_input_are_refused(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims, labels, _ = _labels_of_the_first(exported, tmp_path, "ACCEPT", "REJECT")
    out = tmp_path / "labelled.jsonl"
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(out)], capsys)
    assert code == 2 and ":2: id" in err and "labelled twice" in err and not out.exists()
    before = claims.read_bytes()
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(claims)], capsys)
    assert code == 2 and "one of the files read" in err and claims.read_bytes() == before


QUOTE = '[{"index": 0, "quote": "A and b."}]'


def _row(proposal: dict[str, object], data: str) -> str:
    return json.dumps({"payload": {"proposal": proposal}, "data": data, "label": 1}) + "\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"payload": {}, "data": "[]", "label": 1}\n', ":1: expected a labelled claim"),
        ("\n\nnot json\n", ":3: not JSON"),
        (_row({"src": 1, "type": "related", "dst": "b"}, "[]"), ":1: payload.proposal.src is not a name"),
        (_row({"src": "a", "type": "related", "dst": "b"}, "not json"), ":1: data is not JSON"),
        (_row({"src": "a", "type": "related", "dst": "b"}, '[{"index": 0}]'), ":1: data is not a list of"),
        (_row({"src": "a", "type": "related", "dst": "b"}, "[]"), ":1: data holds no evidence quote"),
        (
            _row({"src": "a", "type": "related", "dst": "b"}, QUOTE).replace('"label": 1', '"label": true'),
            ":1: expected",
        ),
        (
            _row({"src": "a", "type": "related", "dst": "b"}, QUOTE).replace('"label": 1', '"label": 1.0'),
            ":1: expected",
        ),
    ],
    ids=[
        "no proposal",
        "not JSON",
        "a number for a name",
        "data not JSON",
        "a quote without its text",
        "no quote",
        "label true",
        "label 1.0",
    ],
)
def test_a_malformed_labelled_claims_file_is_named_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    labelled = tmp_path / "claims.jsonl"
    labelled.write_text(text, encoding="utf-8")
    code, _, err = magg(["model", "evaluate", str(labelled)], capsys)
    assert code == 2 and said in err and "Traceback" not in err


def test_label_rows_that_cannot_be_used_are_refused_with_their_lines_and_nothing_is_written(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims = Path(f"{exported}.claims.jsonl")
    ids = [json.loads(line)["id"] for line in claims.read_text("utf-8").splitlines()]
    assert len(ids) >= 3
    labels = tmp_path / "labels.jsonl"
    rows = [
        {"id": ids[0], "verdict": "REJECT"},
        {"id": ids[1], "verdict": "ACCPET"},
        {"id": "p-0000000000000000", "verdict": "ACCEPT"},
        {"id": 7, "verdict": "ACCEPT"},
        {"id": ids[2]},
    ]
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    out = tmp_path / "labelled.jsonl"
    code, stdout, err = magg(["model", "label", str(claims), str(labels), "--out", str(out)], capsys)
    assert (code, stdout) == (2, "") and len(err.splitlines()) == 1, err
    assert err.startswith(f"error: {labels}: 4 of 5 label rows cannot be used (nothing written):"), err
    for said in (
        f"{labels}:2: verdict 'ACCPET'",
        f"{labels}:3: id 'p-0000000000000000' is not among the claims",
        f"{labels}:4: id 7",
    ):
        assert said in err
    assert f"{labels}:5" not in err and "and 1 more" in err  # the first three, then how many more
    assert not out.exists()


def test_labels_of_another_export_are_refused_naming_the_first_ids(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims = Path(f"{exported}.claims.jsonl")
    labels = tmp_path / "labels.jsonl"
    rows = [{"id": f"p-{n:016x}", "verdict": "ACCEPT"} for n in range(6)]
    labels.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    out = tmp_path / "labelled.jsonl"
    out.write_text("a reader's earlier work\n", encoding="utf-8")
    code, stdout, err = magg(
        ["model", "label", str(claims), str(labels), "--out", str(out), "--force"], capsys
    )
    assert (code, stdout) == (2, "") and len(err.splitlines()) == 1, err
    assert "6 of 6 label rows cannot be used" in err and "'p-0000000000000000'" in err and "and 3 more" in err
    assert out.read_text("utf-8") == "a reader's earlier work\n"


def test_labels_of_which_no_row_can_be_used_are_refused_and_nothing_is_written(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims = Path(f"{exported}.claims.jsonl")
    out = tmp_path / "labelled.jsonl"
    # The claims file given as the labels: every row has an id, none a verdict.
    code, stdout, err = magg(["model", "label", str(claims), str(claims), "--out", str(out)], capsys)
    assert (code, stdout) == (2, "") and len(err.splitlines()) == 1, err
    assert "label rows cannot be used" in err and f"{claims}:1: no verdict" in err
    assert not out.exists()


def test_claims_refuse_a_folder_an_overwrite_and_an_empty_database(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "graph.sqlite"
    folder = tmp_path / "mc"
    folder.mkdir()
    for out in (str(folder), f"{folder}/"):  # a prefix that names a folder wrote mc.claims.jsonl beside it
        code, _, err = magg(["model", "claims", "--db", str(db), "--out", out], capsys)
        assert code == 2 and "folder" in err
    assert list(folder.iterdir()) == [] and not (tmp_path / "mc.claims.jsonl").exists()
    before = Path(f"{exported}.claims.jsonl").read_text("utf-8")
    code, _, err = magg(["model", "claims", "--db", str(db), "--out", str(exported), "--n", "1"], capsys)
    assert code == 2 and "--force" in err and Path(f"{exported}.claims.jsonl").read_text("utf-8") == before
    code, _, _ = magg(
        ["model", "claims", "--db", str(db), "--out", str(exported), "--n", "1", "--force"], capsys
    )
    assert code == 0 and len(Path(f"{exported}.claims.jsonl").read_text("utf-8").splitlines()) == 1
    empty = tmp_path / "empty.sqlite"
    assert magg(["init", "--db", str(empty)], capsys)[0] == 0
    code, _, err = magg(["model", "claims", "--db", str(empty), "--out", str(tmp_path / "none")], capsys)
    assert code == 2 and "no proposal" in err and not Path(f"{tmp_path / 'none'}.claims.jsonl").exists()


def test_label_refuses_to_overwrite_a_labelled_file_without_force(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims, labels, first = _labels_of_the_first(exported, tmp_path, "ACCEPT")
    out = tmp_path / "labelled.jsonl"
    out.write_text("a reader's earlier work\n", encoding="utf-8")
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(out)], capsys)
    assert code == 2 and "already exists: pass --force" in err
    assert out.read_text("utf-8") == "a reader's earlier work\n"
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(out), "--force"], capsys)
    assert code == 0, err
    assert json.loads(out.read_text("utf-8"))["id"] == first


def test_an_out_under_a_file_or_a_folder_is_said_to_be_one(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims, labels, _ = _labels_of_the_first(exported, tmp_path, "ACCEPT")
    a_file = tmp_path / "a-file"
    a_file.write_text("x\n", encoding="utf-8")
    args = ["model", "claims", "--db", str(tmp_path / "graph.sqlite"), "--out", str(a_file / "claims")]
    code, _, err = magg(args, capsys)
    assert code == 2 and f"{a_file} is a file, not a folder" in err, err
    folder = tmp_path / "c"
    folder.mkdir()
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(folder)], capsys)
    assert code == 2 and f"--out {folder} is a folder" in err, err


def test_label_says_how_many_claims_are_left_without_a_label(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claims, labels, _ = _labels_of_the_first(exported, tmp_path, "REJECT")
    total = len(claims.read_text("utf-8").splitlines())
    assert total >= 2
    out = tmp_path / "labelled.jsonl"
    code, _, err = magg(["model", "label", str(claims), str(labels), "--out", str(out)], capsys)
    assert code == 0 and f"note: {total - 1} of {total} claims of {claims} have no label" in err, err


def test_label_names_what_is_wrong_with_its_files(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A folder given as the labels was "no such file"; an empty claims file blamed every label row.
    claims, out = Path(f"{exported}.claims.jsonl"), tmp_path / "labelled.jsonl"
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"id": "p-1", "verdict": "ACCEPT"}) + "\n", encoding="utf-8")
    code, _, err = magg(["model", "label", str(claims), str(tmp_path), "--out", str(out)], capsys)
    assert code == 2 and "is no regular file" in err, err
    empty = tmp_path / "empty.claims.jsonl"
    empty.write_text("", encoding="utf-8")
    code, _, err = magg(["model", "label", str(empty), str(labels), "--out", str(out)], capsys)
    assert code == 2 and "holds no claim" in err and "label rows" not in err, err
    assert not out.exists()


def test_claims_read_the_database_every_command_reads(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--db` was required (`$MAGG_DB` ignored), and under MAGG_STORE=d1 a `--db` read the local file.
    db = tmp_path / "graph.sqlite"
    monkeypatch.setenv("MAGG_DB", str(db))
    code, out, err = magg(["model", "claims", "--out", str(tmp_path / "env"), "--n", "1"], capsys)
    assert code == 0 and out.startswith("1 claims:"), err
    assert Path(f"{tmp_path / 'env'}.claims.jsonl").read_text("utf-8").count("\n") == 1
    monkeypatch.setenv("MAGG_STORE", "d1")
    monkeypatch.setenv("MAGG_D1_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("MAGG_D1_TOKEN", "secret")
    code, out, err = magg(["model", "claims", "--db", str(db), "--out", str(tmp_path / "d1")], capsys)
    assert (code, out) == (2, "") and "names a SQLite file, but MAGG_STORE=d1" in err, err
    assert err.count("\n") == 1 and not Path(f"{tmp_path / 'd1'}.claims.jsonl").exists()
