"""Wider names: the names of other concepts that hold the names of two concepts in their own.

A sentence or a heading that writes "hyperparameter optimization" names one concept of that name,
not "hyperparameters" and "optimization" side by side. Counting it as a mention of both made two
broad concepts look as if the lessons named them together, section after section (a chapter titled
"What Is Hyperparameter Optimization?" heads both). :class:`WiderNames` finds, for the two
concepts of a claim, the names of the graph's other concepts that hold a name of each, so that
lesson co-occurrence (:mod:`agents.lesson_index`) reads such a span as that concept's name.

Only a name that holds both counts: "gated memory cell" names a memory cell, and a heading that
writes it still names "memory cell" beside "LSTM" in another heading. Nor does it count when one of
the two names holds the other ("gradient", "stochastic gradient"): a span holding the longer holds
the shorter too, and how the two nest is read by :mod:`agents.names`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from agents.text import normalize_name

__all__ = ["WiderNames"]


class WiderNames:
    """The normalized names of a graph's concepts, indexed by their words."""

    def __init__(self, names: Mapping[str, Sequence[str]]) -> None:
        self._keys = {cid: {normalize_name(name) for name in forms} - {""} for cid, forms in names.items()}
        self._by_word: dict[str, set[str]] = {}
        for cid, keys in self._keys.items():
            for key in keys:
                for word in key.split(" "):
                    self._by_word.setdefault(word, set()).add(cid)

    def joining(self, first: Sequence[str], second: Sequence[str], excluded: Iterable[str] = ()) -> list[str]:
        """The names of concepts (other than ``excluded``) that hold a name of ``first`` and one of
        ``second``; none when a name of one holds a name of the other.

        >>> wider = WiderNames({"h": ["hyperparameters"], "o": ["optimization"], "g": ["gradient"],
        ...                     "ho": ["hyperparameter optimization"], "sg": ["stochastic gradient"],
        ...                     "msg": ["minibatch stochastic gradient"], "go": ["gradient optimization"]})
        >>> wider.joining(["hyperparameters"], ["optimization"], excluded=["h", "o"])
        ['hyperparameter optimization']
        >>> wider.joining(["gradient"], ["stochastic gradient"], excluded=["g", "sg"])
        []
        """
        keys = (
            {normalize_name(name) for name in first} - {""},
            {normalize_name(name) for name in second} - {""},
        )
        if any(_holds(a, b) or _holds(b, a) for a in keys[0] for b in keys[1]):
            return []
        both = set(self.holding(first, excluded)) & set(self.holding(second, excluded))
        return sorted(both)

    def holding(self, names: Iterable[str], excluded: Iterable[str] = ()) -> list[str]:
        """The longer names of concepts (other than ``excluded``) that hold one of ``names`` whole,
        word for word.

        >>> wider = WiderNames({"h": ["hyperparameters"], "o": ["optimization"],
        ...                     "ho": ["hyperparameter optimization"], "m": ["optimizer"]})
        >>> wider.holding(["optimization"], excluded=["o"])
        ['hyperparameter optimization']
        >>> wider.holding(["optimization"], excluded=["o", "ho"])
        []
        """
        skip = set(excluded)
        found: set[str] = set()
        for name in names:
            key = normalize_name(name)
            if not key:
                continue
            words = key.split(" ")
            owners = set.intersection(*(self._by_word.get(word, set()) for word in words)) - skip
            for cid in owners:
                found.update(other for other in self._keys[cid] if _holds(other, key))
        return sorted(found)


def _holds(longer: str, shorter: str) -> bool:
    """Whether a normalized name holds another, shorter, whole word for word."""
    return len(longer) > len(shorter) and f" {shorter} " in f" {longer} "
