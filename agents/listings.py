"""The sentence that lists what a question asks the several of: "What are the Ns of X?", "What are
the X Ns?" (N a plural noun: the principles, steps, kinds or stages of X).

Such a question asks for the things a lesson lists, and the sentence that gives them may define
nothing: "We follow the rules of good brewing: cleanliness, patience and cold water." names X
("brewing") and N ("rules") and gives the items after a colon; "The method has four stages:" ends in
one, and its items follow (:func:`agents.enumerations.listed_after`); "Below are the rules, ..."
or "The rules are ..." announces them. A sentence that names X and N but lists nothing is read with
the next sentence of its excerpt when that one announces the Ns ("The guild has set five rules for
brewing. Below are the rules and why they matter."). X need not be a concept of the graph: a list
of a term it lacks ("brewing rules") is read here, not only a sentence that says what the term is.

>>> question = "What are the brewing rules of the guild?"
>>> listed_kinds(question)
('rule', ['brew', 'guild'])
>>> found = listing(question, [Excerpt("e1", "Guild", "The guild is old. "
...     "The guild follows the rules of good brewing: cleanliness, patience and cold water.")])
>>> found.sentence if found else None
'The guild follows the rules of good brewing: cleanliness, patience and cold water.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms
from agents.answer_spans import AnswerSpan, Excerpt
from agents.enumerations import listed_after
from agents.text import sentences

__all__ = ["listed_kinds", "listing"]

_ASKED = re.compile(
    r"^\s*(?:what|which)\s+(?:are|were)\s+(?:the\s+|some\s+)?(?P<rest>[^?]+?)\s*\??\s*$", re.IGNORECASE
)
"""A question asking what some things are: "What are the ...?"."""
_PLURAL = re.compile(r"^[a-z][a-z-]{2,}[^s'u]s$")
"""A plural noun in lower case ("principles", "kinds"; not "class", "bus", "this")."""
_ENDS = re.compile(
    r"\b(?:in|for|to|with|that|which|who|when|used|there|we|you|i|covered|taught|discussed)\b", re.IGNORECASE
)
"""Where the words naming X end after "of": a setting or a clause ("... in deep learning", "... used")."""
_SAID_ITEMS = re.compile(r":\s*\S.*(?:,|\band\b|\bor\b)", re.DOTALL)
"""Items given after a colon: more than one, parted by commas, "and" or "or"."""


def listed_kinds(question: str) -> tuple[str, list[str]]:
    """What a "What are the Ns of X?" or "What are the X Ns?" question asks for: N's content term
    and X's ("", [] for any other question, or one whose X says no content word)."""
    found = _ASKED.match(" ".join(question.split()))
    if found is None:
        return "", []
    words = found.group("rest").split()
    plural = next((k for k, word in enumerate(words) if _PLURAL.match(word.strip(",;"))), None)
    if plural is None:
        return "", []
    kind = content_terms(words[plural])
    after = words[plural + 1 :]
    if after[:1] == ["of"]:
        of = " ".join(after[1:])
        ended = _ENDS.search(of)
        whole = " ".join(words[:plural]) + " " + (of[: ended.start()] if ended else of)
    else:
        whole = " ".join(words[:plural])
    named = [term for term in content_terms(whole) if term not in kind]
    return (kind[0], named) if len(kind) == 1 and named else ("", [])


def listing(question: str, excerpts: Sequence[Excerpt]) -> AnswerSpan | None:
    """The first sentence of the excerpts that names what a list question (:func:`listed_kinds`)
    asks the Ns of and N, and gives them (after a colon) or announces them (a colon at its end,
    "Below are the Ns", "the Ns are"), itself or by its next sentence; with the items that follow
    a colon at its end. None when no sentence does, or the question asks for no list."""
    kind, named = listed_kinds(question)
    if not kind:
        return None
    for excerpt in excerpts:
        said = [s.text for s in sentences(excerpt.text)]
        for position, sentence in enumerate(said):
            terms = set(content_terms(sentence))
            if kind not in terms or not set(named) <= terms | set(content_terms(excerpt.title)):
                continue
            if not set(named) & terms:  # the title sets the scene: the sentence still names X itself
                continue
            if _gives(sentence, kind):
                text = listed_after(sentence, excerpt.text)
                return AnswerSpan(text, excerpt.id, text, 1.0)
            after = said[position + 1] if position + 1 < len(said) else ""
            if after and _announces(after, kind):
                text = f"{sentence} {after}"
                return AnswerSpan(text, excerpt.id, text, 1.0)
    return None


def _gives(sentence: str, kind: str) -> bool:
    """Whether a sentence gives the items after a colon, ends in a colon, or announces them."""
    return sentence.rstrip().endswith(":") or bool(_SAID_ITEMS.search(sentence)) or _announces(sentence, kind)


def _announces(sentence: str, kind: str) -> bool:
    """Whether a sentence says that the Ns (N's content term ``kind``) follow or are what it names:
    "Below are the Ns", "The following Ns", "The Ns are ..."."""
    words = re.findall(r"[\w-]+", sentence.lower())
    for k, word in enumerate(words):
        if content_terms(word) != [kind]:
            continue
        before, after = words[max(0, k - 3) : k], words[k + 1 : k + 2]
        if {"below", "following", "here"} & set(before) or (words[:k] == ["the"] and after == ["are"]):
            return True
    return False
