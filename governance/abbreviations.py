"""An abbreviation of a question that a concept answers to ("SSD": "Solid state drives"), where a
lesson writes it for another long form ("single shot multibox detection (SSD)", d2l): a course may
use one abbreviation for different things, and the question's other words say which is meant. The
other long form is meant when the lesson that writes it shares more of those words ("YOLO",
"object", "detection") than any lesson on the concept; the question is then read with the long
form, and said: "Taking "SSD" to mean "single shot multibox detection"."."""

from __future__ import annotations

import re

from agents.answer_forms import WORD, content_terms
from agents.expansions import long_forms, short_key
from agents.text import acronym_of, find_mentions, normalize_name, sentences
from governance.excerpts import LessonChunk, graph_lexicon, lesson_chunks
from magg_kg.graph_index import GraphIndex

__all__ = ["meant_otherwise"]


def meant_otherwise(graph: GraphIndex, question: str) -> tuple[int, int, str] | None:
    """The first abbreviation of the question that means another long form than the concept it
    names (module docstring): its span and that long form; None when there is none."""
    for start, end, concept in find_mentions(question, graph_lexicon(graph)):
        written = question[start:end]
        if acronym_of(written) is None:
            continue
        other = set(content_terms(f"{question[:start]} {question[end:]}"))
        named = {normalize_name(name) for name in graph.names.get(concept, ())}
        forms, theirs = _long_forms_written(graph, written, named, other)
        ours = max(
            (
                len(other & c.terms)
                for c in lesson_chunks(graph)
                if concept in c.concepts and c.lesson_id not in theirs
            ),
            default=0,
        )
        best = max(forms.items(), key=lambda item: item[1], default=None)
        if best is not None and best[1] > ours:
            return start, end, best[0]
    return None


def _long_forms_written(
    graph: GraphIndex, written: str, named: set[str], other: set[str]
) -> tuple[dict[str, int], set[str]]:
    """The long forms the lessons write for the abbreviation that are no name of the concept, each
    with the most of the question's ``other`` words a chunk writing it shares; and the lessons that
    write them, whose other chunks are about that long form, not the concept (a graph may have
    linked them to it by the abbreviation)."""
    key, found, lessons = short_key(written), dict[str, int](), set[str]()
    for form, chunk in _written_forms(graph, written):
        if normalize_name(form) not in named and _initialled(key, form):
            found[form] = max(found.get(form, 0), len(other & chunk.terms))
            lessons.add(chunk.lesson_id)
    return found, lessons


def _written_forms(graph: GraphIndex, written: str) -> list[tuple[str, LessonChunk]]:
    """Each long form a lesson writes beside the abbreviation, with the chunk that writes it; read
    once per graph and abbreviation, not once per question."""

    def build() -> list[tuple[str, LessonChunk]]:
        key = short_key(written)
        pattern = re.compile(rf"(?<!\w){re.escape(written.rstrip('s'))}s?(?!\w)")
        return [
            (form, chunk)
            for chunk in lesson_chunks(graph)
            if pattern.search(chunk.text)
            for sentence in sentences(chunk.text)
            for form in long_forms(sentence.text, key)
        ]

    return graph.kept(("long forms", written), build)


def _initialled(key: str, form: str) -> bool:
    """Whether each letter of the abbreviation ``key`` starts a word of the long form, in order, the
    first its first word's: "single shot multibox detection" for "ssd", not "automation" for "ai"
    (one word whose letters hold "a" and "i"): a name of several words is shortened by its words'
    initials; one other word is no long form of a different sense.

    >>> _initialled("ssd", "single shot multibox detection"), _initialled("ai", "automation")
    (True, False)
    """
    initials = iter(word[0].lower() for word in WORD.findall(form))
    return bool(key) and key[0] == next(initials, "") and all(letter in initials for letter in key[1:])
