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

__all__ = ["concludes", "premises"]

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
    end = text.find(sentence)
    for earlier in reversed(before[-_MOST:]):
        at = text.rfind(earlier, 0, max(end, 0))
        if (
            end < 0
            or at < 0
            or _BREAK.search(text, at + len(earlier), end)
            or (taken and not leans_back(taken[0]))
        ):
            break
        taken.insert(0, earlier)
        end = at
    return taken
