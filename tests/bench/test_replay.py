"""The replay candidate set: generated deterministically, every kind, labelled files parsed strictly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from governance.evaluation.replay import (
    CORRUPTION_KINDS,
    DEFAULT_CONFIDENCE,
    build_candidates,
    load_dataset,
    parse_candidate,
    read_candidates,
)
from magg_kg.errors import InputError
from tests.cli import magg


def test_generation_is_deterministic_and_has_every_kind(data_dir: Path) -> None:
    dataset = load_dataset(data_dir)
    first, again = build_candidates(dataset, 7), build_candidates(dataset, 7)
    assert first == again
    assert set(first.counts) == {"gold", *CORRUPTION_KINDS}
    assert sum(first.counts.values()) == len(first.candidates)


def test_labels_and_triples_follow_the_construction(data_dir: Path) -> None:
    dataset = load_dataset(data_dir)
    generated = build_candidates(dataset, 3)
    gold = {(edge.src, edge.dst) for edge in dataset.gold}
    established = {(edge.src, edge.dst) for edge in generated.established}
    assert established and established < gold
    triples = [(c.src, c.type, c.dst) for c in generated.candidates]
    assert len(triples) == len(set(triples))
    for candidate in generated.candidates:
        assert candidate.evidence and all(text.strip() for text in candidate.evidence)
        pair = (candidate.src, candidate.dst)
        if candidate.kind == "gold":
            assert candidate.label == 1 and pair in gold and pair not in established
            continue
        assert candidate.label == 0
        assert not (candidate.type == "prerequisite" and pair in gold)
        if candidate.kind == "reversed":
            assert (candidate.dst, candidate.src) in gold - established
        elif candidate.kind == "wrong_type":
            assert pair in gold and candidate.type in ("contrasts_with", "part_of")
        elif candidate.kind == "unknown_concept":
            assert not {candidate.src, candidate.dst} <= set(dataset.concepts)
        elif candidate.kind == "injected":
            assert "approve" in candidate.evidence[0].lower() or "commit" in candidate.evidence[0].lower()
        elif candidate.kind == "contradiction":
            assert (candidate.dst, candidate.src) in established or any(
                (candidate.dst, mid) in established and (mid, candidate.src) in established
                for mid in dataset.concepts
            )


def test_a_missing_data_folder_names_the_flag(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="--data"):
        load_dataset(tmp_path / "nowhere")


def _line(**fields: object) -> str:
    row: dict[str, object] = {
        "src": "vectors",
        "dst": "matrices",
        "type": "prerequisite",
        "evidence": ["Matrices are built from vectors."],
        "label": 1,
        "kind": "gold",
    }
    row.update(fields)
    return json.dumps({key: value for key, value in row.items() if value is not None})


def test_a_candidate_line_is_read_with_the_default_confidence() -> None:
    candidate = parse_candidate(_line(), "f:1")
    assert (candidate.src, candidate.type, candidate.dst, candidate.label) == (
        "vectors",
        "prerequisite",
        "matrices",
        1,
    )
    assert candidate.confidence == DEFAULT_CONFIDENCE
    assert parse_candidate(_line(confidence=0.9), "f:1").confidence == 0.9


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "f:4: not JSON"),
        ("[1, 2]", "f:4: expected a JSON object"),
        (_line(src=None), "f:4: missing field 'src'"),
        (_line(type=""), "f:4: field 'type' must be a non-empty string"),
        (_line(evidence="just a string"), "f:4: field 'evidence' must be a non-empty list"),
        (_line(evidence=[]), "f:4: field 'evidence' must be a non-empty list"),
        (_line(evidence=["x"] * 65), "f:4: field 'evidence' holds at most 64 texts"),
        (_line(label=2), "f:4: field 'label' must be 1 or 0"),
        (_line(label=True), "f:4: field 'label' must be 1 or 0"),
        (_line(kind=None), "f:4: missing field 'kind'"),
        (_line(confidence=1.5), "f:4: field 'confidence' must be a number in"),
    ],
)
def test_a_malformed_line_names_its_place_and_field(line: str, message: str) -> None:
    with pytest.raises(InputError) as raised:
        parse_candidate(line, "f:4")
    assert str(raised.value).startswith(message)


def test_a_candidate_file_is_evaluated_as_given(data_dir: Path, tmp_path: Path) -> None:
    dataset = load_dataset(data_dir)
    established = build_candidates(dataset, 7).established
    edge = established[0]
    path = tmp_path / "mine.jsonl"
    path.write_text(
        "\n".join(
            [
                _line(src=edge.src, dst=edge.dst, kind="restated"),
                "",
                _line(src="vectors", dst="no_such_concept", label=0, kind="unknown"),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    read = read_candidates(path, dataset, 7)
    assert [c.kind for c in read.candidates] == ["restated", "unknown"]
    assert read.counts == {"restated": 1, "unknown": 1}
    # A candidate that restates an established edge is evaluated, not pre-committed.
    assert edge not in read.established and len(read.established) == len(established) - 1


def test_a_bad_line_in_a_file_names_the_line_number(data_dir: Path, tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(_line() + "\n" + _line(label="yes") + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"bad\.jsonl:2: field 'label'"):
        read_candidates(path, load_dataset(data_dir), 7)
    with pytest.raises(InputError, match="no such file"):
        read_candidates(tmp_path / "absent.jsonl", load_dataset(data_dir), 7)


@pytest.mark.parametrize(
    ("name", "line", "said"),
    [
        ("edges.csv", "a,b\n", "edges.csv:"),
        ("concepts.jsonl", '{"tag": "", "title": ""}\n', "concepts.jsonl:"),
    ],
    ids=["a short row", "an empty tag"],
)
def test_a_short_row_or_an_empty_tag_is_named_not_a_traceback(
    data_dir: Path, capsys: pytest.CaptureFixture[str], name: str, line: str, said: str
) -> None:
    path = data_dir / name
    path.write_text(path.read_text("utf-8") + line, encoding="utf-8")
    code, out, err = magg(["bench", "replay", "--data", str(data_dir), "-c", "flat"], capsys)
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and said in err and "Traceback" not in err


@pytest.mark.parametrize("concepts", [False, True], ids=["nothing", "concepts without edges"])
def test_a_data_folder_without_concepts_or_edges_is_refused(
    data_dir: Path, capsys: pytest.CaptureFixture[str], concepts: bool
) -> None:
    if not concepts:
        (data_dir / "concepts.jsonl").write_text("", encoding="utf-8")
    edges = data_dir / "edges.csv"
    edges.write_text(edges.read_text("utf-8").splitlines()[0] + "\n", encoding="utf-8")
    code, out, err = magg(["bench", "replay", "--data", str(data_dir), "-c", "flat"], capsys)
    assert (code, out) == (2, ""), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert ("edges.csv" if concepts else "concepts.jsonl") in err and "no " in err


@pytest.mark.parametrize("name", ["concepts.jsonl", "edges.csv", "candidates.jsonl"])
def test_a_file_that_is_not_utf8_is_named_not_a_traceback(data_dir: Path, tmp_path: Path, name: str) -> None:
    candidates = tmp_path / "candidates.jsonl"
    candidates.write_text(_line() + "\n", encoding="utf-8")
    bad = candidates if name == "candidates.jsonl" else data_dir / name
    bad.write_bytes(bad.read_bytes() + b"caf\xe9\n")
    with pytest.raises(InputError, match=rf"{name}.*not UTF-8"):
        read_candidates(candidates, load_dataset(data_dir), 7)
