"""Block level of Markdown and MDX, one pass line by line: fences, indented code, front matter,
tables (pipe and org tables here, those drawn with dashes in :mod:`magg_kg.markup._tables`), MDX
import/export blocks, admonition and list markers, a picture's credit line, directives and
literal blocks (:mod:`magg_kg.markup._directives`), a bibliography
(:mod:`magg_kg.markup._references`)."""

from __future__ import annotations

import re

from magg_kg.markup._canvas import Canvas, RegionKind, reads_as_prose
from magg_kg.markup._directives import directive_at, indent, is_option, literal_block
from magg_kg.markup._headings import admonition_label, heading_at, is_org, lone_underline
from magg_kg.markup._references import citation_end, heading_level, is_bibliography
from magg_kg.markup._tables import Tables, paint_table

__all__ = ["block_pass"]

# Block level (Markdown and MDX), line by line.
_FRONT = re.compile(r"(---|\+\+\+)[ \t]*\n")
_FRONT_END = {"---": re.compile(r"^(?:---|\.\.\.)[ \t]*$", re.M), "+++": re.compile(r"^\+\+\+[ \t]*$", re.M)}
_QUOTE = re.compile(r"(?: {0,3}> ?)*")
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")
_FENCE_END = re.compile(r"(?: {0,3}> ?)*[ \t]*(`{3,}|~{3,}|:{3,})[ \t]*$")
_ESM = re.compile(r"(?:import|export)[\s{*]")
_DELIMITER = re.compile(r"[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:[|+][ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
"""A pipe table's delimiter row (``|---|:--:|``), or an org table's rule (``|----+----|``)."""
_ORG_RULE = re.compile(r"[ \t]*\|-[-+|]*[ \t]*$")
"""An org table's rule, which may open the table (``|-----+-----|``)."""
_CELL = re.compile(r"((?:\\.|[^|\\])+)|\|")
_RULE = re.compile(r" {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_ADMONITION = re.compile(r"[ \t]*(?::::+[ \t]*[\w-]*|(?:!!!|\?\?\?\+?)[ \t]*[\w-]*|\[![A-Za-z]+\][+-]?)")
_DEFINITION = re.compile(r" {0,3}\[[^\]\n]{1,999}\]:[ \t]*\S")
_FOOTNOTE = re.compile(r" {0,3}\[\^[^\]\s]{1,99}\]:[ \t]*")
"""A footnote's label, before its text: prose, shown at the foot of the page (one shaped as a
citation is a reference: :mod:`magg_kg.markup._references`)."""
_TERM_DEFINITION = re.compile(r" {0,3}([:~])[ \t]+(?=\S)")
"""The mark of a definition in a Pandoc definition list, on the line under its term ("Term" over
":   What it is."): a marker, shown as ``:``, its definition's later paragraphs indented prose."""
_ROLE_LINE = re.compile(r"[ \t]*:[a-z_]+:(?:`[^`\n]*`)?[ \t]*$")
_LIST = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+\[[ xX]\])?(?=[ \t]|$)")
_CREDIT = re.compile(
    r"[ \t]*[*_]*(?i:image|img|figure|fig\.|photo|picture|illustration|sketchnote|diagram)s?[ \t]+"
    r"(?:(?i:source|credits?)[ \t]*:|(?i:courtesy)\b|(?i:by|from)[ \t]+(?:\[|[A-Z]))"
)
"""A line that credits a picture ("Image source: [Essential Guide to ...](url)", "> Sketchnote by
[Tomomi Imura](...)", "Image from [Keras blog](...)"): whose work it is, not what the lesson
teaches, though it may name its topics. "Images from the web are ..." is a sentence: after "by" or
"from" comes a link or a name."""
_CREDIT_CHARS = 300
"""The longest line read as a credit; a longer one is a paragraph that happens to start so."""


def _front_matter(canvas: Canvas) -> int:
    opening = _FRONT.match(canvas.text)
    if opening is None:
        return 0
    closing = _FRONT_END[opening.group(1)].search(canvas.text, opening.end())
    if closing is None:
        return 0  # an unclosed "---" is a thematic break, not front matter
    canvas.paint(0, closing.end(), "front_matter")
    return closing.end()


def _table_row(canvas: Canvas, start: int, line: str) -> None:
    for cell in _CELL.finditer(line):
        if not (cell.group(1) and reads_as_prose(cell.group(1))):
            canvas.paint(start + cell.start(), start + cell.end(), "table")


def block_pass(canvas: Canvas, *, mdx: bool) -> None:
    """Fences, indented code, front matter, tables, MDX import/export, markers; one pass."""
    text, paint = canvas.text, canvas.paint
    body = _front_matter(canvas)
    lines = text.split("\n")
    fence: tuple[str, int, int, RegionKind] | None = None  # its character, length, start and kind
    literal: tuple[int, RegionKind] | None = None  # a reST literal block's indent, and its kind
    directives: list[tuple[str, int]] = []  # the MyST directives open, their fence's character and length
    options, yaml = False, False  # a directive's options may follow; in its block of YAML options
    cited: int | None = None  # the level of the bibliography's heading, in its section
    previous, in_list, start, skip = "blank", False, -1, 0
    defined = -2  # the last line that gave a term of a definition list its definition
    tables = Tables(lines)
    org = is_org(text)
    for index, line in enumerate(lines):
        start += 1
        line_start, end = start, start + len(line)
        start = end
        if line_start < body or index < skip:
            continue
        if fence is not None:
            close = _FENCE_END.match(line)
            if close and close.group(1)[0] == fence[0] and len(close.group(1)) >= fence[1]:
                paint(fence[2], end, fence[3])
                fence = None
            continue
        if yaml or (options and line.strip() == "---"):
            paint(line_start, end, "admonition")
            yaml, options = yaml != (line.strip() == "---"), False
            continue
        if literal is not None and not line.strip():
            continue
        if literal is not None and indent(line) > literal[0]:
            paint(line_start, end, literal[1])
            previous = "code"
            continue
        literal = None
        if not line.strip():
            previous, options = "blank" if previous != "code" else "code", False
            continue
        if options and is_option(line):
            paint(line_start, end, "admonition")
            continue
        options = False
        if previous == "esm":
            paint(line_start, end, "component")
            continue
        if previous == "table" and "|" in line:
            _table_row(canvas, line_start, line)
            continue
        quoted = _QUOTE.match(line)
        quote = quoted.end() if quoted else 0
        paint(line_start, line_start + quote, "marker")
        rest, at = line[quote:], line_start + quote
        following = lines[index + 1] if index + 1 < len(lines) else ""
        closing = _FENCE_END.match(rest) if directives else None
        if (
            closing
            and closing.group(1)[0] == directives[-1][0]
            and len(closing.group(1)) >= directives[-1][1]
        ):
            paint(at, end, "admonition")
            directives.pop()
            previous = "blank"
            continue
        directive = None if quote else directive_at(rest)
        if directive is not None and directive.body is not None:
            if directive.fence:
                fence = (directive.fence[0], len(directive.fence), line_start, directive.body)
            else:
                literal = (indent(line), directive.body)
                paint(line_start, end, directive.body)
                previous = "code"
            continue
        if directive is not None:
            paint(at, at + directive.prose, "admonition")
            if directive.fence:
                directives.append((directive.fence[0], len(directive.fence)))
            options, in_list, previous = True, True, "blank"  # a reST body is indented, prose
            continue
        block = None if quote else literal_block(rest, following)
        literal = None if block is None else (block, "code")
        opening = _FENCE.match(rest)
        if opening and not (opening.group(1)[0] == "`" and "`" in rest[opening.end() :]):
            fence = (opening.group(1)[0], len(opening.group(1)), line_start, "code")
            continue
        after_blank = previous in ("blank", "code")
        heading = (
            None if quote else heading_at(canvas, lines, index, line_start, after_blank=after_blank, org=org)
        )
        level = heading.level if heading is not None else None if quote else heading_level(rest, following)
        if cited is not None and (level is None or level > cited):
            paint(line_start, end, "reference")
            continue
        if level is not None:
            cited = level if is_bibliography(rest if heading is None else heading.title) else None
        if heading is not None:
            skip, previous, in_list = index + heading.lines, "text", False
            continue
        if not quote and lone_underline(canvas, line_start, line):
            previous = "text"  # an AsciiDoc block's delimiter: the line under it opens no title
            continue
        cited_to = None if quote else citation_end(lines, index)
        if cited_to is not None:
            paint(line_start, end + sum(len(lines[i]) + 1 for i in range(index + 1, cited_to)), "reference")
            skip, previous, in_list = cited_to, "text", True
            continue
        if rest.startswith(("    ", "\t")) and previous in ("blank", "code") and not in_list:
            paint(line_start, end, "code")
            previous = "code"
            continue
        if mdx and not quote and previous == "blank" and _ESM.match(line):
            paint(line_start, end, "component")
            previous = "esm"
            continue
        if not quote and (table := tables.at(index)) is not None:
            paint_table(canvas, lines, line_start, table)
            skip, previous = table.end, "text"
            continue
        if ("|" in line and "|" in following and _DELIMITER.match(following)) or _ORG_RULE.match(line):
            _table_row(canvas, line_start, line)
            previous = "table"
            continue
        previous = "text"
        if after_blank:
            admonition_label(canvas, at, rest)
        marker = _RULE.match(rest) or _ADMONITION.match(rest) or _LIST.match(rest)
        term = (
            index >= 1
            and not after_blank
            and (defined == index - 1 or (index < 2 or not lines[index - 2].strip()))
        )
        if term and (definition := _TERM_DEFINITION.match(rest)) is not None:
            paint(at + definition.start(1), at + definition.end(1), "marker")
            canvas.mark(at + definition.start(1), ":")
            defined, in_list = index, True  # its later paragraphs are indented
        elif (footnote := _FOOTNOTE.match(rest)) is not None:
            paint(at, at + footnote.end(), "reference")
            canvas.mark(at + len(rest) - len(rest.lstrip()), "\n")  # a block of its own, as an item is
            in_list = True  # its next paragraphs are indented
        elif _DEFINITION.match(rest) or _ROLE_LINE.match(rest):
            paint(at, end, "url" if rest.lstrip().startswith("[") else "reference")
        elif _CREDIT.match(rest) and len(rest) <= _CREDIT_CHARS:
            paint(at, end, "reference")
        elif marker is not None:
            kind: RegionKind = "admonition" if marker.re is _ADMONITION else "marker"
            paint(at, at + marker.end(), kind)
            if marker.re is _LIST:
                canvas.mark(at + len(rest) - len(rest.lstrip()), "\n")
            in_list = in_list or marker.re is not _RULE  # list and admonition bodies are indented
        elif after_blank and not rest[:1].isspace():
            in_list = False
    if fence is not None:
        paint(fence[2], len(text), fence[3])  # an unclosed fence runs to the end of the file
