"""Stance: whether a sentence vouches for what its words say, or asks, denies or reports it.

The cue phrases of :mod:`agents.cues` say which relation a sentence names; the stance says whether
the lesson asserts it:

- a sentence that asks (a question, a "True or false: ..." prompt: :func:`asked`) asserts nothing,
  though a question the lesson answers at once still introduces what it names
  (:func:`answered_at_once`);
- a sentence that calls a statement false asserts nothing (:func:`calls_false`): of itself ("It
  is a myth that ...", "...; it isn't.", "..., but this was later shown to be false") or, opening
  with it, of the sentence before (:func:`denies`: "That is wrong: ...", "It isn't."). The
  refuting clause points back with "that", "this", "it", "which" or "they" and says false,
  wrong, incorrect, untrue, mistaken, a myth, a misconception, not true, not the case or not so,
  or denies with the predicate left out ("it isn't", "they don't");
- a hedged sentence (:func:`hedged`) asserts with less confidence: "some argue", "may", and a
  belief reported from an indefinite or generic source ("People often say that ...");
- a sentence states the usual case ("Typically, we disable dropout at test time.") or an exception
  to it ("However, there are some exceptions: ...") (:func:`generality`).

These are small closed classes of English (pronouns, copulas, verbs of saying), not lists of
phrases from any course.
"""

from __future__ import annotations

import re

from agents.phrases import CLOSED_CLASSES, FUNCTION_WORDS, singular, word_classes

__all__ = ["answered_at_once", "asked", "asks", "calls_false", "denies", "generality", "hedged"]

_HEDGES = re.compile(
    r"\b(?:some (?:argue|practitioners|authors|people|claim|say)|it is (?:claimed|argued|said)|"
    r"claims?|allegedly|arguably|may|might|could be argued|in the light sense|perhaps)\b",
    re.IGNORECASE,
)


_REPORTING = (
    r"(?:say|says|said|think|thinks|thought|believe|believes|believed|claim|claims|claimed|argue|argues|"
    r"argued|suggest|suggests|suggested|feel|feels|felt|insist|insists|insisted|maintain|maintains|"
    r"maintained|contend|contends|contended|assert|asserts|asserted)"
)
"""The verbs of saying and believing that do not vouch for what they report (not "show", "prove",
"note" or "know", whose clause is true; nor "assume", whose clause is a supposition)."""
_REPORT = re.compile(
    r"(?P<subject>\b[^\W\d_][\w'’-]*)(?:\s+(?:often|sometimes|commonly|usually|still|also|once|wrongly|"
    rf"mistakenly|falsely|naively|widely|generally|even))?\s+{_REPORTING}\s+that\b"
    r"|\bit\s+is\s+(?:often\s+|sometimes\s+|commonly\s+|widely\s+|generally\s+|frequently\s+)?"
    r"(?:said|believed|thought|claimed|argued|suggested)\s+that\b"
    r"|\b(?:popular|common|widespread|folk|conventional)\s+(?:belief|view|wisdom|notion|intuition)\b",
    re.IGNORECASE,
)
_GENERIC = frozenset("people others many some someone somebody everyone everybody".split())
"""Subjects that name nobody in particular: "people say that", "many believe that"."""
_NOMINAL = frozenset({"NOUN", "ADJ", "X"})
_DEFINITE = frozenset("the this that these those my our your his her its their we i you he she they".split())


def _reported(text: str) -> bool:
    """Whether the text reports a belief it does not vouch for: an indefinite or generic subject and
    a verb of saying or believing before "that" ("People often say that ...", "Some students think
    that ...", "some papers claimed that ..."), "it is often said that ...", "a popular belief".
    The lesson's own voice ("we can say that", "we believe that") and a definite source ("the
    authors argue that") are not reports of this kind.

    >>> _reported("People often say that X is Y."), _reported("Some students think that X is Y.")
    (True, True)
    >>> _reported("We can say that X is Y."), _reported("These results suggest that X is Y.")
    (False, False)
    """
    for match in _REPORT.finditer(text):
        subject = match.group("subject")
        if subject is None or subject.lower() in _GENERIC or _bare_plural(text, match.start(), subject):
            return True
    return False


def _bare_plural(text: str, start: int, noun: str) -> bool:
    """Whether ``noun`` (at ``start``) is a plural noun whose phrase has no definite determiner or
    possessive before it: a generic or indefinite subject ("students", "some papers", "many deep
    learning practitioners"), not "the authors" or "these results"."""
    lower = noun.lower()
    if lower in FUNCTION_WORDS or "NOUN" not in word_classes(noun) or singular(lower) == lower:
        return False
    before = re.findall(r"[^\W\d_][\w'’-]*", text[max(0, start - 80) : start])
    # Past the nouns and adjectives of the subject's phrase ("many deep learning practitioners").
    while before and before[-1].lower() not in FUNCTION_WORDS and word_classes(before[-1]) & _NOMINAL:
        before.pop()
    return not before or before[-1].lower() not in _DEFINITE | CLOSED_CLASSES["ADP"]  # "of Transformers"


def hedged(text: str) -> bool:
    """Whether a statement is hedged ("some practitioners argue", "it is claimed", "may"), or
    reported as someone's belief (:func:`_reported`: "People often say that ...")."""
    return _HEDGES.search(text) is not None or _reported(text)


_USUAL = re.compile(
    r"\b(?:typically|usually|generally|normally|ordinarily|in general|as a rule|by default|"
    r"in most cases|most of the time)\b",
    re.IGNORECASE,
)
"""An adverb that says a statement holds in the usual case."""
_EXCEPTION = re.compile(
    r"\bexceptions?\b|\bhowever\b[^.;:]*\bsome\b|\bin (?:some|rare|certain|a few) (?:cases|situations)\b",
    re.IGNORECASE,
)
"""Words that say a statement holds only in some cases: an exception ("there are some exceptions"),
a contrast with what some do ("however, some ..."), "in rare cases"."""


def generality(text: str) -> int:
    """Whether a sentence states the usual case (1: "typically", "usually", "as a rule"), an
    exception to it (-1: "exceptions", "however, some ...", "in rare cases"), or neither (0). Asked
    yes or no ("Is dropout used at test time?"), the rule answers, not the exception.

    >>> generality("Typically, we disable dropout at test time.")
    1
    >>> generality("However, there are some exceptions: some researchers use dropout at test time.")
    -1
    >>> generality("Dropout is a form of regularization.")
    0
    """
    if _EXCEPTION.search(text):
        return -1
    return 1 if _USUAL.search(text) else 0


_PROMPT = re.compile(
    r"^[\W\d]*(?:(?:question|exercise|problem|quiz|q)\s*\d+[a-z]?\b[\W]*)?(?:\([^()\n]{0,40}\)\s*)?"
    r"(?:true\s*(?:or|/)\s*false|t\s*/\s*f)\s*[:?.)\u2013\u2014-]",
    re.IGNORECASE,
)
"""A prompt that puts a statement to the reader to judge: "True or false: ...", "T/F: ..." (after a
numbered stem's label, "**Question 3.** True or False: ..."). The statement is the quiz's, not the
lesson's: its answer may well be "false"."""


def answered_at_once(question: str, following: str) -> bool:
    """Whether a question (:func:`asked`) is one its lesson answers at once: no true-or-false prompt,
    and the sentence after it in its paragraph, ``following``, asks nothing. Such a question is the
    author's, a way to introduce what follows ("It is natural to ask, how does X relate to Y?
    Using the definitions above, ..."), not a quiz's.

    >>> answered_at_once("How does X relate to Y?", "Using the definitions, we can write it down.")
    True
    >>> answered_at_once("How does X relate to Y?", "Why?")
    False
    >>> answered_at_once("True or false: X is Y.", "Explain.")
    False
    """
    return _PROMPT.search(question) is None and not asked(following)


def asked(text: str) -> bool:
    """Whether a sentence asks rather than says: a question (it ends in "?": "Which of the
    following is a prerequisite for k-fold cross-validation?", "Is X a prerequisite for Y?") or a
    true-or-false prompt (:data:`_PROMPT`). It states no relation, not even that the concepts it
    names are related: a quiz pairs a concept with its distractors.

    >>> asked("**Question 3.** True or False: Cross-validation builds on the bias-variance tradeoff.")
    True
    >>> asked("Which of the following is a prerequisite for k-fold cross-validation?")
    True
    >>> asked("It is true or false depending on the seed."), asked("Dropout is a form of regularization.")
    (False, False)
    """
    return asks(text) or _PROMPT.search(text) is not None


_ASKS = re.compile(r"\?[\s\"'”’)\]*_]*$")


def asks(text: str) -> bool:
    """Whether a sentence ends with a question mark (and the quote, bracket or emphasis that closes
    it): a question, which no answer quotes ("Now you might be wondering, what is semantic search?")."""
    return _ASKS.search(text) is not None


_FALSE = r"(?:wrong|false|incorrect|untrue|mistaken|a myth|a misconception|not true|not the case|not so)"
_BACK = r"(?:that|this|it|which|they)"
"""A subject that points back to what was just said."""
_NOT = r"(?:is|are|was|were|does|do|did)(?:n['’]t| not)"
_REFUTED = (
    rf"\b{_BACK}\s+(?:(?:is|are|was|were|['’]s)(?:\s+(?:simply|just|plainly|completely|actually|clearly|"
    r"later|since|now|also))*(?:\s+(?:shown|proven|proved|found|known)\s+to\s+be)?|(?:has|have|had)\s+"
    r"(?:since\s+|later\s+|now\s+)?been\s+(?:shown|proven|proved|found)\s+to\s+be|turn(?:s|ed)\s+out\s+to\s+be)"
    rf"\s+{_FALSE}(?=\s*(?:[.;:,!?)\u2013\u2014]|$))"
)
"""A clause that calls what was just said false, its subject pointing back: "That is wrong",
"but this was later shown to be false", ", which is incorrect", "it is not the case"."""
_ELLIPTIC = rf"{_BACK}\s+{_NOT}\s*(?=[.;:!\u2013\u2014]|$)"
"""A denial that leaves out the predicate it denies, ending its clause: "it isn't.", "they don't"."""
_DENIED = re.compile(
    r"\b(?:(?:is|are|was|were|that's|that is|this is)\s+(?:simply |just |plainly |completely )?"
    r"(?:wrong|false|incorrect|untrue|mistaken|a myth|a misconception)|(?:a )?(?:myth|misconception) that|"
    rf"we disagree)\b|^\W*(?:false|wrong|incorrect|myth)\s*[:!.]|{_REFUTED}|"
    rf"(?:[;:\u2013\u2014]|\bbut)\s+{_ELLIPTIC}",
    re.IGNORECASE,
)
"""A sentence that says a statement is false, of itself ("It is a myth that ...", "..., but that is
wrong", "..., but this was later shown to be false", "...; it isn't.") or of the one before it
("That is wrong.", "We disagree."): its own cues state nothing."""
_DENIES = re.compile(
    rf"^\W*(?:(?:but|no|yet|actually|unfortunately|however|sadly|in fact)\W+)?(?:{_REFUTED}|{_ELLIPTIC}|"
    r"not\s+(?:so|true)\s*(?:[.!:;,\u2013\u2014]|$))",
    re.IGNORECASE,
)
"""A sentence that opens by calling the one before it false: "That is wrong: ...", "It isn't.",
"This was later shown to be false.", "Unfortunately, it is incorrect.", "Not so."."""


def calls_false(text: str) -> bool:
    """Whether a sentence calls a statement false (:data:`_DENIED`): its own cues state nothing.

    >>> calls_false("Some think that X is part of Y; it isn't."), calls_false("X is part of Y.")
    (True, False)
    """
    return _DENIED.search(text) is not None


def denies(text: str) -> bool:
    """Whether a sentence denies the one before it: a short one that calls a statement false ("We
    disagree."), or one that opens by calling it false (:data:`_DENIES`: "That is wrong: logistic
    regression is a classifier.", "It isn't.").

    >>> denies("That is wrong: logistic regression is a classification model."), denies("It isn't.")
    (True, True)
    >>> denies("It is not the only option we have."), denies("Backpropagation is not part of it.")
    (False, False)
    """
    return (len(text.split()) <= 6 and _DENIED.search(text) is not None) or _DENIES.match(text) is not None
