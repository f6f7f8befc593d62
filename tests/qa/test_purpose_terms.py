"""A question "What is X good for ...?" asks what X is for: X is the term, not "X good" in a context."""

from __future__ import annotations

from agents.answer_forms import term_in_context
from agents.offline.handlers import offline_handlers
from governance.qa import answer_flat
from governance.question_forms import about_one, lacked_term
from magg_kg.embedding import HashingEmbedding
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"


def test_what_x_is_good_or_used_for_is_no_term_in_a_context() -> None:
    # d2l: 'The graph does not cover "1x1 convolution good"; it has convolution.'
    concept = Concept(id="convolution", name="convolution", type="concept", recorded_at=AT)
    names = {"convolution": ("convolution",)}
    graph = GraphIndex(HashingEmbedding(), {"convolution": concept}, names, {}, {})
    question = "What is a 1x1 convolution good for if it can't see neighboring pixels?"
    assert term_in_context(question) == ("", "", "", "")
    assert term_in_context("What is dropout used for in deep networks?") == ("", "", "", "")
    assert about_one(graph, question) == question
    assert lacked_term(graph, about_one(graph, question)) == ("", [])
    answer = answer_flat(OfflineLLM(offline_handlers()), graph, question).answer
    assert 'cover "1x1 convolution good"' not in answer, answer
    # A term in a context is still read so.
    assert term_in_context("What is a token in NLP?") == ("token", "a", "is", "token in NLP")
    assert term_in_context("What is a prompt for image generation?")[0] == "prompt"
