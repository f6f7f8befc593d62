"""Choices: the options of a question, which the lesson offers, not states.

A quiz writes a question and its options, right and wrong, as a list under it::

    Which of these is false?

    A) Eigenvectors is a prerequisite for singular value decomposition.
    B) Word2vec is a prerequisite for GloVe.

Read as prose, each option was a claim of the lesson, and a wrong one was committed with its own
words as evidence. A list of two or more items of one line each (bullets, numbers, letters such
as ``A)``, ``b.`` or ``(c)``, task boxes) that follows a paragraph ending in a question mark, none
of the items a question itself, is a list of choices: not prose. The question is a paragraph's
line: a heading that asks ("### Why would you use RAG?") opens a section that answers it, and an
indented line belongs to a list item. A list item that asks a question is no option (an exercise
list), and an item of several lines or a nested list (an answer that explains) ends the choices.
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas

__all__ = ["choice_pass"]

_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,3}[.)]|[A-Ha-h][.)]|\([A-Ha-h1-9]\))(?:[ \t]+\[[ xX]\])?[ \t]+\S")
_ASKS = re.compile(r"\?[\s*_:)\"'”’]*$")
_QUESTION = re.compile(r" ?[^\s#>|].*\?[\s*_:)\"'”’]*$")
"""A paragraph's line that asks (not a heading, a quote, a table row or an indented line)."""
_MOST = 300
"""The longest option, in characters: a longer item is an answer that explains, not a choice."""


def choice_pass(canvas: Canvas) -> None:
    """Paints the options of each question as ``choice``.

    >>> canvas = Canvas("Which is true?\\n\\nA) X needs Y.\\nB) Y needs X.\\n\\nAnswer: A.")
    >>> choice_pass(canvas)
    >>> canvas.view()
    'Which is true?\\n\\n             \\n             \\n\\nAnswer: A.'
    """
    lines = canvas.text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        if not _QUESTION.match(line) or _ITEM.match(line) or not _prose(canvas, starts[index - 1], line):
            continue
        options: list[int] = []
        at = index
        while at < len(lines):
            item = lines[at]
            if not item.strip():
                at += 1
                continue
            nested = bool(options) and _indent(item) != _indent(lines[options[0]])
            if nested or not _option(canvas, starts[at], item):
                break  # a nested list (an answer that explains), or no option
            following = lines[at + 1] if at + 1 < len(lines) else ""
            if following.strip() and not _ITEM.match(following):
                break  # an item of several lines: an answer that explains
            options.append(at)
            at += 1
        if len(options) >= 2:
            for option in options:
                canvas.paint(starts[option], starts[option] + len(lines[option]), "choice")
            index = at


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _option(canvas: Canvas, start: int, item: str) -> bool:
    """Whether a line reads as one option: a list item of prose, no question, not too long."""
    return (
        bool(_ITEM.match(item))
        and not _ASKS.search(item)
        and len(item) <= _MOST
        and _prose(canvas, start, item)
    )


def _prose(canvas: Canvas, start: int, line: str) -> bool:
    """Whether the line's last visible character is prose (not code, a table, a comment ...)."""
    end = len(line.rstrip())
    return end > 0 and canvas.mask[start + end - 1] == 0
