"""A concept's name misspelled in a question is read as the name, and said: "Taking "dropuot" to
mean "dropout"."; a word the lessons use, or one that is not near one name alone, is left as it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat, answer_routed
from governance.spelling import respelled
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

DEFINED = "Their idea, called *dropout*, injects noise into each layer during training."


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    lessons = {"01-dropout.md": f"# Dropout\n\n{DEFINED} Dropout helps.\n"}
    with course_graph(tmp_path_factory.mktemp("spelling"), lessons) as graph:
        yield graph


def test_a_misspelled_name_is_read_as_the_concepts_and_said(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    for result in (
        answer_routed(llm, graph, "What is dropuot?", {}),
        answer_flat(llm, graph, "What is dropuot?"),
    ):
        assert result.question == "What is dropuot?"
        assert result.covered and result.answer.startswith('Taking "dropuot" to mean "dropout".')
        assert DEFINED in result.answer


def test_a_word_spelled_right_or_far_from_every_name_is_left_alone(graph: GraphIndex) -> None:
    for question in ("What is dropout?", "What is noise?", "What is Kubernetes?", "What is dropping?"):
        assert respelled(graph, question) == (question, "")
