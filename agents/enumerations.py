"""The items of a list a question asks for, read with the sentence that announces them.

A question that asks for several things ("What are the three stages of X?", "Which tools does X
offer?", "Give me some examples of X": :func:`asks_for_items`) is answered by a list. A lesson
writes one as a sentence that announces it with a colon and the items in the paragraph after it
(numbered lines, bullets, paragraphs led by a bold name), whatever ends them; the offline reader
reads the announcement with its first item only when that item is a sentence
(:func:`agents.passages.listed_passages`), and a paragraph led by a bold name as a passage of its
own. :func:`with_items` quotes the announcement with the items that follow it, or an item led by a
bold name with the items beside it, as many whole items as :data:`ITEMS_WORDS` words hold.

>>> asks_for_items("What are the three stages of brewing?"), asks_for_items("What is brewing?")
(True, False)
>>> text = "Brewing has three stages: ¶ Mash the grain. Boil the wort. Ferment it. ¶ Then bottle it."
>>> with_items("What are the stages of brewing?", "Brewing has three stages: Mash the grain.", text)
'Brewing has three stages: Mash the grain. Boil the wort. Ferment it.'
"""

from __future__ import annotations

import re
from itertools import pairwise

from agents.text import PARAGRAPH, sentences

__all__ = ["ITEMS_WORDS", "asks_for_items", "listed_after", "with_items"]

ITEMS_WORDS = 90
"""The most words of a quoted list: the items past it are left out (whole items, never half of one)."""

_COUNT = r"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|some|few|main|key|different)"
_ASKS_ITEMS = re.compile(
    rf"^\s*(?:(?:what|which)\s+(?:are|were)\s+(?:the\s+|some\s+)?(?:{_COUNT}\s+)*[a-z-]+s\s+(?:of|in|for|that|to)\b"
    r"|(?:what|which)\s+(?!kinds?\b|sorts?\b|types?\b)[a-z-]+s\s+(?:does|do|did|can|could|should|are|will)\b"
    r"|(?:.*\b(?:give|list|name|show|tell)\b.*\b(?:examples?|instances|kinds|types)\s+of\b)"
    r"|(?:what|which)\s+(?:are\s+)?(?:some\s+)?(?:examples|instances)\s+of\b)",
    re.IGNORECASE,
)
"""A question asking for several things: what the plural ones of something are, which plural things
something has, examples of something."""
_LEAD = re.compile(r"^[^\w*]*\*\*([^*]+)\*\*")
"""A sentence led by a bold name ("**Model**. Choosing ...", "**Label flipping**: ...")."""


def asks_for_items(question: str) -> bool:
    """Whether a question asks for several things (see :data:`_ASKS_ITEMS`).

    >>> asks_for_items("Give me examples of sorting methods"), asks_for_items("What parts does a cell have?")
    (True, True)
    >>> asks_for_items("What kinds of cells exist?"), asks_for_items("Why are cells small?")
    (False, False)
    """
    return _ASKS_ITEMS.match(question) is not None


def _lead(sentence: str) -> str:
    found = _LEAD.match(sentence)
    return found.group(1).strip().lower() if found else ""


def _items(paragraph: str) -> list[str]:
    """The items of a list paragraph: those led by a bold name, each with the sentence after a lead that
    is no sentence ("**Model**." then "Choosing ..."), when two or more are (a lead that comes back,
    "**Example**:", marks a part of each item, not an item); else each of its sentences."""
    said = [s.text for s in sentences(paragraph)]
    leads = [_lead(s) for s in said]
    once = {lead for lead in leads if lead and leads.count(lead) == 1}
    if len(once) < 2:
        return said
    items: list[str] = []
    for position, (sentence, lead) in enumerate(zip(said, leads, strict=True)):
        if lead not in once:
            continue
        bare = _LEAD.sub("", sentence).strip(" .:")
        items.append(sentence if bare or position + 1 == len(said) else f"{sentence} {said[position + 1]}")
    return items


def _fitting(items: list[str], least: int) -> list[str]:
    kept: list[str] = []
    for item in items:
        if len(kept) >= max(least, 1) and len(" ".join([*kept, item]).split()) > ITEMS_WORDS:
            break
        kept.append(item)
    return kept


def listed_after(quoted: str, text: str) -> str:
    """The quote ``quoted`` of the excerpt ``text``, when it is an announcement ending in a colon (or
    a quote of one with its first item), with the items of the paragraph after it; else as it is.

    >>> listed_after("Steps:", "Steps: ¶ Mix it. Bake it.")
    'Steps: Mix it. Bake it.'
    """
    colon = quoted.find(": ")
    colon = len(quoted.rstrip()) - 1 if colon < 0 and quoted.rstrip().endswith(":") else colon
    if colon > 0:
        announcement = quoted[: colon + 1]
        paragraphs = [part.strip() for part in text.split(PARAGRAPH)]
        for before, after in pairwise(paragraphs):
            if before.endswith(announcement) and (items := _items(after)):
                return " ".join([announcement, *_fitting(items, 1)])
    return quoted


def with_items(question: str, quoted: str, text: str) -> str:
    """The quote ``quoted`` of the excerpt ``text``, for a question that asks for several things, with
    the items of the list it is part of: after an announcement ending in a colon, the paragraph after
    it; for an item led by a bold name, the items so led of its paragraph. ``quoted`` as it is when it
    is neither, or the question asks for no list.

    >>> text = "Tools: ¶ **Saw**: cuts wood. **Drill**: bores holes. **Plane**: smooths it."
    >>> with_items("Which tools does a joiner use?", "**Drill**: bores holes.", text)
    '**Saw**: cuts wood. **Drill**: bores holes. **Plane**: smooths it.'
    >>> with_items("Which tools does a joiner use?", "**Drill**: bores holes. **Plane**: smooths", text)
    '**Drill**: bores holes. **Plane**: smooths'
    """
    if not asks_for_items(question):
        return quoted
    paragraphs = [part.strip() for part in text.split(PARAGRAPH)]
    if (listed := listed_after(quoted, text)) != quoted:
        return listed
    if _lead(quoted):
        for paragraph in paragraphs:
            items = _items(paragraph)
            at = next((k for k, item in enumerate(items) if quoted in item), None)  # None: spans items
            if at is not None and len(items) > 1 and any(_lead(item) for item in items):
                return " ".join(_fitting(items, 1 + at))
    return quoted
