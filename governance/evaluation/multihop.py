"""Multi-hop QA samples (MuSiQue, HotpotQA): loaders, the global baseline and EM / token F1.

Each question comes with its own paragraphs; the command ingests them into a fresh graph and
asks the question routed, flat and *global*. Global answers the way GraphRAG's global search
does: every community (domain) summary - here the domain's own edges, its card's facts - is
given to one call (map), and synthesis merges the partial answers (reduce).

The short answer scored is the answer's short answer when the model gives a span (DeepSeek),
else, offline, the first concept the answer names that the question does not: the floor.
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
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agents import qa
from agents.text import find_mentions, lexicon
from governance.experts import ExpertReport, QAResult, ask_counted, ask_expert, expert_answers
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


def short_answer(result: QAResult, graph: GraphIndex, question: str, *, offline: bool) -> str:
    """The span scored: the model's short answer, or offline the first concept named in the answer
    (or cited) that the question does not name."""
    if not offline:
        return result.short_answer
    keys = lexicon([(cid, list(names)) for cid, names in sorted(graph.names.items())])
    asked = {c for _, _, c in find_mentions(question, keys)}
    named = [c for _, _, c in find_mentions(result.answer, keys)]
    named += [
        c for e in result.citations if e in graph.edges for c in (graph.edges[e].src, graph.edges[e].dst)
    ]
    return next((graph.concepts[c].name for c in named if c not in asked and c in graph.concepts), "")


def answer_global(llm: LLM, graph: GraphIndex, question: str) -> QAResult:
    """Map: one call per domain over its edges (its summary); reduce: synthesis of the partials."""
    result = QAResult(question=question, mode="global", as_of=graph.as_of)
    by_domain: dict[str, list[str]] = {}
    for edge in sorted(graph.edges.values(), key=lambda e: e.edge_id):
        for domain in {*graph.owners.get(edge.src, ()), *graph.owners.get(edge.dst, ())} or {""}:
            by_domain.setdefault(domain, []).append(edge.edge_id)
    for domain, edge_ids in sorted(by_domain.items()):
        report = ExpertReport(domain, question, [], edge_ids)
        result.experts.append(report)
        ask_expert(llm, graph, report, [graph.edges[e] for e in edge_ids], result)
    result.edges_read = len(graph.edges)
    answers = expert_answers(result.experts, question)
    prompt = Prompt(
        task=qa.SYNTHESIS_TASK,
        stage="qa",
        agent="synthesis:global",
        system=qa.SYNTHESIS_SYSTEM,
        data=question,
        payload={"answers": answers},
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = ask_counted(llm, prompt, qa.Synthesis, result)
    if isinstance(reply, Answer):
        result.answer, result.short_answer = reply.value.answer, reply.value.short_answer
        shown = {e for report in result.experts for e in report.edges_seen}
        result.citations = [c for c in reply.value.citations if c in shown]
    else:
        result.failures.append(f"synthesis: {reply.kind}: {reply.reason}")
    result.covered = bool(result.citations)
    return result
