"""A name of one word written clipped, as learners write it: d2l's "... is it cause of backprop"
answered 'The graph does not cover "... backprop?".', though the lesson on backpropagation says why
training needs more memory than prediction; "backprop" is no word the graph holds."""

from __future__ import annotations

import pytest

from governance.clippings import clipped_name
from governance.spelling import respelled
from tests.qa.courses import course_graph

LESSONS = {
    "01-tokenization.md": (
        "# Tokenization\n\n*Tokenization* splits a text into tokens before a model reads it.\n"
    ),
    "02-training.md": "# Training\n\n*Training* fits the weights of a model to data.\n",
}


def test_a_clipped_one_word_name_is_read_as_the_name(tmp_path_factory: pytest.TempPathFactory) -> None:
    with course_graph(tmp_path_factory.mktemp("clipped"), LESSONS) as graph:
        assert "tokenization" in graph.concepts
        asked, said = respelled(graph, "does tokeniz hurt long words?")
        assert asked == "does Tokenization hurt long words?"
        assert said == 'Taking "tokeniz" to mean "Tokenization".'
        # An English word that a name only begins with, or one clipped by too little, names nothing.
        assert clipped_name(graph, "how do I train it?") is None
        assert clipped_name(graph, "what is tokenizati?") is None
