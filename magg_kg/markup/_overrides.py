"""Bidirectional overrides: text shown in another order than it is written.

A right-to-left override (U+202E) shows the characters after it in reverse: ``\u202etuopord``
reads "dropout" on screen, while the lesson's text says "tuopord". Text under an override (U+202D
or U+202E, written as the character or as a reference such as ``&#x202E;``) is hidden text: what a
reader sees is not what is written, so it is never prose or evidence. It ends where the Unicode
bidirectional algorithm ends it: at the pop (U+202C) that closes it, a pop of an isolate opened
before it (U+2069), or the end of its paragraph. A pop closes the latest embedding (U+202A, U+202B)
or override, never one opened outside an isolate (U+2066-U+2068). Every one of these controls is
blank in the prose view; the lesson keeps them (:func:`magg_kg.lessons.normalize_text`).
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas

__all__ = ["override_pass"]

_CONTROL = re.compile(
    "[\u202a-\u202e\u2066-\u2069\n\u2029]"
    r"|&#(?:[xX]0{0,3}(?:202[a-eA-E]|206[6-9])|0{0,3}(?:823[4-8]|829[4-7]));"
)
"""A bidirectional embedding, override, isolate or pop, as a character or a reference; or the end
of a paragraph."""
_OPENS = {"\u202a": "embedding", "\u202b": "embedding", "\u202d": "override", "\u202e": "override"}
_OPENS |= dict.fromkeys("\u2066\u2067\u2068", "isolate")
_ENDS = "\n\u2029"
REASON = "text under a bidirectional override"


def override_pass(canvas: Canvas) -> None:
    """Hides the text under each override, and blanks every bidirectional control.

    >>> canvas = Canvas("Related to \\u202etuopord\\u202c. Next\\u202c.")
    >>> override_pass(canvas)
    >>> canvas.view(), [(h.start, h.end, h.reason) for h in canvas.hidden]
    ('Related to          . Next .', [(11, 20, 'text under a bidirectional override')])
    """
    text = canvas.text
    if not any(c in text for c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069&"):
        return
    opened: list[str] = []
    hidden_from = -1
    for match in _CONTROL.finditer(text):
        token, at = match.group(), match.start()
        char = _char(token)
        if char in _ENDS:
            opened.clear()
        else:
            canvas.paint(at, match.end(), "html")
            if char in _OPENS:
                opened.append(_OPENS[char])
            elif char == "\u202c" and opened and opened[-1] != "isolate":
                opened.pop()
            elif char == "\u2069" and "isolate" in opened:
                while opened.pop() != "isolate":
                    pass
        if "override" in opened and hidden_from < 0:
            hidden_from = at
        elif "override" not in opened and hidden_from >= 0:
            _hide(canvas, hidden_from, at if char in _ENDS else match.end())
            hidden_from = -1
    if hidden_from >= 0:
        _hide(canvas, hidden_from, len(text))


def _char(token: str) -> str:
    if len(token) == 1:
        return token
    return chr(int(token[3:-1], 16) if token[2] in "xX" else int(token[2:-1]))


def _hide(canvas: Canvas, start: int, end: int) -> None:
    canvas.paint(start, end, "hidden")
    canvas.hide(start, end, REASON)
