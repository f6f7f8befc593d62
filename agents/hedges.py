"""A hedge: the words a learner puts around "What is X?" that ask nothing more.

"hey so what even is a vector database", "ok, what exactly is a tensor?" and "what's a tensor
actually?" ask what X is, as "What is X?" does: an opening interjection ("hey", "so", "ok",
"well", ...) and an adverb that only presses the question ("even", "exactly", "actually",
"really", "precisely"; "what does X even mean") add nothing to what is asked.

>>> unhedged("hey so what even is a vector database")
'what is a vector database'
>>> hedged_what_is("ok, what exactly are embeddings?"), hedged_what_is("What is a tensor?")
('What are embeddings?', '')
"""

from __future__ import annotations

import re

__all__ = ["hedged_what_is", "unhedged"]

_OPENING = re.compile(r"^\s*(?:(?:hey|hi|hello|so|ok|okay|um+|uh+|well|alright|right)\b[\s,.!:;-]*)+", re.I)
"""Interjections before the question itself."""

_PRESSED = re.compile(
    r"\b(?P<wh>what)(?P<verb>'s|’s|\s+(?:is|are))?\s+(?:even|exactly|actually|really|precisely)\b"
    r"(?(verb)|\s+(?P<late>is|are)\b)",
    re.I,
)
"""An adverb pressing "what is": "what even is", "what's exactly", "what exactly are"."""

_TRAILING = re.compile(r"[\s,]+(?:even|exactly|actually|really|precisely|anyway)(?P<end>\W*)$", re.I)

_WHAT_IS = re.compile(r"(?i)\s*what(?:\s+(?P<verb>is|are)|'s|’s)\s+(?P<term>[^?]+?)\s*\??\s*$")


def unhedged(question: str) -> str:
    """The question without its opening interjections and the adverbs that press "what is"."""
    plain = _OPENING.sub("", question)
    plain = _PRESSED.sub(lambda m: f"{m['wh']}{m['verb'] or ' ' + m['late']}", plain)
    plain = re.sub(r"(?i)\s+(?:even|exactly|actually|really|precisely)(?=\s+mean\b)", "", plain)
    if re.match(r"(?i)\s*what\b", plain):
        plain = _TRAILING.sub(lambda m: m["end"], plain)
    return plain


def hedged_what_is(question: str) -> str:
    """A hedged "What is X?" asked plainly ("What is X?", "What are X?"); "" for any other question,
    one asked plainly already among them."""
    plain = unhedged(question)
    found = _WHAT_IS.match(plain)
    if plain == question or found is None:
        return ""
    return f"What {(found['verb'] or 'is').lower()} {found['term'].rstrip(' ,;:')}?"
