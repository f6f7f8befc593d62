"""Questions that ask for a measure of a thing in the words of "What is X?": "What's the default
temperature value?", "What is the maximum context length?", "What is the number of layers of the
model?" ask for a value, not what the phrase means. Their last noun names a measure (value, size,
number, count, amount, length) said of two words or more before it or of a thing after "of"; a
lesson answers them with a number ("The default value is 0.7."), not with a sentence that defines
the whole phrase.

A measure with one word before it and nothing after is as often a term ("What is the batch size?",
"the step size"), asked what it is; and a "value" needs a word before it that says which: "What is
the value of a state?" may ask what the value is, as a term.

>>> asks_measure("What's the default temperature value?"), asks_measure("what is the size of the vocabulary")
(True, True)
>>> asks_measure("What is the step size?"), asks_measure("What is the value of a state?")
(False, False)
"""

from __future__ import annotations

import re

__all__ = ["asks_measure"]

_MEASURE = re.compile(
    r"^\W*what(?:'s|’s|\s+is|\s+are)\s+(?:the\s+|its\s+|their\s+)?(?:(?P<which>[\w-]+(?:\s+[\w-]+){0,3})\s+)?"
    r"(?P<measure>value|size|number|count|amount|length)s?(?P<of>\s+of\s+[^?]+)?\s*\?*\s*$",
    re.IGNORECASE,
)


def asks_measure(question: str) -> bool:
    """Whether ``question`` asks "What is the ... value/size/number/count/amount/length (of X)?": a
    value, not a definition (module docstring)."""
    match = _MEASURE.match(question.strip())
    if match is None:
        return False
    which = len((match.group("which") or "").split())
    if match.group("measure").lower() == "value" and not which:
        return False
    return which >= 2 or bool(match.group("of"))
