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


PASSING_MENTION = {
    "01-overview.md": (
        "# Improving Results\n\nThere are ways to improve results, such as "
        "**retrieval augmented generation** and fine-tuning.\n"
    ),
    "02-prompting.md": "# Prompt Engineering\n\n**Prompt engineering** is the craft of writing prompts.\n",
    "03-rag.md": (
        "# Retrieval Augmented Generation\n\n**Retrieval augmented generation** is a pattern that adds "
        "documents to a prompt.\n"
    ),
}


def test_a_concept_is_taught_where_a_heading_names_it_not_where_an_overview_mentions_it(
    tmp_path: Path,
) -> None:
    with course_graph(tmp_path, PASSING_MENTION) as graph:
        llm = OfflineLLM(offline_handlers())
        question = "Which comes first, retrieval augmented generation or prompt engineering?"
        answer = answer_routed(llm, graph, question, {}).answer
        assert 'The lessons teach Prompt engineering first ("Prompt Engineering")' in answer, answer
        assert ', retrieval augmented generation later ("Retrieval Augmented Generation")' in answer, answer


POINTED_TO = {
    "01-calculus.md": (
        "# Calculus\n\nThe chain rule composes derivatives. Later lessons will introduce "
        "**backpropagation**, a procedure for applying the chain rule.\n"
    ),
    "02-dropout.md": "# Dropout\n\n**Dropout** is a regularization technique that zeroes units.\n",
    "03-backprop.md": (
        "# Backward Propagation\n\n**Backpropagation** is the method of calculating the gradient of "
        "the parameters.\n"
    ),
}


def test_a_sentence_that_points_to_a_later_lesson_does_not_teach_the_concept(tmp_path: Path) -> None:
    with course_graph(tmp_path, POINTED_TO) as graph:
        llm = OfflineLLM(offline_handlers())
        answer = answer_routed(llm, graph, "Which comes first, backpropagation or dropout?", {}).answer
        assert 'The lessons teach Dropout first ("Dropout"), backpropagation later' in answer, answer
        assert 'backpropagation later ("Backward Propagation")' in answer, answer


FILLER = " ".join(f"Step {n} of the fit changes the weights a little more." for n in range(1, 30))
SAID_OF_ANOTHER = {  # the lessons are long enough that the section is a chunk of its own
    "01-weight-decay.md": (
        f"# Weight Decay\n\n**Weight decay** is a penalty on large weights. {FILLER}\n\n"
        f"## Training without Regularization\n\nWe first fit the model with no penalty at all. {FILLER}\n"
    ),
    "02-dropout.md": "# Dropout\n\n**Dropout** is a technique that zeroes units.\n",
    "03-regularization.md": "# Regularization\n\n**Regularization** is a way to curb overfitting.\n",
}


def test_a_heading_that_says_the_concept_of_another_subject_does_not_teach_it(tmp_path: Path) -> None:
    with course_graph(tmp_path, SAID_OF_ANOTHER) as graph:
        llm = OfflineLLM(offline_handlers())
        answer = answer_routed(llm, graph, "Which comes first, regularization or dropout?", {}).answer
        assert 'The lessons teach Dropout first ("Dropout"), Regularization later ("Regularization")' in (
            answer
        ), answer
