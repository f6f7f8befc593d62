"""`magg bench sample` and `magg bench score`: the blind review of admitted edges, end to end."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from magg_kg.blind import OUTCOMES, shorten_quote
from magg_kg.blind_scores import wilson_interval
from magg_kg.clock import StepClock
from magg_kg.ids import edge_id, make_id
from magg_kg.journal import journaled
from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.gates.world import invalidated, seed

EDGES = [
    (
        "linear-algebra",
        "prerequisite",
        "neural-network",
        "Linear algebra is a prerequisite for neural networks.",
    ),
    ("neural-network", "prerequisite", "transformer", "Neural networks are a prerequisite for transformers."),
    ("calculus", "prerequisite", "backpropagation", "Calculus is a prerequisite for backpropagation."),
    ("transformer", "builds_on", "attention", "Transformers build on attention."),
    ("attention", "related", "transformer", "Attention is related to transformers."),
    (
        "backpropagation",
        "prerequisite",
        "linear-algebra",
        "Backpropagation is a prerequisite for linear algebra.",
    ),
]
T0 = "2026-01-01T00:00:00.000000Z"


def invalidate(store: SQLiteStore, src: str, type_: str, dst: str) -> None:
    """Closes the seeded version of one edge (as a recheck would)."""
    now = "2026-02-01T00:00:00.000000Z"
    seeded = store.active_edge(src, type_, dst)
    assert seeded is not None
    ops = invalidated(seeded.version_id, "test", now)
    store.write(Batch.of(make_id("batch", "test", seeded.version_id), now, journaled(ops, now)))


@pytest.fixture
def dbs(tmp_path: Path) -> tuple[Path, Path]:
    """governed.sqlite: four active edges and one invalidated; flat.sqlite: six active edges."""
    governed, flat = tmp_path / "governed.sqlite", tmp_path / "flat.sqlite"
    for path, edges in ((governed, EDGES[:5]), (flat, EDGES)):
        store = SQLiteStore.open(path)
        seed(store, StepClock(T0), edges)
        if path == governed:
            invalidate(store, *EDGES[4][:3])
        assert len(store.edges()) == (4 if path == governed else 6)
        store.close()
    return governed, flat


def lines(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_sample_writes_blind_rows_a_labels_template_and_a_key(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    governed, flat = dbs
    prefix = tmp_path / "out" / "batch1"
    code, out, err = magg(
        ["bench", "sample", "--n", "5", "--out", str(prefix), str(governed), str(flat)], capsys
    )
    assert code == 0, err
    assert err == f"note: {governed} has 4 active edges, fewer than --n 5: all 4 taken\n"
    assert out.splitlines()[0] == f"sampled 9 active edges (seed 7): {governed} 4 of 4, {flat} 5 of 6"

    blind_text = (tmp_path / "out" / "batch1.blind.jsonl").read_text("utf-8")
    assert "governed" not in blind_text and "flat" not in blind_text and str(tmp_path) not in blind_text
    rows = lines(tmp_path / "out" / "batch1.blind.jsonl")
    ids = [f"r-{number:04d}" for number in range(1, 10)]
    assert [row["review_id"] for row in rows] == ids
    key = json.loads((tmp_path / "out" / "batch1.key.json").read_text("utf-8"))
    assert all(set(row) == {"review_id", "src", "type", "dst", "quote", "sample"} for row in rows)
    assert {row["sample"] for row in rows} == {key["sample"]}
    first = next(row for row in rows if row["src"] == "Linear algebra")
    assert first["dst"] == "neural network" and first["quote"] == EDGES[0][3]

    labels = lines(tmp_path / "out" / "batch1.labels.jsonl")
    assert labels == [
        {
            "review_id": id_,
            "src_ok": None,
            "dst_ok": None,
            "verdict": None,
            "why": "",
            "sample": key["sample"],
        }
        for id_ in ids
    ]
    assert sorted(key["reviews"]) == ids
    assert key["databases"] == [
        {"db": str(governed), "active_edges": 4, "drawn": 4},
        {"db": str(flat), "active_edges": 6, "drawn": 5},
    ]
    from_governed = {entry["edge_id"] for entry in key["reviews"].values() if entry["db"] == str(governed)}
    assert from_governed == {edge_id(*edge[:3]) for edge in EDGES[:4]}  # the invalidated edge is not drawn
    mixed = [id_ for id_, entry in key["reviews"].items() if entry["db"] == str(governed)]
    assert mixed != ids[:4] and mixed != ids[-4:]  # shuffled, not one database after the other
    for id_, row in zip(ids, rows, strict=True):
        assert key["reviews"][id_]["type"] == row["type"]


def _sampled(
    dbs: tuple[Path, Path], prefix: Path, n: int, seed_: int, capsys: pytest.CaptureFixture[str]
) -> Path:
    """``magg bench sample --n N --seed S --out PREFIX`` over ``dbs``; PREFIX."""
    args = ["bench", "sample", "--n", str(n), "--seed", str(seed_), "--out", str(prefix), *map(str, dbs)]
    assert magg(args, capsys)[0] == 0
    return prefix


def test_the_seed_makes_the_sample_reproducible(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def draw(seed_: int, name: str) -> tuple[str, str]:
        prefix = _sampled(dbs, tmp_path / name, 2, seed_, capsys)
        blind = Path(f"{prefix}.blind.jsonl").read_text("utf-8")
        return blind, Path(f"{prefix}.key.json").read_text("utf-8")

    assert draw(3, "a") == draw(3, "b")
    assert len({draw(seed_, f"s{seed_}") for seed_ in range(1, 6)}) > 1


def test_a_long_quote_is_collapsed_and_cut() -> None:
    assert shorten_quote("a \n\t b") == "a b"
    cut = shorten_quote("word " * 200)
    assert len(cut) == 400 and cut.endswith("…")


def label(id_: str, src_ok: bool, dst_ok: bool, verdict: str) -> str:
    return json.dumps({"review_id": id_, "src_ok": src_ok, "dst_ok": dst_ok, "verdict": verdict, "why": ""})


@pytest.fixture
def sampled(dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Every active edge of both databases, sampled under the prefix it returns."""
    prefix = tmp_path / "all"
    assert magg(["bench", "sample", "--n", "10", "--out", str(prefix), *map(str, dbs)], capsys)[0] == 0
    return prefix


def fill(prefix: Path, dbs: tuple[Path, Path], leave_out: int = 0) -> Path:
    """Labels by hand: governed accepts all but builds_on (its dst not genuine); flat accepts only
    the prerequisites out of linear algebra and calculus, and its cycle-closing edge has a bad src."""
    governed, _ = dbs
    key = json.loads(Path(f"{prefix}.key.json").read_text("utf-8"))["reviews"]
    written = []
    for id_, entry in key.items():
        if entry["db"] == str(governed):
            ok = entry["type"] != "builds_on"
            written.append(label(id_, True, ok, "ACCEPT" if ok else "REJECT"))
        elif entry["edge_id"] in {edge_id(*EDGES[0][:3]), edge_id(*EDGES[2][:3])}:
            written.append(label(id_, True, True, "ACCEPT"))
        else:
            src_ok = entry["edge_id"] != edge_id(*EDGES[5][:3])
            written.append(label(id_, src_ok, True, "REJECT"))
    path = prefix.with_name("filled.jsonl")
    path.write_text("\n".join(written[leave_out:]) + "\n", encoding="utf-8")
    return path


def rate(count: int, n: int) -> dict[str, object]:
    low, high = wilson_interval(count, n)
    return {"count": count, "n": n, "rate": round(count / n, 4), "low": round(low, 4), "high": round(high, 4)}


def test_score_computes_exact_rates(
    dbs: tuple[Path, Path], sampled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    governed, flat = dbs
    code, out, err = magg(["bench", "score", str(sampled), str(fill(sampled, dbs)), "--json"], capsys)
    assert code == 0 and err == ""
    report = json.loads(out)
    assert (report["reviews"], report["labelled"], report["unlabelled"]) == (10, 10, [])
    mine, theirs = report["databases"][str(governed)], report["databases"][str(flat)]
    assert mine["acceptance"] == rate(3, 4) and mine["genuine_endpoints"] == rate(3, 4)
    assert theirs["acceptance"] == rate(2, 6) and theirs["genuine_endpoints"] == rate(5, 6)
    assert mine["by_type"]["builds_on"]["acceptance"] == rate(0, 1)
    assert theirs["by_type"]["prerequisite"]["acceptance"] == rate(2, 4)
    assert theirs["by_type"]["prerequisite"]["genuine_endpoints"] == rate(3, 4)
    assert rate(3, 4) == {"count": 3, "n": 4, "rate": 0.75, "low": 0.3006, "high": 0.9544}

    code, out, _ = magg(["bench", "score", str(sampled), str(fill(sampled, dbs))], capsys)
    assert code == 0
    assert out.splitlines()[:4] == [
        "blind review: 10 of 10 reviews labelled; rates with 95% Wilson intervals",
        str(governed),
        "  type          N  acceptance                genuine endpoints",
        "  all           4  3/4  75.0% [30.1, 95.4]   3/4  75.0% [30.1, 95.4]",
    ]
    assert "  prerequisite  4  2/4  50.0% [15.0, 85.0]   3/4  75.0% [30.1, 95.4]" in out.splitlines()


def test_missing_labels_are_named_and_left_out(
    dbs: tuple[Path, Path], sampled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = magg(
        ["bench", "score", str(sampled), str(fill(sampled, dbs, leave_out=2)), "--json"], capsys
    )
    assert code == 0
    assert err == "warning: 2 of 10 reviews unlabelled, scored without them: r-0001, r-0002\n"
    report = json.loads(out)
    assert report["labelled"] == 8 and report["unlabelled"] == ["r-0001", "r-0002"]
    assert sum(db["labelled"] for db in report["databases"].values()) == 8


def refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    code, out, err = magg(args, capsys)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err
    return err


def test_sample_refuses_to_overwrite_without_force(
    dbs: tuple[Path, Path], sampled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["bench", "sample", "--n", "1", "--out", str(sampled), *map(str, dbs)]
    assert "pass --force" in refused(args, capsys)
    assert len(lines(Path(f"{sampled}.blind.jsonl"))) == 10  # untouched
    assert magg([*args, "--force"], capsys)[0] == 0
    assert len(lines(Path(f"{sampled}.blind.jsonl"))) == 2


def test_a_mistyped_database_is_refused_and_not_created(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    typo = tmp_path / "govrned.sqlite"
    err = refused(
        ["bench", "sample", "--n", "1", "--out", str(tmp_path / "x"), str(typo), str(dbs[1])], capsys
    )
    assert str(typo) in err
    assert not typo.exists() and not list(tmp_path.glob("x.*"))
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    assert "empty" in refused(
        ["bench", "sample", "--n", "1", "--out", str(tmp_path / "x"), str(empty)], capsys
    )
    other = tmp_path / "other.sqlite"  # an SQLite file that is not magg's
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    err = refused(["bench", "sample", "--n", "1", "--out", str(tmp_path / "x"), str(other)], capsys)
    assert "not a magg database" in err and "--db" not in err and "magg ingest" in err


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ({"review_id": "r-9999", "src_ok": True, "dst_ok": True, "verdict": "ACCEPT"}, "r-9999"),
        ({"review_id": "r-0001", "src_ok": True, "dst_ok": True, "verdict": "maybe"}, "'ACCEPT' or 'REJECT'"),
        ({"review_id": "r-0001", "src_ok": "yes", "dst_ok": True, "verdict": "REJECT"}, "src_ok"),
        ({"review_id": "r-0001", "src_ok": True, "dst_ok": None, "verdict": "REJECT"}, "partly filled"),
        ({"review_id": "r-0001", "src_ok": False, "dst_ok": True, "verdict": "ACCEPT"}, "ACCEPT needs"),
        ({"review_id": "r-0001", "src_ok": True, "dst_ok": True, "verdict": "ACCEPT", "x": 1}, "x"),
    ],
)
def test_bad_labels_are_refused_naming_the_review(
    sampled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], line: dict[str, object], says: str
) -> None:
    labels = tmp_path / "bad.jsonl"
    labels.write_text(json.dumps(line) + "\n", encoding="utf-8")
    err = refused(["bench", "score", str(sampled), str(labels)], capsys)
    assert says in err and str(line["review_id"]) in err


def test_duplicate_and_absent_labels_are_refused(
    sampled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    labels = tmp_path / "twice.jsonl"
    labels.write_text(
        label("r-0003", True, True, "ACCEPT") + "\n" + label("r-0003", True, True, "REJECT") + "\n"
    )
    assert "r-0003" in refused(["bench", "score", str(sampled), str(labels)], capsys)
    blank = Path(f"{sampled}.labels.jsonl")
    assert "no review is labelled" in refused(["bench", "score", str(sampled), str(blank)], capsys)
    assert "no key" in refused(["bench", "score", str(tmp_path / "nope"), str(blank)], capsys)


@pytest.mark.parametrize("which", ["labels", "key"])
def test_a_file_that_is_not_utf8_is_refused_naming_it(
    sampled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], which: str
) -> None:
    labels, key = Path(f"{sampled}.labels.jsonl"), Path(f"{sampled}.key.json")
    bad = labels if which == "labels" else key
    bad.write_bytes(b'{"review_id": "r-0001", "why": "caf\xe9"}\n')
    err = refused(["bench", "score", str(sampled), str(labels)], capsys)
    assert f"{bad} is not UTF-8 text" in err


def test_labels_of_another_sample_are_refused_naming_both(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def draw(name: str, seed_: int) -> tuple[Path, str]:
        prefix = _sampled(dbs, tmp_path / name, 3, seed_, capsys)
        key = json.loads(Path(f"{prefix}.key.json").read_text("utf-8"))
        assert all(row["sample"] == key["sample"] for row in lines(Path(f"{prefix}.blind.jsonl")))
        return prefix, str(key["sample"])

    (a, mark_a), (b, mark_b) = draw("a", 1), draw("b", 2)
    assert mark_a != mark_b and len(mark_a) == 12
    filled = tmp_path / "b-filled.jsonl"  # the reader fills B's template, the fields it was given kept
    rows = lines(Path(f"{b}.labels.jsonl"))
    assert rows and all(row["sample"] == mark_b for row in rows)
    filled.write_text(
        "".join(
            json.dumps(row | {"src_ok": True, "dst_ok": True, "verdict": "ACCEPT"}) + "\n" for row in rows
        ),
        encoding="utf-8",
    )
    assert magg(["bench", "score", str(b), str(filled)], capsys)[0] == 0
    err = refused(["bench", "score", str(a), str(filled)], capsys)
    assert mark_a in err and mark_b in err

    # A key and labels written before samples had a fingerprint are still scored (with no check).
    key = Path(f"{a}.key.json")
    old = json.loads(key.read_text("utf-8"))
    del old["sample"]
    key.write_text(json.dumps(old), encoding="utf-8")
    unmarked = tmp_path / "a-filled.jsonl"
    unmarked.write_text(
        "".join(label(id_, True, True, "ACCEPT") + "\n" for id_ in old["reviews"]), encoding="utf-8"
    )
    code, out, err = magg(["bench", "score", str(a), str(unmarked), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["labelled"] == len(old["reviews"])


@pytest.mark.parametrize(
    "edit",
    [
        lambda key: key["reviews"]["r-0001"].update(db="other.sqlite"),
        lambda key: key.update(databases=key["databases"][:1]),
        lambda key: key.update(unit="proposals"),
        lambda key: key.update(n=-3),
        lambda key: key.update(sample="0" * 12),
    ],
)
def test_a_key_edited_after_sampling_is_refused(
    sampled: Path, capsys: pytest.CaptureFixture[str], edit: Callable[[dict[str, Any]], None]
) -> None:
    key_path, labels = Path(f"{sampled}.key.json"), Path(f"{sampled}.labels.jsonl")
    filled = [row | {"src_ok": True, "dst_ok": True, "verdict": "ACCEPT"} for row in lines(labels)]
    labels.write_text("".join(json.dumps(row) + "\n" for row in filled), encoding="utf-8")
    assert magg(["bench", "score", str(sampled), str(labels)], capsys)[0] == 0  # the key as written
    key = json.loads(key_path.read_text("utf-8"))
    edit(key)
    key_path.write_text(json.dumps(key), encoding="utf-8")
    err = refused(["bench", "score", str(sampled), str(labels)], capsys)
    assert f"{key_path} was edited after sampling" in err


def test_a_sample_that_cannot_be_written_whole_leaves_no_file(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    Path(f"{tmp_path / 'hw' / 'p'}.key.json").mkdir(parents=True)  # stands for any failure writing the key
    code, _, err = magg(
        ["bench", "sample", "--n", "3", "--force", "--out", str(tmp_path / "hw" / "p"), *map(str, dbs)],
        capsys,
    )
    assert code != 0 and err.startswith("error: ")
    assert sorted(path.name for path in (tmp_path / "hw").iterdir()) == ["p.key.json"]


CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
LESSONS = (
    "01-math-linear-algebra.md",
    "02-math-calculus-gradients.md",
    "05-math-optimization-gradient-descent.md",
)


def test_a_sample_of_proposals_keeps_every_outcome_and_scores_the_share_of_the_acceptable_admitted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, prefix = tmp_path / "governed.sqlite", tmp_path / "p"
    code, _, err = magg(["ingest", *(str(CURRICULUM / name) for name in LESSONS), "--db", str(db)], capsys)
    assert code == 0, err
    code, out, _ = magg(
        ["bench", "sample", "--proposals", "--n", "1000", "--out", str(prefix), str(db)], capsys
    )
    assert code == 0 and " proposed edges (seed 7)" in out
    store = SQLiteStore.open(db, read_only=True)
    active = {edge.edge_id: edge.version_id for edge in store.edges()}
    proposed = {edge_id(p.src, p.type, p.dst) for p in store.proposals()}
    store.close()

    key = json.loads((tmp_path / "p.key.json").read_text("utf-8"))
    reviews = key["reviews"]
    assert key["unit"] == "proposals" and len(reviews) == len(proposed)  # each proposed edge once
    assert {review["edge_id"] for review in reviews.values()} == proposed
    for review in reviews.values():
        assert (review["outcome"] == "admitted") == (review["edge_id"] in active)
        assert review["version_id"] == active.get(review["edge_id"], "")
    outcomes = {outcome: [i for i, r in reviews.items() if r["outcome"] == outcome] for outcome in OUTCOMES}
    assert all(outcomes.values())  # the lessons leave edges of every outcome
    assert all(
        set(row) == {"review_id", "src", "type", "dst", "quote", "sample"}
        for row in lines(prefix.with_name("p.blind.jsonl"))
    )

    # Every admitted edge acceptable, every other open one, no rejected one.
    liked = set(outcomes["admitted"]) | set(outcomes["open"][::2])
    labels = tmp_path / "filled.jsonl"
    labels.write_text(
        "".join(
            json.dumps(
                {
                    "review_id": i,
                    "src_ok": True,
                    "dst_ok": True,
                    "verdict": "ACCEPT" if i in liked else "REJECT",
                    "sample": key["sample"],
                }
            )
            + "\n"
            for i in reviews
        ),
        encoding="utf-8",
    )
    code, out, err = magg(["bench", "score", str(prefix), str(labels), "--json"], capsys)
    assert code == 0 and err == ""
    scored = json.loads(out)["databases"][str(db)]
    admitted, open_, rejected = (len(outcomes[o]) for o in OUTCOMES)
    assert scored["acceptable_admitted"] == rate(admitted, len(liked))
    assert scored["by_outcome"]["admitted"]["acceptance"] == rate(admitted, admitted)
    assert scored["by_outcome"]["open"]["acceptance"] == rate(len(outcomes["open"][::2]), open_)
    assert scored["by_outcome"]["rejected"]["acceptance"] == rate(0, rejected)
    code, out, _ = magg(["bench", "score", str(prefix), str(labels)], capsys)
    assert f"  acceptable edges admitted: {admitted}/{len(liked)} " in out


def test_a_database_given_twice_under_a_hard_link_is_refused(
    dbs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    governed = dbs[0]
    linked = tmp_path / "linked.sqlite"
    linked.hardlink_to(governed)
    err = refused(
        ["bench", "sample", "--n", "1", "--out", str(tmp_path / "x"), str(governed), str(linked)], capsys
    )
    assert f"database {linked} is given twice (as {governed})" in err


def test_sample_under_the_d1_store_says_it_read_the_files_given(
    dbs: tuple[Path, Path],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The files are what is compared; with MAGG_STORE=d1 it read them without a word, as if D1 were
    # ignored (`coverage --db` is refused there).
    def sample(name: str) -> tuple[int, str, str]:
        return magg(["bench", "sample", "--n", "2", "--out", str(tmp_path / name), *map(str, dbs)], capsys)

    code, _, err = sample("s")
    assert code == 0 and "MAGG_STORE" not in err
    monkeypatch.setenv("MAGG_STORE", "d1")
    monkeypatch.setenv("MAGG_D1_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("MAGG_D1_TOKEN", "secret")
    code, out, err = sample("d")
    assert code == 0 and out.startswith("sampled 4 active edges"), err
    assert (
        "note: MAGG_STORE=d1 is not read here: the SQLite files given were sampled, not D1 at "
        "http://127.0.0.1:9\n" in err
    )


def test_the_help_of_n_says_what_is_drawn_with_proposals(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # "--n: Active edges drawn from each database", also when --proposals draws proposed ones.
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = magg(["bench", "sample", "--help"], capsys)
    [line] = [line for line in out.splitlines() if "--n " in line]
    assert code == 0 and "proposed ones with --proposals" in line


def test_score_reads_a_verdict_in_any_case_as_model_label_does(
    dbs: tuple[Path, Path], sampled: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # `magg model label` took "accept"; `bench score` refused it ("Input should be 'ACCEPT' or 'REJECT'").
    filled = fill(sampled, dbs)
    code, out, err = magg(["bench", "score", str(sampled), str(filled), "--json"], capsys)
    assert code == 0, err
    rows = [json.loads(line) for line in filled.read_text("utf-8").splitlines()]
    cases = (str.lower, str.title)
    lowered = filled.with_name("any-case.jsonl")
    lowered.write_text(
        "".join(
            json.dumps({**row, "verdict": cases[n % 2](row["verdict"])}) + "\n" for n, row in enumerate(rows)
        ),
        encoding="utf-8",
    )
    written = {json.loads(line)["verdict"] for line in lowered.read_text("utf-8").splitlines()}
    assert written - {"ACCEPT", "REJECT"}  # some verdicts are not in capitals
    code, again, err = magg(["bench", "score", str(sampled), str(lowered), "--json"], capsys)
    assert code == 0, err
    assert json.loads(again)["databases"] == json.loads(out)["databases"]
