"""The head a question's cue word is said of: whether a learning cue ("use", "need to know",
"parts", "kinds of") asks about the order of learning or about a thing the question names.

Read on a masked question (every concept's name written as :data:`MARK` characters,
:mod:`agents.question_types`):

- "What stride does a pooling layer use?": the wh-word is a determiner of a noun ("what stride"),
  so the question asks which value or kind of that noun the concept uses, not what the concept
  builds on (:func:`asks_a_value`). "What does attention use?" asks what it builds on.
- "Does Q-learning need to know the rewards?": the one who needs to know is a concept, not the
  learner: a need of the method, not of learning (:data:`NEEDS_OF_LEARNER`).
- "the optimization parts": "parts" modified by a concept's name is the parts (sections) about it,
  not its parts (:data:`PARTS_NOUN`).
- "the parts of the loss in style transfer": the whole "parts of" is said of is "the loss", and
  the concept is only its setting (:func:`parts_of_another`); so in "For X, with ..., what are
  the Y?", where X is named only in a setting put in front (:func:`set_in_front`); a question
  after such a setting opens where it ends ("In X, why does Y use Z?": :func:`past_setting`).
- "Why do they use X?", "the principles this course uses": "use" said by a person or the course
  asks how X is used, not what builds on what (:data:`USE_CUE`); "How much padding do I need?"
  asks a quantity, not what to learn (:func:`asks_a_quantity`); "the steps of X" its procedure,
  not its parts (:func:`asks_a_procedure`).

>>> m = MARK
>>> asks_a_value(f"What stride does a {m * 4} use?"), asks_a_value(f"What does {m * 4} use?")
(True, False)
>>> bool(parts_of_another(f"What are the parts of the reward in {m * 3}?"))
True
>>> bool(parts_of_another(f"What are the parts of a {m * 3}?"))
False
"""

from __future__ import annotations

import re

from agents.offline.question_model import MARK

__all__ = [
    "NEEDS_OF_LEARNER",
    "OF_COURSE",
    "PARTS_NOUN",
    "USE_CUE",
    "asks_a_procedure",
    "asks_a_quantity",
    "asks_a_value",
    "parts_of_another",
    "past_setting",
    "set_in_front",
]

_I = re.IGNORECASE
_VALUE = re.compile(
    r"^\s*(?:what|which)\s+(?!(?:does|do|did|is|are|was|were|can|could|should|would|will)\b)"
    r"[^?]*?\s(?:does|do|did)\s[^?]*\buse\b",
    _I,
)
NEEDS_OF_LEARNER = rf"(?<!{MARK} )(?<!{MARK} really )"
"""Written before "need to know": the need is the learner's unless a concept's name says whose."""
PARTS_NOUN = rf"(?<!{MARK} )parts"
""""parts" as a cue: not when a concept's name stands before it as its modifier."""
_USERS = ("i", "you", "we", "they", "he", "she", "one", "people", "to", "why", "why not")
_COURSE = tuple(
    "course courses class classes book books lesson lessons lecture lectures tutorial tutorials chapter "
    "chapters curriculum".split()
)
OF_COURSE = "".join(rf"(?<!\b{w} )" for w in _COURSE)
"""Written before a cue verb: not when the course is its subject ("the principles this course
follows" asks what the course teaches, not what comes after a concept)."""
USE_CUE = OF_COURSE + "uses|" + "".join(rf"(?<!\b{w} )" for w in _USERS + _COURSE) + "use"
"""A cue that one concept builds on another ("What uses attention?", "What does BERT use?"); "use"
said of people ("How do I use X?", "why do they use X?", "how to use X", "why use X?") asks how
X is used, why, or whether it will do, and what the course uses ("the principles this course
uses") what it teaches: neither is what builds on X."""
_QUANTITY = re.compile(
    r"^\W*how\s+(?:much|many)\b[^?]*\bneed\b(?!\s+to\s+(?:know|learn|understand|study|master)\b)", _I
)
_PROCEDURE = re.compile(
    r"\bsteps?\s+(?:of|in|for|involved in)\s+(?:(?:the|a|an)\s+)?"
    r"(?!(?:learning|studying|mastering|understanding)\b)(?:\w+ing\s+(?:(?:the|a|an)\s+)?)?" + MARK,
    _I,
)
_IN_FRONT = re.compile(rf"^\W*(?:for|in|with|within|on|about|using)\s[^,?]*{MARK}[^,?]*,[^{MARK}]*$", _I)
_SETTING = re.compile(
    r"^\W*(?:for|in|with|within|on|about|using)\s(?:(?!\b(?:what|which|who|how|why|when|where)\b)[^,?])*,\s*",
    _I,
)
_PARTS_OF_OTHER = re.compile(
    r"\b(?:parts?|components?|pieces|elements?|kinds?|types?|sorts?|forms?)\s+of\s+(?:(?:the|a|an)\s+)?"
    rf"[^\s{MARK}?,;:]+(?:\s+[^\s{MARK}?,;:]+)?\s+(?:in|for|within|used in|inside)\s+"
    rf"(?:(?:the|a|an)\s+)?{MARK}",
    _I,
)


def asks_a_value(masked: str) -> bool:
    """Whether the question asks which thing (a noun after the wh-word) a concept uses: "What
    stride does X use?" asks a value, the lessons say it; "What does X use?" what X builds on."""
    return bool(_VALUE.search(masked))


def parts_of_another(masked: str) -> bool:
    """Whether "parts of" (or "kinds of") is said of a noun that names no concept, the concept
    standing after it as its setting ("the parts of the loss in X"): no parts of X are asked."""
    return bool(_PARTS_OF_OTHER.search(masked))


def asks_a_quantity(masked: str) -> bool:
    """Whether "how much" or "how many" asks what is needed ("How much padding do I need so ...?"):
    a quantity, not what to learn ("How much do I need to know before X?" still asks that)."""
    return bool(_QUANTITY.search(masked))


def asks_a_procedure(masked: str) -> bool:
    """Whether the question asks the steps of a concept or of doing it ("the steps of fine-tuning
    X"): the procedure the lessons give, which no part-of relation is."""
    return bool(_PROCEDURE.search(masked))


def set_in_front(masked: str) -> bool:
    """Whether every concept is named in a setting put in front of the question ("For X, with
    ..., what are the Y?"): what is asked is the Y in that setting, not a relation of X."""
    return bool(_IN_FRONT.search(masked))


def past_setting(masked: str) -> str:
    """The question after a setting put in front of it ("In the X example, why does Y use Z?"), whose
    first words say what it asks as they would with no setting; the whole question when it has none."""
    found = _SETTING.match(masked)
    return masked[found.end() :] if found else masked
