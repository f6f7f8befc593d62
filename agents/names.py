"""Names headed by other concepts' names: "stochastic gradient descent" ends in "gradient descent".

A concept whose name ends in another concept's whole name, word for word, is usually a kind of
that concept ("differential entropy", "linear regression", "batch normalization"), and a learner
meets the shorter one first. In curated prerequisite data, where one name ends in another:

- Metacademy: 28 of the 34 pairs of titles where one contains another are prerequisite edges
  from the shorter to the longer (the exceptions are a homonym: the "fields" of "Markov random
  fields" and of "vector fields");
- AL-CPL, whose pairs were labelled both ways: 70 of the 73 labelled pairs are prerequisites
  from the shorter (geometry 11 of 11, physics 10 of 11, precalculus 49 of 50, data mining 0 of
  1: "pruning" and "alpha-beta pruning");
- LectureBank 2, a sparser graph: 26 of its 48 such pairs are edges from the shorter, none from
  the longer.

A name is evidence in the way a description is (RefD, Liang et al. 2015: the dependent concept
refers to its base); the judge weighs it with everything else.

Only the head counts: a name that starts with another ("dropout probability", "VGG network",
"RNN layer") names a property, a part or the same thing, and one that holds another in its middle
("minibatch stochastic gradient descent", "gradient") names an ingredient, not a kind. Names are
compared as :func:`agents.text.normalize_name` keys, so case, plurals and hyphens do not matter.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

from agents.text import normalize_name

__all__ = ["headed_by", "heads", "named_roles"]


def heads(key: str) -> Iterator[str]:
    """The shorter heads of a normalized name (its last words), longest first: the names of the
    concepts it is a kind of.

    >>> list(heads("minibatch stochastic gradient descent"))
    ['stochastic gradient descent', 'gradient descent', 'descent']
    """
    parts = key.split(" ")
    for start in range(1, len(parts)):
        yield " ".join(parts[start:])


def headed_by(longer: Iterable[str], shorter: Iterable[str]) -> bool:
    """Whether one of the names ``longer`` ends in one of the names ``shorter`` (and is longer).

    >>> headed_by(["Stochastic Gradient Descent"], ["gradient descent", "GD"])
    True
    >>> headed_by(["deep neural networks"], ["neural network"]), headed_by(["RNN layer"], ["RNN"])
    (True, False)
    >>> headed_by(["gradient descent"], ["stochastic gradient descent"]), headed_by(["x"], ["x"])
    (False, False)
    """
    wanted = {normalize_name(name) for name in shorter} - {""}
    return any(head in wanted for name in longer for head in heads(normalize_name(name)))


def named_roles(text: str, mentions: Sequence[tuple[int, int, str]], keys: Mapping[str, str]) -> set[str]:
    """The roles (or concept ids) of ``keys`` that ``mentions`` of ``text`` name, directly or as
    the head of a longer name: a mention of "stochastic gradient descent" names "gradient descent".

    >>> keys = {"gradient descent": "dst", "stochastic gradient descent": "src"}
    >>> sorted(named_roles("We use stochastic gradient descent.", [(7, 34, "src")], keys))
    ['dst', 'src']
    """
    found = {role for _, _, role in mentions}
    for start, end, _ in mentions:
        for head in heads(normalize_name(text[start:end])):
            role = keys.get(head)
            if role is not None:
                found.add(role)
    return found
