"""Headings written in other markups than Markdown's ATX, as a Markdown lesson may hold them, and
the label that opens an AsciiDoc admonition paragraph.

The prose view writes every heading as one of Markdown's, which the chunker, the sentence splitter
and the topic reader know (:data:`agents.text.HEADING`): a line opening with ``#``, or a line over
a line of ``=`` or ``-``. Read as prose, a heading was a sentence, or the start of the next one: "==
Pod priority and preemption" was the only quote of a committed ``pod-priority related
preemption``, and org's "** Value functions" opened the quote of the sentence under it.

- AsciiDoc: ``= Title``, ``== Section`` ... (one to six ``=``, a blank, a title that opens on a
  letter or digit), at the top, after a blank line or under a block's attribute line
  (``[appendix]``, markup too): the ``=`` read as ``#``. A document's title (one ``=``) is its
  first line that is not blank, so that an equation's line (``= 0``) further down is prose. The
  attribute entries under the document's title (``:toc: left``) are markup, as front matter is.
- Org: ``* Heading``, ``** Heading`` ... in a lesson that writes an org keyword or block line
  (``#+TITLE:``, ``#+BEGIN_SRC``; without one, ``* item`` is a Markdown list item): the stars read
  as ``#``; a TODO or DONE keyword, a priority (``[#A]``), a statistics cookie (``[2/3]``) and tags
  (``:exam:``) are markup, and so are the planning line (``DEADLINE: <...>``) and the property
  drawer (``:PROPERTIES:`` to ``:END:``) under the heading.
- Underlined: reStructuredText's title over a line of one punctuation character repeated (an
  overline may stand over it too), Markdown's setext heading (``=`` or ``-``), after a blank line or
  at the top. The underline reads as ``=`` under a title of the first level (an underline of
  ``=``, or an overline and an underline: a reST document's title), else as ``-``; an overline is
  blank. A reST underline of another
  character (``~``, ``^``, ``*`` ...) is as long as its title at least (docutils' rule), and one of
  ``~`` or a backtick has a blank line under it, so that a rule or a code fence under a line of
  prose is no underline. A line of ``=`` that underlines no
  title (an AsciiDoc block's delimiter) is markup: a line of ``=`` in the view is an underline, as
  is a line of ``-`` (a thematic break of three or more is blanked as a marker).
- An admonition paragraph's label (``NOTE:``, ``TIP:``, ``IMPORTANT:``, ``WARNING:``,
  ``CAUTION:``, in capitals, opening a paragraph) is an admonition marker, no part of a quote.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from magg_kg.markup._canvas import Canvas

__all__ = ["Heading", "admonition_label", "heading_at", "is_org", "lone_underline"]

_ASCIIDOC = re.compile(r"(?P<marks>={1,6})[ \t]+(?P<title>[^\W_].*?)(?:[ \t]+=+)?[ \t]*$")
_ATTRIBUTE_LINE = re.compile(r"\[\[?[^\[\]\n]*\]\]?[ \t]*$")
"""An AsciiDoc block's attribute line (``[appendix]``, ``[[anchor]]``) over a section's title."""
_ATTRIBUTE_ENTRY = re.compile(r":!?[\w-]+!?:(?:[ \t].*)?$")
"""An AsciiDoc attribute entry (``:toc: left``, ``:icons: font``, ``:sectnums:``)."""
_ORG_DOCUMENT = re.compile(r"^[ \t]*#\+[A-Za-z][A-Za-z_]*(?::|[ \t]|$)", re.MULTILINE)
"""An org keyword or block line (``#+TITLE: ...``, ``#+BEGIN_SRC python``): the lesson is org."""
_ORG = re.compile(
    r"(?P<marks>\*+)[ \t]+(?P<keyword>(?:TODO|DONE)[ \t]+)?(?P<priority>\[#[A-Z0-9]\][ \t]*)?"
    r"(?P<title>[^\s].*?)(?P<after>(?:[ \t]+\[\d*(?:/\d*|%)\])?(?:[ \t]+:[\w@#%:]+:)?)[ \t]*$"
)
_PLANNING = re.compile(r"[ \t]*(?:DEADLINE|SCHEDULED|CLOSED):")
_DRAWER = re.compile(r"[ \t]*:PROPERTIES:[ \t]*$")
_DRAWER_END = re.compile(r"[ \t]*:END:[ \t]*$")
_DRAWER_LINES = 50
"""The most lines of a property drawer read as one."""
_ADORNMENT = re.compile(r"([=\-~^\"'`:.*+#_])\1*[ \t]*$")
"""A reST title's underline or overline: one punctuation character repeated."""
_MARKDOWN = re.compile(r" {0,3}(?:=+|-{2,})[ \t]*$")
"""Markdown's setext underline (CommonMark: any length of ``=``; ``-`` two long or more here, so
that an empty list item is none)."""
_NO_TITLE = re.compile(r"[ \t]*(?:[-*+][ \t]|\d{1,9}[.)][ \t]|[>|#\[]|\.\.[ \t]|:\w|```|~~~|<)")
"""What opens a line that is no title: a list item, a quote, a table row, a heading, an AsciiDoc
attribute line, a reST directive, a field or option, a fence, a tag."""
_MARKS = frozenset("=-~^\"'`:.*+#_")
"""The characters that open a heading's line or its underline, but for a title's own."""
_LABEL = re.compile(r"(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]+(?=\S)")


@dataclass(frozen=True)
class Heading:
    """A heading that starts at a line: its ``level``, its ``title`` and how many ``lines`` it
    takes (its underline, an overline, an org heading's planning line and drawer included)."""

    level: int
    title: str
    lines: int


def is_org(text: str) -> bool:
    """Whether ``text`` writes an org keyword or block line, so that ``* Heading`` is a heading.

    >>> is_org("#+TITLE: Notes\\n* Heading\\n"), is_org("* item\\n* item\\n")
    (True, False)
    """
    return _ORG_DOCUMENT.search(text) is not None


def heading_at(
    canvas: Canvas, lines: Sequence[str], index: int, start: int, *, after_blank: bool, org: bool
) -> Heading | None:
    """The heading that line ``index`` (at offset ``start``) opens, painted as the module docstring
    says, or None (nothing painted)."""
    line = lines[index]
    following = lines[index + 1] if index + 1 < len(lines) else ""
    if line[:1] not in _MARKS and following.lstrip(" ")[:1] not in _MARKS:
        return None  # most lines: no mark of a heading on it or under it
    if org and (found := _ORG.match(line)) is not None:
        _paint_marks(canvas, start, found.group("marks"))
        for part in ("keyword", "priority", "after"):
            canvas.paint(start + found.start(part), start + found.end(part), "marker")
        taken = _org_lines(lines, index + 1)
        canvas.paint(start + len(line) + 1, _end(lines, index, taken, start), "marker")
        return Heading(len(found.group("marks")), found.group("title"), taken)
    if not after_blank and not (
        index and _ATTRIBUTE_LINE.match(lines[index - 1]) and _blank(lines, index - 2)
    ):
        return None
    if (found := _ASCIIDOC.match(line)) is not None and (
        len(found.group("marks")) > 1 or not any(above.strip() for above in lines[:index])
    ):
        _paint_marks(canvas, start, found.group("marks"))
        canvas.paint(start + found.end("title"), start + len(line), "marker")  # a closing "=="
        if index and _ATTRIBUTE_LINE.match(lines[index - 1]):
            canvas.paint(start - len(lines[index - 1]) - 1, start - 1, "marker")
        taken = 1
        while (
            len(found.group("marks")) == 1
            and index + taken < len(lines)
            and _ATTRIBUTE_ENTRY.match(lines[index + taken])
        ):
            taken += 1  # the document's header
        canvas.paint(start + len(line) + 1, _end(lines, index, taken, start), "front_matter")
        return Heading(len(found.group("marks")), found.group("title"), taken)
    if not after_blank:
        return None
    return _underlined(canvas, lines, index, start)


def _underlined(canvas: Canvas, lines: Sequence[str], index: int, start: int) -> Heading | None:
    line = lines[index]
    over = _ADORNMENT.match(line)
    if over is not None and index + 2 < len(lines):
        title, under = lines[index + 1], lines[index + 2]
        if (
            _ADORNMENT.match(under)
            and under.rstrip()[:1] == over.group(1)
            and title.strip()
            and len(title.rstrip()) <= len(under.rstrip())
            and not _ADORNMENT.match(title)
        ):
            canvas.paint(start, start + len(line), "marker")
            _underline(canvas, start + len(line) + len(title) + 2, under, "=")
            return Heading(1, title.strip(), 3)
    if index + 1 >= len(lines) or not line.strip() or _NO_TITLE.match(line) or over is not None:
        return None
    if len(line) - len(line.lstrip()) > 3:
        return None  # indented: code, or a list item's paragraph
    under = lines[index + 1]
    reST = _ADORNMENT.match(under)
    if not (
        _MARKDOWN.match(under)
        or (
            reST
            and reST.group(1) not in "=-"
            and len(under.rstrip()) >= max(3, len(line.rstrip()))
            and (reST.group(1) not in "~`" or _blank(lines, index + 2))  # else a code fence opens
        )
    ):
        return None
    level = 1 if under.strip()[0] == "=" else 2
    _underline(canvas, start + len(line) + 1, under, "=" if level == 1 else "-")
    return Heading(level, line.strip(), 2)


def lone_underline(canvas: Canvas, start: int, line: str) -> bool:
    """Paints a line of ``=`` that underlines no title as markup (an AsciiDoc block's delimiter,
    ``====``): in the view, a line of ``=`` is an underline."""
    if "=" not in line[:4] or _MARKDOWN.match(line) is None:
        return False
    canvas.paint(start, start + len(line), "marker")
    return True


def admonition_label(canvas: Canvas, start: int, rest: str) -> None:
    """Paints the label that opens an admonition paragraph (``NOTE: ...``) as an admonition marker."""
    if (found := _LABEL.match(rest)) is not None:
        canvas.paint(start, start + found.end(), "admonition")


def _paint_marks(canvas: Canvas, start: int, marks: str) -> None:
    """Paints a heading's marks as markup, shown as ``#`` (six at most)."""
    canvas.paint(start, start + len(marks), "marker")
    for at in range(start, start + min(6, len(marks))):
        canvas.mark(at, "#")


def _underline(canvas: Canvas, start: int, line: str, shown: str) -> None:
    """Paints an underline as markup, shown as a line of ``shown``."""
    canvas.paint(start, start + len(line), "marker")
    for offset, char in enumerate(line):
        if not char.isspace():
            canvas.mark(start + offset, shown)


def _org_lines(lines: Sequence[str], first: int) -> int:
    """How many lines an org heading takes: its own, its planning line and its property drawer."""
    at = first
    if at < len(lines) and _PLANNING.match(lines[at]):
        at += 1
    if at < len(lines) and _DRAWER.match(lines[at]):
        last = min(len(lines), at + _DRAWER_LINES)
        end = next((i for i in range(at + 1, last) if _DRAWER_END.match(lines[i])), None)
        at = at if end is None else end + 1
    return at - first + 1


def _end(lines: Sequence[str], index: int, taken: int, start: int) -> int:
    """The offset where the last of ``taken`` lines from line ``index`` (at ``start``) ends."""
    return start + sum(len(lines[i]) + 1 for i in range(index, index + taken)) - 1


def _blank(lines: Sequence[str], index: int) -> bool:
    return index < 0 or index >= len(lines) or not lines[index].strip()
