"""Specifics: words before a concept's name that make its phrase one instance or one value of the
concept, not the concept.

"RNNs always use *these* model parameters", "PyTorch uses *Python's own* scheduler", "Fine-tuning
uses a *smaller* learning rate": each says what a thing uses in one case (the parameters just
described, one program's scheduler, a value of a setting), not that the one concept builds on the
other. A demonstrative or a possessive determiner ("these", "its", "Python's") points to one
instance; a comparative or a superlative ("smaller", "fewer", "more", "the best") to a value, as
the review rubric's "more data" and "higher precision" are no concepts. A relation between two
concepts is stated by a phrase that names the concept itself ("uses max-pooling", "uses the
cross-entropy loss").
"""

from __future__ import annotations

import re

from agents.phrases import CLOSED_CLASSES, lemma_table

__all__ = ["proper", "specific"]

_POINTING = frozenset("this that these those my your his her its our their whose".split())
"""Demonstrative and possessive determiners: the phrase points to one instance."""
_POSSESSIVE = re.compile(r"[^\W\d_][\w-]*['’]s?\Z")
"""A possessive noun ("Python's", "models'")."""
_GRADED = frozenset("more most less least fewer fewest".split())
_WORD = re.compile(r"[^\W\d_][\w'’-]*")
_STOP = re.compile(
    r"[,;:()]|\b(?:"
    + "|".join(sorted(CLOSED_CLASSES["ADP"] | CLOSED_CLASSES["CONJ"], key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)
"""Where a concept's noun phrase can start at the latest: after a preposition, a conjunction or a
comma ("the same architecture as its predecessor")."""


def _graded(word: str) -> bool:
    """Whether a word is a comparative or superlative adjective ("smaller", "best", "fewer"): an
    adjective whose lemma is another word, and whose form ends as those forms end."""
    lower = word.lower()
    if lower in _GRADED:
        return True
    lemmas = lemma_table(lower).get("ADJ", ())
    return bool(lemmas) and lower.endswith(("er", "est")) and all(lemma != lower for lemma in lemmas)


def specific(text: str, start: int, end: int) -> bool:
    """Whether the words of ``text[start:end]`` before a concept's name make its noun phrase one
    instance or one value: a demonstrative or possessive determiner, a possessive noun, a
    comparative or a superlative among the words after the last preposition, conjunction or
    comma ("the same architecture as *its* predecessor" is read from "its"). A proper name
    (capitalised or with a digit: "its direct predecessor GPT-2") names its own thing, whatever
    stands before it: the caller reads the name.

    >>> t = "Fine-tuning uses a smaller learning rate than these models with Python's scheduler."
    >>> specific(t, 17, 27), specific(t, 46, 52), specific(t, 64, 73)
    (True, True, True)
    >>> t = "DenseNet uses the same max-pooling layer as a deep network."
    >>> specific(t, 14, 23), specific(t, 44, 51)
    (False, False)
    """
    stops = [m.end() for m in _STOP.finditer(text, start, end)]
    for found in _WORD.finditer(text, stops[-1] if stops else start, end):
        word = found.group()
        if word.lower() in _POINTING or _POSSESSIVE.match(word) or _graded(word):
            return True
    return False


def proper(name: str) -> bool:
    """Whether a name as written is a proper name: capitalised, or with a digit ("GPT-2", "Adam").

    >>> proper("GPT-2"), proper("Adam"), proper("learning rate")
    (True, True, False)
    """
    return any(ch.isdigit() for ch in name) or name[:1].isupper()
