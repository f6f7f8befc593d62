"""A size written three ways: a learner asks "What does a 1x1 convolution do?", d2l writes
"$1\\times 1$ convolution" (LaTeX) under the heading "$1\\times 1$ Convolutional Layer", others
write "1×1". The question's "1x1" and the lesson's "1", "times", "1" were different terms, so the
section that answers it matched no better than any chunk on convolution, and the answer was
'The graph does not cover "What does a 1x1 convolution do?".'
"""

from __future__ import annotations

from agents.answer_forms import content_terms
from governance.excerpts import LessonChunk, _Chunks, find_excerpts
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"
TITLE = "Multiple Input and Multiple Output Channels"
SIZED = (
    "Because the minimum window is used, the $1\\times 1$ convolution loses the ability of larger "
    "convolutional layers to recognize patterns. The only computation of the $1 \\times 1$ convolution "
    "occurs on the channel dimension."
)
OTHER = "A convolution correlates adjacent pixels; what a convolution computes is a cross-correlation."


def test_a_size_is_one_term_however_it_is_written() -> None:
    asked = content_terms("1x1 convolution")
    assert asked == ["1x1", "convolut"]
    assert content_terms("$1\\times 1$ convolution") == content_terms("1×1 convolution") == asked
    assert content_terms("a 1 x 1 convolution") == asked
    # A product of sizes that are not whole numbers, and a lone "x", are left as they are.
    assert content_terms("2 x 3.5, x = 1") == ["2", "3.5", "1"]


def test_the_section_on_a_1x1_convolution_is_read_first() -> None:
    concept = Concept(id="convolution", name="convolution", type="concept", recorded_at=AT)
    graph = GraphIndex(HashingEmbedding(), {concept.id: concept}, {concept.id: (concept.name,)}, {}, {})
    chunks = tuple(
        LessonChunk(cid, "l-1", TITLE, text, frozenset(), frozenset(content_terms(f"{TITLE} {text}")))
        for cid, text in (("c-other", OTHER), ("c-sized", SIZED))
    )
    graph.kept("lesson chunks", lambda: _Chunks(chunks, {"1x1": 3.0, "convolut": 0.5, "1": 0.1}))
    found = find_excerpts(graph, "What does a 1x1 convolution do?", about=["convolution"])
    assert [chunk.id for chunk in found][:1] == ["c-sized"]
