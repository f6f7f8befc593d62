"""What an abbreviation stands for ("What does ReLU stand for?"), read from lesson excerpts.

The answer is a long form, not a definition: the words the lesson writes beside the abbreviation
in parentheses or after a comma, "rectified linear unit (ReLU)", "ReLU (rectified linear unit)",
"Retrieval Augmented Generation, RAG", whose letters spell it in order, the first opening the long
form (Schwartz and Hearst's rule). When no excerpt writes the two together,
a name of the concept asked about that spells the abbreviation answers, quoted from a sentence
that names it. Otherwise nothing here answers, and the question is read as "What is X?".

>>> from agents.answer_spans import Excerpt
>>> found = expansion("What does LLM stand for?",
...                   [Excerpt("c-1", "LLMs", "A large language model (LLM) predicts tokens.")])
>>> found.text, found.excerpt
('large language model', 'c-1')
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import WORD
from agents.answer_spans import AnswerSpan, Excerpt
from agents.offline.acronyms import spells
from agents.phrases import FUNCTION_WORDS
from agents.text import sentences

__all__ = ["abbreviation_asked", "expansion", "long_forms", "short_key"]

_STANDS_FOR = re.compile(
    r"\s*(?:what\s+(?:does|do|did)\s+(?:the\s+(?:acronym|abbreviation|initialism)\s+)?(?P<stand>.+?)\s+"
    r"stand\s+for|what\s+(?:is|are)\s+(?P<short>.+?)\s+(?:short|an?\s+(?:acronym|abbreviation))\s+for|"
    r"what\s+(?:is|are)\s+the\s+(?:full\s+(?:form|name)|long\s+form|expansion)\s+of\s+(?P<full>.+?)|"
    r"what\s+does\s+the\s+(?:acronym|abbreviation|initialism)\s+(?P<mean>.+?)\s+mean)",
    re.IGNORECASE,
)
_MARKS = re.compile(r"[*_`]")
"""Emphasis and code marks, read past ("*rectified linear unit* (*ReLU*)")."""
_JOINERS = ("(", ",", ":", "\u2014", "--", " or", " aka")
"""What may join a long form to the abbreviation after it: "(", a comma, a colon, a dash, "or"."""
_BREAK = re.compile(r"[^\w\s'-]")
"""What ends the words a long form before the abbreviation is read from (a full stop, a bracket)."""
_REACH = 200
"""How far before the abbreviation its long form is looked for, in characters."""
_PARENTHESIS = re.compile(r"\s*\((?P<run>[^()]{2,120})\)")
WRITTEN_TOGETHER = 0.9
"""The support of a long form the lesson writes beside the abbreviation."""
SPELLED_BY_NAME = 0.6
"""The support of a concept's name that spells the abbreviation, quoted from a sentence naming it."""


def abbreviation_asked(question: str) -> str:
    """The abbreviation a question asks the long form of; "" when it asks something else.

    >>> abbreviation_asked("What does ReLU stand for?"), abbreviation_asked("What is SGD short for?")
    ('ReLU', 'SGD')
    >>> abbreviation_asked("What is the full form of 'RAG'?"), abbreviation_asked("What is RAG?")
    ('RAG', '')
    """
    match = _STANDS_FOR.fullmatch(" ".join(question.split()).rstrip(" ?.!"))
    if match is None:
        return ""
    term = next(group for group in match.groups() if group is not None)
    return term.strip(" \"'“”‘’`*")


def short_key(short: str) -> str:
    """An abbreviation as compared: its letters in lower case, a plural "s" after capitals dropped."""
    letters = re.sub(r"[^\w]", "", short)
    if len(letters) > 2 and letters.endswith("s") and letters[:-1].isupper():
        letters = letters[:-1]
    return letters.lower()


def _spells_run(letters: str, words: Sequence[str]) -> bool:
    """Whether ``letters`` appear in order in ``words`` (joined), the first one opening the first
    word, and none of them the abbreviation itself, after Schwartz and Hearst (2003): "nltk" in
    "Natural Language Processing Toolkit"."""
    text = "".join(words).lower()
    if not words or text[:1] != letters[:1] or words[0].lower() in FUNCTION_WORDS:
        return False
    if any(short_key(word) == letters for word in words):  # "NVIDIA NIM" does not spell out NVIDIA
        return False
    at = 0
    for letter in letters[1:]:
        at = text.find(letter, at + 1)
        if at < 0:
            return False
    return True


def long_forms(sentence: str, key: str) -> list[str]:
    """The long forms a sentence writes beside the abbreviation: the fewest words just before it
    ("Natural Language Processing Toolkit (NLTK)", "Retrieval Augmented Generation, RAG") or in
    parentheses just after it ("ReLU (rectified linear unit)") whose letters spell it."""
    found = []
    plain = _MARKS.sub("", sentence)
    for match in WORD.finditer(plain):
        if short_key(match.group(0)) != key:
            continue
        before = plain[max(0, match.start() - _REACH) : match.start()].rstrip()
        joined = next((j for j in _JOINERS if before.endswith(j)), None)
        if joined is not None:
            run = _BREAK.split(before[: len(before) - len(joined)])[-1]
            words = WORD.findall(run)
            for size in range(1, min(len(words), len(key) + 5, 2 * len(key)) + 1):
                if _spells_run(key, words[-size:]):
                    found.append(" ".join(words[-size:]))
                    break
        after = _PARENTHESIS.match(plain[match.end() :])
        if after is not None:
            words = WORD.findall(after.group("run"))
            if len(words) <= min(len(key) + 5, 2 * len(key)) and _spells_run(key, words):
                found.append(" ".join(words))
    return found


def expansion(question: str, excerpts: Sequence[Excerpt], names: Sequence[str] = ()) -> AnswerSpan | None:
    """The long form of the abbreviation ``question`` asks about (module docstring); ``names``:
    the names of the concept asked about. None when the question asks something else or nothing
    given says it."""
    key = short_key(abbreviation_asked(question))
    if len(key) < 2:
        return None
    read = [(excerpt, sentence.text) for excerpt in excerpts for sentence in sentences(excerpt.text) or []]
    for excerpt, sentence in read:
        written = long_forms(sentence, key)
        if written:
            return AnswerSpan(written[0], excerpt.id, sentence, WRITTEN_TOGETHER)
    for name in names:
        if " " not in name.strip() or not spells(key, name):
            continue
        pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
        for excerpt, sentence in read:
            if pattern.search(sentence):
                return AnswerSpan(name, excerpt.id, sentence, SPELLED_BY_NAME)
    return None
