"""A typed question the graph holds no edge for is read in the lessons, as an open one is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.qa import offline_handlers
from agents.question_types import classify
from governance.excerpts import graph_lexicon
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LESSONS = {
    "01-drift.md": "# Sensor drift\n\n*Sensor drift* is a slow change in what a sensor reads. "
    "There are two kinds of sensor drift: offset drift moves every reading by the same amount, and "
    "gain drift scales every reading.\n",
    "02-calibration.md": "# Calibration\n\n*Calibration* is the comparison of a sensor with a "
    "reference. Calibration removes sensor drift from the readings.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("edgeless"), LESSONS) as graph:
        yield graph


def test_which_first_the_graph_has_no_path_for_is_quoted_from_the_lesson(graph: GraphIndex) -> None:
    question = "Should I learn calibration before sensor drift?"
    assert classify(question, graph_lexicon(graph)).type == "which_first"
    result = answer_routed(LLM, graph, question, {})
    assert not any(answer.edges for answer in result.graph_answers)
    # Which sentence is the expert's pick (agents.answer_spans): the lessons are read as well.
    assert any(cited.startswith("c-") for cited in result.citations)
    assert "the lesson says" in result.answer.lower()


def test_kinds_the_graph_has_no_edge_for_are_not_read_in_a_sentence_naming_it(graph: GraphIndex) -> None:
    # d2l: "What types of distribution shift are there?" quoted a sentence on cats and dogs that
    # names distribution shift; the kinds are concepts of their own names ("covariate shift").
    question = "What kinds of sensor drift are there?"
    assert classify(question, graph_lexicon(graph)).type == "parts"
    result = answer_routed(LLM, graph, question, {})
    assert not result.citations and "does not cover" in result.answer


def test_what_comes_after_a_concept_is_not_read_in_a_sentence_that_says_next(graph: GraphIndex) -> None:
    question = "What comes after sensor drift?"
    assert classify(question, graph_lexicon(graph)).type == "unlocks"
    result = answer_routed(LLM, graph, question, {})
    # Not read in the lessons: the course's order says which lesson comes next (governance.next_lesson),
    # labelled as such, citing that lesson's opening only.
    assert result.answer.startswith("The graph states nothing that builds on Sensor drift.")
    assert 'the next lesson after the one that teaches Sensor drift is "Calibration"' in result.answer
    assert "(the course's order, not the graph's)" in result.answer and len(result.citations) == 1
