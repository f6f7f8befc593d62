"""A lesson as a reader reads it: its prose view with formulas and inline code kept as written
(:data:`QUOTED`), what else is no prose left out, and an edge's grounding quote read from it
(:func:`edge_quote`). Excerpts (:mod:`governance.excerpts`) and the quotes an answer shows read the
same view, so that what an excerpt says and what a quote says read alike."""

from __future__ import annotations

import re
from functools import lru_cache

from agents.cross_references import without_holes
from magg_kg.graph_index import GraphIndex
from magg_kg.markup import KINDS, Flavor, RegionKind, find_prose, flavor_of
from magg_kg.records import EdgeVersion, Lesson

__all__ = ["QUOTED", "as_quoted", "edge_quote", "reader_view"]

QUOTED: tuple[RegionKind, ...] = ("math", "inline_code")
"""What a quote keeps of the text that is not prose: its formulas and code are part of what it
says, where a link's target, a tag or an image is not."""
_LEFT_OUT = re.compile(r"\s*\0+(?=[.,;:!?)\]])|\s*\(\0+\)|\s*\[\0+\]")
"""Markup left out just before the punctuation that ends a clause ("[processing](url)."), and
brackets that held nothing else ("example (:numref:`sec_poly`) we could"), with the space before
them."""


def as_quoted(shown: str) -> str:
    """A stretch of a lesson's text as :func:`reader_view` shows it, as a reader reads it: without the
    words a left-out cross-reference leaves pointing at nothing ("as described in :numref:`x`.",
    or "as described in ." in a lesson converted without it: :func:`agents.cross_references.without_holes`),
    without what :data:`_LEFT_OUT` leaves, and with a space for what else was left out."""
    return _LEFT_OUT.sub("", without_holes(shown)).replace("\0", " ")


def edge_quote(graph: GraphIndex, edge: EdgeVersion) -> str:
    """An edge's first grounding quote as a reader reads it, on one line: its lesson's prose view at
    the quote's offsets, with its math and inline code as written (:data:`QUOTED`): a link's text
    without its target, no URL, tag or image, and no space where one was left out before a comma
    or a full stop. The quote as stored, when its lesson is not in the graph's store, when the
    offsets no longer hold the quote, or when none of it is prose."""
    span = edge.grounding.evidence[0]
    stored = " ".join(span.quote.split())
    lesson = graph.kept(("quoted", span.lesson_id), lambda: _quoted(graph, span.lesson_id))
    if lesson is None or lesson[0][span.start : span.end] != span.quote:
        return stored
    read = " ".join(as_quoted(lesson[1][span.start : span.end]).split())
    return read or stored


def _quoted(graph: GraphIndex, lesson_id: str) -> tuple[str, str] | None:
    """A lesson's text, and the same text as :func:`edge_quote` reads it (same length): the prose
    view with :data:`QUOTED` kept as written, and what was left out as ``\\0`` where it was blank,
    to see where a space is left before a comma (None for a lesson the graph's store does not
    hold). Made once per lesson and graph."""
    lesson = graph.store.lesson(lesson_id) if graph.store is not None else None
    return None if lesson is None else (lesson.text, reader_view(lesson))


def reader_view(lesson: Lesson) -> str:
    """A lesson's text as a reader reads it (same length): the prose view with :data:`QUOTED` kept
    as written, and what was left out as ``\\0`` where it was blank. Quotes and excerpts alike
    read it: an excerpt read from the prose view alone quoted "also referred to as ." where the
    lesson has "also referred to as `nearest neighbor search`."."""
    return _shown_text(lesson.text, flavor_of(lesson.source_path, lesson.text))


@lru_cache(maxsize=256)
def _shown_text(text: str, flavor: Flavor) -> str:
    markup = find_prose(text, flavor)
    kept = {KINDS.index(kind) + 1 for kind in QUOTED}
    shown = markup.keeping(text, QUOTED)
    return "".join(
        "\0" if code and code not in kept and char.isspace() and char != "\n" else char  # lines stay
        for char, code in zip(shown, markup.kinds, strict=True)
    )
