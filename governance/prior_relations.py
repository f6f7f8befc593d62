"""What the graph and the lessons hold before a concept the graph states no prerequisite of: the
concepts an edge of another kind (related, part of, ...) joins to it that the lessons teach in an
earlier lesson than the one that first teaches it (a concept only named there is not taught), said
as related concepts in the lessons' order, never as prerequisites.

The strongest edges (highest confidence) first, one per concept, at most :data:`MOST`; an edge that
states a learning order is left out (one out of the concept says the other comes after it). The
edges the sentence cites are the answer's citations; they do not make it covered: they say what the
graph holds beside the prerequisites asked for, not those."""

from __future__ import annotations

from governance.teaching_order import first_chunk
from magg_kg.graph_index import GraphIndex
from magg_kg.learning_order import Touching, order_step

__all__ = ["MOST", "related_before"]

MOST = 5
"""How many related concepts the sentence names at most."""


def related_before(graph: GraphIndex, concept: str, touching: Touching) -> tuple[str, list[str]]:
    """The answer for a concept the graph states no prerequisite of: that it states none, then the
    concepts related to it (by the edges ``touching`` gives) that the lessons teach in an earlier
    lesson, each with the title of the section that first teaches it and its edge cited, and the
    edges it cites; ("", []) when the lessons teach none of them before it (or do not teach it)."""
    where = first_chunk(graph, concept, named=False)
    if where is None:
        return "", []
    edges = sorted(
        (e for e in touching(concept) if order_step(e) is None),
        key=lambda e: (-e.grounding.confidence, e.edge_id),
    )
    named: dict[str, tuple[str, str]] = {}  # concept: the title of its section, the edge cited
    for edge in edges:
        other = edge.dst if edge.src == concept else edge.src
        if other in named or other == concept or other not in graph.concepts:
            continue
        taught = first_chunk(graph, other, named=False)
        if taught is not None and taught[0] < where[0] and taught[1].lesson_id != where[1].lesson_id:
            named[other] = (taught[1].title, edge.edge_id)
            if len(named) == MOST:
                break
    if not named:
        return "", []
    listed = ", ".join(f'{graph.concepts[c].name} ("{title}") [{e}]' for c, (title, e) in named.items())
    lead = f"The graph states no prerequisite of {graph.concepts[concept].name}."
    return f"{lead} Related concepts the lessons teach before it: {listed}.", [e for _, e in named.values()]
