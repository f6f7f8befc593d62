"""The kinds of a concept that the lessons name after it, when the graph has no part for it.

"What kinds of soil erosion are there?" is typed parts (what is part of X); a graph with no
part_of edge into soil erosion says only that it does not cover them. The lesson that teaches X
may still name its kinds, in names that end in X's head noun ("wind erosion", "water erosion" for
"soil erosion"), each introduced where the lesson first writes its name in emphasis ("*Wind
erosion* carries the topsoil away."). Those concepts of the graph, named so in a lesson that teaches
X, are its kinds in the lessons' own names: said as such (not as edges of the graph), each with the
sentence that introduces it (and the one before, when that sentence only names what the one before
says: "We call this *wind erosion*.", :func:`agents.passages.names_back`). Only a question that asks
for kinds (types, sorts, forms, categories), not for the parts of a whole, and only two kinds or more.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.passages import names_back
from agents.text import sentences
from governance.excerpts import LessonChunk, lesson_chunks
from governance.experts import ExpertReport
from magg_kg.graph_index import GraphIndex

__all__ = ["asks_kinds", "kinds_report", "named_kinds"]

_KINDS = re.compile(r"\b(?:kinds?|types?|sorts?|forms?|categor(?:y|ies)|variet(?:y|ies)|variants)\b", re.I)
"""The words a question asks for the kinds of a thing by."""


def asks_kinds(question: str) -> bool:
    """Whether a question asks for the kinds of something, not its parts.

    >>> asks_kinds("What kinds of soil erosion are there?"), asks_kinds("What are the parts of a cell?")
    (True, False)
    """
    return _KINDS.search(question) is not None


def named_kinds(graph: GraphIndex, concept: str) -> list[tuple[str, str, str]]:
    """The concepts named after ``concept``'s head noun that a lesson teaching it introduces in
    emphasis, in the order it does: (name, chunk id, the sentences that introduce it)."""
    whole = graph.concepts[concept].name.lower().split()
    if not whole:
        return []
    chunks = lesson_chunks(graph)
    lessons = {chunk.lesson_id for chunk in chunks if concept in chunk.teaches}
    taught = [chunk for chunk in chunks if chunk.lesson_id in lessons]
    found: list[tuple[int, str, str, str]] = []
    for other in graph.concepts.values():
        words = other.name.lower().split()
        if other.id == concept or len(words) < 2 or words[-1] != whole[-1] or words == whole:
            continue
        said = _introduced(taught, other.name)
        if said is not None:
            found.append((said[0], other.name, said[1], said[2]))
    return [(name, chunk, sentence) for _, name, chunk, sentence in sorted(found)]


def _introduced(chunks: Sequence[LessonChunk], name: str) -> tuple[int, str, str] | None:
    """Where the chunks first write ``name`` in emphasis: (its place, the chunk's id, the sentence)."""
    emphasised = re.compile(rf"(\*{{1,2}}|_){re.escape(name)}\1(?!\w)", re.IGNORECASE)
    for order, chunk in enumerate(chunks):
        said = [s.text for s in sentences(chunk.text)]
        for position, sentence in enumerate(said):
            if found := emphasised.search(sentence):
                before = said[position - 1] if position else None
                whole = f"{before} {sentence}" if before and names_back(sentence, before) else sentence
                return (order * 10_000 + position) * 10_000 + found.start(), chunk.id, whole
    return None


def kinds_report(graph: GraphIndex, text: str, concepts: Sequence[str]) -> ExpertReport | None:
    """What the lessons name as kinds of the one concept of a kinds question (``text``) the graph
    has no parts for, as an answer citing the chunks that introduce them; None when the question asks
    for no kinds, or fewer than two are named."""
    if len(concepts) != 1 or not asks_kinds(text):
        return None
    kinds = named_kinds(graph, concepts[0])
    if len(kinds) < 2:
        return None
    # A name written with a capital only to open a heading ("Average pooling") is said in lower case.
    names = [name[:1].lower() + name[1:] if name[1:2].islower() else name for name, _, _ in kinds]
    listed = f"{', '.join(names[:-1])} and {names[-1]}"
    whole = graph.concepts[concepts[0]].name
    quotes = " ".join(dict.fromkeys(f'The lesson says "{said}" [{chunk}].' for _, chunk, said in kinds))
    chunk_ids = list(dict.fromkeys(chunk for _, chunk, _ in kinds))
    return ExpertReport(
        "",
        text,
        list(concepts),
        [],
        answer=f"The lesson that teaches {whole} names these kinds of it: {listed}. {quotes}",
        short_answer=listed,
        citations=chunk_ids,
        excerpts_seen=chunk_ids,
        support=1.0,
    )
