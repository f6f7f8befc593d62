"""A part that asks how X works, why or when to use X, where X is a name of more than one word that
no concept has and no lesson writes: d2l never writes "early stopping", and "How does early
stopping work, and how much patience should I give it?" quoted "we do not really stop early but
simply reduce the learning rate gently", a sentence that shares its words, not its subject."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.lacked_subjects import lacked_subjects
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
EARLY = "We do not really stop early but simply reduce the learning rate gently."
LESSONS = {
    "01-rate.md": "# Learning rate\n\nThe *learning rate* sets the size of each step of training. "
    f"{EARLY} A schedule lowers the learning rate as training goes on.\n",
    "03-shots.md": "# In-context learning\n\nWith *few-shot* demonstrations a model answers from a few "
    "examples in its prompt.\n",
    "02-decay.md": "# Weight decay\n\n*Weight decay* adds the norm of the weights to the loss. It works "
    "by shrinking the weights at each step of training.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("lacked-explained"), LESSONS) as graph:
        yield graph


@pytest.mark.parametrize(
    "question",
    ["How does early stopping work?", "Why use early stopping?", "When should I use early stopping?"],
)
def test_how_an_unwritten_name_works_is_asked_of_that_name(graph: GraphIndex, question: str) -> None:
    assert lacked_subjects(graph, [question]) == ["early stopping"]


def test_a_sentence_that_shares_only_its_words_does_not_answer(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, "How does early stopping work?", {})
    assert EARLY not in result.answer and not result.citations
    assert result.answer == 'The graph does not cover "early stopping".'


@pytest.mark.parametrize(
    "asked",
    [
        "How does early stopping work, and how much patience should I give it?",
        # the second part, a relation to a concept, says the name not covered unquoted: said once
        "How does early stopping work, and is it a kind of weight decay?",
    ],
)
def test_the_name_not_covered_is_said_once_for_all_parts(graph: GraphIndex, asked: str) -> None:
    assert answer_routed(LLM, graph, asked, {}).answer == 'The graph does not cover "early stopping".'


def test_a_name_the_graph_has_or_a_lesson_writes_is_read_as_before(graph: GraphIndex) -> None:
    assert lacked_subjects(graph, ["How does weight decay work?", "Why use a learning rate?"]) == ["", ""]
    # a lesson may name it without its last word, a compound no everyday word: "few-shot"
    assert lacked_subjects(graph, ["How does few-shot prompting work?"]) == [""]
    # a phrase is no name: its words may be said apart ("Why use multiple attention heads instead of
    # just one big one?" was said not covered, though a lesson explains multi-head attention)
    assert lacked_subjects(graph, ["Why use several small steps instead of just one big step?"]) == [""]
    result = answer_routed(LLM, graph, "How does weight decay work?", {})
    assert "Weight decay" in result.answer and result.citations
