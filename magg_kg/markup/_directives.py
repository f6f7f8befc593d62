"""Directives, reStructuredText's (``.. name:: arguments``) and MyST's (a fence whose info string
is ``{name}``: ```` ```{note} ````, ``:::{tip}``), and reST's literal blocks, as a Markdown lesson may
hold them.

A directive whose body is code, math or a table (:data:`CODE`: ``code-block``, ``code``,
``sourcecode``, ``code-cell``, ``math``, ``eval-rst``, ``raw``, ``list-table`` ...) is that, its line
and body both: in reST every line indented deeper than its ``..``, in MyST the fence. Any other
directive (an admonition such as ``note``, ``tip``, ``warning``, ``admonition``, or ``figure``,
``topic``, ``dropdown`` ...) has a prose body; its line and its options (``:class: tip``, a
``---`` block of YAML at the top of a MyST body) are markup. The text after an admonition's name
(:data:`ADMONITIONS`: ``.. note:: Text``) is the start of its body, prose; after any other name it
is an argument (a title, a path, a label) and no prose.

A paragraph that ends in ``::`` makes the indented block after it (any indent deeper than the
paragraph's, after a blank line) a literal block: code. Read as prose, a comment in a ``..
code-block::`` three spaces deep ("# cross-entropy loss builds on softmax") was evidence, and the
code itself the quote of a committed edge; a MyST ```` ```{note} ```` lost its body as code, and
a ``:::{admonition}`` gave quotes that opened on its title and options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from magg_kg.markup._canvas import RegionKind

__all__ = [
    "ADMONITIONS",
    "CODE",
    "Directive",
    "code_kind",
    "directive_at",
    "indent",
    "is_option",
    "literal_block",
]

CODE: dict[str, RegionKind] = {
    **dict.fromkeys(
        (
            "code", "code-block", "sourcecode", "code-cell", "literalinclude", "parsed-literal", "highlight",
            "doctest", "testcode", "testsetup", "testcleanup", "testoutput", "ipython", "jupyter-execute",
            "eval-rst", "raw", "graphviz", "graph", "digraph", "mermaid", "plot", "toctree", "include",
            "bibliography", "index",
        ),
        "code",
    ),
    "math": "math",
    "csv-table": "table",
    "list-table": "table",
}  # fmt: skip
"""The directives whose body is not prose (Sphinx's, MyST's, docutils'), and what it is."""
ADMONITIONS = frozenset("note tip hint important warning caution attention danger error seealso todo".split())
"""The directives that take no argument: the text after the name is their body's first line."""

_REST = re.compile(r"[ \t]*\.\.[ \t]+(?:\|[^|\n]{1,99}\|[ \t]+)?(?P<name>[A-Za-z][\w.+:-]*)::(?=[ \t]|$)")
"""A directive's line: ``.. code-block:: python``, ``.. |br| raw:: html``."""
_MYST = re.compile(r"[ \t]*(?P<fence>`{3,}|~{3,}|:{3,})[ \t]*\{(?P<name>[A-Za-z][\w.+:-]*)\}")
"""A MyST directive's fence: ```` ```{note} ````, ``:::{admonition} Title``."""
_OPTION = re.compile(r"[ \t]*:[\w-]+:(?:[ \t]|$)")
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")


@dataclass(frozen=True)
class Directive:
    """A directive's line: its ``fence`` (empty for reST), what its ``body`` is (None: prose), and
    where its prose starts in the line (``prose``: the line's length when none of it is)."""

    fence: str
    body: RegionKind | None
    prose: int


def directive_at(line: str) -> Directive | None:
    """The directive that ``line`` opens, or None.

    >>> directive_at("```{note} Mind the logits.")
    Directive(fence='```', body=None, prose=9)
    >>> directive_at(":::{admonition} Numerical stability"), directive_at(".. code-block:: python")
    (Directive(fence=':::', body=None, prose=35), Directive(fence='', body='code', prose=22))
    """
    found = _MYST.match(line) or _REST.match(line)
    if found is None:
        return None
    name = found.group("name").lower()
    body = code_kind(name)
    prose = found.end() if body is None and name in ADMONITIONS and line[found.end() :].strip() else len(line)
    return Directive(found.group("fence") if found.re is _MYST else "", body, prose)


def is_option(line: str) -> bool:
    """A directive's option (``:class: tip``, ``:linenos:``), on the lines after its own."""
    return _OPTION.match(line) is not None


def code_kind(name: str) -> RegionKind | None:
    """What the body of the directive ``name`` is, when it is not prose.

    >>> code_kind("code-block"), code_kind("Math"), code_kind("note")
    ('code', 'math', None)
    """
    return CODE.get(name.lower())


def indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def literal_block(line: str, following: str) -> int | None:
    """The indent past which the lines after ``line``, a paragraph's last, are code: when it ends
    in ``::`` before a blank line, the indent of its text (after a list item's marker).

    >>> literal_block("Run it::", ""), literal_block("- Run it::", ""), literal_block("Run it::", "more")
    (0, 2, None)
    """
    if not line.rstrip().endswith("::") or following.strip():
        return None
    item = _ITEM.match(line)
    return len(item.group().expandtabs(4)) if item else indent(line)
