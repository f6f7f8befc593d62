"""Questions of identity: whether two things are one ("Is X the same as Y?", "Is X the same thing as
Y?", "Are X and Y the same?", "Is X identical to Y?", "Is X just another name for Y?").

Asked yes or no, such a question asks how the two relate: a learner wants what each one is and any
sentence that says how they stand to each other ("Y is a kind of X", "X, also called Y"), not what
one of them does alone. So it is a relation question (:mod:`agents.question_types`), its two slots
the two things compared; the answer quotes first a sentence that names both, then what each is.
"Do X and Y use the same data?" asks of a third thing, no identity: "the same" must end the
question, or be followed by "as" and the second thing.
"""

from __future__ import annotations

import re

__all__ = ["SAME", "SAME_SLOTS", "asks_identity"]

_I = re.IGNORECASE
_END = r"\s*[?.!]*\s*$"
_ONE = (
    r"(?:(?:really|just|exactly|basically|essentially|actually|simply)\s+)?(?:"
    r"(?:the\s+)?same(?:\s+(?:thing|concept|idea|method|technique|model))?|identical|equivalent|synonyms?|"
    r"(?:just\s+)?(?:an)?other\s+(?:name|word|term)s?)"
)
SAME = re.compile(rf"\b{_ONE}(?:\s+(?:as|to|with|of|for)\b|{_END})", _I)
"""A cue that two things are asked to be one: "the same as", "identical to", "another name for",
or "the same" ending the question ("Are X and Y the same?")."""
SAME_SLOTS = (
    re.compile(
        rf"^\s*(?:is|are|was|were)\s+(?P<a>.+?)\s+(?:(?:not|n't)\s+)?{_ONE}\s+(?:as|to|with|for)\s+(?P<b>.+?)"
        + _END,
        _I,
    ),
    re.compile(rf"^\s*(?:is|are|was|were)\s+(?P<a>.+?)\s+and\s+(?P<b>.+?)\s+{_ONE}" + _END, _I),
)
"""The two things an identity question compares: "Is <a> the same as <b>?", "Are <a> and <b> the
same?"."""


def asks_identity(question: str) -> bool:
    """Whether a question asks if two things are one: then only an edge that joins the two says how
    they stand to each other; a chain of edges through other concepts says nothing of it.

    >>> asks_identity("Is a heap the same as a queue?"), asks_identity("How do heaps relate to trees?")
    (True, False)
    """
    return any(slots.search(question) for slots in SAME_SLOTS)
