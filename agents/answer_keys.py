"""The answer key of a quiz: the line after a question with numbered or lettered options that names
the right ones ("A: 3, an LLM is non-deterministic ...", "Answer: 2 and 3 are correct.").

The key itself says nothing to a reader who does not see the options: "3" or "2 and 3 are correct"
is no statement of the lesson. What follows it often is ("an LLM is non-deterministic, the
response vary ..."), and may be the best statement of a fact the course makes; so a sentence that
opens with a key is read without it (:func:`unkeyed`), and one that is nothing but a key ("A: 2 and
3 are correct.") is not read at all (its text read is empty). A key is "A", "Ans" or "Answer" and
a colon (or a full stop or a bracket), then one option or more (a number, or a capital letter set
apart by a comma, a colon, a bracket or "and"/"or"), then a comma, dash, colon or semicolon before
the explanation, or a verb that calls them right ("is correct", "are the right answers").
An answer written as a sentence ("A: A foundation model is ...", "Answer: 3 layers suffice.") is
no key: what follows its label is a statement, read as it is.
"""

from __future__ import annotations

import re

__all__ = ["unkeyed"]

_OPTION = r"(?:\d{1,2}|[A-H](?=\s*(?:[,;:)]|and\b|or\b|is\b|are\b|&|\u2013|\u2014|-|$)))"
_OPTIONS = rf"\(?{_OPTION}\)?(?:\s*(?:,|&|\band\b|\bor\b)\s*\(?{_OPTION}\)?)*"
_RIGHT = (
    r"\s+(?:is|are)\s+(?:both\s+|all\s+)?(?:the\s+)?(?:correct|right|true|best)"
    r"(?:\s+(?:answers?|options?|choices?|ones?))?"
)
_KEY = re.compile(
    rf"^[\s*_]*(?:A|Ans|Answers?)[*_]*\s*[:.)][*_]*\s*(?P<options>{_OPTIONS})"
    rf"(?:(?P<right>{_RIGHT})\s*[.!;:,]?|\s*[,;:\u2013\u2014-]|\s*$)[\s*_]*",
)
"""The key at a sentence's start: its label, the options it names, and what sets them apart from the
explanation (or calls them right)."""


def unkeyed(sentence: str) -> str:
    """The sentence without the answer key it opens with (the whole of it when it opens with none;
    the empty string when it is a key only).

    >>> unkeyed("A: 4, a transformer reads the whole sequence at once.")
    'a transformer reads the whole sequence at once.'
    >>> unkeyed("Answer: B and C are correct."), unkeyed("A: 1")
    ('', '')
    >>> unkeyed("A: 1 and 2 are the right answers. Both are tools.")
    'Both are tools.'
    >>> unkeyed("A: A lexer splits text into tokens."), unkeyed("Answer: 3 layers suffice.")
    ('A: A lexer splits text into tokens.', 'Answer: 3 layers suffice.')
    """
    key = _KEY.match(sentence)
    return sentence if key is None else sentence[key.end() :]
