"""Phrases: the part of a raw phrase beside a cue phrase that can name a concept.

Used by the offline extractors: a list ("X, Y and Z") is cut into its parts, leading articles,
adverbs and gerunds ("understanding the perceptron") are dropped, the phrase is cut at a
preposition and trailing fillers, and a pronoun ("it", "this") is recognized as standing for an
earlier concept.
"""

from __future__ import annotations

import re

__all__ = ["conjuncts", "name_span", "pronoun"]

_PRONOUNS = frozenset(
    "it its this that these those they them their both either each one ones we you he she which what "
    "who whom something anything everything nothing all most many some several such other others itself "
    "themselves there here".split()
)
_LEADING = frozenset(
    "the a an every each most all any many some several its their our your this these that those "
    "such also only just simply usually often typically exactly then thus still even both".split()
)
_TRAILING = frozenset(
    "in on of for with to at by from as and or used built well here there "
    "is are was were be been being too also idea ideas".split()
)
_GENERIC = frozenset("same idea ideas thing things way ways part kind sort".split())
_GERUND_SKIP = frozenset(
    "understanding building using studying applying detecting computing deploying interpreting iterating "
    "changing controlling choosing designing measuring".split()
)
_CONJUNCTION = re.compile(r"\s*(?:,\s*(?:and|or)\s+|\s+and\s+|\s+or\s+|,\s+)")
_PREPOSITION = re.compile(
    r"\s(?:with|of|in|on|for|into|under|over|between|among|using|like|at)\s", re.IGNORECASE
)


def conjuncts(text: str, span: tuple[int, int]) -> list[tuple[int, int]]:
    """A phrase split at "and", "or" and commas into its parts (offsets into ``text``)."""
    parts: list[tuple[int, int]] = []
    cursor = span[0]
    for match in _CONJUNCTION.finditer(text, span[0], span[1]):
        parts.append((cursor, match.start()))
        cursor = match.end()
    parts.append((cursor, span[1]))
    return [part for part in parts if part[1] > part[0]]


def name_span(text: str, span: tuple[int, int]) -> tuple[int, int] | None:
    """The part of a raw phrase that can name a concept: leading articles, adverbs and a gerund
    ("understanding the perceptron") dropped, cut at a preposition, trailing fillers and
    auxiliaries dropped ("contributions are" -> "contributions"), at most five words; None for a
    pronoun, generic words alone ("the same idea") or an empty phrase.

    >>> t = "understanding the perceptron with care"
    >>> s = name_span(t, (0, len(t))); t[s[0]:s[1]]
    'perceptron'
    """
    start, end = span
    while True:
        match = re.match(r"([^\W_][\w'’-]*)\s+", text[start:end])
        if match is None:
            break
        word = match.group(1).lower()
        rest = text[start + match.end() : end].split(" ", 1)[0].lower()
        gerund = word.endswith("ing") and rest in _LEADING
        if word in _LEADING or word in _GERUND_SKIP or gerund or word in ("for", "in", "on", "to", "of"):
            start += match.end()
            continue
        break
    cut = _PREPOSITION.search(text, start, end)
    if cut is not None:
        end = cut.start()
    text_part = text[start:end].strip(" *_`'\"")
    tokens = list(re.finditer(r"\S+", text_part))
    while len(tokens) > 1 and (
        tokens[-1].group(0).lower() in _TRAILING or re.fullmatch(r"[a-z]+(?:ed|ly)", tokens[-1].group(0))
    ):
        tokens.pop()
    text_part = text_part[: tokens[-1].end()] if tokens else ""
    if not text_part:
        return None
    offset = text.index(text_part, start)
    start, end = offset, offset + len(text_part)
    words = text_part.split()
    if len(words) > 5:
        return None
    if words[0].lower() in _PRONOUNS and len(words) == 1:
        return None
    if all(word.lower() in _GENERIC for word in words):
        return None
    if not words[0][0].isalpha() or any(ch in text_part for ch in "$\\{}=<>[]"):
        return None
    return start, end


def pronoun(text: str, span: tuple[int, int]) -> bool:
    """Whether a raw phrase is a pronoun ("it", "this", "they") standing for an earlier concept."""
    return text[span[0] : span[1]].strip().lower() in (
        "it",
        "this",
        "they",
        "these",
        "this method",
        "this model",
    )
