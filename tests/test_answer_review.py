"""The blind review of two versions' answers: pairs of answers that differ, shown in random order,
and labels scored against the key the reviewer never sees."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.answer_review import ask, main, pair, score
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.clock import StepClock
from magg_kg.errors import UserError
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import seed


def _rows(answers: dict[str, str]) -> list[dict[str, object]]:
    return [{"question": q, "concept": "c", "answer": a} for q, a in answers.items()]


def test_only_answers_that_differ_are_paired_and_the_key_says_which_is_new() -> None:
    questions = [f"What is x{k}?" for k in range(40)]
    old = _rows({q: f"old {q}" for q in questions})
    new = _rows({q: (f"old {q}" if k % 4 == 0 else f"new {q}") for k, q in enumerate(questions)})
    blind, key = pair(old, new, 100, seed=7)
    assert len(blind) == len(key) == 30  # the ten unchanged answers are not shown
    assert [row["id"] for row in blind] == [f"a-{k:04d}" for k in range(1, 31)]
    for shown, kept in zip(blind, key, strict=True):
        assert shown["id"] == kept["id"] and "new" not in shown
        assert str(shown[f"answer_{kept['new']}"]).startswith("new ")
        assert str(shown[f"answer_{3 - int(str(kept['new']))}"]).startswith("old ")
    assert {kept["new"] for kept in key} == {1, 2}  # both orders are used
    assert len(pair(old, new, 5, seed=7)[0]) == 5
    assert pair(old, new, 100, seed=7) == pair(old, new, 100, seed=7)


def test_a_question_asked_twice_is_paired_with_the_same_asking() -> None:
    # Two graphs' answers put in one file: "What is weight decay?" asked of both. Matched by the
    # question alone, the new answer of one graph was paired with the old answer of the other.
    question = "What is weight decay?"
    old = [{"question": question, "answer": "d2l old"}, {"question": question, "answer": "demo"}]
    new = [{"question": question, "answer": "d2l new"}, {"question": question, "answer": "demo"}]
    blind, key = pair(old, new, 100, seed=7)
    assert len(blind) == 1  # the demo's answer did not change
    shown, kept = blind[0], key[0]
    assert (
        shown[f"answer_{kept['new']}"] == "d2l new"
        and shown[f"answer_{3 - int(str(kept['new']))}"] == "d2l old"
    )


def test_labels_are_scored_against_the_key_by_question_form() -> None:
    key = [
        {"id": "a-0001", "question": "What is x?", "new": 1},
        {"id": "a-0002", "question": "What is y?", "new": 2},
        {"id": "a-0003", "question": "How does x work?", "new": 2},
        {"id": "a-0004", "question": "Why is x important?", "new": 1},
    ]
    labels = [{"id": "a-0001", "better": 1}, {"id": "a-0002", "better": 1}, {"id": "a-0003", "better": "tie"}]
    figures = score(key, labels)
    assert figures["all"] == {"new": 1, "old": 1, "tie": 1, "unlabelled": 1}
    assert figures["What is"] == {"new": 1, "old": 1, "tie": 0, "unlabelled": 0}
    assert figures["Why is"]["unlabelled"] == 1
    with pytest.raises(UserError, match="a-0009"):
        score(key, [{"id": "a-0009", "better": 1}])


def test_the_three_steps_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "dropout.md").write_text(
        "# Dropout\n\nTheir idea, called *dropout*, involves injecting noise into each layer.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "g.sqlite", create=True) as ctx:
        run_ingest(ctx, [lessons], show_progress=False)
    rows = ask(tmp_path / "g.sqlite", 5, seed=1)
    assert [row["question"] for row in rows] == [
        "What is dropout?",
        "How does dropout work?",
        "Why is dropout important?",
    ]
    assert "called *dropout*" in rows[0]["answer"]
    assert (
        main(
            ["ask", "--db", str(tmp_path / "g.sqlite"), "--concepts", "5", "--out", str(tmp_path / "a.jsonl")]
        )
        == 0
    )
    older = tmp_path / "old.jsonl"
    older.write_text(
        "".join(json.dumps({**row, "answer": "not covered"}) + "\n" for row in rows), encoding="utf-8"
    )
    assert main(["pair", str(older), str(tmp_path / "a.jsonl"), "--out", str(tmp_path / "r")]) == 0
    blind = [json.loads(line) for line in (tmp_path / "r.blind.jsonl").read_text().splitlines()]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps({"id": row["id"], "better": 1}) + "\n" for row in blind), "utf-8")
    assert main(["score", str(tmp_path / "r"), str(labels), "--out", str(tmp_path / "s.json")]) == 0
    figures = json.loads((tmp_path / "s.json").read_text())["figures"]["all"]
    assert figures["new"] + figures["old"] == len(blind) == 3
    assert main(["score", str(tmp_path / "r"), str(tmp_path / "missing.jsonl")]) == 2
    assert "error:" in capsys.readouterr().out


def test_ask_takes_templates_over_edges_and_written_questions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "g.sqlite"
    store = SQLiteStore.open(str(db))
    quote = "Linear algebra is a prerequisite for neural networks."
    seed(
        store,
        StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0),
        [
            ("linear-algebra", "prerequisite", "neural-network", quote),
            ("calculus", "prerequisite", "gradient-descent", quote),
        ],
    )
    store.close()
    written = ["Does calculus help gradient descent?"]
    rows = ask(db, 0, seed=3, forms=["What is {x} in {y}?", "What is {name}?"], edges=5, questions=written)
    asked = [row["question"] for row in rows]
    assert sorted(asked[:-1]) == [
        "What is Calculus in gradient descent?",
        "What is Linear algebra in neural network?",
    ]
    assert asked[-1] == written[0]
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"question": written[0]}) + "\n", encoding="utf-8")
    out = tmp_path / "a.jsonl"
    command = ["ask", "--db", str(db), "--concepts", "0", "--questions", str(questions), "--out", str(out)]
    assert main(command) == 0
    assert [json.loads(line)["question"] for line in out.read_text().splitlines()] == written
    assert main(["ask", "--db", str(db), "--form", "Who is {z}?", "--out", str(out)]) == 2
    assert "a form names" in capsys.readouterr().out
