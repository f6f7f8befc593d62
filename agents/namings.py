"""A naming: a sentence that only gives a term its name, and the sentence after it that says what it is.

A lesson often introduces a term by naming it at the end of a sentence ("The usual remedy is
sometimes called *label smoothing*.", "This trick is known as **gradient clipping**.") and says
what it is or does in the next one ("Here, the hard targets are mixed with a uniform ..."). The
naming alone says nothing of the term, so a definition that quotes it whole goes on to the next
sentence when that one speaks of the term: it names it, or opens with a word that points back to
it ("Here", "This", "It", "In other words", ...). A question is no such sentence.

>>> said_with_naming("This trick is known as **gradient clipping**.", ["It rescales the gradient."],
...                  ["gradient clipping"])
'This trick is known as **gradient clipping**. It rescales the gradient.'
>>> said_with_naming("Gradient clipping is known as a trick.", ["It rescales."], ["gradient clipping"])
'Gradient clipping is known as a trick.'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import content_terms

__all__ = ["naming_only", "said_with_naming"]

_NAMING = re.compile(
    r"\b(?:called|termed|named|dubbed|known\s+as|referred\s+to\s+as)\s+(?P<name>[^,;:()]+?)[\s.!]*$",
    re.IGNORECASE,
)
"""A sentence that ends on the name it gives: "... is sometimes called *X*."."""

_POINTS_ON = re.compile(
    r"^\W*(?:here|this|that|these|those|it|they|such|thus|in\s+other\s+words|that\s+is|namely"
    r"|in\s+(?:this|that|such|it)|with\s+(?:this|that|it)|under\s+(?:this|that|it))\b",
    re.IGNORECASE,
)
"""The opening of a sentence that goes on about what the sentence before it named."""


def naming_only(sentence: str, names: Sequence[str]) -> bool:
    """Whether a sentence only gives one of ``names`` as a name, with nothing said of it after.

    >>> naming_only("The common approach is sometimes called *teacher forcing*.", ["teacher forcing"])
    True
    >>> naming_only("Teacher forcing is called a trick by some.", ["teacher forcing"])
    False
    """
    found = _NAMING.search(sentence.strip())
    if found is None:
        return False
    named = content_terms(re.sub(r"[*_`\"'“”]", "", found["name"]))
    return any(named and named == content_terms(name) for name in names)


def said_with_naming(sentence: str, after: Sequence[str], names: Sequence[str], source: str = "") -> str:
    """``sentence``, and the first of the sentences ``after`` it when the former only names one of
    ``names`` and the latter speaks of it (names it, or points back to it), asks nothing and, in the
    text ``source`` they are read from (when given), comes right after it in its paragraph: not
    after a blank line, a list item's mark or a sentence left out between them."""
    if not after or not naming_only(sentence, names) or after[0].rstrip().endswith("?"):
        return sentence
    if source and not _next_in_paragraph(sentence, after[0], source):
        return sentence
    terms = set(content_terms(after[0]))
    speaks = _POINTS_ON.match(after[0]) is not None or any(
        (name_terms := set(content_terms(name))) and name_terms <= terms for name in names
    )
    return f"{sentence} {after[0]}" if speaks else sentence


def _next_in_paragraph(sentence: str, after: str, source: str) -> bool:
    r"""Whether ``after`` follows ``sentence`` in ``source`` with nothing but marks and one line break
    between them (the last and first words of each compared, whatever the spacing).

    >>> _next_in_paragraph("It is called *X*.", "Here, X is fed.", "It is called *X*.\nHere, X is fed.")
    True
    >>> _next_in_paragraph("It is called *X*.", "Here, X is fed.", "It is called *X*.\n\n* Here, X is fed.")
    False
    """
    ends, opens = re.findall(r"\w+", sentence)[-3:], re.findall(r"\w+", after)[:3]
    if not ends or not opens:
        return False
    joined = r"\W+".join(map(re.escape, ends)) + r"[^\w\n]*(?:\n[ \t]*)?(?![-*+]\s|\d+\.\s)"
    return re.search(joined + r"\W*".join(map(re.escape, opens)), source) is not None
