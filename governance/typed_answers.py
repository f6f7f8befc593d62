"""Typed sub-questions, routed and flat: the graph algorithm answers, the experts explain.

Routed (:func:`typed_routed`): the algorithm reads the graph through a
:class:`~magg_kg.graph_reader.DomainReader`, and the answer's edges are grouped by the domain each
was read from (an edge between two domains is read by both: either expert may explain it), and
given to the fewest experts that hold them all (:func:`~governance.graph_answer.domains_of_edges`);
each expert is shown its group only, in the answer's order, so a path across domains is assembled
from the experts of the domains its steps belong to, joined where it crosses. Flat
(:func:`typed_flat`): the algorithm is given the whole graph and one call explains every part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from agents import qa
from governance.experts import NOT_COVERED, ExpertReport, QAResult, ask_expert, graph_tokens
from governance.graph_answer import GraphAnswer, answer_by_graph, domains_of_edges, names_from
from magg_kg.graph_index import GraphIndex
from magg_kg.graph_reader import DomainReader, WholeGraphReader
from magg_kg.llm.port import LLM
from magg_kg.records import EdgeVersion

__all__ = ["is_typed", "of_whole_graph", "typed_flat", "typed_routed"]

TWO_CONCEPT_TYPES = frozenset({"path", "which_first", "relation"})


def typed_routed(
    llm: LLM, graph: GraphIndex, sub: qa.SubQuestion, reader: DomainReader, result: QAResult
) -> list[str]:
    """Answers a typed sub-question by its graph algorithm, each part by the expert of the domain it
    was read from; the domains that answered."""
    answered: list[str] = []
    names, every = names_from(graph.concepts), list(graph.concepts)
    answers = answer_by_graph(sub.type, sub.concepts, sub.full, reader.touching, names, every, graph.owners)
    result.graph_answers += answers
    result.uncovered += [answer.headline for answer in answers if not answer.covered]
    whole = _joined(sub, answers)
    for domain, edge_ids in domains_of_edges(whole.edges, reader.holders).items():
        edges = [graph.edges[e] for e in edge_ids]
        concepts = [c for c in sub.concepts if any(c in (e.src, e.dst) for e in edges)]
        report = ExpertReport(domain, sub.text, concepts, list(edge_ids))
        result.experts.append(report)
        answered.append(domain)
        ask_expert(llm, graph, report, edges, result, _part(whole, edges))
    return list(dict.fromkeys(answered))


def _joined(sub: qa.SubQuestion, answers: Sequence[GraphAnswer]) -> GraphAnswer:
    """The answers of one sub-question as one ("What should I learn before A and B?" has one per
    concept): every answer's edges, under the headlines of those the graph covers. Flat shows it to
    its one call; routed gives its edges to the fewest experts that hold them all, each asked once."""
    if len(answers) == 1:
        return answers[0]
    edges = list(dict.fromkeys(e for answer in answers for e in answer.edges))
    return GraphAnswer(
        sub.type, list(sub.concepts), edges=edges, headline=" ".join(a.headline for a in answers if a.covered)
    )


def _part(answer: GraphAnswer, edges: Sequence[EdgeVersion]) -> GraphAnswer:
    """The part of an answer one domain's expert explains: its own edges, and of the concepts found
    and the path those its edges touch (the whole answer, its headline, is written into the answer
    in code, not sent to every expert)."""
    touched = {c for e in edges for c in (e.src, e.dst)}
    return replace(
        answer,
        edges=[e.edge_id for e in edges],
        found=[c for c in answer.found if c in touched],
        path=[c for c in answer.path if c in touched],
    )


def of_whole_graph(kind: str, concepts: Sequence[str], unknown: Sequence[str]) -> bool:
    """Whether a sub-question asks about the whole graph, naming no concept and no name the graph
    lacks: where to start, what comes before none in particular ("Where should I start?"), or what
    the graph covers, what is part of none in particular ("What does this course cover?")."""
    return kind in ("prerequisites", "parts") and not concepts and not unknown


def is_typed(sub: qa.SubQuestion) -> bool:
    """Whether a graph algorithm answers the sub-question: a type and the concepts it needs, or one
    about the whole graph (:func:`of_whole_graph`)."""
    if of_whole_graph(sub.type, sub.concepts, sub.unknown):
        return True
    needed = 2 if sub.type in TWO_CONCEPT_TYPES else 1
    return sub.type != "open" and len(sub.concepts) >= needed


def typed_flat(llm: LLM, graph: GraphIndex, sub: qa.SubQuestion, result: QAResult) -> QAResult:
    """The typed baseline: the algorithm over the whole graph, one answering call for every part."""
    reader = WholeGraphReader(graph.edges.values(), graph.touching())
    names, every = names_from(graph.concepts), list(graph.concepts)
    answers = answer_by_graph(sub.type, sub.concepts, sub.full, reader.touching, names, every, graph.owners)
    result.graph_answers = answers
    result.uncovered += [a.headline for a in answers if not a.covered]
    result.edges_read, result.graph_tokens = len(reader.edges_read), graph_tokens(graph, reader.edges_read)
    shown = _joined(sub, answers)
    edge_ids = list(dict.fromkeys(e for a in answers for e in a.edges))
    heads = [a.headline for a in answers if a.covered]
    if edge_ids:
        report = ExpertReport("", sub.text, list(sub.concepts), edge_ids)
        result.experts.append(report)
        ask_expert(llm, graph, report, [graph.edges[e] for e in edge_ids], result, shown)
        result.citations, result.dropped = list(report.citations), list(report.dropped)
        heads.append(report.answer)
    result.answer = " ".join(dict.fromkeys([*heads, *result.uncovered]))
    result.short_answer = " ".join(a.headline for a in answers if a.covered) or NOT_COVERED
    result.covered = any(a.covered for a in answers)
    return result
