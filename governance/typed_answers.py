"""Typed sub-questions, routed and flat: the graph algorithm answers, the experts explain.

Routed (:func:`typed_routed`): the algorithm reads the graph through a
:class:`~magg_kg.graph_reader.DomainReader`, and the answer's edges are grouped by the domain each
was read from (an edge between two domains is read by both: either expert may explain it), and
given to the fewest experts that hold them all (:func:`~governance.graph_answer.domains_of_edges`);
each expert is shown its group only, in the answer's order, so a path across domains is assembled
from the experts of the domains its steps belong to, joined where it crosses. The typed
sub-questions of one question ("What should I learn before A, and what does B unlock?") are grouped
together, so an expert is asked once per question, with every sub-question it explains. Flat
(:func:`typed_flat`): the algorithm is given the whole graph, one sub-question after the other,
and one call explains them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from agents import qa
from agents.question_types import WHOLE_GRAPH_TYPES
from agents.sameness import asks_identity
from governance.comparison import compare_in_lessons, unjoined
from governance.experts import NOT_COVERED, ExpertReport, QAResult, ask_expert, graph_tokens
from governance.graph_answer import GraphAnswer, answer_by_graph, domains_of_edges, names_from
from governance.namesakes import kinds_report
from governance.next_lesson import asks_course_order, names_a_part, taught_next
from governance.prior_relations import related_before
from governance.process_steps import asks_after, next_step
from governance.teaching_order import taught_first
from governance.yes_no import unsettled
from magg_kg.graph_index import GraphIndex
from magg_kg.graph_reader import DomainReader, WholeGraphReader
from magg_kg.learning_order import Touching
from magg_kg.llm.port import LLM
from magg_kg.records import EdgeVersion

__all__ = ["explain_flat", "is_typed", "of_whole_graph", "typed_flat", "typed_routed"]

TWO_CONCEPT_TYPES = frozenset({"path", "which_first", "relation"})


def typed_routed(
    llm: LLM, graph: GraphIndex, subs: Sequence[qa.SubQuestion], reader: DomainReader, result: QAResult
) -> list[list[str]]:
    """Answers typed sub-questions, each by its graph algorithm; the edges of every answer go to the
    fewest experts that hold them all, each asked once with the sub-questions it explains. Per
    sub-question,
    the domains that answered it."""
    per_sub = _answered(graph, subs, reader.touching, result)
    whole = _joined(subs, per_sub)
    subs_of: dict[str, set[int]] = {}
    for number, answers in enumerate(per_sub):
        for edge in (e for answer in answers for e in answer.edges):
            subs_of.setdefault(edge, set()).add(number)
    answered: list[list[str]] = [[] for _ in subs]
    for domain, edge_ids in domains_of_edges(whole.edges, reader.holders).items():
        edges = [graph.edges[e] for e in edge_ids]
        numbers = sorted(set().union(*(subs_of[e] for e in edge_ids)))
        touched = {c for e in edges for c in (e.src, e.dst)}
        concepts = list(dict.fromkeys(c for n in numbers for c in subs[n].concepts if c in touched))
        text = " ".join(subs[n].text for n in numbers)
        report = ExpertReport(domain, text, concepts, list(edge_ids))
        result.experts.append(report)
        for number in numbers:
            answered[number].append(domain)
        ask_expert(llm, graph, report, edges, result, _part(whole, edges))
    return answered


def _answered(
    graph: GraphIndex, subs: Sequence[qa.SubQuestion], touching: Touching, result: QAResult
) -> list[list[GraphAnswer]]:
    """Each sub-question's answers by its graph algorithm over ``touching``, recorded in ``result``
    (with the headline of each the graph does not cover among what it does not cover)."""
    names, every = names_from(graph.concepts), list(graph.concepts)
    per_sub = [
        answer_by_graph(
            sub.type, sub.concepts, sub.full, touching, names, every, graph.owners, asks_identity(sub.text)
        )
        for sub in subs
    ]
    for sub, answers in zip(subs, per_sub, strict=True):
        told = False  # what comes next in the course is said once, for the first concept it is known of
        for answer in answers:  # no path: the graph cannot say, the lessons' order may
            if answer.type == "which_first" and answer.first is None and len(sub.concepts) == 2:
                taught = taught_first(graph, sub.concepts[0], sub.concepts[1])
                answer.headline = f"{answer.headline} {taught}".strip()
            if answer.type == "prerequisites" and not answer.covered:  # related ones the lessons teach first
                said, cited = related_before(graph, answer.concepts[0], touching)
                answer.headline, answer.cited = said or answer.headline, cited
            if answer.type == "unlocks" and not told:
                told = _course_next(graph, sub, answer)
            if answer.type == "relation" and (said := unsettled(graph, sub.text, sub.concepts, answer.edges)):
                answer.headline = f"{said} {answer.headline}" if answer.covered else said
        # No part of X in the graph, kinds asked: the kinds a lesson teaching X names after it.
        edgeless = sub.type == "parts" and not any(a.edges for a in answers)
        named = kinds_report(graph, sub.text, sub.concepts) if edgeless else None
        result.experts += [named] if named else []
        result.graph_answers += answers
        result.uncovered += [a.headline for a in answers if not a.covered and not named]
    return per_sub


def _course_next(graph: GraphIndex, sub: qa.SubQuestion, answer: GraphAnswer) -> bool:
    """What comes after X in the course (:mod:`governance.next_lesson`), said in ``answer``'s
    headline where the graph states nothing that builds on X, or where the question asks after a
    part of the course ("what comes after the X chapter?"); not where it asks for the next step of a
    process ("In the app lifecycle, what comes after prototyping?"): that step is said first, unless
    the graph answers what comes after X where X is the step asked after. Whether it was said."""
    concept = answer.concepts[0]
    names = [graph.concepts[concept].name, *graph.names.get(concept, ())] if concept in graph.concepts else []
    if not asks_course_order(sub.text, names):  # the next step of a process, if a lesson lays it out
        step, cited = next_step(graph, sub.text)
        if step and not (answer.covered and asks_after(sub.text, names)):
            answer.headline, answer.cited = step, [*answer.cited, *cited]
            answer.edges, answer.covered = [], False  # what follows X in the graph is not asked
        return bool(step)
    if answer.covered and not names_a_part(sub.text):
        return False
    said, cited = taught_next(graph, concept)
    if not said:
        return False
    lead = answer.headline if answer.covered else f"The graph states nothing that builds on {names[0]}."
    answer.headline, answer.cited = f"{lead} {said}", [*answer.cited, *cited]
    return True


def _joined(subs: Sequence[qa.SubQuestion], per_sub: Sequence[Sequence[GraphAnswer]]) -> GraphAnswer:
    """The answers of a question's typed sub-questions as one ("What should I learn before A and
    B?" has one per concept; "What should I learn before A, and what does B unlock?" one per
    sub-question): every
    answer's edges, under the headlines of those the graph covers. Flat shows it to its one call;
    routed gives its edges to the fewest experts that hold them all, each asked once."""
    answers = [answer for answers in per_sub for answer in answers]
    if len(answers) == 1:
        return answers[0]
    edges = list(dict.fromkeys(e for answer in answers for e in answer.edges))
    kind = ", ".join(dict.fromkeys(sub.type for sub in subs))
    concepts = list(dict.fromkeys(c for sub in subs for c in sub.concepts))
    return GraphAnswer(
        kind, concepts, edges=edges, headline=" ".join(a.headline for a in answers if a.covered)
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
    lacks: where to start ("Where should I start?") or what the graph covers ("What does this
    course cover?")."""
    return kind in WHOLE_GRAPH_TYPES and not concepts and not unknown


def is_typed(sub: qa.SubQuestion) -> bool:
    """Whether a graph algorithm answers the sub-question: a type and the concepts it needs, or one
    about the whole graph (:func:`of_whole_graph`)."""
    if of_whole_graph(sub.type, sub.concepts, sub.unknown):
        return True
    needed = 2 if sub.type in TWO_CONCEPT_TYPES else 1
    return sub.type != "open" and len(sub.concepts) >= needed


def typed_flat(llm: LLM, graph: GraphIndex, subs: Sequence[qa.SubQuestion], result: QAResult) -> QAResult:
    """The typed baseline: each sub-question's algorithm over the whole graph, one answering call
    for all of them, and the answer written from them."""
    answers = explain_flat(llm, graph, subs, result)
    heads = [a.headline for a in answers if a.covered]
    heads += [report.answer for report in result.experts if report.citations or not report.excerpts_seen]
    result.answer = " ".join(dict.fromkeys([*heads, *result.uncovered]))
    compared = [report.short_answer for report in result.experts if report.excerpts_seen and report.citations]
    headlines = " ".join(a.headline for a in answers if a.covered)
    result.short_answer = headlines or " ".join(compared) or NOT_COVERED
    result.citations = list(dict.fromkeys(c for report in result.experts for c in report.citations))
    result.covered = any(a.covered for a in answers) or bool(compared)
    return result


def explain_flat(
    llm: LLM, graph: GraphIndex, subs: Sequence[qa.SubQuestion], result: QAResult
) -> list[GraphAnswer]:
    """Each sub-question's algorithm over the whole graph, and one answering call that explains the
    edges of them all (none when no answer has an edge); the answers."""
    reader = WholeGraphReader(graph.edges.values(), graph.touching())
    per_sub = _answered(graph, subs, reader.touching, result)
    answers = [answer for answers in per_sub for answer in answers]
    result.edges_read, result.graph_tokens = len(reader.edges_read), graph_tokens(graph, reader.edges_read)
    edge_ids = list(dict.fromkeys(e for a in answers for e in a.edges))
    for sub, answered in zip(subs, per_sub, strict=True):
        if unjoined(graph, sub, [a.type for a in answered if a.edges]):
            compare_in_lessons(llm, graph, sub, result)  # no edge joins the two: what the lessons say
    if edge_ids:
        text = " ".join(sub.text for sub in subs)
        concepts = list(dict.fromkeys(c for sub in subs for c in sub.concepts))
        report = ExpertReport("", text, concepts, edge_ids)
        result.experts.append(report)
        shown = _joined(subs, per_sub)
        ask_expert(llm, graph, report, [graph.edges[e] for e in edge_ids], result, shown)
        result.citations, result.dropped = list(report.citations), list(report.dropped)
    return answers
