"""The domain experts' side of question answering: the records of what a question got, and the one
answering call whose citations are checked in code.

An expert is shown edges and may cite only those: a citation of any other edge is dropped and
reported (``dropped``). Its prompt states each thing once: the grounding quotes are the prompt's
data (one line per edge, ``[edge id] quote``), the edges in the payload carry ids, type, ends and
confidence, the concepts' names are one map, and a graph answer carries what the algorithm found
(its edges are the payload's edges, in the answer's order; its headline is written into the
answer in code, never sent to the expert; the concepts found are left out when they are the
path, and what comes first is said for ``which_first`` only). Its instructions are the core and the
rule of each thing its payload carries, a graph answer or excerpts (:func:`agents.qa.answer_system`).

Every question-answering call goes through :func:`ask_counted`, which counts it: ``calls``, and the
estimated tokens of everything its prompt holds (:meth:`~magg_kg.llm.port.Prompt.tokens`:
instructions, data and payload, characters / 4) in ``context_tokens``, by role in
``tokens_by_role`` (orchestrator, expert, synthesis).
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from agents import qa
from agents.quotes import first_quotes
from governance.excerpts import LessonChunk, continuing, lesson_chunks
from governance.graph_answer import GraphAnswer
from governance.mentions import mention_said
from governance.reader_view import edge_quote
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.port import LLM, Answer, Failure, Prompt
from magg_kg.records import EdgeVersion

__all__ = [
    "NOT_COVERED",
    "STAGE",
    "UNOWNED",
    "ExpertReport",
    "QAResult",
    "ask_counted",
    "ask_expert",
    "checked",
    "chunk_json",
    "edge_json",
    "edge_payload",
    "expert_answers",
    "graph_tokens",
    "role_of",
    "supported",
]

R = TypeVar("R", bound=BaseModel)

_PIECE = re.compile(r"(?:(?<=\][.!?])|(?<=\]))\s+")
"""Where a piece of an answer ends: after its bracketed citations (and their full stop)."""
NOT_COVERED = "Not covered by the graph."
"""The short answer of a question the graph does not cover at all."""
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
    excerpts_seen: list[str] = field(default_factory=list)
    support: float = 0.0
    lacked: str = ""
    """A term the graph lacks that the sub-question asks about (:mod:`governance.lacked_subjects`):
    a sentence the expert quotes says it."""


_QUOTED = re.compile(r'"([^"]+)"')
"""A name or a question quoted in what the graph does not cover."""


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
    graph_answers: list[GraphAnswer] = field(default_factory=list)
    uncovered: list[str] = field(default_factory=list)
    edges_read: int = 0
    graph_tokens: int = 0
    domains_read: list[str] = field(default_factory=list)
    context_edges: int = 0
    context_excerpts: int = 0
    context_tokens: int = 0
    tokens_by_role: dict[str, int] = field(default_factory=dict)
    lessons_first: bool = False
    """Whether the experts' answers go before the graph answers' headlines (:meth:`assemble`)."""

    @property
    def question_type(self) -> str:
        """The type of the first sub-question ("open" when there is none)."""
        return str(self.sub_questions[0].get("type", "open")) if self.sub_questions else "open"

    @property
    def path(self) -> list[str]:
        """The concepts of the first path the graph answers hold, if any."""
        return next((a.path for a in self.graph_answers if a.path), [])

    def lacks(self, said: str) -> None:
        """``said``, what the graph does not cover of one part of the question, added to what the
        answer says, unless the part is a question about a name the answer says already it does not
        cover: "What is mixed precision training and does it hurt accuracy?" says so of "mixed
        precision training" once, not again of "does mixed precision training hurt accuracy?".

        >>> result = QAResult("", "flat", None, uncovered=['The graph does not cover "LoRA".'])
        >>> result.lacks('The graph does not cover "does LoRA hurt accuracy?".')
        >>> result.lacks('The graph does not cover "does dropout hurt accuracy?".')
        >>> result.uncovered[1:]
        ['The graph does not cover "does dropout hurt accuracy?".']
        """
        gaps = " ".join(self.uncovered)
        if (quoted := _QUOTED.findall(said)) and all(f'explain "{n}"' in gaps for n in quoted):
            return  # what the lessons only name (governance.mentions) is said once
        names = [name for line in self.uncovered for name in _QUOTED.findall(line) if not name.endswith("?")]
        asked = [part for part in _QUOTED.findall(said) if part.endswith("?")]
        if not any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", a, re.I) for n in names for a in asked):
            self.uncovered.append(said)

    def gaps(self) -> list[str]:
        """What the graph does not cover, each said once: two parts that lack one name say it once,
        whether in quotes or not ('The graph does not cover "early stopping".' and 'The graph does
        not cover early stopping.' from "How does early stopping work, and is it a kind of
        regularization?").

        >>> said = ['The graph does not cover "early stopping".', "The graph does not cover early stopping."]
        >>> QAResult("", "flat", None, uncovered=[*said, "The graph does not cover LoRA.", said[1]]).gaps()
        ['The graph does not cover "early stopping".', 'The graph does not cover LoRA.']
        """
        said: dict[str, str] = {}
        for line in self.uncovered:
            said.setdefault(line.replace('"', "").casefold(), line)
        return list(said.values())

    def not_covered(self) -> QAResult:
        """This result as the answer to a question the graph does not cover: what it does not
        cover, said."""
        self.covered = False
        named = " ".join(self.gaps())
        self.answer = named or "The graph does not cover the concepts this question asks about."
        self.short_answer = NOT_COVERED
        return self

    def assemble(self) -> QAResult:
        """This result with its answer written in code, when there is nothing for synthesis to merge:
        the graph answers' headlines, then the experts' answers in order (a path's steps in the order
        of the path; the answers before the headlines with :attr:`lessons_first`), each lesson sentence
        quoted once (:func:`agents.quotes.first_quotes`), then what the graph does not cover."""
        heads = [a.headline for a in self.graph_answers if a.covered]
        pieces = [p.strip() for e in self.experts if e.citations for p in _PIECE.split(e.answer) if p.strip()]
        kept = first_quotes(heads, list(dict.fromkeys(pieces)), claims=True)  # each quote once
        said = [*kept, *heads] if self.lessons_first else [*heads, *kept]  # what a comparison asks first
        self.answer = " ".join(dict.fromkeys([*said, *self.gaps()]))
        read = [e.short_answer for e in self.experts if e.citations and e.short_answer]
        shorts = (read[:1] or heads) if self.lessons_first else (heads or read)
        self.short_answer = " ".join(dict.fromkeys(shorts or self.gaps()))
        left_out = " ".join(p for p in pieces if p not in kept)
        unsaid = set(qa.cited_ids(left_out)) - set(qa.cited_ids(self.answer))
        self.citations = list(dict.fromkeys(c for e in self.experts for c in e.citations if c not in unsaid))
        self.dropped = list(dict.fromkeys(d for e in self.experts for d in e.dropped))
        return self

    def gap_first(self, gap: str) -> QAResult:
        """This result with ``gap`` said first in its answer: what the graph does not cover of the
        question's own subject ("LoRA" in "How do I use LoRA to fine-tune a model on a GPU?") comes
        before what the lessons say of its other words, not after it."""
        if gap and self.answer and not self.answer.startswith(gap):
            rest = self.answer.replace(f" {gap}", "").replace(gap, "").strip()
            self.answer = f"{gap} {rest}".strip()
        return self

    def cite_headlines(self) -> QAResult:
        """This result with the edges its graph answers' headlines cite (``GraphAnswer.cited``: the
        related concepts of an uncovered answer) among its citations, those its answer shows, and
        not among those dropped (synthesis, shown the headline, keeps its ids). Added once the answer
        is written and ``covered`` settled: they say what the graph holds beside an answer, they
        answer nothing."""
        shown = [edge for answer in self.graph_answers for edge in answer.cited if edge in self.answer]
        self.citations = list(dict.fromkeys([*self.citations, *shown]))
        self.dropped = [cited for cited in self.dropped if cited not in shown]
        return self

    def as_json(self, graph: GraphIndex) -> dict[str, object]:
        chunks = {chunk.id: chunk for chunk in lesson_chunks(graph)} if self.context_excerpts else {}
        return {
            "question": self.question,
            "mode": self.mode,
            "as_of": self.as_of,
            "type": self.question_type,
            "covered": self.covered,
            "answer": self.answer,
            "short_answer": self.short_answer,
            "path": self.path,
            "graph_answers": [a.as_json() for a in self.graph_answers],
            "uncovered": self.uncovered,
            "read": {
                "edges": self.edges_read,
                "graph_tokens": self.graph_tokens,
                "domains": self.domains_read,
                "context_edges": self.context_edges,
                "context_excerpts": self.context_excerpts,
                "context_tokens": self.context_tokens,
                "tokens_by_role": self.tokens_by_role,
            },
            "citations": [edge_json(graph.edges[e]) for e in self.citations if e in graph.edges],
            "excerpts_cited": [chunk_json(chunks[c]) for c in self.citations if c in chunks],
            "dropped_citations": self.dropped,
            "sub_questions": self.sub_questions,
            "experts": [expert.__dict__ for expert in self.experts],
            "calls": self.calls,
            "failures": self.failures,
        }


def edge_json(edge: EdgeVersion) -> dict[str, object]:
    return {
        "edge_id": edge.edge_id,
        "src": edge.src,
        "type": edge.type,
        "dst": edge.dst,
        "confidence": edge.grounding.confidence,
        "quote": edge.grounding.evidence[0].quote,
    }


def chunk_json(chunk: LessonChunk) -> dict[str, object]:
    return {"chunk_id": chunk.id, "lesson_id": chunk.lesson_id, "title": chunk.title}


def edge_payload(edges: Sequence[EdgeVersion]) -> list[dict[str, object]]:
    """The edges as an answering prompt's payload carries them: no quote (the quotes are the
    prompt's data) and no names (the prompt's ``names`` map has them)."""
    return [
        {
            "edge_id": edge.edge_id,
            "src": edge.src,
            "type": edge.type,
            "dst": edge.dst,
            "confidence": edge.grounding.confidence,
        }
        for edge in edges
    ]


def graph_tokens(graph: GraphIndex, edge_ids: Iterable[str]) -> int:
    """The tokens of the edges read, each as an answering prompt holds it (its ``[id] quote`` data
    line and its payload entry, characters / 4; counted once per graph): how much of the graph a
    question read, apart from what its prompts hold besides."""
    sizes = graph.kept("edge tokens", lambda: {e: _characters(graph, x) for e, x in graph.edges.items()})
    return sum(sizes.get(e, 0) for e in edge_ids) // 4


def _characters(graph: GraphIndex, edge: EdgeVersion) -> int:
    return len(_line(graph, edge)) + len(json.dumps(edge_payload([edge])[0], ensure_ascii=False))


def _line(graph: GraphIndex, edge: EdgeVersion) -> str:
    """An edge as an answering prompt's data holds it: ``[edge id] quote``, on one line, the quote
    as its lesson reads (:func:`~governance.reader_view.edge_quote`: no link target, URL or code)."""
    return f"[{edge.edge_id}] {edge_quote(graph, edge)}"


def role_of(prompt: Prompt) -> str:
    """The role a prompt is asked of: its agent up to the first colon ("expert:d-1" -> "expert")."""
    return prompt.agent.split(":", 1)[0]


def ask_counted(llm: LLM, prompt: Prompt, schema: type[R], result: QAResult) -> Answer[R] | Failure:
    """One question-answering call, counted: a call, and every token its prompt holds; not a call
    the spend cap kept from being made (its failure says so)."""
    reply = llm.ask(prompt, schema)
    if isinstance(reply, Failure) and reply.kind == "over_budget":
        return reply
    result.calls += 1
    tokens = prompt.tokens()
    result.context_tokens += tokens
    role = role_of(prompt)
    result.tokens_by_role[role] = result.tokens_by_role.get(role, 0) + tokens
    return reply


def ask_expert(
    llm: LLM,
    graph: GraphIndex,
    report: ExpertReport,
    edges: Sequence[EdgeVersion],
    result: QAResult,
    graph_answer: GraphAnswer | None = None,
    excerpts: Sequence[LessonChunk] = (),
    subject: str = "",
    compare: Sequence[str] = (),
    about: Sequence[str] = (),
    sides: Sequence[str] = (),
) -> None:
    """One expert's call: shown its edges (and the lesson excerpts of its scope, for an open
    question), it may cite only those; ``subject``: what a question that names no concept asks
    about, when it asks what that is for (:func:`agents.qa.purpose_subject`); ``compare``: the
    names of concepts no edge joins, whose relation the excerpts are read for; ``about``: the names
    of the concepts a question about where one is taught asks about, when its scope owns none of
    them (a sentence that names one answers it); ``sides``: the names of all that a comparison compares,
    where another expert reads some of them. When the call fails
    on a graph answer, the report cites the answer's edges, the support of the headline written in
    code, and the failure is recorded."""
    concepts = [*report.concepts, *(c for e in edges for c in (e.src, e.dst))]
    names = {c: graph.concepts[c].name for c in dict.fromkeys(concepts) if c in graph.concepts}
    found = _found(graph_answer) if graph_answer is not None else {}
    lines = [_line(graph, e) for e in edges]
    lines += [f"[{chunk.id}] {' '.join(chunk.text.split())}" for chunk in excerpts]
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage=STAGE,
        agent=f"expert:{report.domain}" if report.domain else "expert:flat",
        domain=report.domain,
        system=qa.answer_system(graph_answer=bool(found), excerpts=bool(excerpts)),
        data="\n".join(lines),
        payload={
            "question": report.sub_question,
            "concepts": report.concepts,
            "names": names,
            "edges": edge_payload(edges),
            **({"graph_answer": found} if found else {}),
            **({"excerpts": {chunk.id: chunk.title for chunk in excerpts}} if excerpts else {}),
            **(
                {"continued": going}
                if (going := [c.id for c in excerpts if c.id in continuing(graph)])
                else {}
            ),
            **({"subject": subject} if subject else {}),
            **({"lacked": report.lacked} if report.lacked else {}),
            **({"compare": list(compare)} if compare else {}),
            **({"sides": list(sides)} if sides else {}),
            **({"about": list(about)} if about else {}),
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    report.excerpts_seen = [chunk.id for chunk in excerpts]
    result.context_edges += len(edges)
    result.context_excerpts += len(excerpts)
    reply = ask_counted(llm, prompt, qa.ExpertAnswer, result)
    if not isinstance(reply, Answer):
        report.failure = f"{reply.kind}: {reply.reason}"
        result.failures.append(f"expert {report.domain or 'flat'}: {report.failure}")
        if graph_answer is not None:
            # The answer's headline is written in code from these edges: they still support it.
            report.citations = [edge.edge_id for edge in edges]
        return
    shown = {edge.edge_id for edge in edges} | set(report.excerpts_seen)
    report.citations, report.dropped = checked(reply.value.citations, reply.value.answer, shown)
    report.answer = supported(reply.value.answer, report.dropped)
    quotes = set(report.citations) <= set(report.excerpts_seen) and not (compare or sides or graph_answer)
    if report.citations and quotes and (said := mention_said(report.sub_question, report.answer)):
        report.citations, report.answer = [], ""  # a sentence that only names what is asked answers nothing
        if said.split(";")[0] not in "\n".join(result.uncovered):  # said once, of each name
            result.lacks(said)
    if report.citations:  # an answer that cites nothing it was shown has nothing to stand on
        report.short_answer = reply.value.short_answer
        report.support = reply.value.support


def _found(answer: GraphAnswer) -> dict[str, object]:
    """What a graph answer tells its expert, each thing once: the type, the concepts found (left
    out when they are the path), the path, and what comes first (for ``which_first``: of a path it
    is the path's start)."""
    told: dict[str, object] = {"type": answer.type}
    if answer.found != answer.path:
        told["found"] = answer.found
    if answer.path:
        told["path"] = answer.path
    if answer.type == "which_first" and answer.first:
        told["first"] = answer.first
    return told


def supported(text: str, dropped: Collection[str]) -> str:
    """``text`` without the pieces (each up to its bracketed citations) that cite only ``dropped``
    ids: a claim whose every citation was refused is not said. Pieces that cite nothing stay.

    >>> supported("A [e-1]. B [e-9]. So A.", {"e-9"})
    'A [e-1]. So A.'
    """
    if not dropped:
        return text
    pieces = _PIECE.split(text)
    kept = [p for p in pieces if not (cited := qa.cited_ids(p)) or not set(cited) <= set(dropped)]
    return " ".join(p.strip() for p in kept if p.strip())


def checked(cited: Sequence[str], text: str, allowed: Collection[str]) -> tuple[list[str], list[str]]:
    """(kept, dropped): citations listed or bracketed in the text, kept only if allowed."""
    every = list(dict.fromkeys([*cited, *qa.cited_ids(text)]))
    return [c for c in every if c in allowed], [c for c in every if c not in allowed]


def expert_answers(reports: Sequence[ExpertReport], question: str | None = None) -> list[dict[str, object]]:
    """The experts' answers as the synthesis prompt carries them (failed experts left out), each
    under its own sub-question, or under ``question`` when one is given."""
    return [
        {
            "sub_question": question if question is not None else e.sub_question,
            "domain": e.domain,
            "answer": e.answer,
            "short_answer": e.short_answer,
            "support": e.support,
            "citations": e.citations,
        }
        for e in reports
        if not e.failure
    ]
