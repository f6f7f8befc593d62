"""reStructuredText's literal blocks and directives, as a Markdown lesson may hold them.

A paragraph that ends in ``::`` makes the indented block after it (any indent deeper than the
paragraph's, after a blank line) a literal block: code. A directive (``.. name:: arguments``) whose
body is code, math or a table (:data:`CODE`: ``code-block``, ``code``, ``sourcecode``, ``math``,
``raw``, ``list-table`` ...) is that, with its line and its body, every line indented deeper than
its ``..``. Read as prose, a comment in a ``.. code-block::`` three spaces deep ("# cross-entropy
loss builds on softmax") was evidence, and the code itself the quote of a committed edge.

Other directives (``.. note::``, ``.. warning::`` ...) are not literal blocks, though their line
ends in ``::``: their body is prose.
"""

from __future__ import annotations

import re

from magg_kg.markup._canvas import RegionKind

__all__ = ["CODE", "code_kind", "indent", "literal_block", "rest_directive"]

CODE: dict[str, RegionKind] = {
    **dict.fromkeys(
        (
            "code", "code-block", "sourcecode", "code-cell", "literalinclude", "parsed-literal", "highlight",
            "doctest", "testcode", "testsetup", "testcleanup", "testoutput", "ipython", "jupyter-execute",
            "eval-rst", "raw", "graphviz", "graph", "digraph", "mermaid", "plot", "toctree", "include",
            "bibliography",
        ),
        "code",
    ),
    "math": "math",
    "csv-table": "table",
    "list-table": "table",
}  # fmt: skip
"""The directives whose body is not prose (Sphinx's, MyST's, docutils'), and what it is."""

_REST = re.compile(r"[ \t]*\.\.[ \t]+(?:\|[^|\n]{1,99}\|[ \t]+)?(?P<name>[A-Za-z][\w.+:-]*)::(?=[ \t]|$)")
"""A directive's line: ``.. code-block:: python``, ``.. |br| raw:: html``."""
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)])[ \t]+")


def code_kind(name: str) -> RegionKind | None:
    """What the body of the directive ``name`` is, when it is not prose.

    >>> code_kind("code-block"), code_kind("Math"), code_kind("note")
    ('code', 'math', None)
    """
    return CODE.get(name.lower())


def rest_directive(line: str) -> re.Match[str] | None:
    return _REST.match(line)


def indent(line: str) -> int:
    expanded = line.expandtabs(4)
    return len(expanded) - len(expanded.lstrip())


def literal_block(line: str, following: str) -> tuple[int, RegionKind] | None:
    """The indent past which the lines after ``line`` are code, or math, and which: for a code
    directive, its ``..``'s indent; for a paragraph that ends in ``::`` before a blank line, the
    indent of its text (after a list item's marker).

    >>> literal_block(".. code-block:: python", "")
    (0, 'code')
    >>> literal_block("- Run it::", ""), literal_block("Run it::", "more"), literal_block(".. note::", "")
    ((2, 'code'), None, None)
    """
    directive = _REST.match(line)
    if directive is not None:
        kind = code_kind(directive.group("name"))
        return None if kind is None else (indent(line), kind)
    if not line.rstrip().endswith("::") or following.strip():
        return None
    item = _ITEM.match(line)
    return (len(item.group().expandtabs(4)) if item else indent(line), "code")
