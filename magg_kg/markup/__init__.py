"""Markup: which characters of a lesson are prose, and which of its text is hidden.

:func:`find_prose` returns the *prose view* of a normalized lesson: a string of the same length in
which every character that is not prose is a space (newlines stay newlines), so an offset into the
prose view is an offset into the lesson text. The exceptions keep the structure that blanking
would lose, each in a character of the markup: the first character of a list item's bullet or
number is a newline, so that each item is a paragraph of its own (an item without a full stop is
never one sentence with the next, as it would be if the bullet were only blanked); an HTML block
tag reads as a paragraph break, a heading's tag as ``#``, an emphasis tag as ``*`` (see
:mod:`magg_kg.markup._tags`), a character reference as the character it stands for; a heading of
AsciiDoc (``== Title``) or org (``** Title``) reads as Markdown's, its marks as ``#``, and an
underlined one (reST's, Markdown's setext) as a title over a line of ``=`` or ``-``
(:mod:`magg_kg.markup._headings`); an entry of a definition list, Pandoc's or HTML's, as its term
over a line that opens with ``:`` and its definition. Extractors read the prose view; evidence
quotes are cut from the lesson text at the same offsets.

Not prose, by region kind: ``code`` (fenced and indented blocks, ``<pre>``), ``inline_code`` (code
spans, ``<code>``/``<kbd>``/``<samp>``/``<tt>``, an element of class ``literal``, a code name
written bare: ``collate_fn``, ``nn.Module``, :mod:`magg_kg.markup._identifiers`), ``html`` (tags,
declarations, and character references such as ``&quot;``, each read as the character it stands for:
:mod:`magg_kg.markup._entities`), ``comment`` (HTML and MDX comments), ``component`` (JSX tags and
expressions, MDX import/export blocks), ``front_matter`` (YAML or TOML at the top), ``admonition``
(the marker only: ``:::note``, ``[!NOTE]``, ``!!! warning``), ``table`` (pipes, delimiter rows and
every cell that does not read as a sentence: four words or more ending in ``.``, ``!`` or ``?``; org
tables, and tables drawn with dashes: Pandoc's grid, simple and multiline tables,
:mod:`magg_kg.markup._tables`), ``math`` (``$..$``, ``$$..$$``, ``\\(..\\)``, ``\\[..\\]``,
``<math>``, an element whose class says math: ``math``, ``katex``, ``arithmatex``, ``MathJax``),
``image`` (``![alt](url "title")`` whole, ``<img>``, ``<svg>``), ``url`` (bare URLs, autolinks, link
targets and the link's brackets; the link text stays prose), ``script`` (``<script>``/``<style>``
with their contents), ``reference`` (d2lbook roles such as :numref:`x`, an HTML bibliography's
entries: ``role="doc-biblioentry"``, a Markdown one's: the section under a heading "References" and
an item shaped as a citation, :mod:`magg_kg.markup._references`; a footnote's mark ``[^1]``, a line
that credits a picture: "Image source: ...", "> Sketchnote by ..."), ``marker`` (list bullets and
numbers, blockquote ``>``, thematic breaks, the marks of a heading and a definition list, an
AsciiDoc block's delimiter), ``chrome`` (a web page's navigation, footer, reader comments, cookie
banner and a sidebar's lists: :mod:`magg_kg.markup._tags`), ``hidden`` and ``choice`` (the
options listed under a question, in Markdown and MDX: :mod:`magg_kg.markup._choices`). Heading text
keeps its ``#`` (the chunker and the sentence splitter find headings by it);
``<details>``/``<summary>`` text is prose (it is shown on a click).

Hidden text is recorded (:class:`HiddenText`) and never used as evidence: HTML and MDX comments;
elements with ``hidden``, ``aria-hidden="true"``, a hiding style (``display:none``,
``visibility:hidden``, ``font-size:0``, ``opacity:0``, a position or indent of -100 or less,
``clip:rect(0 ...)``, ``clip-path:inset(50%)``, a text color the same as the background's) or
class (hidden, d-none, sr-only, visually-hidden); ``<template>``, ``<noscript>`` and ``<head>``
(its ``<title>`` is the lesson's title, shown in a tab, not prose); image alt text and titles, link
titles, ``alt``/``title`` attributes; text under a bidirectional override, shown in another order
than it is written, and tag characters, which no screen shows (:mod:`magg_kg.markup._overrides`).

An unclosed fence, comment, ``<script>``/``<style>``, hiding element or MDX tag/expression runs to
the end of the file (as CommonMark or a browser reads it), an unclosed ``$$`` to the end of its
paragraph; an unclosed code span, ``$``, link or Markdown tag stays text, and an unclosed ``---``
at the top is a thematic break, not front matter. Every scan is linear: searches resume where the
last one stopped (:class:`~magg_kg.markup._canvas.Next`), no pattern can match one stretch of text
in two ways, and nested elements of one kind are painted once. The stdlib ``html.parser`` is not
used: on CPython 3.11 it took 1.5 s for 5 MB of tags and 37 s for 60 kB of ``<a `` repeated, and
a lesson is untrusted input.
"""

from __future__ import annotations

import re
from pathlib import PurePath

from magg_kg.markup._blocks import block_pass
from magg_kg.markup._canvas import KINDS, Canvas, Flavor, HiddenText, Markup, Region, RegionKind
from magg_kg.markup._choices import choice_pass, html_choice_pass
from magg_kg.markup._entities import as_read, entity_pass
from magg_kg.markup._identifiers import identifier_pass
from magg_kg.markup._inline import Inline
from magg_kg.markup._overrides import override_pass, spelled, tag_character_pass
from magg_kg.markup._tags import tag_pass

__all__ = [
    "FLAVORS",
    "KINDS",
    "Flavor",
    "HiddenText",
    "Markup",
    "Region",
    "RegionKind",
    "as_read",
    "find_prose",
    "flavor_of",
    "spelled",
]

FLAVORS: dict[str, Flavor] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "mdx",
    ".html": "html",
    ".htm": "html",
}


def flavor_of(path: str, text: str | None = None) -> Flavor:
    """The flavor a file's suffix names (Markdown for any other suffix); an ``.html`` file whose
    ``text`` holds no HTML element is Markdown saved under that name (its fences, code and tables
    would otherwise be read as prose).

    >>> flavor_of("a/lesson.MDX"), flavor_of("b.htm"), flavor_of("c.txt")
    ('mdx', 'html', 'markdown')
    >>> flavor_of("d.html", "# Title\\n\\n| a | b |\\n"), flavor_of("e.html", "<p>Text</p>")
    ('markdown', 'html')
    """
    flavor = FLAVORS.get(PurePath(path).suffix.lower(), "markdown")
    if flavor == "html" and text is not None and _ELEMENT.search(text) is None:
        return "markdown"
    return flavor


_ELEMENT = re.compile(r"<(?:!doctype|/?[A-Za-z][A-Za-z0-9-]*[\s/>])", re.IGNORECASE)
"""An HTML element's tag (or a doctype): what any HTML file holds."""


def find_prose(text: str, flavor: Flavor = "markdown") -> Markup:
    """The prose view of ``text``, its non-prose regions and its hidden text.

    >>> markup = find_prose("Dropout `p=0.5` helps.<!-- secret -->\\n![a cat](c.png)")
    >>> markup.prose
    'Dropout         helps.               \\n               '
    >>> [(r.kind, r.start, r.end) for r in markup.regions]
    [('inline_code', 8, 15), ('comment', 22, 37), ('image', 38, 53)]
    >>> [(h.reason, h.start, h.end) for h in markup.hidden]
    [('HTML comment', 22, 37), ('image alt text', 40, 45)]
    """
    canvas = Canvas(text)
    if flavor != "html":
        block_pass(canvas, mdx=flavor == "mdx")
        choice_pass(canvas)
    Inline(canvas, canvas.view(), flavor).run()
    html_choice_pass(canvas)
    if flavor != "mdx":
        tag_pass(canvas, canvas.view(), html=flavor == "html")
    view = canvas.view()
    entity_pass(canvas, view)
    identifier_pass(canvas, view)  # a character reference is never part of a name: one view for both
    override_pass(canvas)
    tag_character_pass(canvas)
    return canvas.markup(flavor)
