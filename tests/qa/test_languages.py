"""Questions the offline roles cannot read (another language than English) are said to be so, not
guessed at; with DeepSeek they go to the model."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import respx
from typer.testing import CliRunner

from agents.offline.handlers import offline_handlers
from agents.offline.language import question_language
from magg_kg.cli.app import app
from magg_kg.cli.ingestion import curriculum_folder
from magg_kg.cli.questions import answered
from magg_kg.clock import StepClock
from magg_kg.graph_index import build_graph_index
from magg_kg.sqlite import SQLiteStore
from tests.llm.fake_server import ChatRequest
from tests.llm.prompts import prompt_of
from tests.llm.test_deepseek import ENDPOINT, completion, config

REPO = Path(__file__).resolve().parents[2]
QUESTION_FILES = [
    *sorted((REPO / "benchmarks" / "data").glob("questions-*.heldout.jsonl")),
    REPO / "agents" / "offline" / "data" / "questions_train.jsonl",
]
FOREIGN = {
    "¿Cuál es el camino desde el álgebra lineal hasta los transformers?": "Spanish",
    "Qu'est-ce que la rétropropagation ?": "French",
    "Was muss ich vor der Backpropagation lernen?": "German",
    "Qual è il percorso dall'algebra lineare alla backpropagation?": "Italian",
    "O que devo aprender antes de backpropagation?": "Portuguese",
    "Wat moet ik eerst leren voor backpropagation?": "Dutch",
    "反向传播和梯度下降有什么关系?": "CJK script",
    "Что нужно знать перед обратным распространением?": "Cyrillic script",
}


@pytest.mark.parametrize(("question", "language"), FOREIGN.items())
def test_a_question_in_another_language_is_told_by_its_words(question: str, language: str) -> None:
    assert question_language(question, ["backpropagation", "transformers"]) == language


def test_no_english_question_written_apart_from_the_reader_is_read_as_another_language() -> None:
    questions = [
        str(json.loads(line).get("question") or json.loads(line).get("text") or "")
        for path in QUESTION_FILES
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    assert len(questions) > 500
    assert [q for q in questions if question_language(q)] == []
    # Names in another language among English words, and questions with no function word at all.
    for question in (
        "Who directed La Dolce Vita, and when?",
        "Explain eigenvalues, eigenvectors, Jordan form",
    ):
        assert question_language(question) == ""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("languages") / "magg.sqlite"
    lessons = [str(curriculum_folder() / name) for name in ("14-deep-learning-backpropagation.md",)]
    result = CliRunner().invoke(app, ["ingest", *lessons, "--db", str(path), "--json"])
    assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("flat", [False, True])
def test_offline_a_question_in_german_is_not_answered_and_says_why(db: Path, flat: bool) -> None:
    args = ["ask", "Was muss ich vor der Backpropagation lernen?", "--db", str(db), "--json"]
    result = CliRunner().invoke(app, [*args, *(["--flat"] if flat else [])])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["covered"] is False and answer["calls"] == 0 and answer["citations"] == []
    assert "reads as German" in answer["answer"] and "Backpropagation" in answer["answer"]
    assert answer["sub_questions"][0]["concepts"] == ["backpropagation"]
    printed = CliRunner().invoke(app, args[:-1])
    assert printed.exit_code == 0 and "reads as German" in printed.stdout


def test_with_deepseek_a_question_in_german_goes_to_the_model(db: Path) -> None:
    store = SQLiteStore.open(str(db))
    handlers, tasks = offline_handlers(), []

    def reply(request: httpx.Request) -> httpx.Response:
        chat = ChatRequest("/chat/completions", dict(request.headers), json.loads(request.content))
        tasks.append(chat.task)
        return completion(json.dumps(dict(handlers[chat.task](prompt_of(chat)))))

    try:
        graph = build_graph_index(store)
        with respx.mock(assert_all_called=False) as gateway:
            gateway.post(ENDPOINT).mock(side_effect=reply)
            clock = StepClock("2027-01-01T00:00:00.000000Z")
            answer, _ = answered(
                config(), store, clock, graph, {}, "Was muss ich vor der Backpropagation lernen?", False
            )
    finally:
        store.close()
    assert tasks and "reads as German" not in str(answer["answer"])
