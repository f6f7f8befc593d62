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

import bisect
import re

from magg_kg.markup._canvas import BLANK_LINE, Canvas

__all__ = ["choice_pass", "html_choice_pass"]

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
_QUIZ_WORDS = (
    r"\b(?:quiz|knowledge check|self[- ]?(?:check|test|assessment)|test (?:yourself|your knowledge)"
    r"|review questions|check your (?:understanding|knowledge))\b"
)
_QUIZ = re.compile(rf"^#{{1,6}}[ \t]+.*{_QUIZ_WORDS}", re.I)
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


_LIST = re.compile(r"<(ol|ul)\b([^<>]*)>((?:(?!</?(?:ol|ul)\b).){0,20000}?)</\1\s*>", re.I | re.S)
"""A list that holds no list (the innermost): its tag, its attributes and its items."""
_LI = re.compile(r"<li\b[^<>]*>", re.I)
_END_LI = re.compile(r"</li\s*>", re.I)
_ANY_TAG = re.compile(r"<[^<>]*>")
_SKIPPED = re.compile(r"(?:\s+|<[^<>]*>)*")
_BOX = re.compile(r"<input\b[^<>]*\btype\s*=\s*[\"']?(?:radio|checkbox)\b[^<>]*>", re.I)
_LABEL_END = re.compile(
    r"<(?:/?(?:label|br|input|li|p|div|form|td|th|tr|h[1-6]|span|a|button|dt|dd|section|table|ul|ol|select)\b)"
    r"|\n",
    re.I,
)
"""Where a box's label ends: the end of its element, the next box, a block, a line."""
_LETTERED_BLOCK = re.compile(
    r"<(p|div)\b[^<>]*>("
    r"(?:\s*<[^<>]*>){0,4}\s*(?:[A-Ha-h][.)]|\([A-Ha-h]\))(?:</[A-Za-z]+>)?\s"  # "<b>A)</b> "
    r"[^<]{0,300}?(?:<(?!/\1\b)[^<>]*>[^<]{0,300}?){0,8}"  # its text, a few inline tags in it
    r")</\1\s*>",
    re.I,
)
"""A paragraph (or div) whose text opens with a letter label: ``<p>A) ...</p>``."""
_SPELLED_LABEL = re.compile(r"(?:\s*<[^<>]*>){0,4}\s*\(?([A-Ha-h])[.)]?")
_ID = re.compile(r"\bid\s*=\s*[\"']?([^\"'\s<>]+)", re.I)
_LABEL_FOR = re.compile(r"<label\b[^<>]*\bfor\s*=\s*[\"']?([^\"'\s<>]+)[^<>]*>([^<]{0,300})", re.I)
_OPTION = re.compile(r"<option\b[^<>]*>([^<]{1,300})", re.I)
_LETTERED_LIST = re.compile(r"\btype\s*=\s*[\"']?[AaIi]\b")
_LETTERED_TEXT = re.compile(rf"(?:{_LABEL}[.)]|\({_LABEL}\))\s")
_BLOCK_TAG = re.compile(
    r"<(?:/?(?:p|div|li|ul|ol|h[1-6]|br|hr|tr|td|th|table|section|article|details|summary|dl|dt|dd|"
    r"blockquote|form|fieldset|legend|header|footer|nav|main|aside|figure|figcaption|pre|script|style)\b)[^<>]*>",
    re.I,
)
_HEADING_TAG = re.compile(r"<h[1-6]\b[^<>]*>(.{0,300}?)</h[1-6]\s*>", re.I | re.S)
_HEADING_END = re.compile(r"</h[1-6]\s*>(?:\s|<[^<>]*>)*$", re.I)
"""A heading's end tag after the question, with nothing but tags and spaces before the list."""
_QUIZ_CLASS = re.compile(r"\b(?:class|id)\s*=\s*[\"'][^\"']*quiz(?:zes)?(?![a-z])", re.I)
_NEAR = 2000
"""How far after a container named a quiz (``<div class="quiz">``) a list is one of its questions."""
_LOOK = 400
"""How far before a list its question is looked for, and after it its answer key (characters)."""


def html_choice_pass(canvas: Canvas) -> None:
    """Paints the options of each quiz question written in HTML as ``choice``: the items of a list
    (``<ol>``, ``<ul>``) under an element that asks, when something says it is a quiz (as in
    :func:`choice_pass`: lettered items or ``type="A"``, a box to tick in them, a question that asks
    to choose, an answer key after it, a heading or a container that names a quiz), options written
    as paragraphs lettered in order under a paragraph that asks, the label of every radio button or
    check box (beside it or written apart, ``<label for=...>``) and every option of a drop-down,
    which a form offers and never states.

    >>> text = "<p>Which is true?</p><ol type=A><li>X needs Y.</li><li>Y needs X.</li></ol><p>Why?</p>"
    >>> canvas = Canvas(text)
    >>> html_choice_pass(canvas)
    >>> " ".join(canvas.view().split())
    '<p>Which is true?</p><ol type=A><li> </li><li> </li></ol><p>Why?</p>'
    """
    text = canvas.text
    lowered = text.lower()
    if "<p" in lowered or "<div" in lowered:
        _lettered_paragraphs(canvas)
    if "<li" not in lowered and "<input" not in lowered and "<option" not in lowered:
        return
    headings = [
        (h.start(), bool(re.search(_QUIZ_WORDS, _plain(h.group(1)), re.I)))
        for h in _HEADING_TAG.finditer(text)
    ]
    quizzes = [container.start() for container in _QUIZ_CLASS.finditer(text)]
    for found in _LIST.finditer(text):
        under = bisect.bisect(headings, (found.start(), True)) - 1
        near = bisect.bisect(quizzes, found.start()) - 1  # a container named a quiz, opened just before
        quiz = (under >= 0 and headings[under][1]) or (near >= 0 and found.start() - quizzes[near] < _NEAR)
        items = _items(found)
        if items and _prose_at(canvas, items[0][0]) and _quiz_list(text, found, items, quiz):
            for start, end in items:
                canvas.paint(start, end, "choice")
    _labels_for_boxes(canvas)
    for option in _OPTION.finditer(text):  # a drop-down's options are offered too
        if _prose_at(canvas, option.start(1)):
            canvas.paint(option.start(1), option.end(1), "choice")
    for box in _BOX.finditer(text):
        if _prose_at(canvas, box.end()):
            label_end = _LABEL_END.search(text, box.end(), box.end() + _MOST)
            stop = label_end.start() if label_end else min(len(text), box.end() + _MOST)
            canvas.paint(box.end(), stop, "choice")


def _lettered_paragraphs(canvas: Canvas) -> None:
    """Paints as ``choice`` the options of a question written as paragraphs of their own, lettered
    in order ("<p>A) ...</p><p>B) ...</p>") right after a paragraph that asks."""
    text = canvas.text
    run: list[tuple[int, int]] = []
    last = 0
    for found in [*_LETTERED_BLOCK.finditer(text), None]:
        if found is not None and run and text[last : found.start()].strip() == "":
            run.append((found.start(2), found.end(2)))
            last = found.end()
            continue
        if len(run) >= 2 and _asks_before(text, run[0][0]) and _prose_at(canvas, run[0][0]):
            spelled = (_SPELLED_LABEL.match(text, start) for start, _ in run)
            letters = [label.group(1).lower() if label else "" for label in spelled]
            if letters == [chr(ord("a") + index) for index in range(len(letters))]:
                for start, end in run:
                    canvas.paint(start, end, "choice")
        run = [(found.start(2), found.end(2))] if found is not None else []
        last = found.end() if found is not None else 0


def _asks_before(text: str, at: int) -> bool:
    paragraphs = _paragraphs(text[max(0, at - _LOOK) : at], 1, last=True)
    return bool(paragraphs) and _ASKS.search(paragraphs[-1][-_TAIL:]) is not None


def _labels_for_boxes(canvas: Canvas) -> None:
    """Paints as ``choice`` a ``<label for=...>`` of a radio button or check box written apart."""
    text = canvas.text
    boxes = {found.group(1) for box in _BOX.finditer(text) if (found := _ID.search(box.group()))}
    for label in _LABEL_FOR.finditer(text):
        if label.group(1) in boxes and _prose_at(canvas, label.start(2)):
            canvas.paint(label.start(2), label.end(2), "choice")


def _prose_at(canvas: Canvas, at: int) -> bool:
    """Whether the first character from ``at`` that is no space is prose (the tags around it,
    markup in an MDX lesson, are not; code that shows HTML is no quiz)."""
    first = _SKIPPED.match(canvas.text, at, at + _MOST).end()  # type: ignore[union-attr]
    return first < len(canvas.text) and canvas.mask[first] == 0


def _items(found: re.Match[str]) -> list[tuple[int, int]]:
    """The spans of a list's items, from after each ``<li>`` to its ``</li>`` or the next item."""
    body, offset = found.group(3), found.start(3)
    tags = list(_LI.finditer(body))
    starts = [tag.end() for tag in tags]
    ends = [*(tag.start() for tag in tags[1:]), len(body)]
    spans = []
    for start, end in zip(starts, ends, strict=True):
        closing = _END_LI.search(body, start, end)
        spans.append((offset + start, offset + (closing.start() if closing else end)))
    return spans


def _paragraphs(html: str, most: int, *, last: bool) -> list[str]:
    """The text of the first or last ``most`` paragraphs of ``html``, in order (block elements and
    blank lines part them; inline tags are dropped), each with its spaces folded but its lines
    kept, blank ones left out."""
    found: list[str] = []
    blocks = _BLOCK_TAG.split(html)
    for block in reversed(blocks) if last else blocks:
        paragraphs = BLANK_LINE.split(_ANY_TAG.sub("", block))
        for paragraph in reversed(paragraphs) if last else paragraphs:
            lines = [" ".join(line.split()) for line in paragraph.split("\n")]
            if any(lines):
                found.append("\n".join(line for line in lines if line))
                if len(found) == most:
                    return found[::-1] if last else found
    return found[::-1] if last else found


def _plain(html: str) -> str:
    return " ".join(_ANY_TAG.sub(" ", html).split())


def _quiz_list(text: str, found: re.Match[str], items: list[tuple[int, int]], quiz_section: bool) -> bool:
    """Whether a list holds a quiz question's options (see :func:`html_choice_pass`)."""
    options = [_plain(text[start:end]) for start, end in items]  # "" for an image alone
    if len(options) < 2 or any(len(o) > _MOST or _ASKS.search(o[-_TAIL:]) for o in options):
        return False
    before = text[max(0, found.start() - _LOOK) : found.start()]
    paragraphs = _paragraphs(before, 2, last=True)
    if len(paragraphs) >= 2 and len(paragraphs[-1].split()) <= _BETWEEN and paragraphs[-1].endswith(":"):
        paragraphs.pop()  # "Options:"
    lines = paragraphs[-1].split("\n") if paragraphs else [""]
    if _HEADING.match(lines[-1]) or _HEADING_END.search(before):
        return False  # a heading that asks opens a section that answers it (an FAQ)
    question = " ".join(line for line in lines if not _HEADING.match(line))
    if not _ASKS.search(question[-_TAIL:]):
        return False
    after = _paragraphs(text[found.end() : found.end() + _LOOK], 1, last=False)
    written = [o for o in options if o]
    return bool(
        quiz_section
        or _LETTERED_LIST.search(found.group(2))
        or (written and all(_LETTERED_TEXT.match(option + " ") for option in written))
        or _BOX.search(found.group(3))
        or _CHOOSE.search(question)
        or (after and _KEY.match(after[0]))
    )
