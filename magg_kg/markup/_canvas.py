"""The records of the prose view, and the canvas that paints non-prose regions on a lesson."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Literal, get_args

__all__ = [
    "BLANK_LINE",
    "KINDS",
    "Canvas",
    "Flavor",
    "HiddenText",
    "Markup",
    "Next",
    "Region",
    "RegionKind",
    "reads_as_prose",
]

Flavor = Literal["markdown", "mdx", "html"]
RegionKind = Literal[
    "code", "inline_code", "html", "comment", "component", "front_matter", "admonition", "table",
    "math", "image", "url", "script", "reference", "marker", "hidden", "choice", "chrome",
]  # fmt: skip
KINDS: tuple[RegionKind, ...] = get_args(RegionKind)


@dataclass(frozen=True, slots=True)
class Region:
    kind: RegionKind
    start: int
    end: int


@dataclass(frozen=True)
class HiddenText:
    """Text a reader does not see (``reason`` says why), at ``start:end`` of the lesson text."""

    start: int
    end: int
    reason: str


@dataclass(frozen=True)
class Markup:
    """The prose view of a lesson text (same length), its hidden text, and ``kinds``: one byte per
    character, 0 for prose, else the 1-based index of its kind in :data:`KINDS`."""

    flavor: Flavor
    prose: str
    hidden: tuple[HiddenText, ...]
    kinds: bytes = field(repr=False)

    def keeping(self, text: str, kinds: Collection[RegionKind]) -> str:
        """``text`` (the text this markup was found in) read as the prose view, except the regions
        of ``kinds``, which stay as written: a quote shown to a reader keeps its math and code, and
        loses link targets and tags.

        >>> math, html = KINDS.index("math") + 1, KINDS.index("html") + 1
        >>> markup = Markup("markdown", "x" + " " * 7, (), bytes([0, math, math, math, 0, html, html, html]))
        >>> markup.keeping("x$1$ <i>", ["math"])
        'x$1$    '
        """
        codes = b"".join(re.escape(_CODES[kind]) for kind in kinds)
        if not codes:
            return self.prose
        parts: list[str] = []
        last = 0
        for run in re.finditer(b"[" + codes + b"]+", self.kinds):
            parts += [self.prose[last : run.start()], text[run.start() : run.end()]]
            last = run.end()
        parts.append(self.prose[last:])
        return "".join(parts)

    @property
    def regions(self) -> tuple[Region, ...]:
        """The non-prose spans, one per run of one kind (computed on each call)."""
        return tuple(
            Region(KINDS[run.group()[0] - 1], run.start(), run.end()) for run in _RUN.finditer(self.kinds)
        )


_CODES = {kind: bytes([index + 1]) for index, kind in enumerate(KINDS)}
_RUN = re.compile(rb"([^\x00])\1*")
_MARKED = re.compile(rb"[^\x00]+")
_FREE = re.compile(rb"\x00+")
_UNMARKED = str.maketrans({0: " "})
_WIDE = 1
"""The mark of a character beyond Latin-1, kept in :attr:`Canvas.wide` (no mark is a control)."""
_WORDY = re.compile(r"[^\W_]")
_WORD = re.compile(r"[^\W\d_]{2,}")
BLANK_LINE = re.compile(r"\n[ \t]*\n")


class Canvas:
    """The lesson text and one kind code per character (0 = prose); later paint wins."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.mask = bytearray(len(text))
        self.hidden: list[HiddenText] = []
        self.marks: bytearray | None = None
        self.wide: dict[int, str] = {}
        """Characters the view shows in place of a blanked one (0: none): a list item's marker
        reads as a line break, so that each item is a block of its own, as Markdown reads it (an
        item is never one sentence with the next); an HTML block element's tags as paragraph
        breaks, a heading's opening tag as ``#``, an emphasis tag as ``*`` (see
        :mod:`magg_kg.markup._tags`). A byte a character, made at the first mark (a lesson of tags
        costs no object per tag); painting a character again clears its mark."""

    def paint(self, start: int, end: int, kind: RegionKind) -> None:
        if end > start:
            self.mask[start:end] = _CODES[kind] * (end - start)
            if self.marks is not None:
                self.marks[start:end] = bytes(end - start)

    def mark(self, at: int, char: str) -> None:
        """Shows ``char`` at ``at`` in the view, unless the character is painted again; one beyond
        Latin-1 (a letter of "Erd&#337;s") is kept aside, its byte standing for it."""
        if self.marks is None:
            self.marks = bytearray(len(self.text))
        if ord(char) < 256:
            self.marks[at] = ord(char)
        else:
            self.marks[at] = _WIDE
            self.wide[at] = char

    def hide(self, start: int, end: int, reason: str) -> None:
        if end > start and _WORDY.search(self.text, start, end):
            self.hidden.append(HiddenText(start, end, reason))

    def free(self, start: int, end: int) -> list[tuple[int, int]]:
        """The runs of characters still prose between ``start`` and ``end``."""
        return [run.span() for run in _FREE.finditer(self.mask, start, end)]

    def view(self) -> str:
        if _MARKED.search(self.mask) is None:
            return self.text
        parts: list[str] = []
        last = 0
        text, marks = self.text, self.marks
        for run in _MARKED.finditer(self.mask):
            start, stop = run.span()
            parts.append(text[last:start])
            if marks is None:
                parts.append(_blank(text[start:stop]) if "\n" in text[start:stop] else " " * (stop - start))
            elif text.find("\n", start, stop) < 0:
                parts.append(self._widened(marks[start:stop].decode("latin-1").translate(_UNMARKED), start))
            else:
                parts.append(self._widened(_overlaid(_blank(text[start:stop]), marks[start:stop]), start))
            last = stop
        parts.append(self.text[last:])
        return "".join(parts)

    def _widened(self, shown: str, start: int) -> str:
        if chr(_WIDE) not in shown:
            return shown
        return "".join(self.wide[at] if c == chr(_WIDE) else c for at, c in enumerate(shown, start))

    def markup(self, flavor: Flavor) -> Markup:
        hidden = tuple(sorted(set(self.hidden), key=lambda h: (h.start, h.end, h.reason)))
        return Markup(flavor, self.view(), hidden, bytes(self.mask))


def _overlaid(blank: str, marks: bytearray) -> str:
    """A blanked run with its marks shown."""
    if not marks.strip(b"\x00"):
        return blank
    return "".join(chr(mark) if mark else char for char, mark in zip(blank, marks, strict=True))


def _blank(segment: str) -> str:
    if "\n" not in segment:
        return " " * len(segment)
    return "\n".join(" " * len(line) for line in segment.split("\n"))


def reads_as_prose(segment: str) -> bool:
    """A table cell or text run kept as prose: four words or more, ending like a sentence."""
    return len(_WORD.findall(segment)) >= 4 and segment.rstrip().endswith((".", "!", "?"))


class Next:
    """The first match at or after a position. Positions only grow, so each search resumes where
    the last one stopped and all searches together read the text about once."""

    def __init__(self, view: str, pattern: re.Pattern[str]) -> None:
        self._view, self._pattern = view, pattern
        self._from = -1
        self._found: re.Match[str] | None = None

    def at(self, pos: int) -> re.Match[str] | None:
        found = self._found
        if 0 <= self._from <= pos and (found is None or found.start() >= pos):
            return found
        self._from, self._found = pos, self._pattern.search(self._view, pos)
        return self._found
