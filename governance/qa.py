"""Domain-routed question answering: decompose, route, answer per domain, synthesize.

Routed (:func:`answer_routed`):

1. the orchestrator decomposes the question into sub-questions with the concepts each mentions
   (only concepts the graph knows are kept; on a failed call the whole question is one
   sub-question with the concepts found in it);
2. each sub-question goes to the domains that own its concepts (``store.concept_domains()``); a
   concept no domain owns goes to the unowned scope (every unowned concept);
3. each domain expert retrieves from its scope only - the domain's concepts plus its bridge
   concepts (the bridge context of its card) - and answers from those edges alone;
4. synthesis merges the experts' answers into the final answer and a short answer.

Flat (:func:`answer_flat`), the ablation baseline: one retrieval over the whole graph (the
question's concepts and the concepts nearest it, one hop, no scope) and one answering call.

Every citation is checked in code: an expert may cite only the edges it was shown, synthesis only
edges some expert was shown; anything else is dropped and reported in ``dropped``. Every call
goes through the LLM port with stage ``qa``.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from agents import qa
from agents.text import find_mentions, lexicon
from magg_kg.graph_index import GraphIndex, retrieve
from magg_kg.llm.port import LLM, Answer, Prompt
from magg_kg.records import EdgeVersion

__all__ = [
    "UNOWNED",
    "ExpertReport",
    "QAResult",
    "answer_flat",
    "answer_routed",
    "bridges_of",
    "domain_scopes",
]

STAGE = "qa"
UNOWNED = "unowned"
"""The scope of the concepts no domain owns."""


@dataclass
class ExpertReport:
    domain: str
    sub_question: str
    concepts: list[str]
    edges_seen: list[str]
    answer: str = ""
    short_answer: str = ""
    citations: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    failure: str = ""


@dataclass
class QAResult:
    """What one question got: the answer, its checked citations and how it was reached."""

    question: str
    mode: str
    as_of: str | None
    covered: bool = True
    answer: str = ""
    short_answer: str = ""
    citations: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    sub_questions: list[dict[str, object]] = field(default_factory=list)
    experts: list[ExpertReport] = field(default_factory=list)
    calls: int = 0
    failures: list[str] = field(default_factory=list)

    def as_json(self, graph: GraphIndex) -> dict[str, object]:
        return {
            "question": self.question,
            "mode": self.mode,
            "as_of": self.as_of,
            "covered": self.covered,
            "answer": self.answer,
            "short_answer": self.short_answer,
            "citations": [_edge_json(graph.edges[e]) for e in self.citations],
            "dropped_citations": self.dropped,
            "sub_questions": self.sub_questions,
            "experts": [expert.__dict__ for expert in self.experts],
            "calls": self.calls,
            "failures": self.failures,
        }


def _edge_json(edge: EdgeVersion) -> dict[str, object]:
    return {
        "edge_id": edge.edge_id,
        "src": edge.src,
        "type": edge.type,
        "dst": edge.dst,
        "confidence": edge.grounding.confidence,
        "quote": edge.grounding.evidence[0].quote,
    }


def _keys(graph: GraphIndex) -> dict[str, str]:
    return lexicon([(cid, list(names)) for cid, names in sorted(graph.names.items())])


def domain_scopes(graph: GraphIndex, bridges: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    """Domain id -> the concepts its expert may see: its own and its bridge concepts."""
    scopes: dict[str, set[str]] = {}
    for concept, owners in graph.owners.items():
        for owner in owners:
            scopes.setdefault(owner, set()).add(concept)
    for domain, extra in bridges.items():
        scopes.setdefault(domain, set()).update(c for c in extra if c in graph.concepts)
    unowned = {c for c in graph.concepts if not graph.owners.get(c)}
    if unowned:
        scopes[UNOWNED] = unowned
    return {domain: frozenset(members) for domain, members in scopes.items()}


def _edge_payload(graph: GraphIndex, edges: Sequence[EdgeVersion]) -> list[dict[str, object]]:
    return [
        {
            **_edge_json(edge),
            "src_name": graph.concepts[edge.src].name,
            "dst_name": graph.concepts[edge.dst].name,
        }
        for edge in edges
    ]


def _ask_expert(
    llm: LLM, graph: GraphIndex, report: ExpertReport, edges: Sequence[EdgeVersion], result: QAResult
) -> None:
    names = {c: graph.concepts[c].name for e in edges for c in (e.src, e.dst)}
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage=STAGE,
        agent=f"expert:{report.domain}" if report.domain else "expert:flat",
        domain=report.domain,
        system=qa.ANSWER_SYSTEM,
        data="\n".join(f"[{e.edge_id}] {e.grounding.evidence[0].quote}" for e in edges),
        payload={
            "question": report.sub_question,
            "concepts": report.concepts,
            "names": names,
            "edges": _edge_payload(graph, edges),
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    result.calls += 1
    reply = llm.ask(prompt, qa.ExpertAnswer)
    if not isinstance(reply, Answer):
        report.failure = f"{reply.kind}: {reply.reason}"
        result.failures.append(f"expert {report.domain or 'flat'}: {report.failure}")
        return
    shown = {edge.edge_id for edge in edges}
    report.answer = reply.value.answer
    report.short_answer = reply.value.short_answer
    report.citations, report.dropped = _checked(reply.value.citations, reply.value.answer, shown)


def _checked(cited: Sequence[str], text: str, allowed: Collection[str]) -> tuple[list[str], list[str]]:
    """(kept, dropped): citations listed or bracketed in the text, kept only if allowed."""
    every = list(dict.fromkeys([*cited, *qa.cited_ids(text)]))
    return [c for c in every if c in allowed], [c for c in every if c not in allowed]


def _decompose(llm: LLM, graph: GraphIndex, question: str, result: QAResult) -> list[qa.SubQuestion]:
    keys = _keys(graph)
    prompt = Prompt(
        task=qa.DECOMPOSE_TASK,
        stage=STAGE,
        agent="orchestrator",
        system=qa.DECOMPOSE_SYSTEM,
        data=question,
        payload={"question": question, "lexicon": keys},
        prompt_version=qa.PROMPT_VERSION,
    )
    result.calls += 1
    reply = llm.ask(prompt, qa.Decomposition)
    if isinstance(reply, Answer):
        return [
            qa.SubQuestion(text=s.text, concepts=[c for c in s.concepts if c in graph.concepts])
            for s in reply.value.sub_questions
        ]
    result.failures.append(f"orchestrator: {reply.kind}: {reply.reason}")
    if not question:
        return []
    # The whole question is the one sub-question: its concepts are found in all of it, its text is
    # cut to what a sub-question may hold (any question, of any length, gets an answer or "not covered").
    found = [concept for _, _, concept in find_mentions(question, keys)]
    text = qa.clipped(question, qa.MAX_SUB_QUESTION)
    return [qa.SubQuestion(text=text, concepts=list(dict.fromkeys(found)))]


def _uncovered(result: QAResult) -> QAResult:
    result.covered = False
    result.answer = "The graph does not cover the concepts this question asks about."
    result.short_answer = "Not covered by the graph."
    return result


def answer_routed(
    llm: LLM,
    graph: GraphIndex,
    question: str,
    bridges: Mapping[str, Sequence[str]],
    *,
    top_k: int = 2,
) -> QAResult:
    """Answers ``question`` through decomposition, domain routing, experts and synthesis."""
    result = QAResult(question=question, mode="routed", as_of=graph.as_of)
    subs = _decompose(llm, graph, question, result)
    scopes = domain_scopes(graph, bridges)
    for sub in subs:
        domains = sorted({d for c in sub.concepts for d in (graph.owners.get(c) or (UNOWNED,))})
        result.sub_questions.append({"text": sub.text, "concepts": sub.concepts, "domains": domains})
        for domain in domains:
            scope = scopes.get(domain, frozenset())
            edges = retrieve(graph, sub.text, seeds=sub.concepts, scope=scope, top_k=top_k)
            report = ExpertReport(domain, sub.text, [c for c in sub.concepts if c in scope], [])
            report.edges_seen = [edge.edge_id for edge in edges]
            result.experts.append(report)
            _ask_expert(llm, graph, report, edges, result)
    if not any(sub.concepts for sub in subs):
        return _uncovered(result)
    _synthesize(llm, question, result)
    return result


def _synthesize(llm: LLM, question: str, result: QAResult) -> None:
    answers = [
        {
            "sub_question": e.sub_question,
            "domain": e.domain,
            "answer": e.answer,
            "short_answer": e.short_answer,
            "citations": e.citations,
        }
        for e in result.experts
        if not e.failure
    ]
    prompt = Prompt(
        task=qa.SYNTHESIS_TASK,
        stage=STAGE,
        agent="synthesis",
        system=qa.SYNTHESIS_SYSTEM,
        data=question,
        payload={"question": question, "answers": answers},
        prompt_version=qa.PROMPT_VERSION,
    )
    result.calls += 1
    reply = llm.ask(prompt, qa.Synthesis)
    shown = {edge for e in result.experts for edge in e.edges_seen}
    if not isinstance(reply, Answer):
        result.failures.append(f"synthesis: {reply.kind}: {reply.reason}")
        result.answer = " ".join(e.answer for e in result.experts if e.citations)
        result.short_answer = " ".join(e.short_answer for e in result.experts if e.short_answer)
        result.citations = list(dict.fromkeys(c for e in result.experts for c in e.citations))
    else:
        result.answer, result.short_answer = reply.value.answer, reply.value.short_answer
        result.citations, result.dropped = _checked(reply.value.citations, reply.value.answer, shown)
    result.dropped = list(dict.fromkeys([*(d for e in result.experts for d in e.dropped), *result.dropped]))


def answer_flat(llm: LLM, graph: GraphIndex, question: str, *, top_k: int = 2) -> QAResult:
    """The baseline: one retrieval over the whole graph and one answering call, no routing."""
    result = QAResult(question=question, mode="flat", as_of=graph.as_of)
    found = list(dict.fromkeys(c for _, _, c in find_mentions(question, _keys(graph))))
    result.sub_questions.append({"text": question, "concepts": found, "domains": []})
    if not found:
        return _uncovered(result)
    edges = retrieve(graph, question, seeds=found, scope=None, top_k=top_k)
    report = ExpertReport("", question, found, [edge.edge_id for edge in edges])
    result.experts.append(report)
    _ask_expert(llm, graph, report, edges, result)
    result.answer, result.short_answer = report.answer, report.short_answer
    result.citations, result.dropped = list(report.citations), list(report.dropped)
    return result


def bridges_of(rows: Sequence[Mapping[str, object]]) -> dict[str, list[str]]:
    """Domain id -> its card's bridge concepts, from ``store.domains()`` rows."""
    found: dict[str, list[str]] = {}
    for row in rows:
        card = json.loads(str(row.get("card") or "{}"))
        found[str(row["id"])] = [str(c) for c in card.get("bridges", [])]
    return found
