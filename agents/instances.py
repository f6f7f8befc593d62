"""Examples of a kind: whether a question asks for them, and whether a sentence names one.

A question that asks for examples of X ("Give me some examples of X methods", "What are some
examples of X?", "instances of X", :func:`asks_instances`) is answered by a sentence that names one
of the kind (:func:`names_instance`): one said to be another of it or one of them ("Another X
method is ...", "... is one of the oldest X methods"), those it names after "such as", "like" or
"including", or an example it gives ("For example, we can crop ..."). A sentence that points back to
the instances named before it ("the different X methods defined above", "these X methods") names
none, nor does one that only says what most of them are ("Most X methods are random."), whatever
words of the question it shares ("example", "methods").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms

__all__ = ["asks_instances", "instance_terms", "names_instance"]

_ASKS = re.compile(r"\b(?:examples|instances)\s+of\s+(?P<kind>[^?.!]+)", re.IGNORECASE)
"""Examples of a kind asked for, in the plural: "some examples of X"."""
_BACK = re.compile(
    r"\b(?:defined|described|shown|listed|introduced|mentioned|discussed|presented|seen|covered)\s+"
    r"(?:above|earlier|before|previously|so\s+far)\b|\bthe\s+above\b|\b(?:these|those|both)\s+|\bsuch\s+(?!as\b)"
    r"|^\W*(?:this|that|it|they)\s+(?:is|are|was|were)\b"
    r"|\bas\s+(?:we|you)(?:\s+have|'ve|’ve)?\s+(?:already\s+)?(?:learned|learnt|seen|discussed|mentioned|shown)\b"
    r"|\b(?:previous|earlier|preceding)\s+(?:lessons?|sections?|chapters?)\b",
    re.IGNORECASE,
)
"""What points back to things named before the sentence ("defined above", "these ...", "This is one
of ..." as its subject, "as we've learned in previous lessons")."""


def asks_instances(question: str) -> bool:
    """Whether a question asks for examples of a kind, in the plural.

    >>> asks_instances("Give me some examples of sorting methods"), asks_instances("An example of X?")
    (True, False)
    """
    return _ASKS.search(question) is not None


def instance_terms(question: str) -> list[str]:
    """The content terms of the kind a question asks examples of ("sorting methods": sort, method).

    >>> instance_terms("Give me some examples of sorting methods")
    ['sort', 'method']
    """
    found = _ASKS.search(question)
    return content_terms(found["kind"]) if found else []


def _kind(terms: Sequence[str]) -> str:
    """Each term as the start of a word: its stem less a final "e" ("prune": "pruning")."""
    return "|".join(re.escape(term[:-1] if term.endswith("e") else term) for term in terms if len(term) > 2)


def names_instance(sentence: str, terms: Sequence[str]) -> bool:
    """Whether a sentence names one of the kind whose content terms are ``terms`` (module docstring), by
    the kind's head noun, its last term ("prompt techniques like ..." names a technique; "prompts like
    ..." names none).

    >>> names_instance("Another sorting method is merging.", ["sort", "method"])
    True
    >>> names_instance("We can mix the sorting methods defined above.", ["sort", "method"])
    False
    >>> names_instance("We sort lists like this one.", ["sort", "method"])
    False
    """
    if not (kind := _kind(terms)) or not (head := _kind(terms[-1:])) or _BACK.search(sentence):
        return False
    word, own = rf"(?:{head})\w*", rf"(?:{kind})\w*"  # the kind's head noun; any of its words
    one_of = (
        rf"\b(?:another|one\s+(?:more|other))\s+(?:[\w-]+\s+){{0,3}}?{word}\s+(?:is|are|was)\b"
        rf"|\bone\s+of\s+(?:the\s+)?(?:[\w-]+\s+){{0,6}}?{word}"
        rf"|\b{word}\s*,?\s+(?:such\s+as|like|including|includes?|e\.\s?g\.)\s+\W*(?!{own})\w"
    )
    return re.search(one_of, sentence, re.IGNORECASE) is not None
