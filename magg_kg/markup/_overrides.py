"""Bidirectional overrides: text shown in another order than it is written.

A right-to-left override (U+202E) shows the characters after it in reverse: ``\u202etuopord``
reads "dropout" on screen, while the lesson's text says "tuopord". Text under an override (U+202D
or U+202E, up to the pop that closes it or the end of its paragraph, as the Unicode bidirectional
algorithm reads it) is hidden text: what a reader sees is not what is written, so it is never
prose or evidence. The pops (U+202C) are blanked wherever they stand; the other bidirectional
controls are removed when the text is normalized (:func:`magg_kg.lessons.normalize_text`).
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas

__all__ = ["override_pass"]

_CONTROL = re.compile("[\u202c\u202d\u202e\n]")
_POP = "\u202c"


def override_pass(canvas: Canvas) -> None:
    """Hides the text under each override, and blanks every pop.

    >>> canvas = Canvas("Related to \\u202etuopord\\u202c. Next\\u202c.")
    >>> override_pass(canvas)
    >>> canvas.view(), [(h.start, h.end, h.reason) for h in canvas.hidden]
    ('Related to          . Next .', [(11, 20, 'text under a bidirectional override')])
    """
    text = canvas.text
    if "\u202d" not in text and "\u202e" not in text and _POP not in text:
        return
    opened, depth = -1, 0
    for match in _CONTROL.finditer(text):
        char, at = match.group(), match.start()
        if char == _POP:
            canvas.paint(at, at + 1, "html")
            depth -= 1 if depth else 0
            if depth or opened < 0:
                continue
        elif char != "\n":
            opened, depth = (at if opened < 0 else opened), depth + 1
            continue
        if opened >= 0:
            canvas.paint(opened, at + (char == _POP), "hidden")
            canvas.hide(opened, at + (char == _POP), "text under a bidirectional override")
        opened, depth = -1, 0
    if opened >= 0:
        canvas.paint(opened, len(text), "hidden")
        canvas.hide(opened, len(text), "text under a bidirectional override")
