""" "How does X work in Y?": how X works, Y the setting it is asked in; not how X relates to Y.

d2l: "How does backpropagation work in an MLP?" was read as a relation (the learned question model)
and answered with two definitions and "The graph does not cover how backpropagation relates to
multilayer perceptron"; "How does attention work in the transformer?" quoted "This will come in
handy later on when we want to visualize the workings that are to design Transformers.": its
"work" (the predicate that frames the question, before the setting) matched "workings".
genai: "How does Small Language Model work?" quoted only the first sentence of the section "How Do
Small Language Models Work?", "SLMs are trained on vast amounts of text data.", a side fact; what an
SLM is leads now.
"""

from __future__ import annotations

from agents.answer_forms import content_terms, question_terms, without_setting
from agents.answer_spans import Excerpt, best_span
from agents.offline.handlers import offline_handlers
from agents.question_types import classify
from governance.excerpts import LessonChunk, _Chunks
from governance.qa import answer_flat, answer_routed
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"
ASKED = "How does backpropagation work in an MLP?"
DEFINES = "*Backpropagation* refers to the method of calculating the gradient of neural network parameters."
ASIDE = "Unless we implement a new layer, we need not worry about the backpropagation method."
BOTH = "In an MLP, backpropagation passes the gradient of each layer back to the layer before it."
KEYS = {"backpropagation": "bp", "multilayer perceptron": "mlp", "mlp": "mlp"}


def _chunk(cid: str, title: str, text: str, concepts: set[str], teaches: set[str]) -> LessonChunk:
    terms = frozenset(content_terms(text))
    return LessonChunk(cid, "l-1", title, text, frozenset(concepts), terms, frozenset(teaches))


def _course(both: str = "") -> GraphIndex:
    """Backpropagation defined in its section, the MLP in its own, a side remark on backpropagation,
    and ``both``, a section's sentence that names both (none when "")."""
    names = {"bp": ("backpropagation",), "mlp": ("multilayer perceptron", "MLP")}
    concepts = {
        cid: Concept(id=cid, name=name[0], type="concept", recorded_at=AT) for cid, name in names.items()
    }
    graph = GraphIndex(HashingEmbedding(), concepts, names, {}, {})
    chunks = (
        _chunk(
            "c-bp", "Backpropagation", f"{DEFINES} It runs from the output back to the input.", {"bp"}, {"bp"}
        ),
        _chunk("c-mlp", "MLPs", "An MLP is commonly called a *multilayer perceptron*.", {"mlp"}, {"mlp"}),
        _chunk("c-module", "A Custom Module", ASIDE, {"bp"}, set()),
        *([_chunk("c-both", "Training MLPs", both, {"bp", "mlp"}, set())] if both else []),
    )
    idf = {term: 1.0 for chunk in chunks for term in chunk.terms}
    graph.kept("lesson chunks", lambda: _Chunks(chunks, idf))
    return graph


def test_how_x_works_in_y_is_an_open_question_and_how_x_relates_to_y_a_relation() -> None:
    assert classify(ASKED, KEYS).type == "open"
    assert classify(ASKED, KEYS).concepts == ["bp", "mlp"]
    assert classify("How does backpropagation relate to an MLP?", KEYS).type == "relation"
    assert classify("How does backpropagation differ from an MLP?", KEYS).type == "relation"


def test_the_setting_is_no_word_of_what_is_asked_and_the_predicate_before_it_none() -> None:
    assert without_setting(ASKED) == "How does backpropagation work?"
    assert question_terms("How does attention work in the transformer?") == ["attent", "transformer"]
    assert question_terms("Who did the work in the garden?") == ["work", "garden"]  # no why or how


def test_a_sentence_on_workings_does_not_answer_how_a_thing_works() -> None:
    workings = "This will come in handy later when we want to visualize the workings of Transformers."
    explains = "In the Transformer, attention lets each token weigh every other token of the sequence."
    excerpts = [
        Excerpt("c-viz", "Attention Pooling", workings),
        Excerpt("c-tr", "The Transformer", f"{explains} The Transformer stacks such layers."),
    ]
    span = best_span("How does attention work in the transformer?", excerpts, ["Transformer"])
    assert span is not None and span.sentence == explains


def test_how_x_works_in_y_is_answered_by_what_x_is_where_no_sentence_says_both() -> None:
    llm = OfflineLLM(offline_handlers())
    for result in (answer_flat(llm, _course(), ASKED), answer_routed(llm, _course(), ASKED, {})):
        assert [sub["type"] for sub in result.sub_questions] == ["open"]
        assert result.answer.startswith(f'The lesson says "{DEFINES}'), result.answer
        assert "relates" not in result.answer and ASIDE not in result.answer


def test_how_x_works_in_y_is_answered_by_a_sentence_on_both_first() -> None:
    llm = OfflineLLM(offline_handlers())
    graph = _course(BOTH)
    for result in (answer_flat(llm, graph, ASKED), answer_routed(llm, graph, ASKED, {})):
        assert [sub["type"] for sub in result.sub_questions] == ["open"]
        assert result.answer.startswith(f'The lesson says "{BOTH}"'), result.answer
        assert "relates" not in result.answer


def test_what_a_thing_is_leads_the_section_whose_heading_asks_how_it_works() -> None:
    what = "A small language model is a scaled-down variant of a large language model."
    opens = "SLMs are trained on vast amounts of text data."
    names = {"slm": ("small language model", "SLM")}
    concepts = {"slm": Concept(id="slm", name="small language model", type="concept", recorded_at=AT)}
    graph = GraphIndex(HashingEmbedding(), concepts, names, {}, {})
    chunks = (
        _chunk("c-what", "Small Language Models", f"{what} It needs far less memory.", {"slm"}, {"slm"}),
        _chunk("c-how", "Small Language Models: How Do Small Language Models Work?", opens, {"slm"}, {"slm"}),
    )
    graph.kept("lesson chunks", lambda: _Chunks(chunks, {t: 1.0 for c in chunks for t in c.terms}))
    result = answer_flat(OfflineLLM(offline_handlers()), graph, "How does small language model work?")
    assert result.answer.startswith(f'The lesson says "{what}" [c-what]. The lesson says "{opens}" [c-how].')
    assert result.short_answer == what
