"""A concept's name of several words written with later words clipped ("batch norm", "layer norm"
for "batch normalization", "layer normalization"), read as the name. English clips a long word to
its opening letters; the rule holds only to that: the first word is written whole, each later word
whole or cut to an opening of four letters or more and at most half of it ("norm" of
"normalization", "conv" of "convolution"; never "mode" of "model", "data" of "dataset" or
"dimension" of "dimensionality", words of their own that a longer word only begins with), and a
run of the question is read so only when exactly one concept's name clips to it and no name is
written so. A name of one word may be clipped too ("backprop" for "backpropagation"), to an
opening of five letters or more that is no English word ("train" is one, of "training") and no number, and
leaves three letters or more off, when exactly one concept's one-word name opens so."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.phrases import word_classes
from agents.question_frames import WORD
from agents.text import normalize_name
from governance.excerpts import graph_lexicon
from magg_kg.graph_index import GraphIndex

__all__ = ["clipped_name", "clips"]

_SHORTEST = 4  # letters a clipped word keeps
_LONGEST = 4  # words of a name read so
_SHORTEST_WORD = 5  # letters a clipped name of one word keeps
_CUT = 3  # letters at least that a clipped name of one word leaves off


def clips(written: str, word: str) -> bool:
    """Whether ``written`` is ``word`` clipped to its opening (see the module docstring).

    >>> clips("norm", "normalization"), clips("conv", "convolution"), clips("mode", "model")
    (True, True, False)
    >>> clips("net", "network"), clips("data", "dataset"), clips("dimension", "dimensionality")
    (False, False, False)
    """
    return _SHORTEST <= len(written) <= len(word) // 2 and word.startswith(written)


def _names(graph: GraphIndex) -> dict[str, list[tuple[tuple[str, ...], str]]]:
    """The graph's names of two to four words by their first word, each as its words and concept."""

    def build() -> dict[str, list[tuple[tuple[str, ...], str]]]:
        found: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for key, concept in graph_lexicon(graph).items():
            parts = tuple(key.split(" "))
            if 2 <= len(parts) <= _LONGEST:
                found.setdefault(parts[0], []).append((parts, concept))
        return found

    return graph.kept("clipped names", build)


def _clipped_to(parts: Sequence[str], name: Sequence[str]) -> bool:
    if len(parts) != len(name) or parts[0] != name[0] or tuple(parts) == tuple(name):
        return False
    return all(a == b or clips(a, b) for a, b in zip(parts[1:], name[1:], strict=True))


def clipped_name(graph: GraphIndex, question: str) -> tuple[int, int, str] | None:
    """The first run of the question that is one concept's name with later words clipped (longest
    runs first): its span and the concept."""
    keys, names = graph_lexicon(graph), _names(graph)
    words = list(WORD.finditer(question))
    for size in range(_LONGEST, 1, -1):
        for i in range(len(words) - size + 1):
            start, end = words[i].start(), words[i + size - 1].end()
            asked = normalize_name(question[start:end])
            parts = asked.split(" ")
            if len(parts) != size or asked in keys:
                continue
            meant = {concept for name, concept in names.get(parts[0], ()) if _clipped_to(parts, name)}
            if len(meant) == 1:
                return start, end, next(iter(meant))
    return next((clipped for word in words if (clipped := _clipped_word(graph, word)) is not None), None)


def _clipped_word(graph: GraphIndex, word: re.Match[str]) -> tuple[int, int, str] | None:
    """The word's span and the one concept whose one-word name it clips (module docstring), if any."""
    asked = normalize_name(word.group(0))
    if len(asked) < _SHORTEST_WORD or not asked.isalpha() or word_classes(asked) != {"X"}:
        return None
    keys = graph_lexicon(graph)
    if asked in keys:
        return None
    meant = {
        c
        for key, c in keys.items()
        if " " not in key and len(key) - len(asked) >= _CUT and key.startswith(asked)
    }
    return (word.start(), word.end(), next(iter(meant))) if len(meant) == 1 else None
