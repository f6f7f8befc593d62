"""What comes after a step of a process a lesson lays out ("In the X pipeline, what comes after
Y?"): the sentence of the next step, quoted with its chunk; nothing where the question names no
process, or no lesson lays the step out."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from governance.process_steps import asks_after, next_step
from magg_kg.graph_index import GraphIndex
from tests.qa.courses import course_graph

LESSONS = {
    "01-bread.md": "# The Bread Pipeline\n\nA **sourdough starter** is a culture of wild yeast.\n\n"
    "The bread pipeline has three steps.\n\n"
    "1. Mixing, combining flour, water and the starter until smooth.\n"
    "1. Proofing, letting the dough rise for a few hours.\n"
    "1. Baking: the loaf goes into a hot oven until its crust is brown.\n",
    "02-storage.md": "# Storing Bread\n\nA **bread box** is a box that keeps a loaf from drying out.\n\n"
    "Storing bread in a bread box keeps it fresh for days. The pipeline ends with the bread box.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("steps"), LESSONS) as built:
        yield built


def test_the_step_after_one_a_lesson_lays_out_is_its_next_sentence(graph: GraphIndex) -> None:
    said, cited = next_step(graph, "In the sourdough pipeline, what comes after proofing?")
    assert said.startswith('In the lessons, the step after "Proofing, letting the dough rise')
    assert '"Baking: the loaf goes into a hot oven until its crust is brown."' in said
    assert len(cited) == 1 and f"[{cited[0]}]" in said


def test_no_step_is_said_without_a_process_or_a_step_the_lessons_lay_out(graph: GraphIndex) -> None:
    assert next_step(graph, "What comes after proofing?") == ("", [])
    assert next_step(graph, "In the sourdough pipeline, what comes after slicing?") == ("", [])
    # a sentence that opens with the word but sets off no step's label lays out no step
    assert next_step(graph, "In the bread pipeline, what comes after storing?") == ("", [])


def test_a_concept_that_only_qualifies_the_process_is_not_what_is_asked_after() -> None:
    # genai: "In the LLM app lifecycle, what comes after ideating and exploring?" was answered with
    # what builds on LLMs once the graph held an edge from them, not with the step the lesson lays out
    assert not asks_after("In the bakery's sourdough pipeline, what comes after proofing?", ["sourdough"])
    assert asks_after("In the bread pipeline, what comes after the sourdough starter?", ["sourdough starter"])
    assert not asks_after("What is a sourdough starter?", ["sourdough starter"])
