"""Multi-hop QA samples (MuSiQue, HotpotQA): loaders, the global baseline and EM / token F1.

Each question comes with its own paragraphs; the command ingests them into a fresh graph and
asks the question routed, flat and *global*. Global answers the way GraphRAG's global search
does, map and reduce over every community whatever the question names: each domain (and the
unowned scope) is one call (map) over the domain's own edges and the lesson excerpts of its
scope that best match the question (:mod:`governance.excerpts`), and synthesis merges the
partial answers (reduce).

The short answer scored is the answer's short answer, with either provider: offline, the span
the reader chose from the excerpts (:mod:`agents.answer_spans`), and none (scored 0) when it
chose none.
Scores follow SQuAD's normalisation (lower case, no punctuation, no articles, single spaces),
the best over the answer and its aliases.

>>> exact_match("The Beatles", ["beatles"]), round(token_f1("the new york times", ["New York"]), 3)
(1.0, 0.8)
"""

from __future__ import annotations

import json
import re
import string
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from agents import qa, synthesis
from governance.excerpts import find_excerpts
from governance.experts import (
    NOT_COVERED,
    UNOWNED,
    ExpertReport,
    QAResult,
    ask_counted,
    ask_expert,
    expert_answers,
    graph_tokens,
)
from governance.qa import domain_scopes
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.port import LLM, Answer, Prompt

__all__ = [
    "MultiHopItem",
    "answer_global",
    "exact_match",
    "load_hotpotqa",
    "load_musique",
    "short_answer",
    "token_f1",
]


@dataclass(frozen=True)
class MultiHopItem:
    id: str
    question: str
    answers: tuple[str, ...]
    paragraphs: tuple[tuple[str, str], ...]
    """(title, text) of every paragraph given with the question."""


def _lines(path: Path, limit: int) -> list[dict[str, object]]:
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                rows.append(json.loads(line))
            if len(rows) >= limit:
                break
    return rows


def load_musique(path: Path, limit: int) -> list[MultiHopItem]:
    """The first ``limit`` items of a MuSiQue JSON-lines file."""
    items = []
    for row in _lines(path, limit):
        paragraphs = row.get("paragraphs")
        aliases = row.get("answer_aliases")
        items.append(
            MultiHopItem(
                str(row["id"]),
                str(row["question"]),
                (str(row["answer"]), *(str(a) for a in (aliases if isinstance(aliases, list) else []))),
                tuple(
                    (str(p["title"]), str(p["paragraph_text"]))
                    for p in (paragraphs if isinstance(paragraphs, list) else [])
                ),
            )
        )
    return items


def load_hotpotqa(path: Path, limit: int) -> list[MultiHopItem]:
    """The first ``limit`` items of a HotpotQA (distractor) JSON-lines file."""
    items = []
    for row in _lines(path, limit):
        context = row.get("context")
        items.append(
            MultiHopItem(
                str(row["_id"]),
                str(row["question"]),
                (str(row["answer"]),),
                tuple(
                    (str(title), " ".join(str(s) for s in sentences))
                    for title, sentences in (context if isinstance(context, list) else [])
                ),
            )
        )
    return items


def _normal(text: str) -> str:
    text = "".join(ch for ch in text.lower() if ch not in set(string.punctuation))
    return " ".join(re.sub(r"\b(a|an|the)\b", " ", text).split())


def exact_match(said: str, answers: Sequence[str]) -> float:
    return float(any(_normal(said) == _normal(a) for a in answers))


def token_f1(said: str, answers: Sequence[str]) -> float:
    best = 0.0
    for answer in answers:
        ours, gold = _normal(said).split(), _normal(answer).split()
        common = sum((Counter(ours) & Counter(gold)).values())
        if common:
            precision, recall = common / len(ours), common / len(gold)
            best = max(best, 2 * precision * recall / (precision + recall))
    return best


def short_answer(result: QAResult) -> str:
    """The span scored: the answer's short answer, with either provider (offline, the span the
    reader chose, :mod:`agents.answer_spans`), less what it says the graph does not cover (a gap
    repeats the question's names, which token F1 would score as an answer, and "No answer in the
    graph." would score 0.4 against "no")."""
    said = result.short_answer
    for gap in (*result.uncovered, NOT_COVERED, synthesis.NO_ANSWER):
        said = said.replace(gap, " ")
    return " ".join(said.split())


def answer_global(
    llm: LLM, graph: GraphIndex, question: str, bridges: Mapping[str, Sequence[str]]
) -> QAResult:
    """Map: one call per community - each domain, and the unowned scope - over its edges and its
    lesson excerpts that match the question; reduce: synthesis of the partial answers."""
    result = QAResult(question=question, mode="global", as_of=graph.as_of)
    by_domain: dict[str, list[str]] = {}
    for edge in sorted(graph.edges.values(), key=lambda e: e.edge_id):
        for domain in {*graph.owners.get(edge.src, ()), *graph.owners.get(edge.dst, ())} or {UNOWNED}:
            by_domain.setdefault(domain, []).append(edge.edge_id)
    scopes = domain_scopes(graph, bridges)
    for domain in sorted({*by_domain, *scopes, UNOWNED}):
        edge_ids = by_domain.get(domain, [])
        excerpts = find_excerpts(
            graph, question, scope=scopes.get(domain, frozenset()), unowned=domain == UNOWNED
        )
        if not edge_ids and not excerpts:
            continue
        report = ExpertReport(domain, question, [], edge_ids)
        result.experts.append(report)
        ask_expert(llm, graph, report, [graph.edges[e] for e in edge_ids], result, excerpts=excerpts)
    result.edges_read, result.graph_tokens = len(graph.edges), graph_tokens(graph, graph.edges)
    answers = expert_answers(result.experts, question)
    prompt = Prompt(
        task=synthesis.SYNTHESIS_TASK,
        stage="qa",
        agent="synthesis:global",
        system=synthesis.SYNTHESIS_SYSTEM,
        data=question,
        payload={"answers": answers},
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = ask_counted(llm, prompt, synthesis.Synthesis, result)
    if isinstance(reply, Answer):
        result.answer, result.short_answer = reply.value.answer, reply.value.short_answer
        shown = {cited for report in result.experts for cited in (*report.edges_seen, *report.excerpts_seen)}
        result.citations = [c for c in reply.value.citations if c in shown]
    else:
        result.failures.append(f"synthesis: {reply.kind}: {reply.reason}")
    result.covered = bool(result.citations)
    return result
