"""A question that asks for an example of what it names ("Can you explain X with an example?",
"Give me an example of X", "Example of X?", "Show me some examples of X"): the lessons' section
that teaches X, which says what X is and then shows it, answers it before a sentence elsewhere that
shares the question's other words ("explain" in a neighbouring list item). "For example" and "e.g."
inside a question give an example of their own; they ask for none."""

from __future__ import annotations

import re

__all__ = ["asks_example"]

_EXAMPLE = re.compile(
    r"(?<!\bfor )\b(?:(?:an?|some|any|one|two|few|concrete|simple|real|worked|\d+)\s+)*"
    r"(?:examples?|illustrations?|instances?)\s+(?:of|for|on|showing)\b"
    r"|\b(?:with|using|by|through|give|show|provide)\s+(?:me\s+|us\s+)?(?:an?|some|a few|one)\s+"
    r"(?:\w+\s+)?(?:examples?|illustrations?)\b"
    r"|^\W*(?:an?\s+)?examples?\b"
    r"|\billustrate\b",
    re.IGNORECASE,
)
"""English wording that asks for an example: "an example of", "with an example", "example of X?"."""


def asks_example(question: str) -> bool:
    """Whether a question asks for an example of what it names (module docstring).

    >>> asks_example("Can you explain beam search with an example?"), asks_example("example of a kernel?")
    (True, True)
    >>> asks_example("Give me an example of a hash map"), asks_example("What is an example of overfitting?")
    (True, True)
    >>> asks_example("For example, what is a kernel?"), asks_example("Why is dropout, for example, useful?")
    (False, False)
    >>> asks_example("How many examples do I need?"), asks_example("What is a training example?")
    (False, False)
    """
    return _EXAMPLE.search(question) is not None
