"""A question of two parts whose second points back to the first's subject ("What is X and does it
...?"): when the graph does not cover that subject, the answer says so once."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.qa import offline_handlers
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LESSONS = {
    "01-accuracy.md": "# Accuracy\n\n*Accuracy* is a measure of how often predictions are correct. "
    "Accuracy is measured on a test set.\n",
    "02-dropout.md": "# Dropout\n\n*Dropout* is a regularization method that zeros out some nodes. "
    "Dropout is applied in training only.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("parts"), LESSONS) as graph:
        yield graph


def test_a_part_about_a_subject_the_graph_does_not_cover_is_not_quoted_back(graph: GraphIndex) -> None:
    # d2l: "What is mixed precision training and does it hurt accuracy?" said 'The graph does not
    # cover "mixed precision training". The graph does not cover "does it hurt accuracy?".'
    result = answer_routed(LLM, graph, "What is mixed precision training and does it hurt accuracy?", {})
    assert [s["text"] for s in result.sub_questions] == [
        "What is mixed precision training?",
        "does mixed precision training hurt accuracy?",
    ]
    assert not result.covered
    assert result.answer == 'The graph does not cover "mixed precision training".'


def test_flat_says_what_the_graph_does_not_cover_of_the_first_part_as_routed_does(graph: GraphIndex) -> None:
    # Flat said nothing of the first part, and quoted the second back: 'The graph does not cover
    # "does it hurt accuracy?".'
    result = answer_flat(LLM, graph, "What is mixed precision training and does it hurt accuracy?")
    assert not result.covered
    assert result.answer == 'The graph does not cover "mixed precision training".'
