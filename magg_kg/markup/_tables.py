"""Tables drawn with rules of dashes: Pandoc's grid, simple and multiline tables, which
reStructuredText also writes (its simple tables with ``=``), found by their rules.

A grid table is a box of ``+----+----+`` borders (``+====+`` under its header) around ``| cell |``
rows. A simple table is a header line over a rule of two dash runs or more, one for each column,
its rows ending at a blank line; a multiline table opens and closes with a line of dashes, and its
rows, separated by blank lines, wrap their cells over several lines; without a header, a table of
either kind opens with its rule of runs and closes with a line of dashes before a blank line.

As in a pipe table, a cell stays prose when it reads as a sentence (:func:`reads_as_prose`) and
its row is one line; a cell wrapped over several lines is blanked, as its sentence would be
quoted with the other columns' words between its lines. Read as prose, the rows of a table ran
together, and a cue of one row was joined to a name in the next ("Warmup | Warmup is a
prerequisite for LAMB" over "Gradient clipping | ...": warmup, a prerequisite of gradient clipping).

A thematic break (``---``), a setext heading's underline (one run under a line), and a rule of
runs with no rows or no close after it are not tables. A table whose rows may span blank lines
ends at its closing line only if no line of it puts a character between two columns, where prose
would: a paragraph after a stray rule is never blanked as a table.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from magg_kg.markup._canvas import Canvas, reads_as_prose

__all__ = ["Table", "Tables", "paint_table"]

_BORDER = re.compile(r"[ \t]*\+(?:[-=:]+\+)+[ \t]*$")
"""A grid table's border: ``+-----+----+`` (``=`` under its header, ``:`` for alignment)."""
_GRID_LINE = re.compile(r"[ \t]*[|+]")
_RUNS = re.compile(r"[ \t]*([-=])\1+(?:[ \t]+\1\1+)+[ \t]*$")
"""A rule of two runs or more of one character, each two long or more: a column each."""
_LINE = re.compile(r"[ \t]*([-=])\1\1+[ \t]*$")
"""A line of one run (three or more): a multiline table's top or bottom."""
_RUN = re.compile(r"[-=]+")
_CELL = re.compile(r"[^|]+")
_SPAN = 400
"""The most lines of a table whose rows may span blank lines."""
_HEADER = 12
"""The most lines of a multiline table's header."""


@dataclass(frozen=True)
class Table:
    """A table from line ``first`` to line ``end`` (exclusive): its ``columns`` (start, end) in a
    line (``end`` None: to the line's end), empty for a grid table, whose cells the ``|`` divide;
    ``rules``, the lines that only draw; ``rows``, the first line of each row."""

    first: int
    end: int
    columns: tuple[tuple[int, int | None], ...]
    rules: frozenset[int]
    rows: frozenset[int]


def _blank(lines: Sequence[str], index: int) -> bool:
    return index < 0 or index >= len(lines) or not lines[index].strip()


def _rule(line: str) -> bool:
    return _RUNS.match(line) is not None or _LINE.match(line) is not None


def _columns(rule: str) -> tuple[tuple[int, int | None], ...]:
    runs = [run.start() for run in _RUN.finditer(rule)]
    return tuple((start, stop) for start, stop in zip([0, *runs[1:]], [*runs[1:], None], strict=True))


def _gap(lines: Sequence[str], first: int, end: int, rule: str) -> int | None:
    """The first line of the table that puts a character between two columns of ``rule``."""
    runs = [(run.start(), run.end()) for run in _RUN.finditer(rule)]
    gaps = [at for (_, stop), (start, _) in itertools.pairwise(runs) for at in range(stop, start)]
    for index in range(first, end):
        line = lines[index]
        if not _rule(line) and any(at < len(line) and not line[at].isspace() for at in gaps):
            return index
    return None


class Tables:
    """Finds the tables of ``lines``, asked for lines in growing order; each line is read a bounded
    number of times, however the rules repeat."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = lines
        self.closing = -1
        """The last line found to close a table (a rule before a blank line), -1 before any search."""
        self.barrier = 0
        """No table whose rows span blank lines starts before this line: a rule above it opened
        none, for a line between its columns that reads as prose."""

    def at(self, index: int) -> Table | None:
        """The table that starts at line ``index``, or None."""
        lines = self.lines
        line = lines[index]
        if _BORDER.match(line):
            return _grid(lines, index)
        if not _blank(lines, index - 1):
            return None
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if _RUNS.match(following) and not _rule(line) and line.strip():
            return _simple(lines, index)
        if index < self.barrier:
            return None
        if _RUNS.match(line):
            return self._spanning(index, index + 1, line)
        if _LINE.match(line):
            header = index + 1
            while (
                header < min(len(lines), index + _HEADER)
                and lines[header].strip()
                and not _rule(lines[header])
            ):
                header += 1
            if header > index + 1 and header < len(lines) and _RUNS.match(lines[header]):
                return self._spanning(index, header + 1, lines[header])
        return None

    def _close(self, body: int) -> int | None:
        """The first line from ``body`` that closes a table: a rule before a blank line."""
        if self.closing < body:
            closing = body
            while closing < len(self.lines) and not (
                _rule(self.lines[closing]) and _blank(self.lines, closing + 1)
            ):
                closing += 1
            self.closing = closing
        return self.closing if self.closing < len(self.lines) else None

    def _spanning(self, first: int, body: int, rule: str) -> Table | None:
        """A table from ``first`` whose rows, from ``body``, may span blank lines, to a rule before a
        blank line, within :data:`_SPAN` lines."""
        closing = self._close(body)
        if closing is None or closing == body or closing - body > _SPAN:
            return None
        end = closing + 1
        prose = _gap(self.lines, first, end, rule)
        if prose is not None:
            self.barrier = prose
            return None
        lines = self.lines
        rules = frozenset(i for i in range(first, end) if _rule(lines[i]))
        blanks = any(_blank(lines, i) for i in range(body, end))
        rows = frozenset(
            i
            for i in range(body, end)
            if not _blank(lines, i)
            and i not in rules
            and (not blanks or _blank(lines, i - 1) or i - 1 in rules)
        )
        return Table(first, end, _columns(rule), rules, rows)


def _grid(lines: Sequence[str], first: int) -> Table | None:
    end, borders = first + 1, [first]
    while end < len(lines) and _GRID_LINE.match(lines[end]):
        if _BORDER.match(lines[end]):
            borders.append(end)
        end += 1
    if len(borders) < 2:
        return None
    rules = frozenset(borders)
    rows = frozenset(b + 1 for b in borders[:-1] if b + 1 not in rules)
    return Table(first, borders[-1] + 1, (), rules, rows)


def _simple(lines: Sequence[str], header: int) -> Table | None:
    """A simple table: its ``header`` line over a rule of runs, its rows to a blank line."""
    end = header + 2
    while end < len(lines) and lines[end].strip() and not _rule(lines[end]):
        end += 1
    if end < len(lines) and _rule(lines[end]) and _blank(lines, end + 1):
        end += 1  # a simple table may close with a rule
    if end == header + 2:
        return None
    rules = frozenset(i for i in range(header, end) if _rule(lines[i]))
    rows = frozenset(i for i in range(header, end) if i not in rules)
    return Table(header, end, _columns(lines[header + 1]), rules, rows)


def paint_table(canvas: Canvas, lines: Sequence[str], start: int, table: Table) -> None:
    """Paints ``table`` (its first line at offset ``start`` of the text) as a table, but the cells of
    its one-line rows that read as sentences."""
    for index in range(table.first, table.end):
        line = lines[index]
        kept: list[tuple[int, int]] = []
        if index not in table.rules and _one_line(lines, table, index):
            for a, b in _cells(line, table):
                if reads_as_prose(line[a:b]):
                    kept.append((a, b))
        at = 0
        for a, b in kept:
            canvas.paint(start + at, start + a, "table")
            at = b
        canvas.paint(start + at, start + len(line), "table")
        start += len(line) + 1


def _one_line(lines: Sequence[str], table: Table, index: int) -> bool:
    """Whether line ``index`` is a row of its own (not a line of a wrapped row)."""
    following = index + 1
    return index in table.rows and (
        following >= table.end
        or following in table.rows
        or following in table.rules
        or _blank(lines, following)
    )


def _cells(line: str, table: Table) -> list[tuple[int, int]]:
    if not table.columns:
        return [cell.span() for cell in _CELL.finditer(line)]
    return [(start, len(line) if stop is None else min(stop, len(line))) for start, stop in table.columns]
