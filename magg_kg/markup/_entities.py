"""Character references ("&quot;", "&amp;", "&#64;"): markup that stands for one character.

Markdown, MDX and HTML all read ``&quot;`` as ``"``. Left as prose, its name reads as a word: an
HTML lesson that quotes a solver's name (``the &quot;saga&quot; solver``) made "quot" a recurring
term, then a concept. A reference is blanked, and its first character shows the character it
stands for (:meth:`~magg_kg.markup._canvas.Canvas.mark`) when that is one of Latin-1 (curly
quotes and dashes read as their ASCII forms); any other reads as a space. Offsets are unchanged.
A name that is no character reference (``&foo;``) stays text.
"""

from __future__ import annotations

import html
import re

from magg_kg.markup._canvas import Canvas

__all__ = ["entity_pass"]

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "\xa0": " "})


def entity_pass(canvas: Canvas, view: str) -> None:
    """Blanks every character reference in the prose of ``view`` and shows what it stands for.

    >>> from magg_kg.markup._canvas import Canvas
    >>> canvas = Canvas("The &quot;saga&quot; solver &amp; &foo; &#8212; x")
    >>> entity_pass(canvas, canvas.text)
    >>> canvas.view()
    'The "     saga"      solver &     &foo; -       x'
    """
    for match in _ENTITY.finditer(view):
        reference = match.group()
        char = html.unescape(reference).translate(_ASCII)
        if char == reference:
            continue
        start, end = match.span()
        canvas.paint(start, end, "html")
        if len(char) == 1 and char != " " and char.isprintable() and ord(char) < 256:
            canvas.mark(start, char)
