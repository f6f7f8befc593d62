"""A word written with or without the hyphen after its prefix: a learner asks "What is re-ranking in
a RAG pipeline?", genai's lesson writes "A reranking LLM utilizes Machine Learning to improve the
relevance of search results ...". The question's "re-ranking" and the lesson's "reranking" were two
terms, and "in a RAG pipeline" made RAG what the expert read about; the answer was 'The graph does
not cover what "re-ranking" is.'
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.answer_forms import content_terms
from agents.qa import offline_handlers
from agents.text import find_mentions
from governance.excerpts import graph_lexicon
from governance.lacked_subjects import lacked_subjects
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
SAID = "A reranking model orders the search results from the most relevant to the least relevant."
LESSONS = {
    "01-rag.md": "# Retrieval Augmented Generation\n\n*Retrieval Augmented Generation (RAG)* gives a "
    "language model the documents a search finds. A RAG pipeline embeds the question, searches a "
    "vector database and passes what it finds to the model.\n",
    "02-search.md": f"# Search results\n\nSearch results come back in the order of their scores. {SAID}\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("prefixed"), LESSONS) as graph:
        yield graph


def test_a_prefixed_word_is_one_term_with_or_without_its_hyphen() -> None:
    assert content_terms("re-ranking") == content_terms("reranking") == ["rerank"]
    assert content_terms("pre-trained, non-linear") == content_terms("pretrained, nonlinear")
    assert content_terms("self-attention") == ["self-attent"]  # no prefix: the hyphen stays


def test_what_a_term_is_in_the_setting_of_a_concept_asks_about_the_term(graph: GraphIndex) -> None:
    assert find_mentions("in a RAG pipeline", graph_lexicon(graph))  # the setting names a concept
    assert lacked_subjects(graph, ["What is re-ranking in a RAG pipeline?"]) == ["re-ranking"]
    assert lacked_subjects(graph, ["What is a RAG pipeline?"]) == [""]


def test_re_ranking_is_answered_where_a_lesson_writes_reranking(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, "What is re-ranking in a RAG pipeline?", {})
    assert SAID in result.answer and result.citations
    assert "does not cover" not in result.answer
