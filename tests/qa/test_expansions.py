"""What an abbreviation stands for: its long form, read where a lesson writes the two together."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.answer_forms import name_spans
from agents.answer_spans import Excerpt
from agents.expansions import abbreviation_asked, expansion
from agents.offline.handlers import offline_handlers
from governance.evaluation.multihop import short_answer
from governance.excerpts import lesson_chunks
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
FORMS = (
    "What does {a} stand for?",
    "what do {a} stand for",
    "What is {a} short for?",
    "What is {a} an abbreviation for?",
    "What is the full form of {a}?",
    "What does the acronym {a} mean?",
)


@pytest.mark.parametrize("form", FORMS)
def test_each_way_of_asking_names_the_abbreviation(form: str) -> None:
    assert abbreviation_asked(form.format(a="ReLU")) == "ReLU"


@pytest.mark.parametrize("question", ["What is ReLU?", "What does ReLU mean?", "Who stands for ReLU?"])
def test_other_questions_ask_no_long_form(question: str) -> None:
    assert abbreviation_asked(question) == ""
    assert expansion(question, [Excerpt("c-1", "ReLU", "A rectified linear unit (ReLU) clips.")]) is None


@pytest.mark.parametrize(
    ("sentence", "asked", "long"),
    [
        # not every word need give a letter ("Processing")
        ("It is in the Natural Language Toolkit (NLTK) library.", "NLTK", "Natural Language Toolkit"),
        ("Natural Language Processing Toolkit (NLTK).", "NLTK", "Natural Language Processing Toolkit"),
        ("A popular choice is the *rectified linear unit* (*ReLU*).", "ReLU", "rectified linear unit"),
        ("A popular choice is the ReLU (rectified linear unit) function.", "ReLU", "rectified linear unit"),
        ("**Retrieval Augmented Generation, RAG**.", "RAG", "Retrieval Augmented Generation"),
        ("Central processing units (CPUs) are the centre of a computer.", "CPU", "Central processing units"),
        ("We use long short-term memory or LSTM for sequences.", "LSTMs", "long short-term memory"),
    ],
)
def test_the_long_form_is_the_fewest_words_beside_it_that_spell_it(
    sentence: str, asked: str, long: str
) -> None:
    span = expansion(f"What does {asked} stand for?", [Excerpt("c-1", "Notes", f"Intro. {sentence}")])
    assert span is not None and (span.text, span.excerpt, span.sentence) == (long, "c-1", sentence)


def test_a_long_form_that_holds_the_abbreviation_or_does_not_spell_it_is_none() -> None:
    excerpts = [
        Excerpt("c-1", "Serving", "NVIDIA NIM (NVIDIA Inference Microservices) serves models."),
        Excerpt("c-2", "Models", "We fit a model (TM) on text."),
    ]
    assert expansion("What does NVIDIA stand for?", excerpts) is None
    assert expansion("What does TM stand for?", excerpts) is None


def test_a_name_of_the_concept_asked_that_spells_it_answers_when_no_lesson_writes_both() -> None:
    excerpts = [Excerpt("c-1", "Sequences", "The long short-term memory adds a cell state.")]
    span = expansion("What is LSTM short for?", excerpts, ["long short-term memory"])
    assert span is not None and (span.text, span.excerpt) == ("long short-term memory", "c-1")
    assert expansion("What is LSTM short for?", excerpts, ["gated recurrent unit"]) is None


def test_a_closed_class_word_alone_at_a_sentences_start_is_no_name() -> None:
    def names(text: str) -> list[str]:
        return [text[a:b] for a, b in name_spans(text)]

    assert names("While we train, Adam Smith tunes the model.") == ["Adam Smith"]
    assert names("However it ends, Ann Lee wins.") == ["Ann Lee"]
    assert names("US officials met Ann Lee.") == ["US", "Ann Lee"]  # an acronym is no closed-class word


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    lessons = {
        "1-lstm.md": "# LSTM\n\nA *long short-term memory* (LSTM) network adds a memory cell to a recurrent "
        "network.\nThe LSTM keeps a cell state across time steps.\n",
        "2-gru.md": "# GRU\n\nThe GRU simplifies the LSTM and merges its gates.\n",
    }
    with course_graph(tmp_path_factory.mktemp("expansions"), lessons) as graph:
        yield graph


@pytest.mark.parametrize("form", FORMS)
def test_what_an_abbreviation_stands_for_is_answered_by_its_long_form(graph: GraphIndex, form: str) -> None:
    teaching = next(chunk.id for chunk in lesson_chunks(graph) if chunk.title == "LSTM")
    question = form.format(a="LSTM")
    for result in (answer_routed(LLM, graph, question, {}), answer_flat(LLM, graph, question)):
        assert result.sub_questions[0]["type"] == "open"  # "full form of" names no kind
        assert result.covered and short_answer(result) == "long short-term memory"
        assert teaching in result.citations
