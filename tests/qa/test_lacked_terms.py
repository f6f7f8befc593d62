"""A "What is X?" question whose term the graph lacks, though some of its words name a concept the
graph has ("What is backpropagation through time?" where the graph has backpropagation): the
lesson sentence that says what the whole term is, else "not covered" with the concepts it has,
never the definition of the concept its words name."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat, answer_routed
from governance.question_forms import unanswered_said
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
BACKPROP = "*Backpropagation* refers to the method of calculating the gradient of network parameters."
THROUGH_TIME = "Applying backpropagation in RNNs is called *backpropagation through time*."
COT = "**Chain-of-thought** is a technique that takes the model through a series of steps."
LESSONS = {
    "01-backprop.md": f"# Backpropagation\n\n{BACKPROP} Backpropagation uses the chain rule.\n",
    "02-rnn.md": f"# Recurrent networks\n\nRNNs read sequences. {THROUGH_TIME} It unrolls the network.\n",
    "03-gradient.md": "# Gradient\n\nThe *gradient* is the vector of partial derivatives. "
    "Backpropagation computes the gradient.\n",
    "04-prompts.md": f"# Prompting\n\n{COT} **Supply Chain Vulnerabilities**: components can be "
    "compromised.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("lacked"), LESSONS) as graph:
        yield graph


def _both(graph: GraphIndex, question: str) -> list[object]:
    return [answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)]


def test_the_graph_is_as_the_tests_read_it(graph: GraphIndex) -> None:
    names = {name.lower() for names in graph.names.values() for name in names}
    assert {"backpropagation", "gradient", "chain of thought"} <= names
    assert "backpropagation through time" not in names and "vanishing gradient problem" not in names


def test_a_sentence_that_says_what_the_whole_term_is_answers_it(graph: GraphIndex) -> None:
    for result in (
        answer_routed(LLM, graph, "What is backpropagation through time?", {}),
        answer_flat(LLM, graph, "What is backpropagation through time?"),
    ):
        assert THROUGH_TIME in result.answer and BACKPROP not in result.answer
        assert result.sub_questions[0]["unknown"] == ["backpropagation through time"]


def test_a_term_no_sentence_defines_is_not_covered_with_the_concepts_the_graph_has(graph: GraphIndex) -> None:
    for result in (
        answer_routed(LLM, graph, "What is the vanishing gradient problem?", {}),
        answer_flat(LLM, graph, "What is the vanishing gradient problem?"),
    ):
        assert not result.covered and "partial derivatives" not in result.answer
        assert 'The graph does not cover "vanishing gradient problem"; it has' in result.answer
    routed = answer_routed(LLM, graph, "What is the vanishing gradient problem?", {})
    assert routed.short_answer.startswith('The graph does not cover "vanishing gradient problem"; it has')


def test_a_concept_named_with_of_is_asked_what_it_is_not_for_a_name(graph: GraphIndex) -> None:
    for result in (
        answer_routed(LLM, graph, "What is chain of thought?", {}),
        answer_flat(LLM, graph, "What is chain of thought?"),
    ):
        assert "Supply Chain" not in result.short_answer
        assert "series of steps" in result.short_answer


def test_a_generic_head_word_after_a_concepts_name_asks_about_the_concept(graph: GraphIndex) -> None:
    # genai: "what is chain of thought prompting?" was read as asking for a name ("the capital of
    # France") and quoted "Azure Vector Search"; with a hyphen it was read as asked.
    for question in ("What is chain-of-thought prompting?", "what is chain of thought prompting?"):
        for result in _both(graph, question):
            assert result.covered and "series of steps" in result.short_answer


def test_a_term_named_by_no_concept_is_said_with_the_concepts_its_words_name_in_another_form(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # genai: "What is a tokenizer?" answered 'The graph does not cover "What is a tokenizer?".' (the
    # whole question), routed, and "... the concepts this question asks about." flat, though the graph
    # has tokenization.
    lessons = {
        "01-tokens.md": "# Tokenization\n\n*Tokenization* is the splitting of a text into tokens. "
        "Every input is processed by a tokenizer before the core model reads it.\n",
        "02-models.md": "# Models\n\nA *model* predicts the next token of a text.\n",
    }
    with course_graph(tmp_path_factory.mktemp("forms"), lessons) as graph:
        assert "tokenization" in graph.concepts and "tokenizer" not in graph.names
        said = f'The graph does not cover "tokenizer"; it has {graph.concepts["tokenization"].name}.'
        for result in (
            answer_routed(LLM, graph, "What is a tokenizer?", {}),
            answer_flat(LLM, graph, "What is a tokenizer?"),
        ):
            assert result.answer == said and not result.covered


def test_a_concept_nothing_says_what_it_is_is_said_by_its_name_not_the_whole_question(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # genai: "What is Generative AI Application Lifecycle?" (a lesson's title, a concept, that no
    # sentence shown says what it is) answered 'The graph does not cover "What is Generative AI
    # Application Lifecycle?".', the whole question.
    lessons = {"01-decoding.md": "# Speculative Decoding\n\n*Speculative decoding* speeds up inference.\n"}
    with course_graph(tmp_path_factory.mktemp("named"), lessons) as graph:
        assert "speculative-decoding" in graph.concepts
        said = unanswered_said(graph, "What is Speculative Decoding?", ["speculative-decoding"])
        assert said == 'The graph does not cover what "Speculative Decoding" is.'
        other = unanswered_said(graph, "How fast is it?", ["speculative-decoding"])
        assert other == 'The lessons do not answer "How fast is it?".'
