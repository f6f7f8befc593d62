"""An ability: a sentence whose subject is X and whose verb says what X does for something else
("X allows LLMs to perform tasks ...", "X lets you ...", "X enables ...", "X provides a data
platform ..."), which describes X for "What is X?" when no sentence says "X is ...". X may open the
sentence or the clause after a colon ("we use this definition: X allows ..."), which is then what
is taken for the definition (the sentence is quoted whole).

>>> doing(("AI agent",)).search("Here is our definition: AI Agents allow LLMs to use tools.") is not None
True
>>> [doing(("dropout",)).search(s) is not None for s in ("Dropout can help a net.", "We use dropout.")]
[True, False]
"""

from __future__ import annotations

import re
from functools import lru_cache

from agents.glosses import UNMARKED
from agents.written_forms import either_way

__all__ = ["after_colon", "doing"]

_VERBS = r"(?:allow|let|enable|help|provide|give|offer|permit|empower)s?"
"""Verbs that say what X does for something else, its user or another thing."""


@lru_cache(maxsize=256)
def doing(names: tuple[str, ...]) -> re.Pattern[str]:
    """The pattern of a sentence (or its clause after a colon) whose subject is X (any of ``names``)
    and whose verb says what X does (the module's rule)."""
    terms = "|".join(either_way(name) for name in names)
    return re.compile(
        rf"(?:^|:\s+)[\W_]*(?:the |an? )?(?:{terms})(?:e?s)?[*_\"”]*(?:\s*\([^()]*\))?\s+"
        rf"(?:(?:also|often|can|simply|essentially|basically|then)\s+)*{_VERBS}\b",
        re.IGNORECASE,
    )


def after_colon(pattern: re.Pattern[str], sentence: str) -> str:
    """The clause after a colon where ``pattern`` (any pattern) finds X opening it, emphasis and its
    full stop dropped, else the whole sentence.

    >>> after_colon(doing(("RAG",)), "We define it so: RAG lets a model read **documents**.")
    'RAG lets a model read documents'
    >>> after_colon(doing(("RAG",)), "RAG lets a model read documents.")
    'RAG lets a model read documents.'
    """
    found = pattern.search(sentence)
    if found is None or not found.group(0).startswith(":"):
        return sentence
    return UNMARKED.sub(r"\g<text>", sentence[found.start() + 1 :]).strip().rstrip(".!")
