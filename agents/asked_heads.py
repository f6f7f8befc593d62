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
  the concept is only its setting (:func:`parts_of_another`).

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

__all__ = ["NEEDS_OF_LEARNER", "PARTS_NOUN", "asks_a_value", "parts_of_another"]

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
