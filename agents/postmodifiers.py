"""Post-modifiers: a past participle and its preposition after a noun ("an LLM *created by* TII",
"a model *based on* the transformer").

After a copula's genus, such a participle starts a phrase that qualifies the genus and ends it:
"Falcon is an LLM created by TII" says that Falcon is an LLM, not "an LLM created"; "Adam is an
optimizer based on SGD" that Adam is an optimizer. Only a participle followed by a preposition is
read so: "a fully connected layer" is a noun phrase, not a noun and its post-modifier.

What the participle relates the genus to, it also relates the subject to ("DALL-E is a model
based on the transformer": DALL-E builds on the transformer). That reading is not made: it read
four of Metacademy's see-also sentences right, which moved the reference model's indicator for
builds_on from 0.18 to 0.66 and cost two to three points of held-out precision at the commit bar
(`benchmarks/data/README.md`), an indicator that learns how the reference claims were made, not
how often a stated claim is true.
"""

from __future__ import annotations

import re

from agents.phrases import word_classes

__all__ = ["participle_start"]

_PREPOSITION = r"(?:by|on|upon|in|into|for|to|with|from|as|at|via|over|under|across|within)"
_IRREGULAR = frozenset(
    {"built", "made", "known", "written", "shown", "given", "taken", "drawn", "done", "seen", "held", "kept"}
)
_PARTICIPLE = re.compile(rf"\s(?P<word>[a-z][a-z-]*)\s+{_PREPOSITION}\b")


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
