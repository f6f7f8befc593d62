"""A concept's description: whether a sentence of a lesson says what the concept is, and the text
the graph keeps of it.

A description is a sentence of the lesson's prose view, quoted (:func:`agents.extraction._own_words`).
It is not one when the sentence only relates its subject to another concept or to the course
("Linear algebra is a prerequisite for this course.", "Transformers build on attention."): that is
a claim, which the judge weighs as a claim, not what the concept is (a sentence that goes on to say
what it is stays one). Nor is it one when what it
said the concept is was code or math, blanked in the prose view ("A *Markov decision process* (MDP)
is a tuple ``$(S, A, P, R, \\gamma)$``." reads "... is a tuple" and a hole).

What the graph keeps is the sentence as it reads (:func:`as_shown`): no emphasis marks, list
marker or line breaks, and no run of blanks where code, math or a tag was ("A       **decision
tree**        is a model" from HTML reads "A decision tree is a model").
"""

from __future__ import annotations

import re

from agents.cues import cue_statements

__all__ = ["as_shown", "described"]

_RELATIONS = {"prerequisite": 0.0, "related": 0.0, "builds_on": 0.8, "contrasts_with": 0.75}
"""The cue types (each from a least strength) whose statement says how a concept relates to another,
not what it is: "is a kind of" (a genus) and "is used for" (a use) describe; "builds on" and "is a
prerequisite for" do not. "is based on" (a weaker ``builds_on``) still describes a design."""
_OPENING = re.compile(r"[\s>*_+-]*(?:(?:a|an|the)\s+)?[\s*_]*", re.IGNORECASE)
_COURSE = re.compile(
    r"\b(?:this|the|our|next|previous|following|last|later|earlier|a later)\s+(?:course|lesson|chapter|"
    r"book|section|tutorial|class|module|unit|notebook|lecture|series|part|week)s?[\s*_]*[.!?]?[\s*_]*$",
    re.IGNORECASE,
)
_COPULA = re.compile(r"\s(?:is|are)\s", re.IGNORECASE)
_HOLE_END = re.compile(r"(?P<word>[^\W\d_]+)[*_)\]]*(?=[ \t]*(?:\n[ \t]*)?[ \t]{2,}[\s.;:!?]*$)")
"""The last word of a sentence whose end was blanked (code, math or a citation): a run of blanks
before its stop."""
_DEFINING = re.compile(r"\b(?:is|are|be|means|denotes|equals)\b", re.IGNORECASE)
_DANGLING = frozenset("as to of by at in on for with from into is are be a an the and or than called".split())
"""Words that leave a clause open: a hole after one is what the clause was about."""


def described(sentence: str) -> str:
    """The description a sentence gives of the concept it opens with, as shown (:func:`as_shown`),
    or "" when it gives none (module docstring). Where its end was blanked after words that leave
    a clause open ("..., also called" and a formula), it ends at the clause before.

    >>> described("A       **decision tree**        is a model that splits\\n the data.")
    'A decision tree is a model that splits the data.'
    >>> described("Linear algebra is a prerequisite for this course.")
    ''
    >>> described("Calculus is a prerequisite for backpropagation, and it is the study of change.")
    'Calculus is a prerequisite for backpropagation, and it is the study of change.'
    >>> described("Deep learning is the topic of this book."), described("A *MDP* is a tuple           .")
    ('', '')
    >>> described("Backpropagation, which builds on the chain rule, is an algorithm for gradients.")
    'Backpropagation, which builds on the chain rule, is an algorithm for gradients.'
    >>> described("Cosine similarity is a measure of likeness of two vectors, also written as       .")
    'Cosine similarity is a measure of likeness of two vectors.'
    """
    if not sentence.strip() or _relates(sentence) or _of_the_course(sentence):
        return ""
    hole = _HOLE_END.search(sentence)
    if hole is not None:
        # What it says its subject is was blanked: a hole at most three words after its verb ("is a
        # tuple", "is defined as"); after a longer one, a hole is a citation or a formula that adds
        # to what it says ("... more than two classes" and a blanked ``:cite:``).
        verbs = list(_DEFINING.finditer(sentence, 0, hole.end()))
        if verbs and len(sentence[verbs[-1].end() : hole.end()].split()) <= 3:
            return ""
        if hole.group("word").lower() in _DANGLING:
            clause = max(sentence.rfind(",", 0, hole.start()), sentence.rfind(";", 0, hole.start()))
            if clause <= 0:
                return ""
            sentence = f"{sentence[:clause]}."
    return as_shown(sentence)


def _relates(sentence: str) -> bool:
    """Whether the sentence says no more than a relation of its subject, which opens it: a relation
    cue is its verb, and at most three words follow the phrase on its other side ("X is a
    prerequisite for Y.", not "X, which builds on Y, is ..." nor "X is a prerequisite for Y, and
    it is the formal way to say ...", which goes on to say what X is)."""
    opening = _OPENING.match(sentence)
    start = opening.end() if opening else 0
    return any(
        statement.cue.type in _RELATIONS
        and statement.cue.strength >= _RELATIONS[statement.cue.type]
        and statement.left[0] <= start
        and not sentence[statement.left[1] : statement.cue_start].strip(" *_")
        and len(_WORD.findall(sentence, statement.right[1])) <= 3
        for statement in cue_statements(sentence)
    )


_WORD = re.compile(r"[^\W\d_]+")


def _of_the_course(sentence: str) -> bool:
    """Whether the sentence says no more of its subject than where the course has it: "X is the
    topic of this book", "X is covered in the next lesson" (a copula, then at most five words
    before the end at the course's part)."""
    copula, course = _COPULA.search(sentence), _COURSE.search(sentence)
    return (
        copula is not None
        and course is not None
        and len(sentence[copula.end() : course.start()].split()) <= 5
    )


def as_shown(text: str) -> str:
    """A sentence of the prose view as it reads: emphasis marks, a list marker and line breaks
    taken out, each run of blanks (where code, math or a tag was) one space, none before a comma or
    a stop, and no comma or colon left before a stop where a formula ended the sentence.

    >>> as_shown("- **Gradient boosting** is an\\n   ensemble of trees over     , each at      :\\n   .")
    'Gradient boosting is an ensemble of trees over, each at.'
    >>> as_shown("Its *dot product*                (also known as *inner product*,       ) is a sum.")
    'Its dot product (also known as inner product) is a sum.'
    >>> as_shown("The *confusion matrix*,      , is a        matrix.")
    'The confusion matrix is a matrix.'
    """
    text = " ".join(_EMPHASIS.sub("", _APPOSITION.sub("", _LIST_MARKER.sub("", text.strip()))).split())
    text = _OPEN_PAREN.sub("(", _BEFORE_STOP.sub(r"\1", text))
    text = _EMPTY_PARENS.sub("", _PUNCT_RUN.sub(r"\1", text))
    return _STOP_AFTER.sub(r"\1", text).strip()


_APPOSITION = re.compile(r",[ \t\n]{3,},")
"""Two commas around a blank: an apposition that was a formula ("The *confusion matrix*,  C , is")."""
_LIST_MARKER = re.compile(r"^(?:[-+*]|\d{1,3}[.)])\s+")
_EMPHASIS = re.compile(r"(?<![\w*_])[*_]{1,3}(?=[^\s*_])|(?<=[^\s*_])[*_]{1,3}(?![\w*_])")
_BEFORE_STOP = re.compile(r"\s+([,;:.!?)])")
_OPEN_PAREN = re.compile(r"\(\s+")
_PUNCT_RUN = re.compile(r"[,;:]+([,;:)])")
"""Commas left together where what stood between them was blanked, or one before a closing parenthesis."""
_EMPTY_PARENS = re.compile(r"\s*\(\)")
_STOP_AFTER = re.compile(r"[,;:]+([.!?])$")
