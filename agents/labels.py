"""A label before a sentence that names its topic ("Back to VGG: a VGG block consists of ..."): the
sentence after it opens with what it says of X as one with no label does. The label names X's
first word (the topic X is part of, or X itself); one that names no word of X ("For example: a
chatbot answering ...") introduces something else than what X is, an instance of it."""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["topic_label"]


def topic_label(names: Sequence[str]) -> str:
    """A pattern of an optional label of a few words and a colon that names the first word of one
    of ``names``, before the sentence.

    >>> said = re.compile(topic_label(["VGG block"]) + "an? VGG block", re.I)
    >>> bool(said.match("Back to VGG: a VGG block is ...")), bool(said.match("For example: a VGG block"))
    (True, False)
    """
    firsts = sorted({re.escape(name.split()[0]) for name in names if name.split()})
    if not firsts:
        return ""
    named = "|".join(firsts)
    before, after = r"[*_]{0,2}[A-Z][^.:;!?\n]{0,40}?", r"[^.:;!?\n]{0,20}:[*_]{0,2}\s+"
    return rf"(?:{before}(?<![\w-])(?:{named})(?:e?s)?(?![\w-]){after})?"
