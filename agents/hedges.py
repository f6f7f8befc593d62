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

from agents.verbal_nouns import said_doing

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

_AUDIENCE = re.compile(
    r"[\s,]+(?:(?:like|as if) (?:i'?m|i am|i’m|you'?re talking to) (?:new to (?:this|it)|an? )?"
    r"(?:beginner|newbie|novice|child|kid|layperson|five|5|five[- ]year[- ]old)?|"
    r"(?:for|to) (?:an? |the )?(?:beginners?|newbies?|novices?|dummies|child|kid|layperson|non-experts?)|"
    r"in (?:simple|plain|layman'?s'?|everyday|easy) (?:terms|english|words|language)|simply)(?P<end>\W*)$",
    re.I,
)
"""Words that say for whom a question asks, at its end ("like I'm new to this", "for a beginner",
"in simple terms"): they ask nothing more than the question without them."""
_ELI5 = re.compile(r"^\s*(?:eli5|explain (?:it )?like i'?m (?:five|5))\b\s*[:,-]?\s*", re.I)
""""ELI5 X", "Explain like I'm five: X": a request to explain X."""
_EXPLAIN = re.compile(
    r"(?i)\s*(?:please\s+)?(?:(?:can|could|would) you\s+)?(?:explain|describe)\s+(?:to me\s+)?"
    r"(?!(?:how|why|when|where|which|who|what)\b)(?P<term>[^?,;]+?)\s*[?.!]*\s*$"
)
"""A request to explain one thing, left once its hedge is gone ("explain X like I'm new to this")."""

_WHAT_IS = re.compile(r"(?i)\s*what(?:\s+(?P<verb>is|are)|'s|’s)\s+(?P<term>[^?]+?)\s*\??\s*$")


def unhedged(question: str) -> str:
    """The question without its opening interjections and the adverbs that press "what is"."""
    plain = _AUDIENCE.sub(lambda m: m["end"], _ELI5.sub("explain ", _OPENING.sub("", question)))
    plain = _PRESSED.sub(lambda m: f"{m['wh']}{m['verb'] or ' ' + m['late']}", plain)
    plain = re.sub(r"(?i)\s+(?:even|exactly|actually|really|precisely)(?=\s+mean\b)", "", plain)
    if re.match(r"(?i)\s*what\b", plain):
        plain = _TRAILING.sub(lambda m: m["end"], plain)
    return plain


def hedged_what_is(question: str) -> str:
    """A hedged "What is X?" asked plainly ("What is X?", "What are X?"); "" for any other question,
    one asked plainly already among them."""
    plain = unhedged(question)
    if plain != question and (request := _EXPLAIN.fullmatch(plain)) is not None:
        return f"What is {request['term']}?"  # "explain X like I'm new to this", "ELI5 X"
    if (saying := said_doing(plain)) is not None:
        return saying  # "What does it mean when people say X overfits?": what overfitting is
    found = _WHAT_IS.match(plain)
    if plain == question or found is None:
        return ""
    return f"What {(found['verb'] or 'is').lower()} {found['term'].rstrip(' ,;:')}?"
