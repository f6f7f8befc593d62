"""Which of two concepts the lessons teach first: said beside a "which comes first" question the
graph cannot settle (no learning path joins the two), as the lessons' order, never as the graph's."""

from __future__ import annotations

from collections.abc import Callable

from agents.locations import names_only_elsewhere
from governance.excerpts import LessonChunk, defining_chunks, lesson_chunks, mention_finder
from magg_kg.graph_index import GraphIndex

__all__ = ["first_chunk", "taught_first"]


def first_chunk(graph: GraphIndex, concept: str, named: bool = True) -> tuple[int, LessonChunk] | None:
    """The position and the chunk of the first chunk that teaches the concept, else (``named``) of
    the first that names it (None when no chunk does). A course teaches a subject where a title or
    a heading is about it (:func:`_headed`), or where a sentence says what it is: that chunk comes
    before one a lesson's link to it cites (an introduction's history, "the chain rule (also known
    as backpropagation)"), which comes before one that only names it (an overview listing "RAG"
    among ways to improve results); a sentence that names it only to point to another part of the
    course ("Later chapters will introduce X, a procedure for ...") teaches it nowhere."""
    chunks = lesson_chunks(graph)
    defining = defining_chunks(graph, concept)
    names = [graph.concepts[concept].name, *graph.names.get(concept, ())] if concept in graph.concepts else []

    def here(chunk: LessonChunk) -> bool:  # not "Later chapters will introduce X, a procedure for ..."
        return not names_only_elsewhere(chunk.text, names)

    tiers: list[Callable[[LessonChunk], bool]] = [
        lambda chunk: _headed(graph, chunk, concept) or (chunk.id in defining and here(chunk)),
        lambda chunk: concept in chunk.teaches and here(chunk),
    ]
    if named:
        tiers.append(lambda chunk: concept in chunk.concepts)
    for teaches in tiers:
        for position, chunk in enumerate(chunks):
            if teaches(chunk):
                return position, chunk
    return None


def _headed(graph: GraphIndex, chunk: LessonChunk, concept: str) -> bool:
    """Whether its lesson's title or its section's heading is about the concept: opens with its name
    ("Prompt Engineering with Context", "[**Backpropagation**]"), not with a longer name that holds
    it ("Batch Normalization" for normalization) nor with another subject it is said of ("Analysis of
    Gradients in RNNs", "Training without Regularization")."""
    if concept not in chunk.title_concepts:
        return False
    finder = mention_finder(graph)
    for part in chunk.title.split(": "):
        opening = part.lstrip("[(*_ ")
        found = finder.find(opening)
        if found and found[0][0] == 0 and found[0][2] == concept:
            return True
    return False


def _where(graph: GraphIndex, concept: str) -> tuple[int, str] | None:
    found = first_chunk(graph, concept)
    return None if found is None else (found[0], found[1].title)


def taught_first(graph: GraphIndex, first: str, second: str) -> str:
    """The sentence that says which of two concepts the lessons teach first, labelled as the
    lessons' order; "" when the lessons do not teach both, or teach them in the same section."""
    found = [(_where(graph, concept), concept) for concept in (first, second)]
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
