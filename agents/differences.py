"""Whether a sentence that names two things states how they differ, and the list a sentence announces.

"A differs from B" and "A is faster, while B is smaller" say how two things differ; "A is similar to B"
only likens them, and "The differences between A and B are as follows:" only announces what follows
it. A comparison is answered first by a sentence that states a difference: a word that sets one thing
against another ("whereas", "while" after a comma, "unlike", "except", "instead", "but", "however", "in
contrast", "differs", "rather than", "compared with") or a comparative ("faster than", "more efficient",
"lighter"). A sentence
that ends in ":" says what it announces with the first sentence of each list item after it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.text import Sentence

__all__ = ["COMPARED", "DIFFERENCE", "announced", "asks_apart", "states_difference"]

COMPARED = r"(?:more|less|fewer)\s+(?!than\b)\w+|\w{3,}er than"
"""A comparative written with "more" ("more efficient") or "than" ("faster than")."""
DIFFERENCE = re.compile(
    r"[,;]\s*while\b|\b(?:unlike|whereas|except|instead|rather than|in contrast|contrary|"
    r"differ(?:s|ed|ent|ently|ence|ences)?|distinct(?:ions?)?|distinguish(?:es|ed)?|disparity|but|however|"
    rf"conversely|compared (?:with|to)|{COMPARED}|better|worse|"
    r"(?:light|fast|slow|small|larg|simpl|cheap|easi|hard)er)\b",
    re.IGNORECASE,
)
"""English words that set one thing against another, or compare them (a comparative)."""

_APART = re.compile(
    r"\b(?:differ|differs|difference|differences|differently|vs|versus|compared?|compares|comparison|"
    r"contrast|instead of|rather than|better|worse|prefer|preferable|same|similar|which|identical|"
    r"synonyms?|another name)\b"
    r"|\bdifferent(?:\s+(?:from|than)\b|\W*$)",
    re.IGNORECASE,
)
"""English wording that asks how two things differ or which of them to take ("X vs Y", "How is X
different from Y?", "Is X the same as Y?", "Is X identical to Y?"), not what one does to or with the
other ("Can I add two tensors that live on different GPUs?")."""


def asks_apart(question: str) -> bool:
    """Whether a question asks how the things it names differ, or which to take (:data:`_APART`): only
    then does a sentence that states a difference answer it first; a sentence that sets one of them
    against a third ("it leverages GPUs ..., whereas NumPy only runs on CPUs") says nothing of
    what is asked of the two.

    >>> asks_apart("skip-gram vs CBOW"), asks_apart("How is a GRU different from an LSTM?")
    (True, True)
    >>> asks_apart("Can I add two tensors that live on different GPUs?"), asks_apart("How do RNNs use GRUs?")
    (False, False)
    """
    return _APART.search(question) is not None


_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d+[.)])[ \t]+")
"""The marker that opens a list item's line."""


def states_difference(sentence: str) -> bool:
    """Whether a sentence states how things differ (:data:`DIFFERENCE`), not only likens them or
    announces a list (it ends in ":").

    >>> states_difference("A trie is similar to a heap."), states_difference("A trie is lighter than a heap.")
    (False, True)
    >>> states_difference("The differences between a trie and a heap are as follows:")
    False
    >>> states_difference("A trie stores keys, whereas a heap orders them.")
    True
    >>> states_difference("While this is no trie, a heap is."), states_difference("A is B, while C is.")
    (False, True)
    """
    return not sentence.rstrip().endswith(":") and DIFFERENCE.search(sentence) is not None


def announced(text: str, found: Sequence[Sentence], at: int) -> str:
    """Sentence ``at`` of ``found`` (the sentences of ``text``), and when it ends in ":" and list items
    follow it, the first sentence of each of them: what it announces; the sentence alone otherwise.

    >>> from agents.text import sentences
    >>> lesson = "They differ as follows:\\n\\n* A trie is light. It is new.\\n* A heap is old.\\n\\nNext."
    >>> announced(lesson, sentences(lesson), 0)
    'They differ as follows: A trie is light. A heap is old.'
    """
    sentence = found[at]
    if not sentence.text.rstrip().endswith(":"):
        return sentence.text
    items: list[str] = []
    for before, after in zip(found[at:], found[at + 1 :], strict=False):
        line = text.rfind("\n", 0, after.start) + 1
        marker = _ITEM.match(text, line)
        if marker is not None and marker.end() >= after.start:  # the first sentence of an item
            items.append(after.text[max(0, marker.end() - after.start) :])
        elif not items or "\n" in text[before.end : after.start]:  # a paragraph after the list
            break
    return " ".join([sentence.text, *items])
