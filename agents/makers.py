"""Who made a thing ("Who invented the perceptron?"), read from lesson excerpts.

A name answers only when a sentence names the thing, says it was made (a verb of making:
"invented", "proposed", "introduced" ...) and names someone beside it: a name that is no part of
the thing, not an acronym (an acronym names a method more often than a person) and not a lone
capitalized first word. The verb must be in one clause with the thing ("Eugene Goostman, developed
in St.Petersburg, came close to passing the Turing test" says nothing of who made the Turing
test), the name near the verb; the name closest to it answers. When no sentence says so, nothing
here answers, and neither does anything else: a name read from a sentence about something else
answers another question ("Who proposed dropout?" was answered "Sepp Hochreiter", read from a
sentence about the LSTM).

>>> from agents.answer_spans import Excerpt
>>> lesson = [Excerpt("c-1", "Perceptron", "The perceptron was invented by Frank Rosenblatt in 1957.")]
>>> maker("Who invented the perceptron?", lesson).text
'Frank Rosenblatt'
>>> maker("Who invented dropout?", lesson) is None, maker("What is a perceptron?", lesson) is None
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import WORD, content_terms, name_spans
from agents.answer_spans import AnswerSpan, Excerpt
from agents.text import sentences

__all__ = ["asks_maker", "maker"]

_VERBS = (
    r"invent|propos|develop|creat|introduc|coin|discover|design|devis|pioneer|formulat|found|buil|"
    r"came\s+up\s+with|popular|conceiv"
)
_WHO_MADE = re.compile(
    rf"\s*who\s+(?:first\s+)?(?:{_VERBS})\w*\s+(?:the\s+(?:term|word|phrase|name|idea|notion)\s+)?"
    r"(?P<thing>(?:(?!\b(?:that|which|who|whose|where|when)\b)[^?,;])+?)\s*[?.!]*\s*$",
    re.IGNORECASE,
)
_MAKING = re.compile(
    r"\b(?:invent(?:s|ed)?|propos(?:e|es|ed)|develop(?:s|ed)?|creat(?:e|es|ed)|introduc(?:e|es|ed)|coined|"
    r"discovered|designed|devised|pioneered|formulated|founded|buil[dt]s?|popularized|popularised|"
    r"conceived|described|published)\b(?!\s+(?:on|upon)\b)",
    re.IGNORECASE,
)
"""A verb of making, as a verb ("developed", not "developers"; "builds on" relates, it makes nothing)."""
_COMMON = re.compile(r"(?:ing|ed|ly)$|^(?:The|This|These|Those|A|An|In|On|At|For|With|By|As|It|Its)$")
"""A first word that is a common word, not a name, in a capitalized run that opens a sentence."""
_ACRONYM = re.compile(r"[A-Z0-9-]{2,8}s?")
NEAR = 6
"""The most words between the verb of making and the name."""
CLAUSE = 12
"""The most words between the verb of making and the thing, in one clause."""
SUPPORT = 0.8
"""The support of a name said beside the thing and a verb of making."""


def asks_maker(question: str) -> bool:
    """Whether a question asks who made a thing (a thing of at most five words, with no clause).

    >>> asks_maker("Who proposed dropout?"), asks_maker("Who founded the label that signed X?")
    (True, False)
    """
    return bool(_thing(question))


def _thing(question: str) -> set[str]:
    """The content terms of the thing a question asks the maker of; none for any other question."""
    match = _WHO_MADE.match(question)
    terms = content_terms(match.group("thing")) if match is not None else []
    return set(terms) if len(terms) <= 5 else set()


def _one_clause(text: str, words: Sequence[tuple[int, list[str]]], first: int, second: int) -> bool:
    """Whether two words of a sentence are at most :data:`CLAUSE` words apart with no comma, colon
    or semicolon between them."""
    low, high = sorted((first, second))
    return high - low <= CLAUSE and not re.search(r"[,;:]", text[words[low][0] : words[high][0]])


def maker(question: str, excerpts: Sequence[Excerpt]) -> AnswerSpan | None:
    """Who made the thing the question asks about (module docstring), or None."""
    thing = _thing(question)
    if not thing:
        return None
    read = [(n, excerpt, s.text) for n, excerpt in enumerate(excerpts) for s in sentences(excerpt.text) or []]
    # A sentence's first word is a name only if the excerpts capitalize it inside a sentence too.
    inside = {word for _, _, text in read for word in re.findall(r"(?<=\s)[A-Z][\w-]*", text)}
    best: tuple[int, int, AnswerSpan] | None = None
    for number, excerpt, text in read:
        if not thing <= set(content_terms(text)):
            continue
        words = [(m.start(), content_terms(m.group(0))) for m in WORD.finditer(text)]
        near_thing = [i for i, (_, terms) in enumerate(words) if set(terms) & thing]
        verbs = [
            i
            for i, (at, _) in enumerate(words)
            if _MAKING.match(text, at) and any(_one_clause(text, words, i, j) for j in near_thing)
        ]
        for start, end in name_spans(text) if verbs else []:
            first, *rest = text[start:end].split()
            if start == 0 and first not in inside and (not rest or _COMMON.search(first)):  # "Using SDKs"
                start, first, rest = start + len(first) + 1, *(rest or [""])[:1], rest[1:]
            name = " ".join([first, *rest]).strip()
            if not _person_or_body(name, thing):
                continue
            at = next(i for i, (position, _) in enumerate(words) if position >= start)
            distance = min(abs(at - i) for i in verbs)
            if distance <= NEAR and (best is None or (distance, number) < best[:2]):
                best = (distance, number, AnswerSpan(name, excerpt.id, text, SUPPORT))
    return best[2] if best is not None else None


def _person_or_body(name: str, thing: set[str]) -> bool:
    """Whether a name may be who made the thing: it has a content word, none of the thing's, no
    verb of making ("Build"), and it is no acronym and no number."""
    terms = set(content_terms(name))
    return (
        bool(terms)
        and not terms & thing
        and not _MAKING.search(name)
        and not _ACRONYM.fullmatch(name)
        and not name[0].isdigit()
    )
