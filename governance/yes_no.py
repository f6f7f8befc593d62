"""Whether a relation question asked yes or no ("Is RAG a kind of fine-tuning?") is settled by
the graph: an edge of the kind asked joins the two, the right way round. When none does, the
answer says plainly that the graph cannot say yes or no, before what it holds between them
("fine-tuning is related to RAG" alone reads as yes)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.answer_forms import expected_kind
from magg_kg.graph_index import GraphIndex

__all__ = ["unsettled"]

_I = re.IGNORECASE
_ASKED: tuple[tuple[re.Pattern[str], str, tuple[tuple[str, int, int], ...]], ...] = (
    (
        re.compile(r"\b(?:prerequisites?|needed for|required for|necessary for)\b", _I),
        "a prerequisite for",
        (("prerequisite", 0, 1), ("builds_on", 1, 0)),
    ),
    (
        re.compile(
            r"\b(?:part of|(?:kind|type|form|sort|special case|subfield|branch|member|component) of|"
            r"belongs? to)\b",
            _I,
        ),
        "part of",
        (("part_of", 0, 1),),
    ),
    (
        re.compile(
            r"\b(?:build(?:s)? (?:on|upon)|based on|extends?|extension of|depends? on|rel(?:y|ies) on)\b", _I
        ),
        "built on",
        (("builds_on", 0, 1), ("prerequisite", 1, 0)),
    ),
    (
        re.compile(r"\b(?:opposite|contrasts?)\b", _I),
        "contrasted with",
        (("contrasts_with", 0, 1), ("contrasts_with", 1, 0)),
    ),
)
"""The cues of a relation asked yes or no, what is asked in words, and the edges that settle it:
(type, the end that is its source, the end that is its target), ends numbered as the question
names the concepts."""


def unsettled(graph: GraphIndex, question: str, concepts: Sequence[str], edges: Sequence[str]) -> str:
    """What to say first of a relation question asked yes or no that no edge of ``edges`` settles
    ("The graph cannot say yes or no: no edge says that RAG is part of fine-tuning."); "" when
    the question is not asked yes or no, names no kind of relation, or an edge settles it."""
    if len(concepts) != 2 or expected_kind(question) != "yesno":
        return ""
    asked = next(((said, settling) for cue, said, settling in _ASKED if cue.search(question)), None)
    if asked is None:
        return ""
    said, settling = asked
    joined = {(e.type, e.src, e.dst) for e in (graph.edges[i] for i in edges if i in graph.edges)}
    if any((kind, concepts[src], concepts[dst]) in joined for kind, src, dst in settling):
        return ""
    a, b = (graph.concepts[c].name if c in graph.concepts else c for c in concepts)
    return f"The graph cannot say yes or no: no edge says that {a} is {said} {b}."
