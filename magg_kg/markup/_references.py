"""A lesson's bibliography: the section under a heading that names one, and a list item shaped as
a citation anywhere. Both are ``reference`` regions of the prose view: they say where the lesson's
ideas were published, not what it teaches, though they name its topics ("Doersch, C. (2016).
Tutorial on variational autoencoders. arXiv preprint arXiv:1606.05908." was the quote of a
committed ``autoencoder prerequisite variational-autoencoder``, and made a concept "arXiv").

A section is a bibliography when its heading's whole text is References, Bibliography, Works
cited, Citations, Literature or Reference list (numbered or not, with a colon or not); it runs to
the next heading of its level or a higher one. A "Further reading" or "Resources" section is not
one: its items often say in a sentence what each source teaches, and a sentence is prose; its
items shaped as citations are blanked one by one.

A list item, or a footnote, is a citation when it opens on authors ("Kingma, D. P.", "A. Vaswani",
"Bowman et al.", after a label such as ``[3]``), holds a year, and has a mark of a publication: an
arXiv id or a DOI, a venue ("In Proceedings of", "Journal of", "arXiv preprint", "Press"), pages or
a volume ("pp. 12", "45(1)", "1278–1286"), or a title after the year in parentheses ("(2014).
Auto-encoding ...", '(2014), "Stochastic ...'). A citation's signal may come first ("See also
Rezende, Mohamed & Wierstra (2014), ..."). An item that cites a paper in a sentence ("Bowman et al.
(2016) introduced KL annealing ...") has no such mark, and stays prose.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["citation_end", "heading_level", "is_bibliography"]

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t#]*$")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*$")
_TITLE = re.compile(
    r"(?:(?:\d+(?:\.\d+)*|[IVX]+)\.?[ \t]+)?"
    r"(?:references|bibliography|works[ \t]+cited|citations|literature|reference[ \t]+list)[ \t]*:?",
    re.I,
)
_DECORATION = re.compile(r"[*_`]+|\{#[^}]*\}")
_ITEM = re.compile(r"[ \t]*(?:[-*+]|\d{1,9}[.)]|\[\^[^\]\s]{1,99}\]:)[ \t]+")
"""A list item's marker, or a footnote's label (``[^3]:``): what opens an entry."""
_NAME = r"[A-ZÀ-ÖØ-Þ][\w'’-]+"
_AUTHORS = re.compile(
    rf"[ \t]*(?:\[[^\]\n]{{1,40}}\][ \t]*)?(?:(?:See(?:[ \t]+also)?|Cf\.)[ \t]+)?[*_]{{0,2}}"
    rf"(?:{_NAME},[ \t]+(?:[A-Z]\.|[A-Z][a-z]+)|(?:[A-Z]\.[ \t]?){{1,3}}[ \t]*{_NAME}"
    rf"|{_NAME}[ \t]+(?:et[ \t]+al\.|and[ \t]+{_NAME}|&[ \t]+{_NAME}))"
)
"""A list of authors opens the entry: "Kingma, D. P.", "Doersch, Carl", "A. Vaswani", "Bowman et
al.", "Rezende and Mohamed", after a label ("[3]", "[Kingma2014]"), a citation's signal ("See
also", "Cf.") or emphasis."""
_YEAR = re.compile(r"\b(?:1[89]|20)\d{2}[a-z]?\b")
_PUBLISHED = re.compile(
    r"\barXiv:[ \t]?\d{4}\.\d{4,5}|arxiv\.org/(?:abs|pdf)/|\b10\.\d{4,9}/\S|doi\.org/|\bISBN\b"
    r"|\bIn[ \t]+(?:Proceedings|Proc\.|Advances[ \t]+in)\b|\bProceedings[ \t]+of\b|\bpreprint\b"
    r"|\b(?:Conference|Workshop|Symposium)[ \t]+on\b|\bJournal[ \t]+of\b|\bTransactions[ \t]+on\b|\bPress\b"
    r"|\b(?:pp|vol|Vol)\.[ \t]?\d|\b\d{1,4}\(\d{1,4}\)|\b\d{2,5}[ \t]?[–—-][ \t]?\d{2,5}\b"
    r"|\((?:1[89]|20)\d{2}[a-z]?\)(?:\.[ \t]+\S|,?[ \t]+[\"“])"
)
"""A mark of a publication: an identifier, a venue, pages or a volume, or a title after the year
("(2014). Auto-encoding ...", '(2014), "Stochastic ...')."""


def heading_level(line: str, following: str) -> int | None:
    """The level of the heading ``line`` is (``following`` may underline it), or None.

    >>> heading_level("## References", ""), heading_level("References", "-----"), heading_level("Text", "")
    (2, 2, None)
    """
    atx = _ATX.match(line)
    if atx is not None:
        return len(atx.group(1))
    underline = _SETEXT.match(following)
    if underline is not None and line.strip() and not _ITEM.match(line):
        return 1 if underline.group(1)[0] == "=" else 2
    return None


def is_bibliography(line: str) -> bool:
    """Whether a heading's ``line`` names a bibliography.

    >>> headings = ("## References", "7. **Works cited:**", "References", "## Further reading")
    >>> [is_bibliography(h) for h in headings]
    [True, True, True, False]
    """
    atx = _ATX.match(line)
    text = (atx.group(2) or "") if atx is not None else line
    return _TITLE.fullmatch(_DECORATION.sub("", text).strip()) is not None


def citation_end(lines: Sequence[str], index: int) -> int | None:
    """The line after the list item or footnote that opens at line ``index`` when it is shaped as
    a citation (its lines to a blank line or the next item), or None.

    >>> citation_end(["1. Doersch, C. (2016). Tutorial on VAEs.", "   arXiv preprint arXiv:1606.05908."], 0)
    2
    >>> print(citation_end(["- Bowman et al. (2016) introduced KL annealing for text VAEs."], 0))
    None
    """
    item = _ITEM.match(lines[index])
    if item is None or _AUTHORS.match(lines[index], item.end()) is None:
        return None
    end = index + 1
    while (
        end < len(lines) and lines[end].strip() and not _ITEM.match(lines[end]) and not _ATX.match(lines[end])
    ):
        end += 1
    entry = " ".join(lines[index:end])
    return end if _YEAR.search(entry) and _PUBLISHED.search(entry) else None
