"""Acronym definitions in a lesson: "long form (ACR)" and "ACR (long form)", the long form's
initials spelling the acronym (after Schwartz and Hearst's rule for abbreviations in text)."""

from __future__ import annotations

import re
from functools import cache

from agents.phrases import FUNCTION_WORDS

__all__ = ["acronym_pairs", "spells"]

_SPACE = r"(?:[ \t]+|[ \t]*\n[ \t]*)"  # within a paragraph: spaces or one line break
_ACRONYM_DEF = re.compile(
    rf"(?P<long>[A-Za-z][\w-]*(?:{_SPACE}[\w-]+){{0,5}}){_SPACE}\((?P<short>[A-Z][A-Za-z0-9]{{1,8}})\)"
)
_ACRONYM_FIRST = re.compile(
    rf"\b(?P<short>[A-Z][A-Za-z0-9]{{1,8}}){_SPACE}\((?P<long>[A-Za-z][\w-]*(?:{_SPACE}[\w-]+){{1,6}})\)"
)
_MARKS = re.compile(r"[*_]")
"""Emphasis marks, dropped before acronyms are read ("*residual network* (*ResNet*)")."""


def acronym_pairs(text: str) -> list[tuple[str, str]]:
    """(long form, acronym) for each "long form (ACR)" whose last words' initials spell ACR, and
    each "ACR (long form)" whose initials spell it.

    >>> acronym_pairs("A large language model (LLM) on many GPUs (graphics processing units)")
    [('large language model', 'LLM'), ('graphics processing units', 'GPUs')]
    """
    pairs: list[tuple[str, str]] = []
    if "(" not in text:
        return pairs
    text = _MARKS.sub("", text)
    for match in _ACRONYM_DEF.finditer(text):
        short = match.group("short")
        letters = (short[:-1] if short.endswith("s") and short[:-1].isupper() else short).lower()
        parts = match.group("long").split()
        for size in range(min(len(parts), len(letters)), 0, -1):
            tail = parts[-size:]
            hyphenated = "".join(piece[0] for word in tail for piece in word.split("-") if piece)
            if letters in (hyphenated.lower(), "".join(word[0] for word in tail).lower()):
                pairs.append((" ".join(tail), short))
                break
        else:
            spelled = _spelled_by(letters, parts)
            if spelled:
                pairs.append((" ".join(spelled), short))
    for match in _ACRONYM_FIRST.finditer(text):
        long, short = " ".join(match.group("long").split()), match.group("short")
        letters = short.removesuffix("s").lower() if short[:-1].isupper() else short.lower()
        if _initials(long) == letters or _spelled_by(letters, long.split()) == long.split():
            pairs.append((long, short))
    return pairs


def spells(short: str, long: str) -> bool:
    """Whether ``short`` abbreviates the whole of ``long`` (:func:`_spelled_by`), in any case.

    >>> spells("bert", "Bidirectional Encoder Representations from Transformers")
    True
    >>> spells("relu", "rectified linear unit")
    True
    >>> spells("kernel", "covariance function")
    False
    """
    words = long.split()
    return bool(words) and len(_spelled_by(short.lower(), words)) == len(words)


def _spelled_by(letters: str, words: list[str]) -> list[str]:
    """The shortest run of the last ``words`` that spells ``letters`` in order, after Schwartz and
    Hearst (2003): the first letter opens the run's first word, and each word gives at least one
    letter; a short form of a few letters may not take more than two words per letter. Empty when
    none does ("residual network" spells "resnet", "hyperparameter optimization" spells "hpo").

    >>> _spelled_by("resnet", "the proposed residual network".split())
    ['residual', 'network']
    >>> _spelled_by("hpo", "Hyperparameter optimization".split()), _spelled_by("tm", "the model".split())
    (['Hyperparameter', 'optimization'], [])
    >>> _spelled_by("cnn", "a neural network".split())
    []
    """
    if len(letters) < 2 or not letters.isalnum():
        return []
    for size in range(1, min(len(words), 2 * len(letters)) + 1):
        run = [word.lower() for word in words[-size:]]
        if run[0][:1] == letters[0] and run[0] not in FUNCTION_WORDS and _each_gives(letters[1:], run):
            return words[-size:]
    return []


def _each_gives(letters: str, run: list[str]) -> bool:
    """Whether ``letters`` appear in order in the words of ``run`` after the first letter of its
    first word, with every later word but a function word ("from", "of") giving at least one."""
    flat = "".join(run)
    owner = [n for n, word in enumerate(run) for _ in word]

    def due(word: int) -> int:
        # The first word from ``word`` on that must still give a letter.
        while word < len(run) and run[word] in FUNCTION_WORDS:
            word += 1
        return word

    @cache
    def fits(letter: int, after: int, next_word: int) -> bool:
        # ``next_word``: the first word that must give a letter and has not yet (all before it have).
        if letter == len(letters):
            return next_word == len(run)
        return any(
            fits(letter + 1, at, due(max(next_word, owner[at] + 1)))
            for at in range(after + 1, len(flat))
            if flat[at] == letters[letter] and owner[at] <= next_word
        )

    return fits(0, 0, due(1))


def _initials(phrase: str) -> str:
    """The initials of a phrase, hyphenated parts apart, and an all-capital word's letters whole."""
    return "".join(
        piece.lower() if piece.isupper() else piece[0].lower()
        for word in phrase.split()
        for piece in word.split("-")
        if piece
    )
