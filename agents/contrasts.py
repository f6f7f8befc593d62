"""Contrasts said by "unlike": the thing it names against the subject of its clause.

"Unlike A, B ..." and "B, unlike A, ..." set A against B: a ``contrasts_with`` between the two, each
the head of its noun phrase (:func:`agents.relations.stated_sides`). The subject of a clause that
opens after "Unlike A," is the noun phrase that opens it ("Unlike RNNs, the transformer attends
...": "the transformer"), after a relative clause about A if one comes first ("Unlike RNNs, which
recur, transformers ..."); none when the clause opens otherwise ("Unlike RNNs, we attend ...": a
person is no concept).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from agents.phrases import noun_runs

__all__ = ["unlike"]

Span = tuple[int, int]
_RELATIVE = r"(?:\s+(?:which|that|who)\b[^,;]*)"
"""A restrictive relative clause after the thing "unlike" names ("word2vec that fits ..."): no part
of its name."""
_FIRST = re.compile(
    rf"^\W*(?P<cue>unlike)\s+(?P<other>[^,;]+?){_RELATIVE}?,\s*(?:(?:which|that|who)\b[^,;]*,\s*)?",
    re.IGNORECASE,
)
_BETWEEN = re.compile(rf",\s*(?P<cue>unlike)\s+(?P<other>[^,;]+?){_RELATIVE}?,", re.IGNORECASE)
_DETERMINER = re.compile(r"\s*(?:(?:the|a|an|this|these|those|our|its|their)\s+)?\Z", re.IGNORECASE)


def _subject(text: str, phrase: Span | None) -> Span | None:
    """The noun phrase that opens ``phrase`` (a clause: "the CBOW model predicts ..."), or None."""
    runs = noun_runs(text, *phrase) if phrase is not None else []
    if phrase is None or not runs or _DETERMINER.match(text, phrase[0], runs[0][0]) is None:
        return None
    return runs[0]


def unlike(
    text: str, right_phrase: Callable[[str, int], Span | None], left_phrase: Callable[[str, int], Span | None]
) -> tuple[Span, Span, Span] | None:
    """The spans of "unlike", of the phrase before it and of the phrase after it, when a sentence
    sets two things against each other by it (``right_phrase`` and ``left_phrase`` read the phrase
    after and before an offset, as :mod:`agents.cues` does); None otherwise.

    >>> after = lambda t, i: (i, len(t) - 1)
    >>> before = lambda t, i: (0, i)
    >>> t = "Unlike RNNs, which recur, transformers attend to all positions."
    >>> [t[slice(*span)] for span in unlike(t, after, before)]
    ['Unlike', 'RNNs', 'transformers']
    >>> t = "Transformers, unlike RNNs, attend to all positions."
    >>> [t[slice(*span)] for span in unlike(t, after, before)]
    ['unlike', 'Transformers', 'RNNs']
    >>> unlike("Unlike RNNs, we attend to all positions.", after, before)
    """
    first = _FIRST.match(text)
    if first is not None:
        subject = _subject(text, right_phrase(text, first.end()))
        return None if subject is None else (first.span("cue"), first.span("other"), subject)
    between = _BETWEEN.search(text)
    before = left_phrase(text, between.start()) if between is not None else None
    if between is None or before is None:
        return None
    return between.span("cue"), before, between.span("other")
