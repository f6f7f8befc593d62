"""``magg ask`` end to end on a database filled by ingesting three bundled lessons."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from magg_kg.cli import app
from magg_kg.commands.ingest import curriculum_folder
from magg_kg.errors import UserError
from magg_kg.sqlite import SQLiteStore

LESSONS = (
    "01-math-linear-algebra.md",
    "02-math-calculus-gradients.md",
    "14-deep-learning-backpropagation.md",
)
QUESTION = "What should I learn before backpropagation?"


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ask") / "magg.sqlite"
    lessons = [str(curriculum_folder() / name) for name in LESSONS]
    result = CliRunner().invoke(app, ["ingest", *lessons, "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return path


def _ask(db: Path, *args: str) -> dict[str, object]:
    result = CliRunner().invoke(app, ["ask", *args, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    loaded = json.loads(result.stdout)
    assert isinstance(loaded, dict)
    return loaded


def test_ask_json_cites_active_edges_into_the_concept_and_logs_usage(db: Path) -> None:
    answer = _ask(db, QUESTION)
    citations = answer["citations"]
    assert isinstance(citations, list) and citations
    store = SQLiteStore.open(str(db))
    try:
        active = {edge.edge_id: edge for edge in store.edges()}
        qa_usage = [row for row in store.usage_by_stage() if row["stage"] == "qa"]
    finally:
        store.close()
    assert all(c["edge_id"] in active for c in citations)
    assert any(c["dst"] == "backpropagation" and c["type"] == "prerequisite" for c in citations)
    assert answer["dropped_citations"] == [] and answer["covered"] is True
    assert qa_usage and int(str(qa_usage[0]["calls"])) >= int(str(answer["calls"]))


def _cited(answer: dict[str, object]) -> list[str]:
    citations = answer["citations"]
    assert isinstance(citations, list)
    return [str(c["edge_id"]) for c in citations]


def test_as_of_reads_the_graph_of_that_time(db: Path) -> None:
    store = SQLiteStore.open(str(db))
    try:
        last = max(lesson.ingested_at for lesson in store.lessons())  # before the last lesson's edges
        then_active = {edge.edge_id for edge in store.edges(last)}
    finally:
        store.close()
    now = _ask(db, QUESTION)
    then = _ask(db, QUESTION, "--as-of", last)
    assert then["as_of"] == last
    assert set(_cited(then)) <= then_active
    assert _cited(then) != _cited(now)
    before = CliRunner().invoke(app, ["ask", QUESTION, "--db", str(db), "--as-of", "2000-01-01T00:00:00Z"])
    assert isinstance(before.exception, UserError) and "empty as of" in str(before.exception)


def test_unknown_concepts_get_a_plain_message(db: Path) -> None:
    result = CliRunner().invoke(app, ["ask", "What is quantum chromodynamics?", "--db", str(db)])
    assert result.exit_code == 0
    assert "does not cover" in result.stdout


def test_an_empty_database_says_what_to_run(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["ask", QUESTION, "--db", str(tmp_path / "empty.sqlite")])
    assert isinstance(result.exception, UserError)
    assert "magg demo" in str(result.exception)
