"""Questions that ask for a measure of a thing in the words of "What is X?": "What's the default
temperature value?", "What is the batch size?", "What is the number of layers of the model?" ask
for a value, not what the phrase means. Their last noun names a measure (value, size, number,
count, amount, length) said of the words before it or after "of"; a lesson answers them with a
number ("The default value is 0.7."), not with a sentence that defines the whole phrase.

A "value" needs a word before it that says which ("the default value", "the temperature value"):
"What is the value of a state?" may ask what the value is, as a term.

>>> asks_measure("What's the default temperature value?"), asks_measure("what is the batch size")
(True, True)
>>> asks_measure("What is the value function?"), asks_measure("What is the value of a state?")
(False, False)
"""

from __future__ import annotations

import re

__all__ = ["asks_measure"]

_MEASURE = re.compile(
    r"^\W*what(?:'s|’s|\s+is|\s+are)\s+(?:the\s+|its\s+|their\s+)?(?:(?P<which>[\w-]+(?:\s+[\w-]+){0,3})\s+)?"
    r"(?P<measure>value|size|number|count|amount|length)s?(?:\s+of\s+[^?]+)?\s*\?*\s*$",
    re.IGNORECASE,
)


def asks_measure(question: str) -> bool:
    """Whether ``question`` asks "What is the ... value/size/number/count/amount/length (of X)?": a
    value, not a definition (a bare "value" only with a word before it that says which)."""
    match = _MEASURE.match(question.strip())
    if match is None:
        return False
    return match.group("measure").lower() != "value" or bool(match.group("which"))
