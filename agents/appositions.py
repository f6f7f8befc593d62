"""Whether a phrase after "X," is an apposition that names X's class ("RAG, a technique that
augments prompts ..."), read by :mod:`agents.definitions` as saying what X is.

It is not when X or the phrase is an item of a list ("a database, an API, an app or another
LLM"), X an example ("such as X, a ...") or the end of an opening clause ("To build X, a model ...
served") or of a phrase ("the general version of X, an algorithm ..."), the phrase the subject of
the sentence's own clause ("In optimization, a loss function is ...") or a name of another thing
("an algorithm called Q-Learning")."""

from __future__ import annotations

import re

__all__ = ["CLASS", "apposed_to"]

CLASS = r"(?:an?|one of)\s"
"""The start of a phrase that names the class a thing is one of ("a ...", "one of the ...")."""

_OPENING = re.compile(r"(?:,|\b(?:such as|like|including|e\.g\.,?|i\.e\.,?))\s*(?:an?\s+|the\s+)?\W*$", re.I)
"""What before X makes it a list's item or an example, not the thing an apposition names."""
_SUBORDINATE = re.compile(r"\W*(?:to|when|if|after|before|while|since|because|although|once|as|for)\s", re.I)
"""An opening clause ("To build ChatGPT, a model ... served"): its comma is no apposition's."""
_OF = re.compile(r"\bof\s+(?:the\s+|an?\s+)?\W*$", re.I)
"""X the object of "of" ("the general version of X, an algorithm ..."): the phrase may be the head's."""
_SUBJECT = re.compile(
    rf"{CLASS}(?:(?!(?:that|which|who|whose|where)\b)[\w-]+\s+){{0,4}}?"
    r"(?:is|are|was|were|has|have|had|can|could|will|would|may|might|must|should|does|do|did)\b",
    re.I,
)
"""A phrase that opens the sentence's own clause ("In optimization, a loss function is ..."): its
subject, no apposition of X."""
_NAMING = re.compile(r"\b(?:called|named|dubbed|termed|known as)\b", re.I)
"""A phrase that names another thing ("X, an algorithm called Q-Learning"), not X's class."""


def apposed_to(before: str, phrase: str, rest: str) -> bool:
    """Whether ``phrase`` (after "X,", up to its clause's end; ``rest`` what follows it) names the
    class of X, given the sentence ``before`` X.

    >>> apposed_to("This can be overcome through ", "a technique that adds data", ".")
    True
    >>> apposed_to("In ", "a loss function is often called the objective", "")
    False
    >>> apposed_to("We combine ", "a vector store", ", and a model.")
    False
    """
    return not (
        re.match(r",\s*(?:and|or|an?|the)\s", rest)
        or re.search(r"\b(?:and|or)\s+(?:even\s+)?(?:an?|another|the)\s", phrase)
        or _OPENING.search(before)
        or _OF.search(before)
        or ("," not in before and _SUBORDINATE.match(before))
        or _SUBJECT.match(phrase)
        or _NAMING.search(phrase)
    )
