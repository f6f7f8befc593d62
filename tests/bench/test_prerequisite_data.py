"""LectureBank (LB2) and AL-CPL folders for the replay: loading, refusals, the concept split."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from governance.evaluation.prerequisite_data import concept_split, layout_of, load_alcpl, load_lecturebank
from magg_kg.errors import InputError

TOPICS = ["syntax", "parsing", "cky parsing", "semantics", "word sense", "tagging", "hmm", "viterbi"]
EDGES = [(1, 2), (2, 3), (1, 4), (4, 5), (6, 7), (7, 8), (6, 8)]


def write_csv(path: Path, header: list[str], rows: list[list[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)


def lecturebank(folder: Path, edges: list[tuple[int, int]] = EDGES) -> Path:
    write_csv(folder / "lb2_topics.csv", ["topic_id", "topic"], [[i, t] for i, t in enumerate(TOPICS, 1)])
    write_csv(
        folder / "lb2_prerequisite_edges.csv",
        ["source_id", "source", "target_id", "target"],
        [[a, TOPICS[a - 1], b, TOPICS[b - 1]] for a, b in edges],
    )
    return folder


def alcpl(folder: Path, extra: list[list[object]] | None = None) -> Path:
    concepts = ["Mean", "Variance", "K-means", "DBSCAN", "Naive_Bayes", "Bayes_theorem"]
    write_csv(folder / "dm_concepts.csv", ["concept_wikipedia_title"], [[c] for c in concepts])
    pairs: list[list[object]] = [
        ["Mean", "Variance", 1],
        ["Variance", "Mean", 0],
        ["Mean", "K-means", 1],
        ["K-means", "Mean", 0],
        ["Bayes_theorem", "Naive_Bayes", 1],
        ["Naive_Bayes", "Bayes_theorem", 0],
        ["DBSCAN", "Variance", 0],
        ["Mean", "DBSCAN", 1],
        ["Variance", "K-means", 1],
    ]
    write_csv(
        folder / "dm_pairs.csv", ["source_prerequisite", "target", "is_prerequisite"], pairs + (extra or [])
    )
    return folder


def test_layouts_are_told_apart(tmp_path: Path) -> None:
    assert layout_of(lecturebank(tmp_path / "lb")) == "lecturebank"
    assert layout_of(alcpl(tmp_path / "al")) == "al-cpl"
    assert layout_of(tmp_path) == "metacademy"


def test_the_concept_split_never_puts_a_candidate_between_two_established_concepts(tmp_path: Path) -> None:
    for dataset, pairs in (
        load_lecturebank(lecturebank(tmp_path / "lb")),
        load_alcpl(alcpl(tmp_path / "al")),
    ):
        built = concept_split(dataset, pairs, 7)
        established = {c for e in built.established for c in (e.src, e.dst)}
        assert built.candidates  # the precondition: something to check
        for c in built.candidates:
            assert not (c.src in established and c.dst in established)
        gold = {(e.src, e.dst) for e in dataset.gold}
        assert all((c.src, c.dst) in gold for c in built.candidates if c.label == 1)
        assert all((c.src, c.dst) not in gold for c in built.candidates if c.label == 0)
        assert built == concept_split(dataset, pairs, 7)  # seeded


def test_alcpl_negatives_are_its_labelled_pairs(tmp_path: Path) -> None:
    dataset, pairs = load_alcpl(alcpl(tmp_path))
    built = concept_split(dataset, pairs, 3)
    negatives = {(c.src, c.dst, c.kind) for c in built.candidates if c.label == 0}
    labelled = {(a, b) for a, b, label in pairs if label == 0}
    assert negatives and {(a, b) for a, b, _ in negatives} <= labelled
    assert all(
        kind == ("reversed" if (b, a) in {(x, y) for x, y, lab in pairs if lab} else "negative")
        for a, b, kind in negatives
    )


def test_bad_folders_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="'Entropy' is not a concept of dm_concepts"):
        load_alcpl(alcpl(tmp_path / "a", [["Entropy", "Mean", 1]]))
    with pytest.raises(InputError, match="is_prerequisite must be 0 or 1"):
        load_alcpl(alcpl(tmp_path / "b", [["Mean", "DBSCAN", "yes"]]))
    folder = lecturebank(tmp_path / "c")
    write_csv(
        folder / "lb2_prerequisite_edges.csv",
        ["source_id", "source", "target_id", "target"],
        [[1, "x", 99, "y"]],
    )
    with pytest.raises(InputError, match="target_id '99' is not a topic"):
        load_lecturebank(folder)
    with pytest.raises(InputError, match="no prerequisite edges"):
        load_lecturebank(lecturebank(tmp_path / "d", []))


def test_a_csv_that_is_not_utf8_is_refused_naming_the_file_and_byte(tmp_path: Path) -> None:
    folder = alcpl(tmp_path / "al")
    with (folder / "dm_pairs.csv").open("ab") as handle:
        handle.write(b"Mean,Caf\xe9,1\n")
    with pytest.raises(InputError, match=r"dm_pairs.csv is not UTF-8 text \(byte \d+\): save it as UTF-8"):
        load_alcpl(folder)
    folder = lecturebank(tmp_path / "lb")
    with (folder / "lb2_topics.csv").open("ab") as handle:
        handle.write(b"999,caf\xe9\n")
    with pytest.raises(InputError, match=r"lb2_topics\.csv is not UTF-8 text"):
        load_lecturebank(folder)


def test_a_csv_with_a_utf8_bom_is_read(tmp_path: Path) -> None:
    folder = alcpl(tmp_path / "al")
    plain = load_alcpl(folder)
    for path in folder.glob("*.csv"):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_alcpl(folder) == plain
    folder = lecturebank(tmp_path / "lb")
    plain = load_lecturebank(folder)
    for path in folder.glob("*.csv"):
        path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    assert load_lecturebank(folder) == plain


def test_an_empty_concept_title_is_refused_naming_its_line(tmp_path: Path) -> None:
    folder = alcpl(tmp_path)
    with (folder / "dm_concepts.csv").open("a", encoding="utf-8") as handle:
        handle.write('""\n')
    with pytest.raises(InputError, match=r"dm_concepts.csv:8: empty concept_wikipedia_title"):
        load_alcpl(folder)


def test_a_pair_labelled_both_1_and_0_is_refused_naming_both_lines(tmp_path: Path) -> None:
    folder = alcpl(tmp_path, [["Mean", "Variance", 0]])  # line 2 labels it 1
    with pytest.raises(
        InputError, match=r"dm_pairs.csv:11: pair Mean -> Variance labelled 1 on line 2 and 0 here"
    ):
        load_alcpl(folder)
    load_alcpl(alcpl(tmp_path / "dup", [["Mean", "Variance", 1]]))  # a repeated pair with one label is fine


def test_a_folder_missing_one_of_its_files_is_told_by_the_other(tmp_path: Path) -> None:
    folder = alcpl(tmp_path / "al")
    (folder / "dm_pairs.csv").unlink()
    assert layout_of(folder) == "al-cpl"
    with pytest.raises(InputError, match=r"no <domain>_pairs\.csv"):
        load_alcpl(folder)
    folder = lecturebank(tmp_path / "lb")
    (folder / "lb2_topics.csv").unlink()
    assert layout_of(folder) == "lecturebank"
    with pytest.raises(InputError, match=r"lb2_topics\.csv not found"):
        load_lecturebank(folder)


@pytest.mark.parametrize(
    ("topics", "edges", "message"),
    [
        ([[9, ""]], [[9, "", 1, "syntax"]], r"lb2_topics.csv:10: topic '9' has an empty name"),
        ([[6, "something else"]], [], r"lb2_topics.csv:10: topic_id '6' already on line 7"),
        (
            [],
            [[1, "parsing", 2, "parsing"]],
            r"lb2_prerequisite_edges.csv:9: source 'parsing' is not topic 1",
        ),
    ],
)
def test_lecturebank_topics_that_contradict_each_other_are_refused(
    tmp_path: Path, topics: list[list[object]], edges: list[list[object]], message: str
) -> None:
    folder = lecturebank(tmp_path)
    for name, rows in (("lb2_topics.csv", topics), ("lb2_prerequisite_edges.csv", edges)):
        with (folder / name).open("a", encoding="utf-8", newline="") as handle:
            csv.writer(handle).writerows(rows)
    with pytest.raises(InputError, match=message):
        load_lecturebank(folder)
