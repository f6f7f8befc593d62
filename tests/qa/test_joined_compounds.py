"""A compound written with LaTeX's en dash: d2l writes "encoder--decoder" (two hyphens), a learner
asks "What is Encoder-Decoder?". The question's word and the lessons' were two different terms, so
no excerpt matched it and the answer was "Related: encoder-only, encoder, decoder." alone; and the
sentence an answer quotes was quoted again as an edge's evidence right after it.
"""

from __future__ import annotations

from agents import qa
from agents.answer_forms import content_terms
from governance.excerpts import LessonChunk, _Chunks, find_excerpts
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.port import Prompt
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"
TITLE = "Large-Scale Pretraining with Transformers: Encoder--Decoder"
SAID = (
    "As originally proposed for machine translation, the Transformer can be outfitted with a decoder, "
    "and encoder--decoder cross-attention allows target tokens to attend to all input tokens."
)
OTHER = "Since a Transformer encoder converts input tokens into as many representations, it cannot generate."


def test_a_compound_asked_with_a_hyphen_matches_the_lessons_that_write_it_with_two() -> None:
    assert content_terms("Encoder-Decoder") == content_terms("encoder--decoder") == ["encoder-decoder"]
    concept = Concept(id="encoder-decoder", name="encoder--decoder", type="concept", recorded_at=AT)
    graph = GraphIndex(HashingEmbedding(), {concept.id: concept}, {concept.id: (concept.name,)}, {}, {})
    chunks = tuple(
        LessonChunk(cid, "l-1", TITLE, text, frozenset(), frozenset(content_terms(f"{TITLE} {text}")))
        for cid, text in (("c-encoder", OTHER), ("c-both", SAID))
    )
    graph.kept("lesson chunks", lambda: _Chunks(chunks, {"encoder-decoder": 2.0, "transformer": 0.5}))
    # both match; the one whose text writes the compound's words in a row comes first (governance.excerpts)
    assert [chunk.id for chunk in find_excerpts(graph, "What is Encoder-Decoder?")] == ["c-both", "c-encoder"]


def test_the_sentence_an_answer_quotes_is_not_quoted_again_as_an_edges_evidence() -> None:
    edges = [
        {"edge_id": "e-1", "src": "encoder", "type": "related_to", "dst": "encoder-decoder"},
        {"edge_id": "e-2", "src": "encoder-only", "type": "related_to", "dst": "encoder-decoder"},
    ]
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system="",
        data=f"[c-both] {SAID}\n[e-1] {SAID}\n[e-2] Transformers run as encoder-only or encoder--decoder.",
        payload={
            "question": "What is Encoder-Decoder?",
            "concepts": ["encoder-decoder"],
            "names": {
                "encoder-decoder": "encoder--decoder",
                "encoder": "encoder",
                "encoder-only": "encoder-only",
            },
            "edges": edges,
            "excerpts": {"c-both": TITLE},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))
    assert reply.citations[0] == "c-both" and "e-1" in reply.citations  # the edge is still said and cited
    assert reply.answer.count("allows target tokens to attend") == 1
    assert "run as encoder-only or encoder--decoder" in reply.answer  # another edge's quote stays


def test_a_comparison_quotes_the_sentence_naming_both_once() -> None:
    # d2l: "When should I use momentum vs RMSProp?" led with "RMSProp shares with momentum the leaky
    # averaging." and then said it again as what momentum is.
    shared = "RMSProp shares with momentum the leaky averaging."
    own = "RMSProp scales each coordinate by a leaky average of squared gradients."
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system="",
        data=f"[c-1] {own} {shared}",
        payload={
            "question": "When should I use momentum vs RMSProp?",
            "compare": ["momentum", "RMSProp"],
            "excerpts": {"c-1": "Optimizers: RMSProp"},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.compare_offline(prompt))
    assert reply.answer.startswith(f'momentum and RMSProp: the lesson says "{shared}"'), reply.answer
    assert reply.answer.count(shared) == 1, reply.answer
