"""Character references ("&quot;", "&amp;", "&#64;"): markup that stands for one character.

Markdown, MDX and HTML all read ``&quot;`` as ``"``. Left as prose, its name reads as a word: an
HTML lesson that quotes a solver's name (``the &quot;saga&quot; solver``) made "quot" a recurring
term, then a concept. A reference is blanked, and its first character shows the character it
stands for (:meth:`~magg_kg.markup._canvas.Canvas.mark`) when that is one of Latin-1 (curly
quotes and dashes read as their ASCII forms) or a letter or digit of any script (``&theta;``,
``&#337;``); any other reads as a space. Offsets are unchanged.
A name that is no character reference (``&foo;``) stays text.

A reference inside a word (``Co&#118;ariance``, ``Eigen&shy;vectors``) would cut it in two, and
each piece read as a word ("ariance" became a concept): such a word is shown whole, written as it
reads (a soft hyphen or zero-width character standing for nothing) from its first character, the
rest of its span blank, when every character it reads as is a letter or digit ("Erd&#337;s").
"""

from __future__ import annotations

import html
import re
import unicodedata

from magg_kg.markup._canvas import Canvas

__all__ = ["as_read", "entity_pass"]

_REFERENCE = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
_ENTITY = re.compile(_REFERENCE)
_SPELLED = re.compile(rf"(?:[^\W_]|{_REFERENCE})+")
"""A word, references in it included."""
_PIECE = re.compile(rf"{_REFERENCE}|[^\W_]+")
_NOTHING = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff"))
"""What reads as no character inside a word: a soft hyphen, zero-width spaces and joiners,
direction marks, a byte-order mark."""
_READ = {**_NOTHING, 0xA0: " "}
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
        char = _decoded(match.group())
        if char is None:
            continue
        char = char.translate(_ASCII)
        start, end = match.span()
        canvas.paint(start, end, "html")
        if len(char) == 1 and char != " " and char.isprintable() and (ord(char) < 256 or _letter(char)):
            canvas.mark(start, char)
    if "&" in view:
        _join_words(canvas, view)


def _join_words(canvas: Canvas, view: str) -> None:
    """Shows each word spelled with a reference inside it as the one word it reads as; a reference
    that reads as another character (``&amp;``, ``&nbsp;``) ends a word.

    >>> from magg_kg.markup._canvas import Canvas
    >>> canvas = Canvas("Eigen&shy;vectors&nbsp;co&#118;ariance, rock&amp;roll")
    >>> _join_words(canvas, canvas.text)
    >>> canvas.view()
    'Eigenvectors     &nbsp;covariance     , rock&amp;roll'
    """
    for match in _SPELLED.finditer(view):
        if "&" not in match.group():
            continue
        start, spelled, reads = match.start(), [], []
        for piece in _PIECE.finditer(match.group()):
            text = piece.group()
            read = (_decoded(text) or text).translate(_NOTHING) if text.startswith("&") else text
            if all(map(_letter, read)):
                spelled.append(text)
                reads.append(read)
                continue
            _join(canvas, start, "".join(spelled), "".join(reads))
            start, spelled, reads = match.start() + piece.end(), [], []
        _join(canvas, start, "".join(spelled), "".join(reads))


def _letter(char: str) -> bool:
    """A letter or digit of any script, or a combining mark ("&#779;", the accent of "ő")."""
    return char.isalnum() or unicodedata.category(char).startswith("M")


def _join(canvas: Canvas, start: int, spelled: str, reads: str) -> None:
    reads = unicodedata.normalize("NFC", reads)  # as the lesson's text is: "o&#779;" reads "ő"
    if reads and reads != spelled and "&" in spelled:
        end = start + len(spelled)
        canvas.paint(start, end, "html")
        for offset, char in enumerate(reads, start):  # from its start, where its sentence may start
            canvas.mark(offset, char)


def as_read(text: str) -> str:
    """``text`` with each character reference written as what it stands for (a no-break space as a
    space, a soft hyphen or zero-width character as nothing): a quote of a lesson as its reader
    reads it, whose names can be found.

    >>> as_read("Eigen&shy;vectors&nbsp;and co&#118;ariance &amp; &bogus; &notit;")
    'Eigenvectors and covariance & &bogus; &notit;'
    """
    if "&" not in text:
        return text
    return _ENTITY.sub(lambda m: (_decoded(m.group()) or m.group()).translate(_READ), text)


def _decoded(reference: str) -> str | None:
    """What a character reference stands for; None for a name that is none (``&bogus;``), or one
    that only begins with a legacy name (``&notit;``, which ``html.unescape`` reads as "¬it;")."""
    char = html.unescape(reference)
    return None if char == reference or char.endswith(";") else char
