"""The numbers a sentence gives, as the offline reader compares them: counts in digits or words,
years for a comparison of time (:mod:`agents.answer_spans`, "Which has more species, A or B?"); and
what a number quantifies, for a question that asks how many or how much of a thing.

A number answers "How many X ...?" or "How much X ...?" only when its sentence says it of X: X
follows it ("152 layers", "a 152-layer model", "16 GB of memory") or comes before it with only
function words between ("a patience of 12", "the layers are 12", "raise the patience to 12"). A
number that counts something else ("this will take about 12 minutes") or is part of a name
("ResNet-152") answers nothing about X, though its sentence shares a word with the question.

>>> number_value("1,200"), number_value("five"), counts("118 species of frogs", {"speci"})
(1200.0, 5.0, True)
>>> quantified("How much patience should I give it?"), quantified("How much does it cost?")
('patienc', '')
>>> text = "It takes 12 minutes with a patience of 5."
>>> quantifies(text, 9, 11, "patienc"), quantifies(text, 39, 40, "patienc")
(False, True)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import NUMBER, WORD, YEAR, content_terms
from agents.phrases import CLOSED_CLASSES, word_classes

__all__ = [
    "COUNT",
    "TIME_COMPARED",
    "counts",
    "first_value",
    "in_name",
    "measured",
    "number_value",
    "owner",
    "quantified",
    "quantifies",
    "sized",
]

TIME_COMPARED = re.compile(
    r"\b(?:earlier|earliest|first|older|oldest|before|sooner|later|latest|last|younger|youngest|after|"
    r"recent|recently|newer|newest)\b",
    re.IGNORECASE,
)
"""The comparatives of time: an either-or question with one compares years, any other compares numbers."""
_NUMBER_WORDS = dict(
    zip(
        "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
        "seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred".split(),
        [*range(2, 21), 30, 40, 50, 60, 70, 80, 90, 100],
        strict=True,
    )
)
"""Numbers written as words ("one" is left out: it is as often a pronoun, "one of the largest")."""
COUNT = re.compile(rf"{NUMBER.pattern}|\b(?:{'|'.join(_NUMBER_WORDS)})\b", re.IGNORECASE)
"""A number, in digits or as a word ("Five to ten species"): what a comparison of counts reads."""


def counts(after: str, counted: set[str]) -> bool:
    """Whether a number counts something the question asks about: one of ``counted`` within the
    three words after it ("118 species", "five Danish Cup trophies")."""
    return bool(set(content_terms(" ".join(WORD.findall(after)[:3]))) & counted)


def number_value(text: str) -> float | None:
    """The value of a number in digits ("1,200", "$3.5 million": its first figures) or a word."""
    word = text.lower()
    if word in _NUMBER_WORDS:
        return float(_NUMBER_WORDS[word])
    try:
        return float(re.sub(r"[^\d.]", "", word.split(" ")[0]))
    except ValueError:  # "1.2.3"
        return None


_FUNCTION = frozenset().union(*(words for tag, words in CLOSED_CLASSES.items() if tag != "NUM"))
"""Function words: they join a thing to its number ("a patience of 12") and end the words that
name what a number counts ("12 minutes: ...", "152 layers and ...")."""
_RANGED = CLOSED_CLASSES["NUM"] | CLOSED_CLASSES["QUANT"]
"""Words that close a range after a number ("1 or more", "5 or fewer", "two or three")."""
_ASKED_AMOUNT = re.compile(
    r"\bhow\s+(?:(?:many|much)\s+(?P<what>[^?]*)|(?:long|big|large|wide|deep)\s+(?:(?:is|are|was|were)\s+)?"
    r"(?:an?|the|its|their)\s+(?P<measured>[^?]*))",
    re.IGNORECASE,
)
_JOINED = re.compile(r"[\s=:]*|\s+[-–—]\s+")
"""What may stand between two words of a phrase that gives a number ("patience = 12", "heads: 8",
"context window - 128k tokens")."""


def quantified(question: str) -> str:
    """The stem of what a "how many" or "how much" question counts or measures: the last of the
    words after it, up to the first function word ("layer" in "How many layers does it have?",
    "head" in "how many attention heads ..."), or what "how long (is) a/the X" or "how big is the
    X" measures ("window" in "how big is the context window of ..."); "" when none is named ("How
    much does it cost?", "How long does training take?")."""
    asked = _ASKED_AMOUNT.search(question)
    if asked is None:
        return ""
    named: list[str] = []
    for word in _phrase(asked.group("what") or asked.group("measured") or ""):
        if word.lower() in _FUNCTION:
            break
        named.append(word)
    terms = content_terms(named[-1]) if named else []
    return terms[-1] if terms else ""


_OWNED = re.compile(
    r"^\W*how\s+(?:much|many)\s+[\w-]+(?:\s+[\w-]+){0,2}?\s+(?:does|did|can|could|will|would)\s+"
    r"(?P<owner>(?!(?:i|we|you|they|it|he|she|one|this|that)\b)[^?,]+?)\s+(?:have|hold|contain|support|use)\b",
    re.IGNORECASE,
)


def owner(question: str) -> str:
    """What has the things a "how many" or "how much" question counts, as written ("Llama 3.1" in
    "How many parameters does Llama 3.1 have"); "" when the question asks it of a pronoun.

    >>> owner("How many layers does ResNet-50 have?"), owner("How much memory do I need?")
    ('ResNet-50', '')
    """
    found = _OWNED.match(" ".join(question.split()))
    return found.group("owner") if found is not None else ""


def quantifies(text: str, start: int, end: int, what: str) -> bool:
    """Whether the number at ``[start, end)`` of a sentence is said of ``what`` (a stem, from
    :func:`quantified`): the words right after it name it, through one "of" ("16 GB of memory"),
    or it is the word before it or the one before that word, but for function words, three at most
    ("the heads are 8", "the context window - 128k"; not "images representing 10 categories": the
    word before is a verb)."""
    after = _phrase(text[end:])
    ranged = len(after) > 2 and (after[1].lower() in _RANGED or number_value(after[1]) is not None)
    if ranged and after[0].lower() in ("or", "to", "and"):
        after = after[2:]  # "1 or more examples", "8 to 16 heads": the range counts what follows it
    named = _named(after)
    if len(named) < len(after) and after[len(named)].lower() == "of":
        named += _named(after[len(named) + 1 :])
    if what in content_terms(" ".join(named)):
        return True
    before = _phrase(text[:start], backwards=True)
    between = next((k for k, word in enumerate(before) if word.lower() not in _FUNCTION), len(before))
    named = _named(before[between:])[:2]  # nearest first: "context window - 128k", the window's context
    if between > 3 or not named:
        return False
    return content_terms(named[0])[-1:] == [what] or (
        len(named) == 2 and _head(named[0]) and content_terms(named[1])[-1:] == [what]
    )


def in_name(text: str, start: int) -> bool:
    """Whether the number at ``start`` of a sentence is part of a name: it follows a capitalized
    word joined by a space or a hyphen ("Llama 3.1", "Mistral Large 2", "Phi-3", "ResNet-152"), not
    a function word ("In 2017", "At 405 billion"), nor a sentence's first word that is no noun
    ("Approximately 60,000 images").

    >>> in_name("It supports Llama 3.1 and Phi-3.", 18), in_name("At 405 billion, it is large.", 3)
    (True, False)
    """
    before = re.search(r"([A-Z][^\W_]*)[ -]$", text[:start])
    if before is None or before.group(1).lower() in _FUNCTION:
        return False
    first = not text[: before.start()].strip()
    return not first or bool(word_classes(before.group(1)) & {"NOUN", "PROPN", "X"})


def sized(question: str) -> bool:
    """Whether a question asks how long, big, wide or deep a thing is ("How long are the transcript
    chunks?"), not how many or how much of it.

    >>> sized("How long are the chunks?"), sized("How many chunks are there?")
    (True, False)
    """
    asked = _ASKED_AMOUNT.search(question)
    return asked is not None and asked.group("measured") is not None


def measured(text: str, start: int, end: int, what: str, size: bool = False) -> bool:
    """Whether the number at ``[start, end)`` of a sentence may answer a question of numbers: no
    part of a name (:func:`in_name`), and said of ``what`` when the question names what it asks
    (:func:`quantified`; any number when ``what`` is ""). A size asked (:func:`sized`) is given in
    a unit of its own ("The transcript text is then chunked into 3 minute text segments." says how
    long a chunk is): its sentence need only name the thing, not put it beside the number."""
    if in_name(text, start):
        return False
    if size and what:
        return what in content_terms(text)
    return not what or quantifies(text, start, end, what)


def _head(word: str) -> bool:
    """Whether a word may be the head noun of a compound ("window" of "context window"), not a verb's
    participle ("representing" in "images representing 10 categories", "used")."""
    return "NOUN" in word_classes(word) and not re.search(r"(?:ing|ed)$", word, re.IGNORECASE)


def _named(words: list[str]) -> list[str]:
    """The words up to the first function word, three at most: the name of what a number counts."""
    return words[: next((k for k, word in enumerate(words) if word.lower() in _FUNCTION), len(words))][:3]


def _phrase(text: str, *, backwards: bool = False) -> list[str]:
    """The words of ``text`` from its start (from its end, ``backwards``, nearest first) while only
    spaces, "=" or ":" stand between them (or a hyphen before the first, forwards: "a 152-layer
    model"): a comma, a bracket or a full stop ends the phrase."""
    words = list(WORD.finditer(text))
    if backwards:
        words.reverse()
    found: list[str] = []
    edge = len(text) if backwards else 0
    for word in words:
        gap = text[word.end() : edge] if backwards else text[edge : word.start()]
        if not _JOINED.fullmatch(gap) and (backwards or found or gap != "-"):  # "152-layer": 152 layers
            break
        found.append(word.group(0))
        edge = word.start() if backwards else word.end()
    return found


def first_value(about: Sequence[str], question: str, counted: set[str]) -> tuple[float | None, int | None]:
    """The first year of the sentences ``about`` when the question compares times (earlier, later,
    ...); otherwise the first number with a unit, or that counts one of the question's words
    (``counted``); and the position of the sentence that gives it: what an answer quotes, so that a
    reader who sees only one option (an expert of one domain) still passes on the fact a comparison
    needs.

    >>> first_value(["Founded long ago.", "It was founded in 1901."], "Which is older, A or B?", set())
    (1901.0, 1)
    >>> first_value(["It has 118 species of frogs."], "Which has more species?", {"speci"})
    (118.0, 0)
    """
    if TIME_COMPARED.search(question):
        for position, sentence in enumerate(about):
            if (year := YEAR.search(sentence)) is not None:
                return float(year.group(0)), position
        return None, None
    for position, sentence in enumerate(about):
        for found in COUNT.finditer(sentence):
            if " " in found.group(0) or counts(sentence[found.end() :], counted):
                if (value := number_value(found.group(0))) is not None:
                    return value, position
    return None, None
