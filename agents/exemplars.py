"""Exemplars: the genus and the instances of a cue that gives examples ("such as", "like").

Two readings of such a cue that a plain left and right phrase get wrong:

- the genus written before a comma ("popular retrieval methods, such as BM25 and TF-IDF"): the
  phrase right before the cue is empty, and the genus is the last noun phrase before the comma;
  unless a preposition other than a classifier's "of" heads that noun phrase ("unusual behaviour
  from the server, such as timeouts": the examples are of the behaviour, not of the server), also
  where the phrase read before the comma starts after one ("the same setting as NeuMF, including
  the learning rate");
- instances listed with commas ("such as BM25, TF-IDF and SPLADE"): a comma ends the phrase after a
  cue, so the instances after the first are read on when they are a list of bare noun phrases that
  ends in "and" or "or" before its last item (not "such as BERT, use ...");
- a second genus among the instances ("language models like GPT-2 and vision models like ViT"):
  the instances of the first cue end at the conjunction before the second genus.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from agents.phrases import CONJUNCTION, last_phrase

__all__ = ["genus_before_comma", "listed_instances", "next_genus_cut"]

_COMMA = re.compile(r",\s*\Z")
_PREPOSITION_BEFORE = re.compile(
    r"\b(?:as|than|like|of|for|in|on|with|from|by|to|at|into|about|over|under|between)\s+\Z", re.IGNORECASE
)
"""A preposition right before the phrase that ends at the comma: that phrase is its object."""
_CLASSIFIER_OF = re.compile(
    r"\b(?:kinds?|types?|forms?|famil(?:y|ies)|variants?|class(?:es)?|categor(?:y|ies)|sorts?)\s+of\s*\Z",
    re.IGNORECASE,
)
"""A classifier noun and its "of" ("several kinds of"): the noun phrase after it is the genus."""


def genus_before_comma(
    text: str, cue_start: int, phrase_before: tuple[int, int] | None
) -> tuple[int, int] | None:
    """The genus of an example cue that follows a comma: the last noun phrase of ``phrase_before``
    (the raw phrase that ends at the comma), when the cue at ``cue_start`` follows a comma and no
    preposition but a classifier's "of" heads that noun phrase; None otherwise.

    >>> t = "It offers several retrieval methods, such as BM25."
    >>> span = genus_before_comma(t, t.index("such"), (0, t.index(",")))
    >>> t[slice(*span)] if span else None
    'It offers several retrieval methods'
    >>> t = "Watch for odd replies from the server, such as timeouts."
    >>> genus_before_comma(t, t.index("such"), (0, t.index(",")))
    >>> t = "We keep the same setting as NeuMF, including the optimizer."
    >>> genus_before_comma(t, t.index("including"), (t.index("NeuMF"), t.index(",")))
    >>> t = "There are several kinds of regularizers, like dropout."
    >>> span = genus_before_comma(t, t.index("like"), (0, t.index(",")))
    >>> t[slice(*span)] if span else None
    'regularizers'
    """
    if phrase_before is None or _COMMA.search(text, 0, cue_start) is None:
        return None
    start, end = phrase_before
    if _PREPOSITION_BEFORE.search(text, 0, start) is not None:
        return None  # "the same setting as NeuMF, including ...": the examples are of the setting
    genus = last_phrase(text, (start, end))
    if genus[0] > start and _CLASSIFIER_OF.search(text, start, genus[0]) is None:
        return None
    return genus if genus[1] > genus[0] else None


def next_genus_cut(text: str, span: tuple[int, int], cues: Iterable[re.Pattern[str]]) -> tuple[int, int]:
    """The instances of an example cue, up to the conjunction before a second example cue in
    ``span`` ("GPT-2 and vision models like ViT": "GPT-2"); ``span`` when no other cue follows.

    >>> t = "language models like GPT-2 and vision models like ViT"
    >>> span = next_genus_cut(t, (21, len(t)), [re.compile(r"\\blike\\b")])
    >>> t[slice(*span)]
    'GPT-2'
    """
    start, end = span
    later = [m.start() for pattern in cues if (m := pattern.search(text, start, end)) is not None]
    if not later:
        return span
    joints = [j.start() for j in CONJUNCTION.finditer(text, start, min(later))]
    return (start, joints[-1]) if joints and joints[-1] > start else span


_LISTED = re.compile(r"(?:,\s*[^,;:.()!?\"]+?)*,?\s+(?:and|or)\s+[^,;:.()!?\"]+")
"""The rest of a comma list after its first item: ", B, C and D", ", B or C"."""
_VERB_AFTER = re.compile(
    r"\s(?:is|are|was|were|can|could|will|would|may|might|must|should|has|have|which|that)\b", re.IGNORECASE
)
"""A verb or a relative pronoun after the last item: the list ends before it."""
_ITEM = re.compile(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+")


def listed_instances(text: str, span: tuple[int, int], plain: Callable[[str], bool]) -> tuple[int, int]:
    """The instances of an example cue read on over a comma list: ``span`` (the phrase up to the
    first comma) with the rest of the list when each item is a bare noun phrase (``plain``) and
    the list ends in "and" or "or" before its last item; ``span`` otherwise.

    >>> t = "methods such as BM25, TF-IDF and SPLADE, use the index"
    >>> span = listed_instances(t, (16, 20), lambda item: "use" not in item)
    >>> t[slice(*span)]
    'BM25, TF-IDF and SPLADE'
    >>> t = "models such as BERT, GPT-2, use attention"
    >>> listed_instances(t, (15, 19), lambda item: True)
    (15, 19)
    """
    start, end = span
    rest = _LISTED.match(text, end)
    if rest is None or not text.startswith(",", end):
        return span
    listed = rest.group()
    verb = _VERB_AFTER.search(listed)
    listed = listed[: verb.start()] if verb is not None else listed
    items = [item.strip() for item in _ITEM.split(listed) if item.strip()]
    if not items or not all(plain(item) for item in items):
        return span
    stop = end + len(listed)
    while stop > end and text[stop - 1].isspace():
        stop -= 1
    return start, stop
