"""Which of two concepts the lessons teach first: said beside a "which comes first" question the
graph cannot settle (no learning path joins the two), as the lessons' order, never as the graph's."""

from __future__ import annotations

from governance.excerpts import lesson_chunks
from magg_kg.graph_index import GraphIndex

__all__ = ["taught_first"]


def _first_chunk(graph: GraphIndex, concept: str) -> tuple[int, str] | None:
    """The position and title of the first chunk that teaches the concept, else of the first that
    names it (None when no chunk does)."""
    chunks = lesson_chunks(graph)
    for taught in (True, False):
        for position, chunk in enumerate(chunks):
            if concept in (chunk.teaches if taught else chunk.concepts):
                return position, chunk.title
    return None


def taught_first(graph: GraphIndex, first: str, second: str) -> str:
    """The sentence that says which of two concepts the lessons teach first, labelled as the
    lessons' order; "" when the lessons do not teach both, or teach them in the same section."""
    found = [(_first_chunk(graph, concept), concept) for concept in (first, second)]
    if any(where is None for where, _ in found):
        return ""
    (early, earlier), (late, later) = sorted(
        (where, concept) for where, concept in found if where is not None
    )
    if early[0] == late[0] or early[1] == late[1]:
        return ""
    return (
        f'The lessons teach {graph.concepts[earlier].name} first ("{early[1]}"), '
        f'{graph.concepts[later].name} later ("{late[1]}"): that is the order of the lessons, '
        "not a learning path of the graph."
    )
