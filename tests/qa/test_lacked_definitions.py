"""A "What is X?" question about a name the graph has no concept of, which a lesson titles a
section by and defines only later: d2l's "Single Shot Multibox Detection" section says what the
model is in its summary ("Single shot multibox detection is a multiscale object detection
model."), but the excerpts read were the section's first chunks, in order, and the answer was
'The graph does not cover "single shot multibox detection".'"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.offline.handlers import offline_handlers
from governance.excerpts import find_excerpts
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
SAID = "Single shot multibox detection is a multiscale object detection model."
FILLER = " ".join(
    f"The anchor boxes of layer {n} are scaled by the feature map blocks, and the base network "
    f"block feeds block {n + 1} with its output channels."
    for n in range(12)
)
LESSONS = {
    "01-detection.md": "# Object detection\n\n*Object detection* finds the objects in an image and "
    "the bounding boxes around them.\n",
    "02-ssd.md": f"# Single Shot Multibox Detection\n\nWe describe the multibox design of single shot "
    f"detection here.\n\n## Model\n\n{FILLER}\n\n## Training\n\n{FILLER}\n\n## Summary\n\n{SAID} "
    "It predicts classes and offsets of anchor boxes.\n",
}
QUESTION = "What is single shot multibox detection?"


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("lacked-defined"), LESSONS) as graph:
        yield graph


def test_the_chunk_that_says_what_a_lacked_name_is_is_read_first(graph: GraphIndex) -> None:
    assert SAID in find_excerpts(graph, QUESTION)[0].text


def test_a_lacked_name_a_lesson_defines_is_answered_by_its_definition(graph: GraphIndex) -> None:
    result = answer_routed(LLM, graph, QUESTION, {})
    assert SAID in result.answer and result.citations
    assert "does not cover" not in result.answer
