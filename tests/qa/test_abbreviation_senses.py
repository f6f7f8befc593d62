"""An abbreviation a concept answers to ("SSD": solid state drives), that a lesson writes for another
long form ("single shot multibox detection (SSD)"), is read by the question's other words."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.text import find_mentions
from governance.excerpts import graph_lexicon
from governance.spelling import respelled
from magg_kg.graph_index import GraphIndex
from tests.qa.courses import course_graph

HARDWARE = (
    "# Hardware\n\n*Solid state drives* (SSDs) use flash memory to store information persistently. "
    "Modern SSDs are much faster than hard disk drives. Writes on an SSD wear out its memory cells.\n"
)
DETECTION = (
    "# Single Shot Multibox Detection\n\nNow we are ready to design an object detection model: "
    "single shot multibox detection (SSD). This model is simple, fast, and detects objects at "
    "several scales with anchor boxes.\n"
)


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    lessons = {"01-hardware.md": HARDWARE, "02-ssd.md": DETECTION}
    with course_graph(tmp_path_factory.mktemp("senses"), lessons) as graph:
        yield graph


def test_an_abbreviation_is_read_as_the_long_form_the_questions_words_point_to(graph: GraphIndex) -> None:
    # d2l: "Is YOLO better than SSD for real-time object detection?" compared hard disk drives and
    # solid state drives.
    question = "Is YOLO better than SSD for real-time object detection?"
    names = [graph.concepts[c].name for _, _, c in find_mentions(question, graph_lexicon(graph))]
    assert [name.lower() for name in names] == ["solid state drives"]  # the precondition: SSD names them
    assert respelled(graph, question) == (
        "Is YOLO better than single shot multibox detection for real-time object detection?",
        'Taking "SSD" to mean "single shot multibox detection".',
    )
    # Words of the drives' lesson keep the concept.
    for asked in ("Why do SSDs wear out their memory cells?", "Is an SSD faster than a hard disk drive?"):
        assert respelled(graph, asked) == (asked, "")
