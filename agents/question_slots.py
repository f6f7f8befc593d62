"""The names a one-concept question joins to its concept ("before quantum chromodynamics and
gradient descent"): read by :mod:`agents.question_types` from a question's runs of words."""

from __future__ import annotations

from agents.phrases import CLOSED_CLASSES

__all__ = ["WH_WORDS", "coordinated", "said_in_clause"]

WH_WORDS = frozenset("why when where how whom whose which what".split())
"""Question words: a run of them alone names nothing."""


def coordinated(runs: list[tuple[str, list[str]]]) -> list[str]:
    """The names joined to a concept by "and", "or" or a comma ("before quantum chromodynamics and
    gradient descent"): asked about as the concept is, and unknown to the graph."""
    marks = [mark for mark, _ in runs]
    found = []
    for i, (mark, words) in enumerate(runs):
        if mark != "w" or len(words) > 6 or {word.lower() for word in words} <= WH_WORDS:
            continue
        if any(
            0 <= i + 2 * step < len(marks) and marks[i + step] == "+" and marks[i + 2 * step] == "@"
            for step in (-1, 1)
        ):
            found.append(" ".join(words))
    return found


_POINTERS = CLOSED_CLASSES["DET"] | CLOSED_CLASSES["PRON"]


def said_in_clause(slot: str) -> bool:
    """Whether a slot of a two-name question ("between A and B", "A or B") is said in a clause, not a
    name: a determiner or pronoun after its first word ("just making the model smaller", "training my
    own model"), which no name holds.

    >>> said_in_clause("just making the model smaller"), said_in_clause("mixture of experts")
    (True, False)
    """
    return not _POINTERS.isdisjoint(slot.lower().split()[1:])
