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

Only the head counts: a name that starts with another ("dropout probability", "VGG network", "RNN
layer") names a property, a part or the same thing, and one that holds another in its middle
("minibatch stochastic gradient descent", "gradient") names an ingredient, not a kind. A brand
before a name is no kind either: "Mistral NeMo" is no kind of "NeMo", "Azure AI Studio" is "AI
Studio", "Fashion-MNIST" is a sibling of "MNIST" (:func:`names_a_kind`). Names are compared as
:func:`agents.text.normalize_name` keys, so case and plurals do not matter; a hyphenated word is
one word ("sequence-to-sequence learning" is no kind of "sequence learning").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence

from agents.offline.acronyms import spells
from agents.text import acronym_of, normalize_name

__all__ = [
    "head_lexicon",
    "head_mentions",
    "headed_by",
    "heads",
    "named_roles",
    "names_a_kind",
    "plain_alias",
]

_PART = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_USUAL = frozenset(
    "standard vanilla plain basic original usual conventional traditional typical default regular "
    "generic".split()
)
"""Words that name the usual form of a thing, or make an idiom with it, never a kind of it."""
_PREPOSITIONS = frozenset("of for in on with to from over by under via between into at".split())
"""Prepositions: what follows one is a complement ("axioms of entropy"), not the head of the name."""


def heads(name: str) -> Iterator[str]:
    """The shorter heads of a name as written (its last words), normalized, longest first: the
    names of the concepts it is a kind of. A hyphenated word is one word: "sequence-to-sequence
    learning" is a kind of "learning", not of "sequence learning", and "cross-entropy" no kind of
    "entropy" by its name.

    >>> list(heads("minibatch stochastic gradient descent"))
    ['stochastic gradient descent', 'gradient descent', 'descent']
    >>> list(heads("sequence-to-sequence learning")), list(heads("cross-entropy"))
    (['learning'], [])
    """
    parts = name.split()
    for start in range(1, len(parts)):
        head = normalize_name(" ".join(parts[start:]))
        if head:
            yield head


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
    return any(head in wanted for name in longer for head in heads(name))


def names_a_kind(written: str, head: str, initial: bool = False) -> bool:
    """Whether a name as a text writes it (``written``, ending in the normalized name ``head``)
    names a kind of the head: not when a capitalised word before the head qualifies a head written
    with capitals, a product or a data set's name ("Mistral NeMo", "NVIDIA NIM", "Fashion-MNIST").
    With ``initial`` the text starts a sentence there, so its first capital counts only before a
    head written as a name (a capital inside a word, "NeMo", "GPU", or every word capitalised).

    >>> names_a_kind("stochastic gradient descent", "gradient descent"), names_a_kind("fast R-CNN", "r cnn")
    (True, True)
    >>> names_a_kind("Mistral NeMo", "nemo"), names_a_kind("Fashion-MNIST", "mnist")
    (False, False)
    >>> names_a_kind("Xavier initialization", "initialization")
    True
    >>> names_a_kind("Subword Tokenization", "tokenization", True)
    True
    >>> names_a_kind("NVIDIA GPU", "gpu", True), names_a_kind("Mistral NeMo", "nemo", True)
    (False, False)

    Nor when only a word that says "the usual one" stands before the head: "standard successive
    halving" is successive halving, and "standard deviation" no kind of deviation.

    >>> names_a_kind("standard successive halving", "successive halving")
    False

    Nor when a preposition stands before the head, whose complement it then is: "principle of
    metasystem transition" is no kind of "metasystem transition", "axioms of Shannon entropy" none
    of "Shannon entropy".

    >>> names_a_kind("principle of metasystem transition", "metasystem transition")
    False
    >>> names_a_kind("sparse mixture of experts", "mixture of expert")
    True
    >>> names_a_kind("max-over-time pooling", "pooling")  # a hyphenated word is one word
    True
    """
    parts = [part for word in _PART.findall(written) for part in word.split("-") if part]
    size = len(head.split(" "))
    before, named = parts[:-size], parts[-size:]
    if before and all(part.lower() in _USUAL for part in before):
        return False
    tokens = written.split()
    if any(
        token.lower() in _PREPOSITIONS and normalize_name(" ".join(tokens[i + 1 :])).endswith(head)
        for i, token in enumerate(tokens)
    ):
        return False
    a_name = any(ch.isupper() for part in named for ch in part[1:]) or (
        len(named) > 1 and all(part[:1].isupper() for part in named)
    )
    if initial and before and not a_name:
        before = before[1:]  # "Subword Tokenization" opening a sentence
    capitalised = any(part[:1].isupper() for part in before)
    return not (capitalised and any(part[:1].isupper() for part in named))


def plain_alias(alias: str, name: str) -> bool:
    """Whether ``alias`` is one everyday word that stands for the concept called ``name`` without
    being its name, its initials or an acronym ("kernel" for "covariance function"): such a word
    names many things, and the concept only where a lesson says so.

    >>> plain_alias("kernel", "covariance function"), plain_alias("sgd", "stochastic gradient descent")
    (True, False)
    >>> plain_alias("bert", "Bidirectional Encoder Representations from Transformers")
    False
    >>> plain_alias("GPU", "graphics processing unit"), plain_alias("recurrent net", "RNN")
    (False, False)
    """
    key = normalize_name(alias)
    if not key or " " in key or key == normalize_name(name) or acronym_of(alias.strip()) is not None:
        return False
    return not spells(key, normalize_name(name))  # "bert", "relu" are acronyms written in lower case


def head_lexicon(concepts: Iterable[tuple[str, str, Iterable[str]]]) -> dict[str, str]:
    """Normalized name -> concept id, for (concept id, name, aliases) triples, of the names that may
    head a longer one: a concept's name, and its aliases of several words or in capitals. A one-word
    alias in lower case ("kernel" for "covariance function") names too many things to make
    "convolution kernel" a kind of it.

    >>> concepts = [("gp-kernel", "covariance function", ["kernel"]), ("rnn", "RNN", ["recurrent net"])]
    >>> sorted(head_lexicon(concepts))
    ['covariance function', 'recurrent net', 'rnn']
    """
    keys: dict[str, str] = {}
    for concept_id, name, aliases in concepts:
        heading = [a for a in aliases if " " in normalize_name(a) or acronym_of(a.strip()) is not None]
        for key in map(normalize_name, (name, *heading)):
            if key:
                keys.setdefault(key, concept_id)
    return keys


def head_mentions(
    text: str, mentions: Sequence[tuple[int, int, str]], keys: Mapping[str, str]
) -> Iterator[tuple[int, int, str, str, str]]:
    """(start, end, longer, head, shorter) for each mention of ``text`` (start, end, concept) whose
    name ends in another name of ``keys``: the normalized head and the concept it names.

    >>> keys = {"gradient descent": "gd", "stochastic gradient descent": "sgd"}
    >>> list(head_mentions("We use stochastic gradient descent.", [(7, 34, "sgd")], keys))
    [(7, 34, 'sgd', 'gradient descent', 'gd')]
    """
    for start, end, longer in mentions:
        for head in heads(text[start:end]):
            shorter = keys.get(head)
            if shorter is not None and shorter != longer:
                yield start, end, longer, head, shorter


def named_roles(text: str, mentions: Sequence[tuple[int, int, str]], keys: Mapping[str, str]) -> set[str]:
    """The roles (or concept ids) of ``keys`` that ``mentions`` of ``text`` name, directly or as
    the head of a longer name: a mention of "stochastic gradient descent" names "gradient descent".

    >>> keys = {"gradient descent": "dst", "stochastic gradient descent": "src"}
    >>> sorted(named_roles("We use stochastic gradient descent.", [(7, 34, "src")], keys))
    ['dst', 'src']
    """
    return {role for _, _, role in mentions} | {hit[4] for hit in head_mentions(text, mentions, keys)}
