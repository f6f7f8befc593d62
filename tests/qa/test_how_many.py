"""A "how many" question asks for a number, not for a passage that says "many". A learner asked "How many
images and classes are in Fashion-MNIST?"; the question's "many" matched a chunk on another data
set ("1400 images of hot dogs, and as many of other foods"), which outranked the chunk that names
the data set asked about, and the answer quoted the hot dogs.
"""

from __future__ import annotations

from agents.answer_forms import content_terms, question_terms
from governance.excerpts import LessonChunk, _Chunks, find_excerpts
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"
NAMED = "The Zalando catalogue set holds 70000 pictures of clothing in ten categories of items."
OTHER = "Our bird set has 900 pictures of herons, and as many pictures of other birds, in two categories."


def test_how_many_and_how_much_leave_their_quantifier_out() -> None:
    assert question_terms("How many layers does the encoder stack?") == ["layer", "encoder", "stack"]
    assert question_terms("how much memory does a batch take?") == ["memori", "batch", "take"]
    # Elsewhere "many" is a word of the question like any other.
    assert "mani" in question_terms("Why do many networks use batch normalization?")


def test_the_chunk_on_the_set_asked_about_comes_before_one_that_says_as_many() -> None:
    concept = Concept(id="zalando-set", name="Zalando catalogue set", type="concept", recorded_at=AT)
    graph = GraphIndex(HashingEmbedding(), {concept.id: concept}, {concept.id: (concept.name,)}, {}, {})
    chunks = tuple(
        LessonChunk(cid, "l-1", "Data sets", text, frozenset(), frozenset(content_terms(f"Data sets {text}")))
        for cid, text in (("c-other", OTHER), ("c-named", NAMED))
    )
    idf = {"zalando": 1.0, "pictur": 1.2, "categori": 1.2, "mani": 1.5, "set": 0.3}
    graph.kept("lesson chunks", lambda: _Chunks(chunks, idf))
    found = find_excerpts(graph, "How many pictures and categories are in the Zalando set?", limit=1)
    assert [chunk.id for chunk in found] == ["c-named"]
