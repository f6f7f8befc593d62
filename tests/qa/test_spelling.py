"""A concept's name misspelled in a question is read as the name, and said: "Taking "dropuot" to
mean "dropout"."; a word the lessons use, or one that is not near one name alone, is left as it is."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from agents.text import normalize_name
from governance.qa import answer_flat, answer_routed
from governance.spelling import respelled
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Concept
from tests.qa.courses import course_graph

AT = "2026-01-01T00:00:00.000000Z"
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


def _named(*names: str) -> GraphIndex:
    concepts = {
        normalize_name(name).replace(" ", "-"): Concept(
            id=normalize_name(name).replace(" ", "-"), name=name, type="concept", recorded_at=AT
        )
        for name in names
    }
    return GraphIndex(HashingEmbedding(), concepts, {c.id: (c.name,) for c in concepts.values()}, {}, {})


def test_a_name_without_its_generic_head_word_is_read_as_the_one_concept_it_shortens() -> None:
    # d2l: "What should I learn before attention?" was "The graph does not cover attention; it has
    # self-attention, attention pooling and Attention mechanisms": the learner meant the last.
    graph = _named("Attention mechanisms", "self-attention", "attention pooling", "multi-head attention")
    question = "What should I learn before attention?"
    assert respelled(graph, question) == (
        "What should I learn before Attention mechanisms?",
        'Taking "attention" to mean "Attention mechanisms".',
    )
    # A word that is only a part of several names picks none; nor does a shortening two names share,
    # or one a concept is named by, or one that is no noun ("convolutional" of "convolutional layers").
    for graph in (
        _named("self-attention", "attention pooling", "multi-head attention"),
        _named("attention mechanism", "attention model"),
        _named("attention", "attention mechanism"),
        _named("convolutional layers"),
        _named("custom layer"),
    ):
        for asked in (
            question,
            "What should I learn before convolutional?",
            "What should I learn before custom?",
        ):
            assert respelled(graph, asked) == (asked, "")


def test_a_name_with_later_words_clipped_is_read_as_the_one_concepts_name() -> None:
    # d2l: "batch norm and layer norm" matched "norms" (the word "norm") and quoted a stem of RGB images.
    graph = _named("batch normalization", "layer normalization", "norms", "dataset")
    question = "What's the difference between batch norm and layer norm?"
    assert respelled(graph, question) == (
        "What's the difference between batch normalization and layer normalization?",
        'Taking "batch norm" to mean "batch normalization". '
        'Taking "layer norm" to mean "layer normalization".',
    )
    # The first word whole, a clipping of 4 letters or more and at most half the word: "norm" alone,
    # "batch normaliz" (more than half), "batch nor" (3 letters) and "norm batch" are no clipped names.
    for asked in ("What is a norm?", "What is batch normaliz?", "What is batch nor?", "What is norm batch?"):
        assert respelled(graph, asked) == (asked, "")
    # A clipping two names share names neither.
    shared = _named("batch normalization", "batch normalizer")
    assert respelled(shared, question) == (question, "")
