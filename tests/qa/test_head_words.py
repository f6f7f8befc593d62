"""A "What is X model?" question whose term the graph lacks and no lesson defines, read as "What is
X?" where the lessons hold X, and said ("Taking "word2vec model" to mean "word2vec"."); a term a
lesson defines is answered as asked, and an X that is an everyday word or no name the lessons hold
is still not covered."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.experts import QAResult
from governance.head_words import headless
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
WORD2VEC = "The word2vec tool was proposed to learn such vectors from a corpus."
BIGRAM = "The bigram model is a table of counts of word pairs."
LESSONS = {
    "01-embeddings.md": "# Word embedding\n\nA *word embedding* is a mapping of words to real vectors. "
    f"{WORD2VEC} The word2vec tool contains two models, the skip-gram and the continuous bag of words.\n",
    "02-counts.md": f"# Counts\n\nWe turn to counts of bigrams next. {BIGRAM}\n",
    "03-regression.md": "# Regression\n\n*Linear regression* is a model of a linear relation. "
    "A banana is yellow. You can run the code of this section in a Jupyter notebook.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("heads"), LESSONS) as graph:
        yield graph


def _both(graph: GraphIndex, question: str) -> list[QAResult]:
    return [answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)]


def test_the_graph_is_as_the_tests_read_it(graph: GraphIndex) -> None:
    names = {name.lower() for names in graph.names.values() for name in names}
    assert "word embedding" in names
    assert not {"word2vec", "word2vec model", "bigram", "bigram model", "banana", "quokka"} & names


def test_a_name_with_a_generic_head_word_is_read_without_it_and_said(graph: GraphIndex) -> None:
    # d2l: "What is a word2vec model?" was 'The graph does not cover "word2vec model".', though
    # "What is word2vec?" is answered from the lessons' sentences about word2vec.
    for plain, result in zip(
        _both(graph, "What is word2vec?"), _both(graph, "What is a word2vec model?"), strict=True
    ):
        assert plain.covered and WORD2VEC in plain.answer
        assert result.question == "What is a word2vec model?" and result.covered
        assert result.answer == f'Taking "word2vec model" to mean "word2vec". {plain.answer}'


def test_a_term_a_lesson_defines_whole_is_asked_as_it_is(graph: GraphIndex) -> None:
    assert headless(graph, "What is the bigram model?") == ("What is the bigram model?", "")
    for result in _both(graph, "What is the bigram model?"):
        assert "Taking" not in result.answer and BIGRAM in result.answer


@pytest.mark.parametrize(
    "question", ["What is a banana model?", "What is a quokka model?", "What is a linear model?"]
)
def test_an_everyday_word_an_adjective_or_a_name_no_lesson_holds_is_still_not_covered(
    graph: GraphIndex, question: str
) -> None:
    assert headless(graph, question) == (question, "")
    for result in _both(graph, question):
        assert not result.covered and "Taking" not in result.answer


def test_a_name_the_lessons_only_mention_in_passing_is_not_read_without_its_head_word(
    graph: GraphIndex,
) -> None:
    # A blind review: "What is a Jupyter model?" became 'Taking "Jupyter model" to mean "Jupyter".
    # The graph does not cover "Jupyter".', a reading that found nothing, said as if it had.
    question = "What is a Jupyter model?"
    assert headless(graph, question) == (question, "")
    for result in _both(graph, question):
        assert "Taking" not in result.answer
