"""An announcement that says something of what it announces: "In this section, we will introduce
*transposed convolution*, which is also called *fractionally-strided convolution*, for reversing
downsampling ..." points to the text ("we will introduce"), but it also says what X is.

A sentence that announces what the text will do, or points elsewhere, names X without saying what
it is (:func:`agents.passages.points_elsewhere`, :mod:`agents.definitions`), unless, naming X (or
X and one more thing: "*column vectors* and *row vectors* whose elements ..."), it goes on to
describe it: a relative clause ("X, which ...", "X whose ..."), another name it is known by ("X,
also called ..."), or its class in apposition ("X, a ... model", "a ... model, X", "a technique in
transfer learning: X"). A pure pointer ("We will come back to X later.", "we introduce X and its
training", "X, your first technique" not naming its class) still describes nothing.

Where a sentence points to another part of the text ("in the coming sections", "later on", "as
mentioned earlier": :func:`elsewhere`), what it says of X is said in passing: a why or how question
is answered where X is taught ("we will focus in the coming sections on X, which was released in
2017" says nothing of how X works), though "What is X?" may still quote it for want of better.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["describes", "elsewhere"]

_MARK = r"[*_`]*"
_AND = r"(?:\s+(?:and|or)\s+(?:[\w*_`-]+\s+){0,2}?[\w*_`-]+)?"
"""One more thing named beside X ("X and *row vectors*"), which what follows describes with X."""
_AFTER = (
    r"\s*,?\s*(?:which|whose|who)\b"
    r"|\s*[,(]\s*(?:(?:also|often|sometimes|commonly)\s+)?(?:called|known\s+as|referred\s+to\s+as|termed)\b"
    r"|\s*[,(]\s*i\.\s?e\.,?\s"
)
"""What says something of the thing just named: a relative clause, or another name of it."""
_CLASS_AFTER = r"\W*,\s*(?:an?|one\s+of|among)\s+[\w-]+"
"""Its class in apposition after it ("X, a collaborative filtering model")."""
_CLASS_BEFORE = (
    r"\ban?\s+(?:[\w-]+\s+){{0,8}}[\w-]+\s*[,:]\s*(?:the\s+)?\W*(?:{terms})\b(?!{mark}\s*(?:and|or)\b)"
)
"""Its class in apposition before it ("a ... model, X", "a technique in transfer learning: X"), X no
first item of a list."""


_ELSEWHERE = re.compile(
    r"\b(?:(?:next|following|later|subsequent|upcoming|coming|previous|preceding|earlier|last)\s+"
    r"(?:lessons?|lectures?|sections?|chapters?|modules?|units?|notebooks?|tutorials?|parts?)"
    r"|later\s+on|(?:mentioned|discussed|described|noted|introduced|explained|shown|seen)\s+"
    r"(?:above|below|earlier|previously))\b",
    re.IGNORECASE,
)
"""What points to another part of the text than the sentence's own."""


def elsewhere(sentence: str) -> bool:
    """Whether a sentence points to another part of the text than its own ("in the next section",
    "later on", "described above"), not to its own ("In this section, ...").

    >>> elsewhere("In the coming sections, we study X, which is fast."), elsewhere("In this section, X ...")
    (True, False)
    """
    return _ELSEWHERE.search(sentence) is not None


def describes(sentence: str, names: Sequence[str]) -> bool:
    """Whether a sentence, naming X (any of ``names``), goes on to say what X is: a relative clause,
    another name, or its class in apposition, as the module says.

    >>> describes("In this section, we introduce *stacking*, which is also called blending.", ["stacking"])
    True
    >>> describes("Next, we introduce a simple ensemble method, stacking.", ["stacking"])
    True
    >>> describes("We will come back to stacking in a later chapter.", ["stacking"])
    False
    >>> describes("Next, we introduce stacking and its training.", ["stacking"])
    False
    """
    names = [name for name in names if name.strip()]
    if not names:
        return False
    terms = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    named = rf"(?:{terms})(?:e?s)?\b{_MARK}"
    after = rf"{named}(?:{_AND}(?={_AFTER}))?(?:{_AFTER})|{named}{_CLASS_AFTER}"
    before = _CLASS_BEFORE.format(terms=terms, mark=_MARK)
    return re.search(rf"\b(?:{after})|{before}", sentence, re.IGNORECASE) is not None
