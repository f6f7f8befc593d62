"""A question that names no concept and asks about something no lesson mentions ("How do I deploy
a model to Kubernetes?" of a course that never says "Kubernetes"): not covered, naming what it
lacks, never a lesson sentence that shares only the question's other words ("deployment",
"models") quoted as its answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.experts import NOT_COVERED
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
SHIFT = (
    "Sometimes models appear to perform marvelously as measured by test set accuracy but fail "
    "catastrophically in deployment when the distribution of data suddenly shifts."
)
LESSONS = {
    "01-shift.md": f"# Distribution shift\n\n{SHIFT} Such a shift is called *covariate shift*.\n",
    "02-dropout.md": "# Dropout\n\n*Dropout* is a regularization method that zeros out some nodes. "
    "Dropout is applied in training only.\n",
}
QUESTION = "How do I deploy a model to Kubernetes?"


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("unread"), LESSONS) as graph:
        yield graph


def test_the_question_names_no_concept_and_its_other_words_are_in_a_lesson(graph: GraphIndex) -> None:
    names = {name.lower() for names in graph.names.values() for name in names}
    assert "dropout" in names and not {"model", "deploy", "deployment", "kubernetes"} & names
    # Without the word no lesson says, the same question is answered by the shift sentence: the
    # refusal below is about "Kubernetes", not about a question nothing matches.
    for result in (
        answer_routed(LLM, graph, "How do I deploy a model?", {}),
        answer_flat(LLM, graph, "How do I deploy a model?"),
    ):
        assert result.covered and SHIFT in result.answer


def test_a_subject_no_lesson_mentions_is_not_covered_and_named(graph: GraphIndex) -> None:
    for result in (answer_routed(LLM, graph, QUESTION, {}), answer_flat(LLM, graph, QUESTION)):
        assert result.sub_questions and result.sub_questions[0]["concepts"] == []
        assert not result.covered and result.citations == []
        assert result.answer == 'The graph does not cover "Kubernetes": no lesson mentions it.'
        assert result.short_answer == NOT_COVERED and "marvelously" not in result.answer


def test_a_clause_asking_about_what_no_lesson_mentions_is_said_beside_the_others(graph: GraphIndex) -> None:
    result = answer_flat(LLM, graph, "What is dropout? How do I deploy a model to Kubernetes?")
    assert "zeros out some nodes" in result.answer
    assert 'The graph does not cover "Kubernetes": no lesson mentions it.' in result.answer
    assert "marvelously" not in result.answer


def test_an_everyday_word_no_lesson_writes_does_not_refuse_the_question(graph: GraphIndex) -> None:
    # "nowadays" is in no lesson, but it is no subject a course teaches: the question asks how models
    # are deployed, which the shift sentence speaks to, and it was refused as not covering "nowadays".
    for result in (
        answer_routed(LLM, graph, "How do I deploy a model nowadays?", {}),
        answer_flat(LLM, graph, "How do I deploy a model nowadays?"),
    ):
        assert result.covered and SHIFT in result.answer, result.answer


def test_what_a_question_naming_a_concept_asks_to_do_it_with_is_not_covered_when_no_lesson_says_it(
    graph: GraphIndex,
) -> None:
    # genai: "How do I run a GPU cluster with Slurm?" named a concept (GPU), so no word of it was
    # checked, and it quoted a lesson sentence on GPU clusters as if it answered how to use Slurm.
    # The gap is now the short answer and the long answer's first words (it was said last, after
    # the quotes on GPUs), and what the lessons say of the concept named follows it.
    asked = "How do I apply dropout with Slurm?"
    unread = 'The graph does not cover "Slurm": no lesson mentions it.'
    for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
        assert result.sub_questions and result.sub_questions[0]["concepts"] == ["dropout"]
        assert result.short_answer == unread and result.uncovered == [unread]
        assert result.answer.startswith(unread) and "Dropout is applied in training only." in result.answer
        assert result.answer.count(unread) == 1
    # An everyday word after "with", or a rare one elsewhere in the question, refuses nothing.
    for asked in (
        "How do I apply dropout with care?",
        "Is dropout applied in training only, as Goodfellow says?",
    ):
        for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
            assert result.covered and "does not cover" not in result.answer, (asked, result.answer)


def test_what_a_question_naming_a_concept_asks_to_use_is_not_covered_when_no_lesson_says_it(
    graph: GraphIndex,
) -> None:
    # d2l: "How do I use LoRA to fine-tune a large language model on a single GPU?" was read as what
    # builds on language models; read as a how-to, LoRA is what it asks about, and no lesson says it.
    asked = "How do I use Slurm to apply dropout?"
    unread = 'The graph does not cover "Slurm": no lesson mentions it.'
    for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
        assert result.sub_questions and result.sub_questions[0]["type"] == "open"
        assert result.sub_questions[0]["concepts"] == ["dropout"]
        assert result.short_answer == unread and result.uncovered == [unread]
        assert result.answer.startswith(unread) and result.answer.count(unread) == 1
        assert "Dropout is applied in training only." in result.answer
    # What a lesson says, used, or an owner named before it, refuses nothing.
    for asked in ("How do I use dropout to regularize a model?", "Can I use Slurm's dropout in training?"):
        for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
            assert result.covered and "does not cover" not in result.answer, (asked, result.answer)
            assert "zeros out some nodes" in result.answer or "applied in training only" in result.answer


def test_what_a_question_asks_to_do_it_with_before_what_for_is_not_covered(graph: GraphIndex) -> None:
    # genai: "How do I fine-tune a model with LoRA or QLoRA to save GPU memory?" said what it does it
    # with before what for, so the names after "with" were not checked, and a sentence on training
    # models on GPUs was quoted as if it answered how to use LoRA.
    asked = "How do I apply dropout with Horovod or Petastorm to train on fewer machines?"
    unread = 'The graph does not cover "Horovod" or "Petastorm": no lesson mentions them.'
    for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
        assert result.short_answer == unread and result.answer.startswith(unread)
    # What a lesson says, done with before what for, refuses nothing.
    asked = "How do I apply dropout with care to regularize a model?"
    for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
        assert result.covered and "does not cover" not in result.answer, (asked, result.answer)


def test_two_names_and_a_head_word_after_with_are_read_whole(graph: GraphIndex) -> None:
    # genai: "does the course show how to evaluate my LLM app with BLEU or ROUGE scores" read at most
    # three words after "with", so the four of "BLEU or ROUGE scores" were never checked, and a
    # sentence on evaluating the security of an LLM was quoted as if it answered.
    asked = "How do I apply dropout with Horovod or Petastorm jobs?"
    unread = 'The graph does not cover "Horovod" or "Petastorm jobs": no lesson mentions them.'
    for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
        assert result.short_answer == unread and result.answer.startswith(unread)
