"""An acronym no lesson writes is read as the name whose initials it is ("RNNs" for "recurrent
neural networks"), in the acronym's number; one a lesson writes is kept as asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from governance.spelling import respelled
from magg_kg.graph_index import GraphIndex
from tests.qa.courses import course_graph

SEQUENCES = (
    "# Recurrent Neural Networks\n\n*Recurrent neural networks* keep a hidden state that carries what "
    "was read at one step of a sequence to the next step. The same weights are applied at every step.\n"
)
IMAGES = (
    "# Convolutional Neural Networks\n\n*Convolutional neural networks* (CNNs) slide small filters over "
    "an image. A CNN shares the weights of each filter across positions.\n"
)


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    lessons = {"01-sequences.md": SEQUENCES, "02-images.md": IMAGES}
    with course_graph(tmp_path_factory.mktemp("initialisms"), lessons) as graph:
        yield graph


def test_an_acronym_no_lesson_writes_is_read_as_the_name_it_abbreviates(graph: GraphIndex) -> None:
    # d2l: "How do GANs work?" quoted sentences that did not name generative adversarial networks.
    assert respelled(graph, "How do RNNs work?") == (
        "How do recurrent neural networks work?",
        'Taking "RNNs" to mean "recurrent neural networks".',
    )
    assert respelled(graph, "What is an RNN?") == (
        "What is a recurrent neural network?",
        'Taking "an RNN" to mean "a recurrent neural network".',
    )


def test_an_acronym_a_lesson_writes_is_kept(graph: GraphIndex) -> None:
    for asked in ("How do CNNs work?", "What is a CNN?"):
        assert respelled(graph, asked) == (asked, "")
