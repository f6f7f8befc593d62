"""A how-to question that does something to a thing in a setting a concept names ("How do I write a
good system message for my chatbot?") asks about the thing: the sections that write it answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.made_things import made_thing
from agents.qa import offline_handlers
from governance.excerpts import find_excerpts, graph_lexicon
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph
from tests.qa.test_lacked_subjects import LESSONS as TUNING

LLM = OfflineLLM(offline_handlers())
GUIDE = "When writing a commit message, keep it short and say why the change was made, not what it shows."
LESSONS = {**TUNING, "04-version-control.md": f"# Version control\n\n*Git* records changes.\n\n{GUIDE}\n"}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("made"), LESSONS) as graph:
        yield graph


def test_the_thing_done_in_a_setting_a_concept_names_is_the_subject() -> None:
    keys = {"transformer": "transformer", "dropout": "dropout"}
    assert made_thing("How do I write a clear commit message for a transformer?", keys) == "commit message"
    assert made_thing("How can we pick the best learning rate for a transformer?", keys) == "learning rate"
    assert made_thing("How do I add dropout to my transformer?", keys) == ""  # the thing is a concept
    assert made_thing("How do I write a commit message for my team?", keys) == ""  # no concept is the setting
    assert made_thing("What is a commit message for a transformer?", keys) == ""
    # one word after a word of quality is no name: "a good prompt" is a prompt, not a "good prompt"
    assert made_thing("How do I write a good summary for my transformer?", keys) == ""


def test_the_section_that_writes_the_thing_is_read_first(graph: GraphIndex) -> None:
    # genai: "How do I write a good system message for my chatbot?" quoted "a student can ask the
    # chatbot to ..." and never the section on writing system messages.
    question = "How should I write a good commit message for my chat models?"
    assert made_thing(question, graph_lexicon(graph)) == "commit message"
    found = find_excerpts(graph, question)
    assert found and GUIDE in found[0].text
    result = answer_routed(LLM, graph, question, {})
    assert GUIDE in result.answer, result.answer
