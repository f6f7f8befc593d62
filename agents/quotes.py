"""A lesson sentence quoted once in an answer (:func:`first_quotes`): the experts of two parts of a
question, or an edge and an excerpt, often quote one sentence, or one sentence and a longer one that
holds it. Said below the answering roles, so that one expert's answer (:mod:`agents.qa`) and the
answers put together from several (:mod:`agents.synthesis`, :meth:`governance.experts.QAResult.assemble`)
read quotes alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["first_quotes"]

_QUOTE = re.compile(r'says:? "(.+?)"(?=\)? \[|\.?$)')
"""A lesson sentence quoted, as an excerpt's answer or an edge's gives it: up to the closing mark
its citation or the sentence's end follows (a quote may hold quotes: 'how the model "sees" it')."""


def first_quotes(heads: Sequence[str], sentences: Sequence[str], *, claims: bool = False) -> list[str]:
    """``sentences`` less each one that only quotes what a headline or an earlier sentence quoted
    (two sub-questions of one concept, "What is X and why is it useful?", often find one sentence,
    one as an edge's quote and one as an excerpt, or one sentence and a longer one that holds it): a
    quote is given once, with its first citation. A quote that holds an earlier one, or that an
    earlier one holds, counts as said. With ``claims`` (one expert's answer, each edge of which it
    chose to say), an edge's sentence keeps its claim and citation, less the quote.

    >>> first_quotes([], ['X: the lesson says "A b." [c-1].', 'The lesson says "Z. A b." [c-1].'])
    ['X: the lesson says "A b." [c-1].']
    >>> said = ['It says "A "b" c." [c-1].', 'X is part of Y (the lesson says: "A "b" c.") [e-1].']
    >>> first_quotes([], said), first_quotes([], said, claims=True)[1:]
    (['It says "A "b" c." [c-1].'], ['X is part of Y [e-1].'])
    """
    quoted = [q for head in heads for q in _QUOTE.findall(head)]
    kept = []
    for sentence in sentences:
        quotes = _QUOTE.findall(sentence)
        said = [q for q in quotes if any(_holds(q, earlier) for earlier in quoted)]
        for quote in said if claims else ():
            sentence = sentence.replace(f' (the lesson says: "{quote}")', "")
        left = set(_QUOTE.findall(sentence))
        if left and left <= set(said):
            continue
        quoted += quotes
        kept.append(sentence)
    return kept


def _holds(quote: str, earlier: str) -> bool:
    """Whether ``quote`` and ``earlier`` are one quote: equal, or one holds the other (a quote cut to
    fit, ending in "…", held as its uncut part)."""
    a, b = quote.rstrip("…").strip(), earlier.rstrip("…").strip()
    return bool(a and b) and (a in b or b in a)
