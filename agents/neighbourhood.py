"""A neighbourhood: the part of the graph around a few concepts, read with indexed queries.

:meth:`GraphView.of_store <agents.support.GraphView.of_store>` reads the whole graph; a judge that
looks at a handful of edges (re-check) needs only what :meth:`GraphView.support` asks about them:

- the edges touching the given concepts and the edges touching their neighbours, which is every
  edge a path of at most three edges between two given concepts can use, so the paths, neighbours,
  degrees and learning-order degrees of the given concepts are those of the whole graph;
- the concepts within one hop, with their aliases and lesson links: the corpus of the TF-IDF
  similarity and of the citation counts, which are therefore relative to the neighbourhood;
- the lessons in ingestion order (lessons are few beside concepts and edges).

The reads grow with the neighbourhood, not with the graph: the edges by their source come from an
index (the one-active-version index); by their target from a scan of that index's keys, the one
read a future index on ``concept_edges(dst)`` would make a search.
"""

from __future__ import annotations

from collections.abc import Iterable

from agents.lesson_index import prose_reader
from agents.support import GraphView, current_positions
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["neighbourhood_view"]


def neighbourhood_view(store: Store, concepts: Iterable[str], schema: GraphSchema = CURRICULUM) -> GraphView:
    """The view of the graph around ``concepts`` (see the module docstring)."""
    centre = set(concepts)
    near = store.triples_touching(centre)
    hop = centre | {src for src, _, _ in near} | {dst for _, _, dst in near}
    edges = store.triples_touching(hop)
    position = current_positions(store)
    taught: dict[str, int] = {}
    members: dict[str, set[str]] = {}
    for row in store.lesson_links(hop):
        concept, lesson = str(row["concept_id"]), str(row["lesson_id"])
        if lesson not in position:
            continue  # a version a later one replaced, or a withdrawn lesson
        members.setdefault(concept, set()).add(lesson)
        at = position.get(lesson)
        if row["role"] == "teaches" and at is not None:
            taught[concept] = min(at, taught.get(concept, at))
    return GraphView(
        store.concepts_by_id(hop),
        edges,
        store.aliases_of(hop),
        schema,
        taught,
        len(position),
        members,
        prose_reader(store),
    )
