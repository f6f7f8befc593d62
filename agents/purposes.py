"""Sentences that say what something is for: the answer to "What is X good for?" (or "used for",
"What is the point of X?": :data:`agents.answer_forms.PURPOSE`), which a lesson seldom writes in
the question's words.

English says a thing's purpose with a few verbs and adjectives of use: X "is useful for", "is used
for/to", "is good for/at", "is designed/meant for", "serves to", "allows", "enables", "lets us",
"helps us", "makes it possible to". A sentence that says one of these says what X is for; what it
says it of (X or another thing) is for the reader to check (its subject must be named).

>>> says_purpose("Bidirectional RNNs are mostly useful for sequence encoding.")
True
>>> says_purpose("Function calling allows us to get structured data back.")
True
>>> says_purpose("Dropout lets us train larger networks."), says_purpose("We use it later.")
(True, False)
>>> says_purpose("Bidirectional RNNs are very costly to train due to long gradient chains.")
False
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set

__all__ = ["says_purpose", "says_purpose_of"]

_PURPOSE_SAID = re.compile(
    r"\b(?:useful|helpful|handy|well[- ]suited|suitable|good|ideal)\s+(?:for|when|to|in|at)\b|"
    r"\b(?:used|designed|meant|intended|employed|applied)\s+(?:for|to|in|when|as)\b|"
    r"\b(?:serves?|serving)\s+(?:to|as)\b|"
    r"\b(?:allows?|allowing|enables?|enabling)\b|"
    r"\b(?:lets?|letting|helps?|helping)\s+(?:us|you|them|one|people|users|the)\b|"
    r"\bmakes?\s+it\s+possible\b|\bthe\s+(?:purpose|goal|point|aim)\s+of\b",
    re.IGNORECASE,
)


def says_purpose(sentence: str) -> bool:
    """Whether a sentence says what something is for (see the module docstring)."""
    return _PURPOSE_SAID.search(sentence) is not None


def says_purpose_of(sentence: str, terms: Set[str], names: Iterable[Set[str]]) -> bool:
    """Whether a sentence (with its content words, ``terms``) says what something is for and names
    it itself, all the words of one of its ``names``; its title naming it is not enough.

    >>> says_purpose_of("They allow search.", {"allow", "search"}, [{"vector", "databas"}])
    False
    """
    return any(name <= terms for name in names) and says_purpose(sentence)
