"""Glossary entries: a list item that opens with an emphasised term, a colon or a dash, and what
the term is.

Markdown courses define their terms this way at least as often as in prose ("- **Observation**:
Partial description of the state of the environment.", "**Tabular Method:** Type of problem in
which ...", "- **Vector search** - converts documents ..."). The same shape also labels steps and
remarks ("- **Sampling**: we perform actions ...", "- **Ease of Use:** It provides APIs ..."), so
an entry counts as a gloss only when what follows the colon or dash opens as a description does:
on an article, or on a word that can be a noun or an adjective and is none of the words that open
a clause (a pronoun, an auxiliary, a preposition, an adverb, a conjunction, a determiner). The
offline concept extractor also asks that the chunk write the term again
(:mod:`agents.offline.concepts`), as it asks of a copular definition.

The definition reader of "What is X?" (:mod:`agents.definitions`) reads the same shape for a name
it already knows, and more leniently ("**X**: This is the process of ..."): there a gloss is only
quoted as an answer, here it makes a concept.
"""

from __future__ import annotations

import re

from agents.phrases import word_classes

__all__ = ["entry"]

_ENTRY = re.compile(r"[ \t]*(?:[-*+]|\d{1,2}[.)])?[ \t]*")
"""What may stand before an entry's term on its line: the marker of a list item."""
_COLON = re.compile(r"(?:[*_]*:[*_]*|[*_]*[ \t]+[-–—])[ \t]+(?P<word>[A-Za-z][\w'-]*)")
"""The term's colon, inside or after its emphasis marks, or a dash after them, and the first word
of the gloss."""
_ARTICLES = frozenset({"a", "an", "the"})
_DESCRIBING = frozenset({"NOUN", "PROPN", "ADJ", "X"})
_CLAUSAL = frozenset({"PRON", "ADP", "AUX", "ADV", "SCONJ", "CCONJ", "PART", "DET"})
"""Word classes that open a clause or a remark rather than a description ("we", "It", "Has",
"When", "Before")."""


def entry(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The span of the glossary entry whose term is the emphasised phrase at ``text[start:end]``
    (its marks included): its line, when the phrase opens that line (a list item's marker allowed)
    and a colon follows it (inside the marks or after them) or a dash, then a gloss that opens on
    an article, a noun or an adjective; None when the phrase is no entry's term.

    >>> t = "- **Observation**: Partial description of the state.\\n- **Sampling**: we act."
    >>> entry(t, 2, 17), entry(t, t.index("**Sa"), t.index(":", 60))
    ((0, 52), None)
    >>> t = "**Tabular Method:** Type of problem in which ..."
    >>> t[slice(*entry(t, 0, 19))] == t
    True
    >>> entry("We call it **Observation**: a partial description.", 11, 26) is None
    True
    >>> entry("- **Hybrid** - a combination of keyword and vector search.", 2, 12)
    (0, 58)
    """
    line = text.rfind("\n", 0, start) + 1
    if _ENTRY.fullmatch(text, line, start) is None:
        return None
    marked = text[start:end].rstrip("*_")
    colon = _COLON.match(text, end)
    if colon is None and marked.endswith(":"):
        colon = _COLON.match(text, start + len(marked) - 1)
    if colon is None:
        return None
    word = colon.group("word")
    classes = word_classes(word)
    if word.lower() not in _ARTICLES and (not classes & _DESCRIBING or classes & _CLAUSAL):
        return None
    stop = text.find("\n", end)
    return line, len(text) if stop < 0 else stop
