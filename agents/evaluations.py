"""An evaluation: what a copula says of X when it only praises it ("X is a very exciting field",
"an important topic", "a great tool", "a hot area"), which says nothing of what X is.

Such a complement is an article, an adjective of evaluation (a short list of general English:
:data:`EVALUATIVE`, after an intensifier or not) and a generic head noun (:data:`GENERIC_HEADS`, an
adjective between them allowed), followed by nothing that restricts the head, or only by where X
stands ("in the world of generative AI", "today"). What goes on to say what X is or does still
defines it, evaluation or not: "of ...", "for ...", "to ...", a relative clause ("that ...",
"which ..."), a participle ("capable of ...", "used to ...").

>>> evaluative("a very exciting field in the world of Generative AI")
True
>>> evaluative("a fascinating field of artificial intelligence that focuses on content")
False
>>> evaluative("an important topic"), evaluative("a great tool for parsing"), evaluative("a table")
(True, False, False)
"""

from __future__ import annotations

import re

__all__ = ["EVALUATIVE", "GENERIC_HEADS", "evaluative"]

EVALUATIVE = frozenset(
    "exciting fascinating interesting intriguing thrilling important great powerful hot amazing awesome "
    "cool fun useful valuable crucial essential vital key fantastic wonderful remarkable impressive "
    "promising popular compelling significant major huge incredible nice good excellent fundamental".split()
)
"""Adjectives that praise or rank a thing and say nothing of what kind of thing it is."""

GENERIC_HEADS = frozenset(
    "field area topic subject domain discipline space tool technology development thing part piece "
    "step concept idea aspect feature component skill innovation advance advancement breakthrough "
    "trend example resource".split()
)
"""Head nouns that name no kind of thing by themselves ("a field", "a tool", "a topic")."""

_INTENSIFIER = r"(?:(?:very|really|truly|incredibly|extremely|quite|particularly|most|super|so|pretty)\s+)*"
_PRAISE = re.compile(
    rf"[\W_]*(?:an?|the|one of the)\s+{_INTENSIFIER}(?P<adjective>[a-z]+)"
    r"(?:\s+and\s+(?P<other>[a-z]+))?\s+(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_SETTING = re.compile(r"\s*(?:(?:in|within|across|among|at|on)\b.*|today|nowadays|these days|right now)?\W*")
"""What only places X ("in the world of ...") and restricts nothing."""
_RESTRICTS = re.compile(
    r"\b(?:that|which|who|whose|where|whereby|for|to|used|capable|designed|allowing|enabling|letting)\b",
    re.IGNORECASE,
)
"""A word that goes on to say what the head is or does, even inside a setting."""


def evaluative(said: str) -> bool:
    """Whether what a copula says X is only praises X (the module's rule)."""
    found = _PRAISE.match(said)
    if found is None or any(w and w.lower() not in EVALUATIVE for w in (found["adjective"], found["other"])):
        return False
    words = re.match(r"([a-z-]+)\b(?:\s+([a-z]+)\b)?(.*)", found["rest"], re.IGNORECASE | re.DOTALL)
    if words is None:
        return False
    for k, word in enumerate(words.groups()[:2]):  # the head, or one adjective and the head
        if word and _head(word):
            rest = (words[2] or "") + words[3] if k == 0 else words[3]
            return _SETTING.fullmatch(rest) is not None and _RESTRICTS.search(rest) is None
    return False


def _head(word: str) -> bool:
    """Whether a word is a generic head noun, singular or plural ("fields", "advances")."""
    word = word.lower()
    return any(form in GENERIC_HEADS for form in (word, word.removesuffix("s"), word.removesuffix("es")))
