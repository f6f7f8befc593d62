"""A lesson cut into the units the injection detector scores, and into its sections.

Everything works on the original (normalized) lesson text and returns character offsets into it.

- **Units** are sentence-like pieces wherever text can hide: prose sentences (lines wrapped inside
  a paragraph are joined; a heading, list item, quote, table row or HTML line starts a new
  piece), every line of a code block and the comment on it, the inside of HTML comments and of
  Markdown comments (``[//]: # (...)``), and attribute values: ``alt``, ``title``, JSX props
  (``note={"..."}``), Markdown image alt text and link titles. A unit longer than
  :data:`MAX_UNIT` characters is cut at line ends, then between words.
- **Sections** run from one heading (outside code blocks; an HTML ``<h1>`` to ``<h6>`` line
  counts) to the next; the text before the first heading is a section too.

Hidden text is :mod:`magg_kg.markup`'s to find.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

__all__ = ["MAX_UNIT", "Span", "sections", "units"]

Span = tuple[int, int]
MAX_UNIT = 600
"""The longest unit, in characters."""

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_ATX = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_SETEXT = re.compile(r"^ {0,3}(?:=+|-{2,})\s*$")
_HTML_HEADING = re.compile(r"^\s*<h[1-6]\b", re.IGNORECASE)
_BLOCK_START = re.compile(r"^\s*(?:[-*+]\s|\d+[.)]\s|>|\||#{1,6}\s|<|:::|!!!|\$\$|\[!|:[a-z_]+:)")
_COMMENT = re.compile(r"<!--(.*?)(?:-->|\Z)", re.DOTALL)
_MD_COMMENT = re.compile(r"^\[(?://|comment|_|#)\]:\s*(?:#|<>)\s*(.*)$", re.MULTILINE | re.IGNORECASE)
_ATTRIBUTE = re.compile(
    r"""\b[\w:.-]+\s*=\s*(?:"([^"\n]{3,})"|'([^'\n]{3,})'|\{\s*["'`]([^"'`\n]{3,})["'`]\s*\})"""
)
_IMAGE_ALT = re.compile(r"!\[([^\]\n]{3,})\]")
_LINK_TITLE = re.compile(r"\]\([^)\s]*\s+[\"']([^\"'\n]{3,})[\"']\s*\)")
_CODE_COMMENT = re.compile(r"(?:^|\s)(?:#+|//+|--)\s*([^\s#/].*)$")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])[\"'”’)\]*_]*\s+(?=[^\sa-z])")


def _lines(text: str) -> Iterator[tuple[int, str]]:
    offset = 0
    for line in text.split("\n"):
        yield offset, line
        offset += len(line) + 1


def _masked(text: str) -> str:
    """The text with its comments blanked out (same length, line ends kept)."""
    pieces = list(text)
    for pattern in (_COMMENT, _MD_COMMENT):
        for match in pattern.finditer(text):
            for i in range(match.start(), match.end()):
                if pieces[i] != "\n":
                    pieces[i] = " "
    return "".join(pieces)


def _trimmed(text: str, start: int, end: int) -> Iterator[Span]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if next(itertools.islice(filter(str.isalpha, text[start:end]), 1, None), None) is None:
        return  # fewer than two letters (found without counting every letter of a long block)
    if end - start <= MAX_UNIT:
        yield start, end
        return
    if "\n" in text[start:end]:
        for offset, line in _lines(text[start:end]):
            yield from _trimmed(text, start + offset, start + offset + len(line))
        return
    cut = text.rfind(" ", start, start + MAX_UNIT)
    cut = cut if cut > start else start + MAX_UNIT
    yield from _trimmed(text, start, cut)
    yield from _trimmed(text, cut, end)


def _sentences(text: str, start: int, end: int) -> Iterator[Span]:
    cursor = start
    for match in _SENTENCE_END.finditer(text, start, end):
        yield from _trimmed(text, cursor, match.start())
        cursor = match.end()
    yield from _trimmed(text, cursor, end)


def _blocks(masked: str) -> Iterator[tuple[bool, int, int]]:
    """(is code, start, end) of every code line and every prose block, in order."""
    fence = ""
    block: list[int] = []
    for offset, line in _lines(masked):
        end = offset + len(line)
        opened = _FENCE.match(line)
        if fence or opened:
            if block:
                yield False, block[0], block[1]
                block = []
            if opened and not fence:
                fence = opened.group(1)[0] * 3
            elif opened and line.strip().startswith(fence):
                fence = ""
            elif fence:
                yield True, offset, end
            continue
        if not line.strip() or _BLOCK_START.match(line) or _SETEXT.match(line):
            if block:
                yield False, block[0], block[1]
            block = [offset, end] if line.strip() and not _SETEXT.match(line) else []
            if _ATX.match(line):  # a heading is a unit of its own
                yield False, offset, end
                block = []
            continue
        block = [block[0], end] if block else [offset, end]
    if block:
        yield False, block[0], block[1]


def units(text: str) -> list[Span]:
    """The units of a lesson text (see the module docstring), sorted, without repeats.

    >>> text = "# Title\\n\\nA is B. It\\nwraps. <!-- a comment here -->\\n```\\nx = 1  # set x to one\\n```"
    >>> [text[s:e] for s, e in units(text)]
    ['# Title', 'A is B.', 'It\\nwraps.', 'a comment here', 'x = 1  # set x to one', 'set x to one']
    """
    masked = _masked(text)
    found: set[Span] = set()
    for code, start, end in _blocks(masked):
        if code:
            found.update(_trimmed(masked, start, end))
            comment = _CODE_COMMENT.search(masked, start, end)
            if comment and comment.start(1) > start + 1:
                found.update(_trimmed(masked, comment.start(1), end))
        else:
            found.update(_sentences(masked, start, end))
    for pattern in (_COMMENT, _MD_COMMENT):
        for match in pattern.finditer(text):
            found.update(_sentences(text, match.start(1), match.end(1)))
    for pattern in (_ATTRIBUTE, _IMAGE_ALT, _LINK_TITLE):
        for match in pattern.finditer(text):
            group = next(i for i in range(1, (pattern.groups or 0) + 1) if match.group(i) is not None)
            if " " in match.group(group).strip():
                found.update(_sentences(text, match.start(group), match.end(group)))
    return sorted(found)


def sections(text: str) -> list[Span]:
    """The sections of a lesson: heading to heading, code blocks' ``#`` lines not counted.

    >>> text = "intro\\n# A\\ntext\\n```\\n# not a heading\\n```\\n## B\\nmore"
    >>> [text[s:e].split("\\n")[0] for s, e in sections(text)]
    ['intro', '# A', '## B']
    """
    starts = [0]
    fence = ""
    previous = (0, "")
    for offset, line in _lines(text):
        opened = _FENCE.match(line)
        if opened and not fence:
            fence = opened.group(1)[0] * 3
        elif fence:
            fence = "" if line.strip().startswith(fence) else fence
        elif _ATX.match(line) or _HTML_HEADING.match(line):
            starts.append(offset)
        elif _SETEXT.match(line) and previous[1].strip() and not _BLOCK_START.match(previous[1]):
            starts.append(previous[0])
        previous = (offset, line)
    bounds = [*sorted(set(starts)), len(text)]
    return [(a, b) for a, b in itertools.pairwise(bounds) if b > a] or [(0, len(text))]
