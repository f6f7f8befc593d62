"""Tails of a noun-phrase run: the names a concept may take from it, for the offline concept extractor.

A run may open with adjectives and participles that only describe the thing ("tight
synchronization"); dropping them leaves a shorter name, never dropping a leading noun, which would
break a compound ("support vector machines" is no "vector machines"). Which tail names a concept
is the termhood model's call (:mod:`agents.offline.terms`).

A quantifier before a run ("every", "any", "all" ...) makes it a set of things, which an adjective
may narrow without naming anything: "it is part of every serious softmax implementation" speaks of
softmax implementations, the serious ones. Under a quantifier, a leading adjective stays in the name
only when the phrase is a term by its own words or the lesson writes it again (:func:`narrowed`).
"""

from __future__ import annotations

from agents.phrases import word_classes, words

__all__ = ["narrowed", "tails"]

_NOMINAL = frozenset({"NOUN", "PROPN", "X"})
_QUANTIFIERS = frozenset("every each any all most many no".split())
"""Determiners that quantify over a set: a universal or generic reading of the phrase after them."""


def tails(text: str, span: tuple[int, int]) -> list[str]:
    """The run ``text[span]`` (its last five words) and its shorter tails without a leading
    adjective or participle, longest first.

    >>> tails("tight synchronization", (0, 21)), tails("support vector machines", (0, 23))
    (['tight synchronization', 'synchronization'], ['support vector machines'])
    """
    parts = text[span[0] : span[1]].split()[-5:]
    found = [" ".join(parts)]
    while len(parts) > 1 and not word_classes(parts[0]) & _NOMINAL:
        parts = parts[1:]
        found.append(" ".join(parts))
    return found


def narrowed(text: str, start: int) -> bool:
    """Whether the run starting at ``start`` follows a quantifier (module docstring).

    >>> t = "It is part of every serious softmax implementation."
    >>> narrowed(t, t.index("serious")), narrowed("Indirect prompt injection is a kind.", 0)
    (True, False)
    """
    before = words(text, max(0, start - 20), start)[-1:]
    return bool(before) and before[0].text.lower() in _QUANTIFIERS
