"""Scores of typed answers against gold questions, and their summary by kind and mode.

Per question (:func:`score_answer`), from the structured answer (``QAResult.graph_answers``, what
``magg ask --json`` prints), never from the wording:

``which_first``  exact match of the concept named first (``neither`` when none is) with the gold;
``path``         validity: the path starts at A, ends at B and every step is an active edge in
                 learning order of the gold graph; length ratio: steps / gold shortest steps;
sets             F1 of the concepts answered against the gold set (prerequisites, the full
                 prerequisite set, unlocks, part_of, parts; two_part: the mean over both parts);
``relation``     F1 of the edges answered against the edges that join the two concepts;
every kind       citation precision: the share of cited edges whose two ends are in the
                 question's support (:class:`~governance.evaluation.curriculum_questions.GoldQuestion`);
                 citation recall: the share of the edges the graph algorithm chose that the
                 answer cites (an answer whose expert failed or dropped them cites fewer);
                 context: edges read and their tokens (``graph_tokens``: each edge as a prompt
                 holds it), edges in the experts' prompts, tokens of every prompt of the
                 question (``context_tokens``: instructions, question and graph, every role) and
                 of the experts' prompts alone (``expert_tokens``), model calls.

:func:`summarize` averages each measure by kind and mode; ``quality`` is the kind's headline
measure (exact match, validity or F1), the one routed must match or beat.

>>> f1({"a", "b"}, {"b", "c"})
0.5
>>> f1(set(), set())
1.0
"""

from __future__ import annotations

import statistics
from collections.abc import Collection, Mapping, Sequence
from itertools import pairwise

import networkx as nx

from governance.evaluation.curriculum_questions import GoldQuestion
from governance.experts import QAResult
from governance.graph_answer import GraphAnswer
from magg_kg.graph_index import GraphIndex

__all__ = ["QUALITY", "f1", "score_answer", "summarize"]

QUALITY = {
    "which_first": "exact_match",
    "path": "validity",
    "relation": "edge_f1",
}
"""The headline measure of a kind (``set_f1`` for every other kind)."""
UNDEFINED_WHEN_NEGATIVE = frozenset({"citation_precision", "citation_recall"})
"""Measures a question may not have (-1: nothing cited, no edge chosen), averaged without it."""


def f1(found: Collection[str], gold: Collection[str]) -> float:
    """Set F1 (1.0 when both are empty)."""
    found, gold = set(found), set(gold)
    if not found and not gold:
        return 1.0
    hits = len(found & gold)
    if not hits:
        return 0.0
    precision, recall = hits / len(found), hits / len(gold)
    return round(2 * precision * recall / (precision + recall), 6)


def _answer(result: QAResult, concept: str | None = None) -> GraphAnswer | None:
    for answer in result.graph_answers:
        if concept is None or answer.concepts[:1] == [concept]:
            return answer
    return None


def _path_scores(question: GoldQuestion, answer: GraphAnswer | None, order: nx.DiGraph) -> dict[str, float]:
    path = answer.path if answer is not None else []
    valid = (
        len(path) >= 2
        and (path[0], path[-1]) == question.concepts[:2]
        and all(order.has_edge(u, v) for u, v in pairwise(path))
    )
    ratio = (len(path) - 1) / question.length if valid and question.length else 0.0
    return {"validity": float(valid), "length_ratio": ratio}


def score_answer(
    question: GoldQuestion, result: QAResult, graph: GraphIndex, order: nx.DiGraph
) -> dict[str, float]:
    """The measures of one answer (see the module docstring)."""
    scores: dict[str, float] = {}
    kind = question.kind
    if kind == "which_first":
        answer = _answer(result)
        said = (answer.first or "neither") if answer is not None and answer.type == "which_first" else ""
        scores["exact_match"] = float(said == question.gold[0])
    elif kind == "path":
        answer = _answer(result)
        scores |= _path_scores(question, answer if answer and answer.type == "path" else None, order)
    elif kind == "relation":
        answer = _answer(result)
        scores["edge_f1"] = f1(answer.edges if answer and answer.type == "relation" else [], question.gold)
    elif kind == "two_part":
        parts = []
        for concept, kind_of_part, gold in question.parts:
            answer = _answer(result, concept)
            parts.append(f1(answer.found if answer and answer.type == kind_of_part else [], gold))
        scores["set_f1"] = statistics.fmean(parts)
    else:
        wanted = "prerequisites" if kind == "prerequisites_full" else kind
        answer = _answer(result, question.concepts[0])
        fits = answer is not None and answer.type == wanted
        scores["set_f1"] = f1(answer.found if answer is not None and fits else [], question.gold)
    cited = [graph.edges[e] for e in result.citations if e in graph.edges]
    supported = [e for e in cited if {e.src, e.dst} <= question.support]
    scores["citation_precision"] = len(supported) / len(cited) if cited else -1.0
    chosen = {e for answer in result.graph_answers for e in answer.edges}
    scores["citation_recall"] = len(chosen & set(result.citations)) / len(chosen) if chosen else -1.0
    scores |= {
        "edges_read": float(result.edges_read),
        "graph_tokens": float(result.graph_tokens),
        "context_edges": float(result.context_edges),
        "context_tokens": float(result.context_tokens),
        "expert_tokens": float(result.tokens_by_role.get("expert", 0)),
        "calls": float(result.calls),
    }
    return scores


def _percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def summarize(rows: Sequence[Mapping[str, object]]) -> dict[str, dict[str, dict[str, float]]]:
    """kind -> mode -> mean of each measure (citation precision over the answers that cite, citation
    recall over those with a graph answer's edges; a measure no answer has is left out),
    ``quality``, ``n``, latency p50/p95 in ms; ``all`` as a kind."""
    grouped: dict[tuple[str, str], list[Mapping[str, object]]] = {}
    for row in rows:
        for kind in (str(row["kind"]), "all"):
            grouped.setdefault((kind, str(row["mode"])), []).append(row)
    summary: dict[str, dict[str, dict[str, float]]] = {}
    for (kind, mode), group in sorted(grouped.items()):
        scores = [row["scores"] for row in group]
        assert all(isinstance(s, Mapping) for s in scores)
        keys = sorted({key for s in scores if isinstance(s, Mapping) for key in s})
        means: dict[str, float] = {"n": float(len(group))}
        for key in keys:
            values = [float(s[key]) for s in scores if isinstance(s, Mapping) and key in s]
            if key in UNDEFINED_WHEN_NEGATIVE:
                values = [v for v in values if v >= 0]
            if values:
                means[key] = round(statistics.fmean(values), 4)
        if kind != "all":
            means["quality"] = means.get(QUALITY.get(kind, "set_f1"), 0.0)
        latencies = [float(str(row["ms"])) for row in group]
        means["p50_ms"] = round(_percentile(latencies, 0.5), 2)
        means["p95_ms"] = round(_percentile(latencies, 0.95), 2)
        summary.setdefault(kind, {})[mode] = means
    return summary
