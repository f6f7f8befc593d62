"""A why question is answered by a sentence that gives the reason, not by one that only names what is
asked about.

d2l: "Why are one-hot vectors a bad way to represent words?" quoted "In this way, each word is
represented as a vector of length N, and it can be used directly by neural networks.", which shares
more of the question's words than "A main reason is that one-hot word vectors cannot accurately
express the similarity between different words".
"""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span

KILNS = Excerpt(
    "c-1",
    "Pottery: firing in a kiln",
    "A kiln is a way to heat pots and fire them hard. "
    "In this way, every pot that is fired slowly is heated right through and fired evenly. "
    "Pots are fired slowly because trapped steam would otherwise burst the wet clay of a pot.",
)
GLAZES = Excerpt(
    "c-2",
    "Pottery: glazes",
    "Potters dip a dry pot in a glaze before its second firing in the kiln. "
    "This lets the fired pot hold water without soaking it up. ¶ Glazes come in many colours.",
)


def test_a_why_question_quotes_the_sentence_giving_the_reason() -> None:
    span = best_span("Why are pots fired slowly in a kiln?", [KILNS], ["pot", "kiln"])
    assert span is not None
    assert span.text.startswith("Pots are fired slowly because trapped steam")


def test_the_reason_in_the_next_sentence_is_quoted_with_the_one_before() -> None:
    span = best_span("Why do potters dip a dry pot in a glaze?", [GLAZES], ["glaze"])
    assert span is not None
    assert span.text.startswith("Potters dip a dry pot in a glaze")
    assert span.text.endswith("hold water without soaking it up.")
    assert "colours" not in span.text


def test_a_how_question_keeps_the_sentence_that_shares_the_most() -> None:
    span = best_span("How do potters dip a dry pot in a glaze?", [GLAZES], ["glaze"])
    assert span is not None
    assert span.text == "Potters dip a dry pot in a glaze before its second firing in the kiln."
