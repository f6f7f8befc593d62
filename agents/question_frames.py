"""The frames of a question in which a cue word of :mod:`agents.question_types` asks nothing of the
graph: a question of why, of how something does what it does, or of what it does (:func:`of_doing`),
and "next" said of a thing in a sequence, not of what to learn (:func:`sequence_next`).

A cue word asks what comes before or after a concept, or what it is part of, when it governs the
concept in a question of what to learn ("What comes before X?", "What should I learn after X?",
"What builds on X?"). Inside a clause about doing something it says when, or of what: "Why do we
split documents into chunks before making embeddings?" asks a reason, "What does re-ranking do after
the vector search?" what re-ranking does, "How does X tell me if two pieces of text ...?" how X does it.
Why one would use X, and how one thing works (:data:`EXPLAINS`), are open questions before any cue.
"""

from __future__ import annotations

import re

__all__ = ["EXPLAINS", "of_doing", "sequence_next"]

EXPLAINS = re.compile(
    r"^\W*(?:why\b[^?]*\buse|how\s+(?:does|do|did|can|could|would|will|might)\s+(?:(?!\b(?:and|or)\b)[^?])+?\s+"
    r"(?:work|operate))\b",
    re.IGNORECASE,
)
"""Why one would use X, or why X uses Y ("Why use open source models?", "Why does BERT use
attention?"): a reason, which no list of what builds on X gives; or how one thing works, in a
setting or not ("How does backpropagation work in an MLP?"), which no relation does (how two relate
is a cue; "How do A and B work?" asks of two, read as before)."""
_LEARNER = r"(?!(?:i|we|you|one)\b)"
"""Not the one asking: "How do I prepare for X?" and "What do I do after X?" ask what to learn."""
_DOING = re.compile(
    rf"^\W*(?:why\b|how (?:do|does|did|is|are|was|were|can|could|would|should) {_LEARNER}|"
    rf"what (?:do|does|did) {_LEARNER}[^?]*?\bdo\b)",
    re.IGNORECASE,
)
_NEXT_THING = re.compile(
    r"(?<!\bwhat is )(?<!\bwhat's )(?<!\bwhich is )\b(?:the|a|its|their|each) next(?= \w)", re.I
)
""""The next word", "its next step": an ordinal "next" before a noun, unless it is what is asked
("What is the next topic?")."""


def of_doing(question: str) -> bool:
    """Whether a question asks why, how something other than the one asking does what it does, or
    what it does: a cue word inside it is no relation of the graph.

    >>> of_doing("Why do I need a validation set if I have a test set?")
    True
    >>> of_doing("How does cosine similarity tell me if two pieces of text match?")
    True
    >>> of_doing("What does re-ranking do after the vector search step?")
    True
    >>> of_doing("How do I prepare for transformers?"), of_doing("What do I do after calculus?")
    (False, False)
    >>> of_doing("What should I learn before transformers?"), of_doing("What does attention build on?")
    (False, False)
    """
    return _DOING.match(" ".join(question.split())) is not None


def sequence_next(question: str) -> str:
    """The question with each "next" that names a thing in a sequence ("predicting the next word")
    blanked out, as long as it was: a cue of what comes after is the "next" of what to learn.

    >>> sequence_next("Is it just predicting the next word?")
    'Is it just predicting the      word?'
    >>> sequence_next("What is the next topic?"), sequence_next("What should I learn next?")
    ('What is the next topic?', 'What should I learn next?')
    """
    return _NEXT_THING.sub(lambda found: found.group(0)[:-4] + " " * 4, question)
