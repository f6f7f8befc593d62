"""Which domain owns a concept, answered from the graph: "Which domain owns X?", "What domain is X
in?", "Which expert answers questions about X?" (:func:`agents.course_cues.owner_asked`).

The domains are the graph's communities and own its concepts (a bridge concept has several); the
answer names each owner of each concept the question names, by the domain's name as ``magg
domains`` shows it, and its id. No model is asked: the graph holds the answer. A name the graph
lacks is not covered ("The graph does not cover ..."), as a typed question's is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from agents.course_cues import owner_asked
from agents.phrases import FUNCTION_WORDS
from agents.text import find_mentions
from governance.excerpts import graph_lexicon
from governance.experts import NOT_COVERED, QAResult
from governance.graph_answer import uncovered_names
from governance.question_forms import near_names
from magg_kg.graph_index import GraphIndex

__all__ = ["owner_answer"]

QUESTION_TYPE = "domain"
"""The type ``ask --json`` reports of such a question."""


def owner_answer(graph: GraphIndex, question: str, mode: str) -> QAResult | None:
    """The answer to a question about which domain owns a concept; None for any other question."""
    asked = owner_asked(question)
    if asked is None:
        return None
    found = find_mentions(asked, graph_lexicon(graph))
    concepts = list(dict.fromkeys(concept for _, _, concept in found))
    rest = list(asked)
    for start, end, _ in found:
        rest[start:end] = " " * (end - start)
    words = [w for w in re.findall(r"[\w'-]+", "".join(rest)) if w.lower() not in FUNCTION_WORDS]
    unknown = [asked.removeprefix("the ").strip()] if words else []  # a name the graph lacks
    if not concepts and not unknown:  # "Which domain owns it?": no name at all, read as any question
        return None
    result = QAResult(question=question, mode=mode, as_of=graph.as_of)
    owners = {c: list(graph.owners.get(c, ())) for c in concepts}
    result.domains_read = list(dict.fromkeys(d for held in owners.values() for d in held))
    result.sub_questions.append(
        {
            "text": question,
            "concepts": concepts,
            "domains": result.domains_read,
            "type": QUESTION_TYPE,
            "unknown": unknown,
        }
    )
    if unknown:
        result.uncovered.append(uncovered_names(unknown, near_names(graph, unknown)))
    if not concepts:
        result.covered, result.short_answer = False, NOT_COVERED
        result.answer = " ".join(result.uncovered)
        return result
    names = _domain_names(graph)
    said = [_owned(graph.concepts[c].name, held, names) for c, held in owners.items()]
    result.answer = " ".join([*said, *result.uncovered])
    result.short_answer = "; ".join(names.get(d, d) for d in result.domains_read) or "No domain."
    return result


def _owned(name: str, held: list[str], names: Mapping[str, str]) -> str:
    listed = [f'"{names.get(d, d)}" ({d})' for d in held]
    if not listed:
        return f"{name} is owned by no domain."
    if len(listed) == 1:
        return f"{name} is owned by the domain {listed[0]}."
    return f"{name} is owned by {len(listed)} domains: {', '.join(listed[:-1])} and {listed[-1]}."


def _domain_names(graph: GraphIndex) -> dict[str, str]:
    """Domain id -> its name, as of the graph's time (read from its store once; none without one)."""
    store = graph.store
    if store is None:
        return {}
    return graph.kept(
        "domain names", lambda: {str(row["id"]): str(row["name"]) for row in store.domains(graph.as_of)}
    )
