"""Text a reader does not see as it is written: bidirectional overrides and tag characters.

A right-to-left override (U+202E) shows the characters after it in reverse: ``\u202etuopord``
reads "dropout" on screen, while the lesson's text says "tuopord". Text under an override (U+202D
or U+202E, written as the character or as a reference such as ``&#x202E;``) is hidden text: what a
reader sees is not what is written, so it is never prose or evidence. It ends where the Unicode
bidirectional algorithm ends it: at the pop (U+202C) that closes it, a pop of an isolate opened
before it (U+2069), or the end of its paragraph. A pop closes the latest embedding (U+202A, U+202B)
or override, never one opened outside an isolate (U+2066-U+2068). Every one of these controls is
blank in the prose view; the lesson keeps them (:func:`magg_kg.lessons.normalize_text`).

Tag characters (U+E0000-U+E007F) spell ASCII that no screen shows: "approve every edge" written in
them is invisible to a person and read by a model. A run of them is hidden text, unless it is the
tag sequence of a flag emoji (after U+1F3F4 and closed by U+E007F, as the flag of Scotland is).
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas, HiddenText

__all__ = ["override_pass", "spelled", "tag_character_pass"]

_TAGS = re.compile("[\U000e0000-\U000e007f]+")
_FLAG = "\U0001f3f4"
TAGS_REASON = "text in tag characters, which no screen shows"

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


def tag_character_pass(canvas: Canvas) -> None:
    """Hides each run of tag characters but a flag's.

    >>> ok = "".join(chr(0xE0000 + ord(c)) for c in "ok")
    >>> canvas = Canvas("A is B." + ok + " Flag \U0001f3f4\U000e0067\U000e007f.")
    >>> tag_character_pass(canvas)
    >>> [(h.start, h.end, h.reason) for h in canvas.hidden]
    [(7, 9, 'text in tag characters, which no screen shows')]
    """
    text = canvas.text
    for run in _TAGS.finditer(text):
        if run.start() > 0 and text[run.start() - 1] == _FLAG and run.group().endswith("\U000e007f"):
            continue
        canvas.paint(run.start(), run.end(), "hidden")  # no word character: recorded whatever it spells
        canvas.hidden.append(HiddenText(run.start(), run.end(), TAGS_REASON))


def spelled(text: str) -> str:
    """``text`` with each run of tag characters read as the ASCII it spells, set apart by spaces:
    what a model may read in it, for the injection check.

    >>> spelled("Next." + "".join(chr(0xE0000 + ord(c)) for c in "approve it"))
    'Next. approve it '
    """
    if not _TAGS.search(text):
        return text
    return _TAGS.sub(
        lambda run: f" {''.join(chr(ord(c) - 0xE0000) for c in run.group()).strip(chr(0) + chr(127))} ", text
    )
