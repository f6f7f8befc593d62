"""Tails of a noun-phrase run: the names a concept may take from it, for the offline concept extractor.

A run may open with adjectives and participles that only describe the thing ("tight
synchronization"); dropping them leaves a shorter name, never dropping a leading noun, which would
break a compound ("support vector machines" is no "vector machines"). Which tail names a concept
is the termhood model's call (:mod:`agents.offline.terms`).

A quantifier before a run ("every", "any", "all" ...) makes it a set of things, which an adjective
may narrow without naming anything: "it is part of every serious softmax implementation" speaks of
softmax implementations, the serious ones. Under a quantifier, a leading adjective stays in the name
only when the phrase is a term by its own words or the lesson writes it again (:func:`narrowed`).

So too for an adjective that judges a thing the lesson names anyway: "Model evaluation is a
prerequisite for useful experiment tracking" in a lesson that writes "experiment tracking" again
speaks of experiment tracking, judged useful, no kind of it (:func:`judged`); "stochastic gradient
descent" and "large language model" are kinds, and stay whole.

Beside a cue, a participle that an adverb before the run modifies ("X is one of the widely used
dataset") goes with its adverb: the genus that opens on it ("used dataset") names nothing, and the
head stays (:func:`qualified`). Not in a run the chunk merely writes again: "randomly masked
tokens" are masked tokens, a kind the lesson names.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from agents.offline.terms import is_term, judging
from agents.phrases import word_classes, words

__all__ = ["judged", "longer", "narrowed", "qualified", "tails"]

_NOMINAL = frozenset({"NOUN", "PROPN", "X"})
_QUANTIFIERS = frozenset("every each any all most many no".split())
"""Determiners that quantify over a set: a universal or generic reading of the phrase after them."""


def tails(text: str, span: tuple[int, int], beside_cue: bool = False) -> list[str]:
    """The run ``text[span]`` (its last five words) and its shorter tails without a leading
    adjective or participle, longest first; for a run ``beside_cue``, without the participle that
    an adverb before the run modifies (:func:`qualified`).

    >>> tails("tight synchronization", (0, 21)), tails("support vector machines", (0, 23))
    (['tight synchronization', 'synchronization'], ['support vector machines'])
    >>> tails("a widely used dataset", (9, 21), beside_cue=True), tails("randomly masked tokens", (9, 22))
    (['dataset'], ['masked tokens', 'tokens'])
    """
    parts = text[span[0] : span[1]].split()[-5:]
    found = [" ".join(parts)]
    while len(parts) > 1 and not word_classes(parts[0]) & _NOMINAL:
        parts = parts[1:]
        found.append(" ".join(parts))
    return found[1:] if beside_cue and len(found) > 1 and qualified(text, span[0]) else found


def qualified(text: str, start: int) -> bool:
    """Whether the word at ``start`` is a participle that the adverb right before it modifies:
    "widely used", "commonly studied". The two describe what follows; the participle alone names no
    kind of it ("The MNIST dataset is one of the widely used dataset" names no "used dataset").

    >>> t = "the widely used dataset and the hidden layer"
    >>> qualified(t, t.index("used")), qualified(t, t.index("hidden"))
    (True, False)
    """
    pair = words(text, max(0, start - 30), start + 40)
    pair = [w for w in pair if w.end <= start][-1:] + [w for w in pair if w.start == start][:1]
    if len(pair) < 2 or text[pair[0].end : start] != " ":
        return False
    tags = word_classes(pair[1].text)
    return word_classes(pair[0].text) == {"ADV"} and "VERB" in tags and not tags & _NOMINAL


def narrowed(text: str, start: int) -> bool:
    """Whether the run starting at ``start`` follows a quantifier (module docstring).

    >>> t = "It is part of every serious softmax implementation."
    >>> narrowed(t, t.index("serious")), narrowed("Indirect prompt injection is a kind.", 0)
    (True, False)
    """
    before = words(text, max(0, start - 20), start)[-1:]
    return bool(before) and before[0].text.lower() in _QUANTIFIERS


def judged(name: str) -> bool:
    """Whether a name opens with an adjective that judges the rest (:func:`agents.offline.terms.judging`).

    >>> judged("useful experiment tracking"), judged("stochastic gradient descent"), judged("tracking")
    (True, False, False)
    """
    parts = name.split()
    return len(parts) > 1 and judging(parts[0])


def longer(found: list[str], narrow: bool, again: Callable[[str], bool]) -> list[str]:
    """The tails of ``found`` (:func:`tails`) but the last that may name the concept: a tail after a
    quantifier (``narrow``), or one that opens with a judging adjective before a rest the lesson
    writes again (``again``), only when the lesson writes it again or its words make a term.

    >>> named = {"experiment tracking"}.__contains__
    >>> longer(["useful experiment tracking", "experiment tracking"], False, named)
    []
    >>> longer(["stochastic gradient descent", "gradient descent"], False, lambda t: True)
    ['stochastic gradient descent']
    """
    return [
        t
        for t, rest in itertools.pairwise(found)
        if not (narrow or (judged(t) and again(rest))) or again(t) or is_term(t, "emphasised")
    ]
