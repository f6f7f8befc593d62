"""An everyday English word misspelled in a question ("diffrence", "becuase", "teh") is read as that
word and said, not taken for a term the graph lacks; a term the course lacks ("LoRA", "bagging",
"YOLO", "GPT-5") and a word a lesson writes ("tanh") are left as written."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.everyday_words import misspelled_word
from governance.excerpts import lesson_terms
from governance.qa import answer_flat, answer_routed
from governance.spelling import respelled
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LESSONS = {
    "01-dropout.md": "# Dropout\n\n*Dropout* is a regularization method that zeros out some nodes. "
    "Dropout is applied in training only.\n",
    "02-activations.md": "# Activation functions\n\nThe tanh function squashes its input into (-1, 1).\n",
    "03-prompts.md": "# Prompts\n\nPrompting a model well takes practice. Good prompting gives examples.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("everyday"), LESSONS) as graph:
        yield graph


def test_a_misspelled_everyday_word_is_read_as_the_word_and_said(graph: GraphIndex) -> None:
    assert respelled(graph, "What is the diffrence between dropout and tanh?") == (
        "What is the difference between dropout and tanh?",
        'Taking "diffrence" to mean "difference".',
    )
    # A letter missing ("which", not "with" of a letter changed); two letters swapped, in a short
    # word too; the first capital kept.
    assert respelled(graph, "Wich is used in training, explain teh dropout becuase I forgot?") == (
        "Which is used in training, explain the dropout because I forgot?",
        'Taking "Wich" to mean "Which". Taking "teh" to mean "the". Taking "becuase" to mean "because".',
    )


def test_a_term_the_course_lacks_or_a_lesson_writes_is_no_misspelled_word(graph: GraphIndex) -> None:
    # A lesson writes "tanh"; "lora" is a letter from "flora", "bagging" from "begging", "yolo" from
    # "solo", but each is written too often for its own sake; "regnet" and "Qwen" are a changed letter
    # from "regret" and "Owen", "Gradio" a dropped one from "radio"; "gan" is too short to lack a
    # letter ("gain"); a capital inside, a digit or a hyphen writes a name.
    assert "tanh" in lesson_terms(graph)
    for question in (
        "What is tanh?",
        "what is regnet",
        "What is Qwen?",
        "What is Gradio?",
        "What is LoRA?",
        "what is lora",
        "what is bagging",
        "What is YOLO?",
        "what is yolo",
        "what is a gan",
        "What is GPT-5?",
        "What is the difference between dropout and tanh?",
    ):
        assert misspelled_word(graph, question) is None
        assert respelled(graph, question) == (question, "")


def test_a_misspelled_word_is_no_subject_the_graph_lacks(graph: GraphIndex) -> None:
    # Was: 'The graph does not cover "simillar": no lesson mentions it.'
    llm = OfflineLLM(offline_handlers())
    question = "what does the tanh function do to simillar inputs?"
    for result in (answer_routed(llm, graph, question, {}), answer_flat(llm, graph, question)):
        assert result.question == question
        assert result.covered and "does not cover" not in result.answer
        assert result.answer.startswith('Taking "simillar" to mean "similar". The lesson says "The tanh')


def test_a_slip_of_a_lessons_word_is_read_as_that_word_before_an_everyday_one(graph: GraphIndex) -> None:
    # genai: "wat is chain of thoght promting" was read as "... promoting", the more frequent English
    # word, and "wat" left as written, so no "What is X?" was read in it.
    assert respelled(graph, "wat is good promting?") == (
        "what is good prompting?",
        'Taking "wat" to mean "what". Taking "promting" to mean "prompting".',
    )
    # Not the first word: "wat" is left as written (too many short words are a letter from it).
    assert misspelled_word(graph, "Is wat a unit?") is None
