"""Sentences that conclude from the text before them: "This explains why ...", "That is why ...",
"Hence ...", "As a result, ...". Quoted alone, such a sentence restates what a why question asks
("This explains why the kettle rumbles." for "Why does the kettle rumble?"); the sentence it
concludes from gives the reason, and is quoted before it (:func:`premises`).

>>> concludes("This explains why the kettle rumbles."), concludes("The kettle rumbles.")
(True, False)
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.passages import leans_back
from agents.text import PARAGRAPH

__all__ = ["concludes", "one_paragraph", "premises"]

_CONCLUDES = re.compile(
    r"^\W*(?:(?:this|that|which|it)(?:'s|\s+is|\s+was)\s+(?:also\s+)?(?:why|the\s+reason\s+(?:why|that))\b"
    r"|(?:this|that|which)\s+(?:also\s+)?(?:explains|is\s+because|means)\b"
    r"|(?:hence|thus|therefore|consequently|accordingly)\b"
    r"|(?:as\s+a\s+(?:result|consequence)|for\s+(?:this|that)\s+reason)\b)",
    re.IGNORECASE,
)
"""A sentence opening with what it concludes from the text before it ("This is why", "That's the
reason that", "This explains", "Hence", "For this reason"), not a word that only starts like one
("Therein")."""
_MOST = 2
"""At most this many sentences before a conclusion are quoted with it."""
_BREAK = re.compile(rf"\n\s*\n|{PARAGRAPH}")


def concludes(sentence: str) -> bool:
    """Whether a sentence concludes from the text before it (see :data:`_CONCLUDES`)."""
    return _CONCLUDES.match(sentence) is not None


def one_paragraph(text: str, first: str, second: str) -> bool:
    """Whether two sentences of an excerpt ``text``, ``first`` before ``second`` or after it, are in
    one paragraph: no paragraph ends between them (where either is not found, they are not).

    >>> one_paragraph("Iron rusts. Pans rust. ¶ Tin shines.", "Pans rust.", "Iron rusts.")
    True
    >>> one_paragraph("Iron rusts. Pans rust. ¶ Tin shines.", "Iron rusts.", "Tin shines.")
    False
    """
    at, end = sorted((text.find(first), text.find(second)))
    return at >= 0 and _BREAK.search(text, at, end) is None


def premises(text: str, sentence: str, before: Sequence[str]) -> list[str]:
    """The sentences (of ``before``, those before ``sentence`` in the excerpt ``text``) that a
    concluding ``sentence`` concludes from: the one right before it in its paragraph, and the one
    before that when that one leans on it itself (:func:`agents.passages.leans_back`: "This wet iron
    oxidises."), at most :data:`_MOST`; none when the sentence concludes nothing.

    >>> premises("Iron rusts. Hence pans rust.", "Hence pans rust.", ["Iron rusts."])
    ['Iron rusts.']
    """
    if not concludes(sentence):
        return []
    taken: list[str] = []
    for earlier in reversed(before[-_MOST:]):
        if not one_paragraph(text, earlier, taken[0] if taken else sentence) or (
            taken and not leans_back(taken[0])
        ):
            break
        taken.insert(0, earlier)
    return taken
