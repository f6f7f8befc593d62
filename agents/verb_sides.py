"""The two sides of a verb cue ("X uses Y", "X requires Y"): the concept that is the verb's
subject, and what heads the phrase it requires. A concept inside a longer subject ("PyTorch" of
"PyTorch's calculations will use") or inside a longer object ("natural language processing" of
"requires minimal architecture changes for natural language processing") is not what the verb
relates (:mod:`agents.relations`)."""

from __future__ import annotations

import re

from agents.phrases import generic_head, head_phrase, word_classes, words

__all__ = ["heads_subject", "required", "whole"]


def heads_subject(text: str, mention_end: int, phrase_end: int) -> bool:
    """Whether a mention ending at ``mention_end`` is the subject of a verb that follows the phrase
    ending at ``phrase_end``: between them only an aside in parentheses, a generic head noun, adverbs
    and modal auxiliaries ("the R-CNN model uses", "CNNs (ConvNets) commonly use", "DenseNet first
    uses", "X can typically build on"), or the possessive of a named result ("Bayes' theorem builds
    on": :data:`_EPONYM`). Any other word makes the mention part of a longer subject
    whose head is something else ("PyTorch's calculations will try to use", "machine learning
    applications use", "the curse of dimensionality is to use").

    >>> t = "CNNs (ConvNets) commonly use kernels; machine learning applications use losses."
    >>> heads_subject(t, 4, t.index(" use")), heads_subject(t, t.index(" applications"), t.index(" use l"))
    (True, False)
    """
    between = re.sub(r"\([^()]*\)", lambda aside: " " * len(aside.group()), text[mention_end:phrase_end])
    named = _EPONYM.match(between)
    rest = words(between, named.end() if named else 0)
    if rest and generic_head(rest[0].text):
        rest = rest[1:]
    return all(w.text.lower() in _BESIDE_VERB or word_classes(w.text) <= _ADVERBIAL for w in rest)


_EPONYM = re.compile(
    r"['’]s?\s+(?:theorem|lemma|law|rule|method|inequality|equation|formula|principle|test|paradox|"
    r"criterion|bound|identity|distribution|process)\b",
    re.IGNORECASE,
)
"""A name's possessive and the head of a result named after it: "Bayes' theorem builds on ..." is
about Bayes' theorem, as "Newton's method uses ..." is about Newton's method."""
_BESIDE_VERB = frozenset("can could will would shall should may might must do does did first".split())
"""The modal auxiliaries, and "first" (a number word by its class), which may stand between a subject
and its verb as an adverb does."""
_ADVERBIAL = frozenset({"ADV"})


_KNOWING = re.compile(
    r"\b(?:knowledge|understanding|familiarity|grasp|background|basics|fundamentals|notions?|concepts?)$",
    re.IGNORECASE,
)
"""What a lesson may require of a concept rather than the concept itself: "requires an understanding
of linear algebra" requires linear algebra."""
_OF_IT = re.compile(r"\s*(?:of|with|in|about)\s+", re.IGNORECASE)


def required(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """What "X requires ..." requires: the first noun phrase of ``span``, or the one after "knowledge
    of", "an understanding of", "familiarity with" (:data:`_KNOWING`). Not "natural language
    processing" of "requires minimal architecture changes for natural language processing", nor
    anything of "requires substantial tuning of system prompts and tool definitions".

    >>> t = "requires a good understanding of linear algebra for this"
    >>> t[slice(*required(t, (9, len(t))))]
    'linear algebra'
    """
    start, end = span
    while True:
        first = head_phrase(text, (start, end))
        after = _OF_IT.match(text, first[1]) if first[1] < end else None
        if after is None or not _KNOWING.search(text[first[0] : first[1]].rstrip()):
            break
        start = after.end()
    said = words(text, *first)
    while said and word_classes(said[-1].text) <= {"ADV"}:  # "requires X completely"
        said.pop()
    return (first[0], said[-1].end) if said else first


def whole(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A phrase as it is: a cut that keeps all of it (its concept must still head it)."""
    return span
