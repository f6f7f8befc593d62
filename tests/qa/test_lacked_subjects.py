"""A part of a question that points back to a term the graph lacks ("What is LoRA and can I use it
to ...?") asks about that term: a lesson sentence answers it only if it says the term."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from agents.clauses import resolved_clauses
from agents.qa import offline_handlers
from governance.excerpts import graph_lexicon
from governance.qa import answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LESSONS = {
    "01-fine-tuning.md": "# Fine-tuning\n\n*Fine-tuning* adapts a pretrained model to a new task. "
    "This is the most commonly used method to fine-tune a model, but it also requires GPU "
    "acceleration on a single GPU or more.\n",
    "02-transformers.md": "# Transformers\n\n*Transformers* read text with attention. Transformers "
    "overcame the limits of RNNs and take much longer sequences of text as input, when the "
    "conversation gets longer. A context window is the number of tokens a transformer reads at once.\n",
    "03-chat-models.md": "# Chat models\n\n*Chat models* answer in turns. Most chat models are built "
    "on a transformer and tuned on conversations, which is why they answer in turns.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("lacked"), LESSONS) as graph:
        yield graph


def test_it_as_the_object_of_a_verb_points_back_to_the_name_before() -> None:
    # "use it to fine-tune" was read as "Is it possible to ...": the "it" pointed to nothing.
    assert resolved_clauses(["What is LoRA", "can I use it to fine-tune a model"], {}) == [
        "What is LoRA",
        "can I use LoRA to fine-tune a model",
    ]
    assert resolved_clauses(["Is it possible to use dropout"], {}) == ["Is it possible to use dropout"]


def test_that_way_points_back_to_what_a_part_asks_the_meaning_of() -> None:
    # "chat models", a name of the clause's own, is no manner "that way" could stand for
    clauses = ["What does decoder-only mean", "why are most chat models built that way"]
    keys = {"chat models": "chat-model"}
    assert resolved_clauses(clauses, keys) == [clauses[0], "why are most chat models built decoder-only"]


def test_a_part_about_a_term_no_lesson_says_quotes_nothing(graph: GraphIndex) -> None:
    # genai: quoted "This is the most commonly used method, but it also requires GPU acceleration."
    result = answer_routed(
        LLM, graph, "What is LoRA and can I use it to fine-tune a model on a single GPU?", {}
    )
    assert not result.citations
    assert "GPU acceleration" not in result.answer
    assert result.answer.count('The graph does not cover "LoRA"') == 1


@pytest.mark.parametrize(
    ("question", "term"),
    [
        (
            "What is a context window, and what happens when my conversation gets longer than it?",
            "context window",
        ),
        ("What does decoder-only mean, and why are most chat models built that way?", "decoder-only"),
    ],
)
def test_a_part_that_points_back_to_a_term_the_graph_lacks_quotes_only_what_says_it(
    graph: GraphIndex, question: str, term: str
) -> None:
    # genai: quoted a Transformer history sentence for the context window, an Ollama sentence for
    # decoder-only; neither says the term the part asks about.
    result = answer_routed(LLM, graph, question, {})
    assert term in str(result.sub_questions[1]["text"])
    assert "longer sequences" not in result.answer and "built on a transformer" not in result.answer
    assert all(term in quoted.lower() for quoted in re.findall(r'The lesson says "([^"]+)"', result.answer))
    assert term in result.answer and re.search(r"graph does not cover|lessons do not answer", result.answer)


def test_a_sentence_that_only_names_the_term_does_not_answer_what_is_asked_of_it(graph: GraphIndex) -> None:
    # The sentence that says what a context window is says nothing of pricing: it answers the first
    # part, not the second.
    question = "What is a context window, and why does it matter for pricing?"
    assert "context window" not in graph_lexicon(graph)  # a term the graph lacks
    result = answer_routed(LLM, graph, question, {})
    assert result.sub_questions[1]["text"] == "why does context window matter for pricing?"
    assert 'The lessons do not answer "why does context window matter for pricing?"' in result.answer
