"""Which of two concepts comes first, when no learning path joins them: the graph does not say
(never "neither comes first", which claims they are independent), and the lessons' order is said
as the lessons' order."""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat, answer_routed
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LESSONS = {
    "01-dropout.md": "# Dropout\n\n**Dropout** is a regularization technique that zeroes units.\n",
    "02-momentum.md": "# Momentum\n\n**Momentum** is an optimizer that averages past gradients.\n",
}


def test_the_graph_does_not_say_which_comes_first_and_the_lessons_order_is_labelled(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        llm = OfflineLLM(offline_handlers())
        question = "Which comes first, gradient or dropout?"
        for result in (answer_routed(llm, graph, question, {}), answer_flat(llm, graph, question)):
            assert result.graph_answers and result.graph_answers[0].first is None
            assert "Neither" not in result.answer
            assert result.answer.startswith("The graph does not say which comes first")
            assert 'The lessons teach Dropout first ("Dropout"), gradient later ("Momentum")' in result.answer
            assert "the order of the lessons, not a learning path of the graph" in result.answer
