"""Governed ingestion: lessons in, one atomic batch per lesson out.

``ingest(paths, ctx)``:

1. reads every lesson (:mod:`magg_kg.lessons`); a file that is not a lesson is refused and
   reported, the others go on; a lesson whose content hash is stored is skipped (no model call),
   and one whose hash was already seen under another name is reported as a duplicate;
2. extracts concepts and candidate edges from each new lesson (:mod:`agents.extraction`);
3. recomputes the domains once (:mod:`governance.domains`), written in their own batch;
4. for each new lesson, in order: builds its proposals, records what verification dropped,
   re-judges what a previous version of the lesson alone supported (a standing proposal it no
   longer supports is rejected; an active edge whose every quote came from the old version and
   that the new one does not support is invalidated, never deleted), runs admission
   (:mod:`governance.admission`) and writes everything - lesson, chunks, concepts, aliases,
   lesson-concept links, proposals, decisions, gate writes and LLM usage - as ONE batch whose id
   comes from the lesson's hash, so a retried run is harmless.

The gate, when there is one, stands behind the taint rule (:mod:`governance.taint`): a proposal
whose evidence shares a section of its lesson with instruction-like text, or overlaps hidden text,
is quarantined for a person instead of being judged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Protocol

from agents.cost import Cost
from agents.evidence import Candidate
from agents.extraction import Extraction, Registry, extract_lesson
from governance.admission import AdmissionContext, admit
from governance.domains import Layout, card, compute_layout, layout_ops, weighted_graph
from governance.memory import Support
from governance.rules import RuleEngine
from governance.stages import Gate
from governance.taint import Quarantine
from governance.versions import decision, rejudge
from governance.writes import proposal_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import InputError
from magg_kg.journal import journaled
from magg_kg.lessons import DEFAULT_MAX_BYTES, LessonText, find_lessons, read_lesson
from magg_kg.llm.port import LLM
from magg_kg.operations import (
    AddAlias,
    AddChunk,
    AddConcept,
    AddLesson,
    Batch,
    InvalidateEdge,
    LinkLessonConcept,
    Operation,
    SpanData,
)
from magg_kg.records import Lesson, Proposal, Span, stable_id
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["IngestContext", "IngestReport", "LessonOutcome", "UsageSource", "ingest"]

Status = Literal["new", "new-version", "skipped", "duplicate", "refused"]
Progress = Callable[[str, int, int, str], None]


class UsageSource(Protocol):
    def drain(self) -> list[Operation]:
        """The usage records of the calls made since the last drain."""
        ...


@dataclass
class IngestContext:
    store: Store
    llm: LLM
    clock: Clock
    policy: Policy
    seed: int = 7
    schema: GraphSchema = CURRICULUM
    gate: Gate | None = None
    flat: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES
    usage: UsageSource | None = None
    progress: Progress | None = None


@dataclass(frozen=True)
class LessonOutcome:
    path: str
    status: Status
    lesson_id: str = ""
    detail: str = ""
    concepts: int = 0
    proposals: int = 0
    hidden: tuple[str, ...] = ()
    """The hidden text spans found in the lesson and ignored, as "<reason> at <start>-<end>"."""


@dataclass
class IngestReport:
    lessons: list[LessonOutcome] = field(default_factory=list)
    concepts: int = 0
    aliases: int = 0
    proposals: int = 0
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    states: Counter[str] = field(default_factory=Counter)
    cost: dict[str, Cost] = field(default_factory=dict)
    domains: int = 0
    invalidated: int = 0
    failures: list[str] = field(default_factory=list)

    def count(self, status: Status) -> int:
        return sum(1 for lesson in self.lessons if lesson.status == status)


def _step(ctx: IngestContext, phase: str, done: int, total: int, what: str) -> None:
    if ctx.progress is not None:
        ctx.progress(phase, done, total, what)


def _read(
    ctx: IngestContext, paths: Sequence[Path], report: IngestReport
) -> list[tuple[LessonText, Lesson | None]]:
    fresh: list[tuple[LessonText, Lesson | None]] = []
    seen: dict[str, str] = {}
    latest: dict[str, Lesson] = {}
    for stored in ctx.store.lessons():
        latest[stored.lesson_key] = stored
    for path, key in find_lessons(list(paths)):
        try:
            lesson = read_lesson(path, key, max_bytes=ctx.max_bytes)
        except InputError as error:
            report.lessons.append(LessonOutcome(str(path), "refused", detail=str(error)))
            continue
        known = ctx.store.lesson_by_sha256(lesson.sha256)
        if known is not None or lesson.sha256 in seen:
            first = known.id if known is not None else seen[lesson.sha256]
            same = known is not None and known.lesson_key == lesson.key
            status: Status = "skipped" if same else "duplicate"
            detail = "unchanged since it was ingested" if same else f"same text as lesson {first}"
            report.lessons.append(LessonOutcome(str(path), status, first, detail))
            continue
        seen[lesson.sha256] = lesson.id
        fresh.append((lesson, latest.get(lesson.key)))
    return fresh


def ingest(paths: Sequence[Path], ctx: IngestContext) -> IngestReport:
    """Ingests lessons (files or folders) through governed admission."""
    report = IngestReport()
    fresh = _read(ctx, paths, report)
    if not fresh:
        return report
    store = ctx.store
    registry = Registry(store.concepts(), store.aliases())
    stored_proposals = store.proposals()
    corroborations: Counter[tuple[str, str, str]] = Counter(
        (p.src, p.type, p.dst) for p in stored_proposals if p.state in ("proposed", "committed")
    )
    extractions: list[tuple[LessonText, Lesson | None, Extraction]] = []
    for index, (lesson, previous) in enumerate(fresh):
        _step(ctx, "extracting", index, len(fresh), lesson.key)
        extraction = extract_lesson(lesson, ctx.llm, registry, ctx.schema, corroborations)
        for candidate in extraction.candidates:
            corroborations[candidate.triple] += 1
        report.failures += [f"{lesson.id}: {failure}" for failure in extraction.failures]
        report.cost.setdefault("extraction", Cost()).add(extraction.cost)
        extractions.append((lesson, previous, extraction))
    _step(ctx, "extracting", len(fresh), len(fresh), "")
    active = store.edges()
    support = Support(
        facts={(e.src, e.type, e.dst) for e in active},
        claims=Counter((p.src, p.type, p.dst) for p in stored_proposals if p.state == "proposed"),
    )
    # Owners see what the whole run's lessons claim; each claim leaves the count when it is rejected.
    support.claims.update(c.triple for _, _, ex in extractions for c in ex.candidates)
    layout = _domains(ctx, registry, extractions, support, report)
    rules = RuleEngine(
        ctx.schema,
        {cid: info.type for cid, info in registry.concepts.items()},
        [(e.src, e.type, e.dst) for e in active],
    )
    texts = {lesson.id: (lesson.text, lesson.flavor) for lesson, _, _ in extractions}
    admission = AdmissionContext(
        llm=ctx.llm,
        rules=rules,
        layout=layout,
        policy=ctx.policy,
        clock=ctx.clock,
        names=registry.names,
        support=support,
        # The taint rule: evidence beside an instruction in its lesson waits for a person.
        gate=Quarantine(ctx.gate, ctx.policy, ctx.clock, texts.get) if ctx.gate is not None else None,
        flat=ctx.flat,
    )
    for index, (lesson, previous, extraction) in enumerate(extractions):
        _step(ctx, "admitting", index, len(extractions), lesson.key)
        _admit_lesson(ctx, lesson, previous, extraction, admission, stored_proposals, report)
    _step(ctx, "admitting", len(extractions), len(extractions), "")
    return report


def _domains(
    ctx: IngestContext,
    registry: Registry,
    extractions: list[tuple[LessonText, Lesson | None, Extraction]],
    support: Support,
    report: IngestReport,
) -> Layout:
    store = ctx.store
    groups: dict[str, list[str]] = {}
    for row in store.lesson_concepts():
        groups.setdefault(str(row["lesson_id"]), []).append(str(row["concept_id"]))
    for lesson, _, extraction in extractions:
        groups[lesson.id] = [link.concept_id for link in extraction.links]
    edges = [(s, d, 1.0) for s, _, d in support.facts]
    edges += [
        (c.src, c.dst, c.confidence) for _, _, ex in extractions for c in ex.candidates if c.confidence >= 0.5
    ]
    graph = weighted_graph(registry.concepts, edges, groups.values())
    assigned = store.concept_domains()
    previous: dict[str, set[str]] = {}
    for concept, domain_ids in assigned.items():
        for domain_id in domain_ids:
            previous.setdefault(domain_id, set()).add(concept)
    layout = compute_layout(
        graph, previous, {cid: info.name for cid, info in registry.concepts.items()}, ctx.seed
    )
    open_questions = [
        (p.id, p.src, p.type, p.dst) for p in store.proposals() if p.state in ("abstained", "quarantined")
    ]
    cards = {d.id: card(d, support.facts, open_questions) for d in layout.domains}
    at = ctx.clock.now()
    ops: list[Operation] = [
        AddConcept(
            id=info.id, name=info.name[:4096], type=info.type, description=info.description, recorded_at=at
        )
        for _, _, ex in extractions
        for info in ex.new_concepts
    ]
    ops += layout_ops(layout, cards, store.domains(), assigned, at)
    if ops:
        store.write(
            Batch.of(
                stable_id("domains", at, *(lesson.sha256 for lesson, _, _ in extractions)),
                at,
                journaled(ops, at),
            )
        )
    report.domains = len(layout.domains)
    return layout


def _span(candidate: Candidate, lesson_id: str) -> Span:
    return Span(
        lesson_id=lesson_id,
        chunk_id=candidate.chunk_id,
        start=candidate.start,
        end=candidate.end,
        quote=candidate.quote,
        kind=candidate.kind,
    )


def _proposal(candidate: Candidate, lesson_id: str, at: str) -> Proposal:
    return Proposal(
        id=stable_id("p", lesson_id, candidate.src, candidate.type, candidate.dst),
        src=candidate.src,
        type=candidate.type,
        dst=candidate.dst,
        confidence=round(min(1.0, max(0.0, candidate.confidence)), 6),
        evidence=(_span(candidate, lesson_id),),
        origin="ingest",
        lesson_id=lesson_id,
        rationale=candidate.reasoning[:20_000],
        created_at=at,
    )


def _admit_lesson(
    ctx: IngestContext,
    lesson: LessonText,
    previous: Lesson | None,
    extraction: Extraction,
    admission: AdmissionContext,
    stored_proposals: list[Proposal],
    report: IngestReport,
) -> None:
    at = ctx.clock.now()
    ops: list[Operation] = [
        AddLesson(
            id=lesson.id,
            lesson_key=lesson.key,
            title=lesson.title,
            sha256=lesson.sha256,
            source_path=lesson.source_path,
            text=lesson.text,
            supersedes=previous.id if previous else None,
            ingested_at=at,
        ),
        *(
            AddChunk(
                id=c.id, lesson_id=lesson.id, ordinal=c.ordinal, start=c.start, end=c.end, heading=c.heading
            )
            for c in lesson.chunks
        ),
        *(
            AddConcept(id=i.id, name=i.name[:4096], type=i.type, description=i.description, recorded_at=at)
            for i in extraction.new_concepts
        ),
        *(
            AddAlias(alias=alias[:4096], concept_id=concept, recorded_at=at)
            for alias, concept in extraction.new_aliases
        ),
        *(
            LinkLessonConcept(
                lesson_id=lesson.id,
                concept_id=link.concept_id,
                role=link.role,
                recorded_at=at,
                evidence=[
                    SpanData(
                        lesson_id=lesson.id,
                        chunk_id=link.chunk_id,
                        start=link.start,
                        end=link.end,
                        quote=link.quote,
                        kind="explicit",
                    )
                ],
            )
            for link in extraction.links
        ),
    ]
    for candidate, reason in extraction.dropped:
        dropped = _proposal(candidate, lesson.id, at)
        ops.append(proposal_op(dropped))
        ops.append(decision(ctx.policy, dropped.id, "verification", "drop", "rejected", reason, at))
        report.outcomes[("verification", "drop")] += 1
    proposals = [_proposal(c, lesson.id, at) for c in sorted(extraction.candidates, key=lambda c: c.triple)]
    if previous is not None:
        ops += rejudge(
            ctx.store,
            ctx.policy,
            lesson,
            previous,
            proposals,
            admission,
            stored_proposals,
            report.outcomes,
            at,
        )
        report.invalidated += sum(isinstance(op, InvalidateEdge) for op in ops)
    if admission.gate is not None:  # the judge weighs lesson co-occurrence, this lesson's included
        admission.gate.view.add_lesson(lesson.id, [link.concept_id for link in extraction.links])
    result = admit(proposals, admission, f"lesson-{lesson.sha256[:40]}")
    ops += result.ops
    if ctx.usage is not None:
        ops += ctx.usage.drain()
    batch = Batch.of(f"lesson-{lesson.sha256[:40]}", at, journaled(ops, at))
    ctx.store.write(batch)
    report.lessons.append(
        LessonOutcome(
            lesson.source_path,
            "new-version" if previous else "new",
            lesson.id,
            f"supersedes {previous.id}" if previous else "",
            len(extraction.new_concepts),
            len(proposals),
            tuple(f"{h.reason} at {h.start}-{h.end}" for h in lesson.hidden),
        )
    )
    report.concepts += len(extraction.new_concepts)
    report.aliases += len(extraction.new_aliases)
    report.proposals += len(proposals) + len(extraction.dropped)
    report.outcomes.update(result.outcomes)
    report.states.update(result.states.values())
    for stage, cost in result.cost.items():
        report.cost.setdefault(stage, Cost()).add(cost)
