"""Glossary entries: a list item that opens with an emphasised term, a colon or a dash, and what
the term is; an entry of a definition list (:func:`listed`); and the labels that share their shape.

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

__all__ = ["control", "entry", "listed", "quotations", "run_in", "title_case", "written_alone"]

_ENTRY = re.compile(r"[ \t]*(?:[-*+]|\d{1,2}[.)])?[ \t]*")
"""What may stand before an entry's term on its line: the marker of a list item."""
_COLON = re.compile(r"(?:[*_]*:[*_]*|[*_]*[ \t]+[-–—])[ \t]+(?P<word>[A-Za-z][\w'-]*)")
"""The term's colon, inside or after its emphasis marks, or a dash after them, and the first word
of the gloss."""
_ARTICLES = frozenset({"a", "an", "the"})
_CAPITALISED_BEFORE = re.compile(r"[A-Z][\w-]*[\s*_]+$")
_DESCRIBING = frozenset({"NOUN", "PROPN", "ADJ", "X"})
_CLAUSAL = frozenset({"PRON", "ADP", "AUX", "ADV", "SCONJ", "CCONJ", "PART", "DET"})
"""Word classes that open a clause or a remark rather than a description ("we", "It", "Has",
"When", "Before")."""


_LISTED = re.compile(r"(?P<term>[^\n:]{1,80}?)[ \t]*\n[ \t]{0,3}:[ \t]+\S")
"""An entry of a definition list as the prose view writes it, Pandoc's way or from HTML's
``<dt>``/``<dd>``: its term on a line, its definition on the next after a ``:``."""


def listed(sentence: str) -> str:
    """The term a sentence of the prose view opens with when it is an entry of a definition list
    (its term over ``:`` and what the term is), else "". A definition list is a glossary by its
    markup: its terms are defined, whatever word opens the definition.

    >>> listed("Reparameterization trick\\n:   Writing a sample as a function of noise.")
    'Reparameterization trick'
    >>> listed("We train it.\\nThe loss: a number."), listed("Note: see below.")
    ('', '')
    """
    found = _LISTED.match(sentence)
    return found.group("term").strip() if found else ""


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


def run_in(text: str, start: int, end: int) -> bool:
    """Whether the emphasised phrase at ``text[start:end]`` (its marks included) is a run-in label:
    it opens its sentence (only a list item's marker, a quote's or a symbol before it) and a colon
    closes it, inside its marks or right after them. A glossary entry has this shape too; the
    offline concept extractor takes a label for a term only when the chunk writes it again.

    >>> t = "> 💡 **Pro tip:** Always look at your data."
    >>> run_in(t, 5, 17), run_in("*Note*: see above.", 0, 6), run_in("- **Sampling**: we act.", 2, 14)
    (True, True, True)
    >>> run_in("Use **dropout**: it helps.", 4, 15), run_in("**Dropout** helps.", 0, 11)
    (False, False)
    """
    if any(ch.isalnum() for ch in text[:start]):
        return False
    return text[start:end].rstrip("*_ \t").endswith(":") or text[end:].lstrip(" \t").startswith(":")


_CONTROL_BEFORE = re.compile(
    r"\b(?:click(?:ing)?|press(?:ing)?|tap|toggle|select(?:ing)?)(?:\s+on)?(?:\s+the)?\s*$", re.I
)
_CONTROL_AFTER = re.compile(r"\s+(?:button|tab|menu|icon|checkbox|dropdown|toggle)s?\b", re.IGNORECASE)
_QUOTED = re.compile(r'"[^"\n]{1,200}"|“[^”\n]{1,200}”')


def control(text: str, start: int, end: int) -> bool:
    """Whether the emphasised phrase at ``text[start:end]`` (its marks included) labels a control of
    a user interface: what the reader clicks, presses or selects, or a button, tab or menu.

    >>> t = "Click on **Show advanced options** and set it."
    >>> control(t, 9, 34), control("Open the **Settings** tab.", 9, 21), control("Use **ReLU** here.", 4, 12)
    (True, True, False)
    """
    return _CONTROL_BEFORE.search(text, max(0, start - 30), start) is not None or bool(
        _CONTROL_AFTER.match(text, end)
    )


def quotations(text: str) -> list[tuple[int, int]]:
    """The spans of the text in double quotes: a value, a column's name or a tag the lesson
    mentions ('features such as "MSZoning"', '"NNP (noun, proper singular)"'), not a name it uses.

    >>> quotations('a column "MSZoning" and "RL".')
    [(9, 19), (24, 28)]
    """
    return [match.span() for match in _QUOTED.finditer(text)]


def title_case(name: str) -> bool:
    """Whether a name of several words writes each of them with a capital ("Invoice File")."""
    tokens = name.split()
    return len(tokens) > 1 and all(token[:1].isupper() for token in tokens if token[:1].isalpha())


def written_alone(name: str, text: str) -> int:
    """How often the text writes a name other than as the tail of a longer capitalised one."""
    starts = [match.start() for match in re.finditer(re.escape(name), text, re.IGNORECASE)]
    return sum(1 for start in starts if not _CAPITALISED_BEFORE.search(text[max(0, start - 40) : start]))
