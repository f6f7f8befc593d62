"""Why and how questions that name two concepts: answered from the excerpts and sentences about both,
not from those that share more of the question's other words.

d2l: "Why does the transformer need positional encoding?" quoted "To visualize the decoder
self-attention weights ..., we need more data manipulations." (its rare word "need", and "encoder"
for "encoding"); "Why do ResNets use residual connections?" quoted "We begin our tour of modern
CNNs with AlexNet ...; the residual network (ResNet) ...; and DenseNet ...", a series that names
every network and explains none.
"""

from __future__ import annotations

from pathlib import Path

from agents.answer_spans import Excerpt, best_span
from agents.offline.handlers import offline_handlers
from governance.excerpts import LessonChunk, _Chunks, find_excerpts, lesson_chunks
from governance.qa import answer_flat
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex, build_graph_index
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Concept
from magg_kg.sqlite import SQLiteStore

AT = "2026-01-01T00:00:00.000000Z"
ASKED = "Why does the transformer need positional encoding?"
TRAINING = "To visualize the encoding weights, we need more data manipulations."  # "encoder" is no "encoding"
MODEL = (
    "Embeddings are added with positional encoding before the encoder. Each position gets its own encoding."
)


def _course() -> GraphIndex:
    """Two sections of a lesson on the Transformer, as chunks of a graph that knows both concepts;
    "need" is rare in the course, "positional" and "encoding" are not."""
    concepts = {
        cid: Concept(id=cid, name=name, type="concept", recorded_at=AT)
        for cid, name in (("transformer", "Transformer"), ("positional-encoding", "positional encoding"))
    }
    graph = GraphIndex(HashingEmbedding(), concepts, {c.id: (c.name,) for c in concepts.values()}, {}, {})
    training = frozenset({"transformer", "train", "visual", "encod", "weight", "need", "data", "manipul"})
    model = frozenset({"transformer", "model", "embed", "ad", "posit", "encod", "encoder", "get", "own"})
    chunks = (
        LessonChunk(
            "c-train", "l-1", "The Transformer: Training", TRAINING, frozenset({"transformer"}), training
        ),
        LessonChunk("c-model", "l-1", "The Transformer: Model", MODEL, frozenset(concepts), model),
    )
    idf = {"need": 3.0, "posit": 1.0, "encod": 0.5, "transformer": 0.5}
    graph.kept("lesson chunks", lambda: _Chunks(chunks, idf))
    return graph


def test_the_excerpt_naming_both_concepts_comes_before_one_sharing_a_rarer_word() -> None:
    graph = _course()
    assert [chunk.id for chunk in find_excerpts(graph, ASKED)] == ["c-model", "c-train"]
    # "What ... ?" is no explanation: its excerpts are ranked by the words it shares, as before.
    what = find_excerpts(graph, "What does the transformer need encoding for?")
    assert [chunk.id for chunk in what] == ["c-train", "c-model"]


def test_the_sentence_naming_both_concepts_answers_before_one_sharing_a_rarer_word() -> None:
    excerpts = [
        Excerpt("c-train", "The Transformer: Training", TRAINING),
        Excerpt("c-model", "The Transformer: Model", MODEL),
    ]
    # Without the concepts' names the rarer word wins: the case the names are given for.
    assert best_span(ASKED, excerpts).sentence == TRAINING  # type: ignore[union-attr]
    span = best_span(ASKED, excerpts, ["Transformer", "positional encoding"])
    assert span is not None and span.excerpt == "c-model"
    assert span.sentence.startswith("Embeddings are added with positional encoding")


def test_a_why_question_is_answered_from_the_concepts_it_names_end_to_end() -> None:
    result = answer_flat(OfflineLLM(offline_handlers()), _course(), ASKED)
    assert "c-model" in result.citations and "c-train" not in result.citations
    assert "added with positional encoding" in result.answer
    assert "data manipulations" not in result.answer


def test_a_series_that_names_the_concepts_among_many_is_no_explanation() -> None:
    tour = (
        "We begin our tour with AlexNet, the first large network; VGG, which repeats blocks; NiN, which "
        "convolves networks; the residual network (ResNet), which uses residual connections; and DenseNet, "
        "which connects every layer."
    )
    summary = "Residual connections let added layers pass their input through to the output."
    excerpts = [Excerpt("c-tour", "Modern CNNs", tour), Excerpt("c-resnet", "ResNet: Summary", summary)]
    question = "Why do ResNets use residual connections?"
    span = best_span(question, excerpts, ["ResNet", "residual connection"])
    assert span is not None and span.sentence == summary
    # The series alone still answers: a series is read last, not never.
    alone = best_span(question, excerpts[:1], ["ResNet", "residual connection"])
    assert alone is not None and alone.sentence == tour


def test_a_chunk_is_read_with_the_concepts_its_heading_names(tmp_path: Path) -> None:
    # The section "Step size" of the lesson "Gradient descent" is about gradient descent, though
    # its text never names it: a why or how question of both reads it as a chunk naming both.
    (tmp_path / "lessons").mkdir()
    step = "The step size is how far each update moves. A large step overshoots the minimum. " * 30
    (tmp_path / "lessons" / "descent.md").write_text(
        "# Gradient descent\n\nGradient descent is an optimization method. Calculus is a prerequisite "
        f"for gradient descent.\n\n## Step size\n\n{step}\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [tmp_path / "lessons"], show_progress=False)
    store = SQLiteStore.open(str(tmp_path / "magg.sqlite"))
    graph = build_graph_index(store)
    assert {"gradient-descent", "step-size"} <= set(graph.concepts)
    sections = [chunk for chunk in lesson_chunks(graph) if chunk.title == "Gradient descent: Step size"]
    assert sections and all("gradient descent" not in chunk.text.lower() for chunk in sections)
    assert all(chunk.title_concepts == {"gradient-descent", "step-size"} for chunk in sections)
    assert all("gradient-descent" not in chunk.concepts for chunk in sections)
    store.close()


def test_a_sentence_naming_the_one_concept_asked_comes_first_when_the_question_says_more() -> None:
    # "How is a tensor different from a NumPy array?": a word besides the concept's name ("array")
    # may be said of something else; the sentence that names NumPy answers it.
    shapes = "Broadcasting expands arrays that differ in shape until the two tensors match."
    memory = "The torch tensor and the NumPy array share their memory."
    excerpts = [Excerpt("c-shapes", "Broadcasting", shapes), Excerpt("c-memory", "Conversion", memory)]
    span = best_span("How does a tensor differ from a NumPy array?", excerpts, ["NumPy"])
    assert span is not None and span.sentence == memory
