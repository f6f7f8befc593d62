"""Choices: the options of a quiz's question, which the lesson offers, not states.

A quiz writes a question and its options, right and wrong, as a list under it::

    Which of these is false?

    A) Eigenvectors is a prerequisite for singular value decomposition.
    B) Word2vec is a prerequisite for GloVe.

Read as prose, each option was a claim of the lesson, and a wrong one was committed with its own
words as evidence. A list of two or more items of one line each (bullets, numbers, letters such as
``A)``, ``**b.**``, ``(c)`` or ``ii)``, task boxes) under a line that asks (a ``?`` or ``？`` at its
end, or before a note: "Which is true? (1 point)"), none of the items a question itself, is a list
of choices, not prose, when something says it is a quiz: its options are lettered or boxed, its
question asks to choose ("which", "true", "false", "correct", "of the following", "select"), an answer
key follows it ("A: 3", "Answer: ..."), or its section's heading names a quiz ("Quiz",
"Knowledge check", "Self-check", "Review questions", "Check your understanding").

Without such a sign, a question's list is prose ("What should you know before this lesson?" over
what to know). The question may be a list item whose options are nested under it, and the whole
may be quoted (``>``). A heading that asks opens a section that answers it; an item that asks is
no option (an exercise list); an item of several lines or a nested list (an answer that explains)
ends the choices. One short line may stand between the question and its options ("Options:").
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas

__all__ = ["choice_pass"]

_QUOTE = re.compile(r"(?: {0,3}> ?)*")
_LABEL = r"(?:[A-Ha-h]|i{1,3}|iv|vi{0,3}|ix|x)"
_ITEM = re.compile(
    rf"(?P<indent>[ \t]*)(?:(?P<bullet>[-*+]|\d{{1,3}}[.)])(?:[ \t]+(?P<box>\[[ xX]\]))?"
    rf"|(?P<letter>{_LABEL}[.)]|\({_LABEL}\)|\*\*{_LABEL}[.)]\*\*))[ \t]+\S"
)
_ASKS = re.compile(
    r"[?？](?:[\s_]|\([^()\n]{0,30}\)|\[\^[^\]\n]{1,20}\]|[^\w\s])*+"
    r"(?:(?:select|choose|pick|tick|mark)\b[^?？\n]{0,40})?$",
    re.I,
)
"""A line that asks: a question mark at its end, maybe with a note ("(1 point)", a footnote's mark,
an emoji) or what to do ("Select all that apply.") after it; read in a line's last :data:`_TAIL`
characters, so that a long line of marks costs no more than a short one."""
_TAIL = 200
_CHOOSE = re.compile(
    r"\b(?:which|true|false|correct|incorrect|of the following|select|choose (?:the|one|all|from))\b", re.I
)
_KEY = re.compile(
    r"[ \t>]*(?:\*\*)?(?:A|Ans|Answer|Answers|Solution|Correct(?: answer)?)\b\s*(?:\*\*)?:", re.I
)
_QUIZ = re.compile(
    r"^#{1,6}[ \t]+.*\b(?:quiz|knowledge check|self[- ]?(?:check|test|assessment)|test (?:yourself|your "
    r"knowledge)|review questions|check your (?:understanding|knowledge))\b",
    re.I,
)
_HEADING = re.compile(r"#{1,6}[ \t]")
_MOST = 300
"""The longest option, in characters: a longer item is an answer that explains, not a choice."""
_BETWEEN = 3
"""The most words of a line that may stand between a question and its options ("Options:")."""


def choice_pass(canvas: Canvas) -> None:
    """Paints the options of each quiz question as ``choice``.

    >>> canvas = Canvas("Which is true?\\n\\nA) X needs Y.\\nB) Y needs X.\\n\\nWhy?\\n\\n- Z.\\n- W.")
    >>> choice_pass(canvas)
    >>> canvas.view()
    'Which is true?\\n\\n             \\n             \\n\\nWhy?\\n\\n- Z.\\n- W.'
    """
    text = canvas.text
    if "?" not in text and "？" not in text:
        return
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    bare = [line[_QUOTE.match(line).end() :] for line in lines]  # type: ignore[union-attr]
    quiz_section = False
    index = 0
    while index < len(lines):
        line, at = bare[index], index
        index += 1
        if _HEADING.match(line):
            quiz_section = bool(_QUIZ.match(line))
            continue
        tail = lines[at][-_TAIL:]
        asks = _ASKS.search(tail)
        if asks is None or canvas.mask[starts[at] + len(lines[at]) - len(tail) + asks.start()] != 0:
            continue
        options = _options(canvas, bare, lines, starts, index, _ITEM.match(line))
        if len(options) < 2:
            continue
        last = options[-1] + 1
        lettered = all(_labelled(bare[option]) for option in options)
        keyed = any(_KEY.match(bare[k]) for k in range(last, min(last + 3, len(lines))))
        if lettered or keyed or quiz_section or _CHOOSE.search(line):
            for option in options:
                canvas.paint(starts[option], starts[option] + len(lines[option]), "choice")
            index = last


def _options(
    canvas: Canvas,
    bare: list[str],
    lines: list[str],
    starts: list[int],
    at: int,
    question: re.Match[str] | None,
) -> list[int]:
    """The lines of the options under a question (a list item's: nested under it)."""
    options: list[int] = []
    between = 0
    while at < len(lines):
        item = bare[at]
        if not item.strip():
            at += 1
            continue
        found = _ITEM.match(item)
        if found is None:
            if options or between or len(item.split()) > _BETWEEN or not item.rstrip().endswith(":"):
                break
            between, at = 1, at + 1  # "Options:"
            continue
        indent = _indent(item)
        if question is not None and indent <= _indent(question.group()):
            break  # the next item of the question's own list
        if options and indent != _indent(bare[options[0]]):
            break  # a nested list: an answer that explains
        if len(item) > _MOST or _ASKS.search(item) or not _prose(canvas, starts[at], lines[at]):
            break
        following = bare[at + 1] if at + 1 < len(lines) else ""
        if following.strip() and not _ITEM.match(following):
            break  # an item of several lines: an answer that explains
        options.append(at)
        at += 1
    return options


def _indent(line: str) -> int:
    return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())


def _labelled(option: str) -> bool:
    found = _ITEM.match(option)
    return found is not None and bool(found.group("letter") or found.group("box"))


def _prose(canvas: Canvas, start: int, line: str) -> bool:
    """Whether the line's last visible character is prose (not code, a table, a comment ...)."""
    end = len(line.rstrip())
    return end > 0 and canvas.mask[start + end - 1] == 0
