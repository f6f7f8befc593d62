"""A question that asks for an example of what it names ("Can you explain X with an example?",
"Give me an example of X", "Example of X?"): the lessons' section that teaches X, which says what X
is and then shows it, answers it before a sentence elsewhere that shares the question's other words
("explain" in a neighbouring list item). "For example" and "e.g." inside a question give an example
of their own; they ask for none. Examples in the plural ("Give me some examples of image
augmentation") ask for several things of the kind X names, which the sentence that lists or shows
them says ("images can be flipped horizontally at random"), not the section's definition of X: a
blind review preferred those (:mod:`agents.enumerations` reads such a question)."""

from __future__ import annotations

import re

__all__ = ["asks_example"]

_EXAMPLE = re.compile(
    r"(?<!\bfor )\b(?:(?:an?|one|concrete|simple|real|worked)\s+)*"
    r"(?:example|illustration|instance)\s+(?:of|for|on|showing)\b"
    r"|\b(?:with|using|by|through|give|show|provide)\s+(?:me\s+|us\s+)?(?:an?|one)\s+"
    r"(?:\w+\s+)?(?:example|illustration)\b(?!s)"
    r"|^\W*(?:an?\s+)?example\b(?!s)"
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
    >>> asks_example("Give me some examples of image augmentation"), asks_example("examples of pooling?")
    (False, False)
    """
    return _EXAMPLE.search(question) is not None
