"""The learned reading of question types: fitted on its shipped questions, the same each time."""

from __future__ import annotations

import json
from pathlib import Path

from agents.offline.question_model import MARK, TRAINING, features, mask, predict
from agents.question_types import QUESTION_TYPES, WHOLE_GRAPH_TYPES
from tests.gates.world import run_magg


def test_the_training_questions_are_labelled_with_known_types_and_the_concepts_they_name() -> None:
    rows = [json.loads(line) for line in TRAINING.read_text("utf-8").splitlines() if line.strip()]
    # A question about the whole graph names no concept: the model reads only those that name one.
    assert len(rows) >= 300 and {r["type"] for r in rows} == set(QUESTION_TYPES) - WHOLE_GRAPH_TYPES
    for row in rows:
        assert row["concepts"] and mask(row["question"], row["concepts"]).count(MARK) >= 1, row


def test_words_are_read_by_where_they_stand_around_the_concepts() -> None:
    found = features(f"What comes after {MARK} and before {MARK}?", 2)
    assert {"b:what", "m:and before", "a:?", "n:2"} - {"a:?"} <= set(found)
    assert "a:after c" not in found and "b:after" in found and "m:before" in found


def test_a_prediction_is_a_type_and_a_probability_the_same_each_time() -> None:
    first = predict(f"Name the building blocks of {MARK}.", 1)
    assert first == predict(f"Name the building blocks of {MARK}.", 1)
    assert first[0] == "parts" and 0.0 < first[1] <= 1.0
    assert predict(f"Who invented {MARK}?", 1)[0] == "open"


def test_the_shipped_weights_are_what_fitting_the_shipped_questions_gives(tmp_path: Path) -> None:
    from agents.offline import question_model

    run_magg(["model", "build", "--only", "questions", "--out", str(tmp_path)])
    out = tmp_path / "questions.json"
    rebuilt, shipped = (
        json.loads(out.read_text("utf-8")),
        json.loads(question_model.MODEL_PATH.read_text("utf-8")),
    )
    assert rebuilt["classes"] == shipped["classes"] and rebuilt["trained_on"] == shipped["trained_on"]
    assert set(rebuilt["weights"]) == set(shipped["weights"])
    for name, weights in shipped["weights"].items():
        assert all(abs(a - b) <= 1e-3 for a, b in zip(weights, rebuilt["weights"][name], strict=True)), name
