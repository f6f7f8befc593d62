"""``magg ask --json`` carries the question type, the sub-questions with their domains, the answer,
the path and the citations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from magg_kg.clock import StepClock
from magg_kg.operations import AssignDomain, SetDomain
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.gates.world import seed, write

QUOTE = "Neural networks are a prerequisite for transformers."
EDGES = [
    ("linear-algebra", "prerequisite", "neural-network"),
    ("neural-network", "prerequisite", "transformer"),
]


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "magg.sqlite"
    store = SQLiteStore.open(path)
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock, [(s, t, d, QUOTE) for s, t, d in EDGES])
    now = clock.now()
    write(
        store,
        clock,
        [
            SetDomain(id="d-math", version=1, name="math", owner="owner:d-math", card={}, recorded_at=now),
            SetDomain(
                id="d-models", version=1, name="models", owner="owner:d-models", card={}, recorded_at=now
            ),
            AssignDomain(concept_id="linear-algebra", domain_id="d-math", recorded_at=now),
            AssignDomain(concept_id="neural-network", domain_id="d-models", recorded_at=now),
            AssignDomain(concept_id="transformer", domain_id="d-models", recorded_at=now),
        ],
    )
    store.close()
    return path


def test_ask_json_has_the_type_sub_questions_path_and_citations(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    question = "What is the learning path from linear algebra to transformers?"
    code, out, err = magg(["ask", question, "--db", str(db), "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    assert answer["type"] == "path" and answer["covered"] is True
    assert answer["path"] == ["linear-algebra", "neural-network", "transformer"]
    assert answer["sub_questions"][0]["type"] == "path"
    # Both domains are read; the models expert holds both steps (the first is between the two
    # domains, so in both), and is the one expert asked.
    assert answer["sub_questions"][0]["domains"] == ["d-models"]
    assert [c["edge_id"] for c in answer["citations"]] == [edge_id(*e) for e in EDGES]
    assert answer["answer"].startswith("Learning path from Linear algebra to transformer (2 step(s))")
    assert answer["read"]["domains"] == ["d-math", "d-models"]


def test_ask_prints_the_path_and_each_sub_questions_type(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = magg(
        ["ask", "Which comes first, transformers or linear algebra?", "--db", str(db)], capsys
    )
    assert code == 0, err
    assert out.startswith("Linear algebra comes first: Linear algebra → neural network → transformer.")
    assert "path: linear-algebra → neural-network → transformer" in out
    assert "sub-question (which_first)" in out
