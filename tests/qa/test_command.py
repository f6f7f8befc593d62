"""``magg ask`` end to end on a database filled by ingesting three bundled lessons."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agents import qa
from agents.offline.handlers import offline_handlers
from agents.qa import MAX_SUB_QUESTION
from governance.qa import answer_routed, bridges_of
from magg_kg.cli import context
from magg_kg.cli.app import app
from magg_kg.cli.ingestion import curriculum_folder
from magg_kg.config import Config
from magg_kg.errors import UserError
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Prompt
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg

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
    before = _ask(db, QUESTION, "--as-of", "2000-01-01T00:00:00Z")  # nothing recorded yet: no error
    assert (before["covered"], before["calls"], before["citations"]) == (False, 0, [])
    assert str(before["answer"]).startswith("The graph held no concept as of 2000-01-01T00:00:00.000000Z")


def test_unknown_concepts_get_a_plain_message(db: Path) -> None:
    result = CliRunner().invoke(app, ["ask", "What is quantum chromodynamics?", "--db", str(db)])
    assert result.exit_code == 0
    assert "does not cover" in result.stdout


def test_an_empty_database_says_what_to_run(tmp_path: Path) -> None:
    path = tmp_path / "empty.sqlite"
    assert CliRunner().invoke(app, ["init", "--db", str(path)]).exit_code == 0
    result = CliRunner().invoke(app, ["ask", QUESTION, "--db", str(path)])
    assert isinstance(result.exception, UserError)
    assert "magg demo" in str(result.exception)


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "missing.sqlite"
    result = CliRunner().invoke(app, ["ask", QUESTION, "--db", str(path)])
    assert isinstance(result.exception, UserError)
    assert str(result.exception).startswith(f"no database at {path}; run `magg init")
    assert not path.exists()


def _read_only(
    config: Config, *, create: bool = False, upgrade: bool = False, write_late: bool = False
) -> SQLiteStore:
    return SQLiteStore.open(config.db, read_only=True)


def test_ask_on_a_read_only_database_answers_and_notes_the_usage_it_could_not_record(
    db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(context, "open_store", _read_only)  # as `mode=ro`, a 0444 file or a read-only folder
    before = db.read_bytes()
    code, out, err = magg(["ask", QUESTION, "--db", str(db), "--json"], capsys)
    assert code == 0, err
    assert json.loads(out)["covered"] is True
    assert err.startswith("note: the usage of this question was not recorded: cannot write ")
    assert "readonly" in err and err.count("\n") == 1
    assert db.read_bytes() == before


LONG = "What should I learn before backpropagation " + "x" * 100_000
LONG_OPEN = "Tell me how backpropagation works " + "x" * 100_000


@pytest.mark.parametrize("length", [1, 999, 1000, 1001, 100_000])
def test_a_question_of_any_length_gets_an_answer_and_no_traceback(
    db: Path, length: int, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = magg(["ask", LONG[:length], "--db", str(db), "--json"], capsys)
    assert code == 0, err
    answer = json.loads(out)
    subs = answer["sub_questions"]
    assert subs and all(0 < len(sub["text"]) <= MAX_SUB_QUESTION for sub in subs)
    # Past the concept's name, the question is about backpropagation, however long the rest is.
    assert answer["covered"] is (length >= len("What should I learn before backpropagation"))


def test_an_empty_question_is_one_line_and_exit_2(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = magg(["ask", "", "--db", str(db)], capsys)
    assert (code, out) == (2, "")
    assert err.startswith("error: the question is empty") and err.count("\n") == 1


def test_the_fallback_sub_question_is_clipped_when_the_orchestrator_fails(db: Path) -> None:
    store = SQLiteStore.open(db, read_only=True)
    try:
        graph = build_graph_index(store)
        failing = OfflineLLM({**offline_handlers(), qa.DECOMPOSE_TASK: _fail})
        result = answer_routed(failing, graph, LONG_OPEN, bridges_of(store.domains()))
    finally:
        store.close()
    assert result.failures and result.failures[0].startswith("orchestrator: ")
    assert [len(sub["text"]) for sub in result.sub_questions] == [MAX_SUB_QUESTION]
    assert "backpropagation" in result.sub_questions[0]["concepts"] and result.covered


def _fail(prompt: Prompt) -> dict[str, object]:
    return {"reasoning": "", "sub_questions": "not a list"}


def test_ask_in_a_read_only_folder_answers_and_notes_the_usage_it_could_not_record(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "read-only"
    folder.mkdir()
    copy = folder / "magg.sqlite"
    shutil.copy(db, copy)
    # No room for SQLite's journal: an immutable folder refuses new files, even to root.
    locked = (
        shutil.which("chattr")
        and not subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False).returncode
    )
    if not locked:
        pytest.skip("cannot make a folder read-only here (chattr +i needs root and ext4 or alike)")
    try:
        code, out, err = magg(["ask", QUESTION, "--db", str(copy), "--json"], capsys)
    finally:
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    assert code == 0, err
    assert json.loads(out)["covered"] is True
    assert err == (
        f"note: the usage of this question was not recorded: cannot write {copy} "
        f"(unable to open database file): the file and its folder {copy.absolute().parent} must be writable\n"
    )
