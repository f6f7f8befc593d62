"""A name a question writes without its generic head word ("Quokka-Digits" of the "Quokka-Digits
dataset"), anywhere in the question, is read as the one concept's name it shortens when the lessons
use it so: a rare word of it, and the concept's whole name written in a quarter of the lesson
chunks that write it."""

from __future__ import annotations

import pytest

from governance import spelling
from governance.excerpts import LessonChunk
from governance.spelling import respelled
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"


def _graph(monkeypatch: pytest.MonkeyPatch, names: list[str], texts: list[str]) -> GraphIndex:
    concepts = {
        f"c-{n}": Concept(id=f"c-{n}", name=name, type="concept", recorded_at=AT)
        for n, name in enumerate(names)
    }
    chunks = [
        LessonChunk(f"k-{n}", "l-1", "", text, frozenset(), frozenset()) for n, text in enumerate(texts)
    ]
    monkeypatch.setattr(spelling, "lesson_chunks", lambda graph: chunks)
    return GraphIndex(HashingEmbedding(), concepts, {c.id: (c.name,) for c in concepts.values()}, {}, {})


def test_a_dataset_named_without_its_head_word_is_read_as_the_dataset(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = ["The Quokka-Digits dataset holds 9000 small images.", "Quokka-Digits images are grey."]
    graph = _graph(monkeypatch, ["Quokka-Digits dataset", "kernel trick"], texts)
    assert respelled(graph, "How many images are in Quokka-Digits?") == (
        "How many images are in Quokka-Digits dataset?",
        'Taking "Quokka-Digits" to mean "Quokka-Digits dataset".',
    )


def test_a_short_name_the_lessons_use_for_more_or_an_everyday_word_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [
        "Install Zorbscript first.",
        "Zorbscript runs anywhere.",
        "Zorbscript is fast.",
        "Zorbscript is old.",
        "A Zorbscript function.",
    ]
    graph = _graph(
        monkeypatch, ["Zorbscript function", "loss function"], [*texts, "The loss function is small."]
    )
    for question in ("How do I install Zorbscript?", "Why does the loss go down?"):
        assert respelled(graph, question) == (question, "")


def test_each_place_is_read_once_and_said_once(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["The Quokka-Digits dataset holds 9000 small images.", "Quokka-Digits images are grey."]
    graph = _graph(monkeypatch, ["Quokka-Digits dataset", "kernel trick"], texts)
    said = 'Taking "Quokka-Digits" to mean "Quokka-Digits dataset".'
    assert respelled(graph, "Is Quokka-Digits big, and who made Quokka-Digits?") == (
        "Is Quokka-Digits dataset big, and who made Quokka-Digits dataset?",
        said,
    )
    assert respelled(graph, "What should I learn before Quokka-Digits?") == (
        "What should I learn before Quokka-Digits dataset?",
        said,
    )


def test_a_question_naming_a_concept_is_about_it(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = ["The Quokka-Digits dataset holds 9000 small images.", "Quokka-Digits images are grey."]
    graph = _graph(monkeypatch, ["Quokka-Digits dataset", "kernel trick"], texts)
    question = "Why does the kernel trick fail on Quokka-Digits?"
    assert respelled(graph, question) == (question, "")
