"""What a gloss says a term is: the phrase after an emphasised term's entry mark ("**Keyword
search** - used for text searches"), read to the end of its sentence, and the patterns the
definition reader (:mod:`agents.definitions`) shares with it: emphasis read without its marks, a
stop that ends no sentence, and what says only how a term relates to something else or what it is
not.
"""

from __future__ import annotations

import re

__all__ = ["DENIED", "GOES_ON", "RELATED", "UNMARKED", "entry_gloss", "gloss"]


UNMARKED = re.compile(
    r"(?<![\w*_])(?P<mark>\*\*|\*|__|_)(?P<text>[^\s*_](?:[^*_]*?[^\s*_])?)(?P=mark)(?![\w*_])"
)
"""Emphasis in a definition's phrase ("of an **agent** in some *environment*", "of _designing_
prompts"), read without the marks."""
GOES_ON = r"(?:[*_\"'”’)\]]+(?:\s+(?-i:[a-z])|[,;])|(?<=[!?])\s+(?-i:[a-z]))"
"""What follows a ., ! or ? that ends no sentence: the marks that close emphasis, a quote or a
bracket and then more of the sentence ("to answer *how much?* or *how many?* questions"), or after a
? or ! a word in lower case (inside emphasis: "*how much? or how many?*")."""
RELATED = re.compile(
    r"[\W_]*(?:(?:an?|the|one)\s+)?(?:(?:key|direct|natural|important|useful|common)\s+)?"
    r"(?:prerequisites?|requirements?|related to|relevant to|similar to|needed|necessary|required|"
    r"part of|parts of|basis|foundation|important)\b",
    re.IGNORECASE,
)
"""What says how X relates to something else ("a prerequisite for gradient descent", "related
to planning", "part of every transformer"), not what X is."""
DENIED = re.compile(r"[\W_]*(?:not|never|no longer|neither)\b", re.IGNORECASE)
"""What X is not ("AI red teaming is not all encompassing"): no definition."""


def gloss(said: str) -> str:
    """What an emphasised term's gloss says it is, to the end of its sentence ("" when it says how
    it relates to something else, or what it is not).

    >>> gloss("used for text searches "), gloss("This is the process of removing data. It helps.")
    ('used for text searches', 'the process of removing data')
    """
    said = re.sub(r"^(?:this|it|these|they)\s+(?:is|are)\s+", "", said.strip(), flags=re.IGNORECASE)
    if RELATED.match(said) or DENIED.match(said):
        return ""
    sentence = re.split(rf"(?<!\b[ei]\.[eg])(?:;|[.!?](?!{GOES_ON}))(?:\s|$)", said, maxsplit=1)[0]
    return UNMARKED.sub(r"\g<text>", sentence).strip(" *_`")


_PROSE = re.compile(r"(?=.*[^\W\d_]{2})(?![\W_]*[\d+\-−])(?!.*(?:=|\w\())")
"""A gloss in words: a word of two letters or more, no number or sign first, no "=" and no call:
not "3" of "x = 3", nor "f(x) + 1" of "loss = f(x) + 1"."""


def entry_gloss(entry: re.Pattern[str], item: str) -> str:
    """What an item of a list that is an entry of X says X is (``entry``: its pattern, a term and
    "=" or ":", or a dash after the term's emphasis, before a group ``said``), read by :func:`gloss`
    when it is in words; "" for any other item.

    >>> entry = re.compile(r"_?(?:x|tokenization)_? ?[:=] (?P<said>.+)", re.IGNORECASE)
    >>> entry_gloss(entry, '_Tokenization_ = how the model "sees" the prompt')
    'how the model "sees" the prompt'
    >>> entry_gloss(entry, "x = 3"), entry_gloss(entry, "x = f(y) + 1"), entry_gloss(entry, "We use x.")
    ('', '', '')
    """
    found = entry.match(item)
    said = gloss(found["said"]) if found is not None else ""
    return said if _PROSE.match(said) else ""
