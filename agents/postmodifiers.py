"""Post-modifiers: a past participle and its preposition after a noun ("an LLM *created by* TII",
"a model *based on* the transformer").

After a copula's genus, such a participle starts a phrase that qualifies the genus and ends it:
"Falcon is an LLM created by TII" says that Falcon is an LLM, not "an LLM created". And the
genus is the subject itself, so what the participle relates it to, it relates the subject to:
"DALL-E is a generative model based on the transformer" says that DALL-E builds on the
transformer; "Text embeddings are a technique used in natural language processing" that text
embeddings apply to it. Only a participle followed by a preposition is read so: "a fully
connected layer" is a noun phrase, not a noun and its post-modifier.

The functions read text only; :mod:`agents.cues` makes the statements.
"""

from __future__ import annotations

import re

from agents.phrases import word_classes

__all__ = ["RELATIONAL", "participle_start", "relational_participle"]

_PREPOSITION = r"(?:by|on|upon|in|into|for|to|with|from|as|at|via|over|under|across|within)"
_IRREGULAR = frozenset(
    {"built", "made", "known", "written", "shown", "given", "taken", "drawn", "done", "seen", "held", "kept"}
)
_PARTICIPLE = re.compile(rf"\s(?P<word>[a-z][a-z-]*)\s+{_PREPOSITION}\b")

RELATIONAL: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("builds_on", re.compile(r"\s*(?:based|built|founded) (?:up)?on\b", re.IGNORECASE)),
    (
        "applies_to",
        re.compile(
            r"\s*(?:(?:used|applied|employed) (?:in|for|to)|designed (?:for|to handle))\b", re.IGNORECASE
        ),
    ),
)
"""The participles that state a relation of the vocabulary, with the edge type each states of the
noun they follow: "based on" builds on, "used in" applies to."""


def _participle(word: str) -> bool:
    """Whether a lowercase word is a past participle only (no noun or adjective of its own
    spelling is read as one: "speed", "red"): an "-ed" verb form or an irregular one."""
    if word in _IRREGULAR:
        return True
    classes = word_classes(word)
    return word.endswith("ed") and "VERB" in classes and "NOUN" not in classes


def participle_start(text: str, start: int, end: int) -> int | None:
    """Where, in ``text[start:end]`` (a genus phrase), a past participle followed by a preposition
    begins a post-modifier (the preposition may lie past ``end``: a phrase that stopped at "by");
    None when none does (the offset of its word).

    >>> t = "Falcon is an LLM created by TII."
    >>> t[t.index("an") : participle_start(t, t.index("an"), len(t))]
    'an LLM '
    >>> t = "It is a fully connected layer in the network."
    >>> participle_start(t, t.index("a "), len(t)) is None
    True
    """
    for found in _PARTICIPLE.finditer(text, start):
        if found.start("word") >= end:
            return None
        if found.start("word") > start and _participle(found.group("word")):
            return found.start("word")
    return None


def relational_participle(text: str, at: int) -> tuple[str, int, int] | None:
    """The edge type, start and end of a relational participle (:data:`RELATIONAL`) that begins at
    ``at``; None when the post-modifier there states no relation ("created by").

    >>> t = "DALL-E is a model based on the transformer."
    >>> relational_participle(t, t.index("based"))
    ('builds_on', 18, 26)
    """
    for type_, pattern in RELATIONAL:
        found = pattern.match(text, at)
        if found is not None:
            return type_, at, found.end()
    return None
