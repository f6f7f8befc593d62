"""The records one lesson writes: the lesson, its chunks, concepts, aliases, lesson-concept links,
and its candidates as proposals (with the verification drops decided at once).

Pure builders: no store, no model. :mod:`governance.ingestion` puts them in the lesson's batch with
the domain changes and what admission decided.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.evidence import ExtractedEdge
from agents.extraction import Extraction
from agents.registry import ConceptInfo
from governance.versions import decision
from magg_kg.builders import proposal_op, propose
from magg_kg.config import Policy
from magg_kg.lessons import LessonText
from magg_kg.operations import (
    AddAlias,
    AddChunk,
    AddConcept,
    AddLesson,
    LinkLessonConcept,
    Operation,
    SpanData,
)
from magg_kg.records import Concept, Lesson, Proposal, Span

__all__ = ["concept_ops", "concepts_of", "dropped_ops", "lesson_ops", "lesson_proposal"]


def concept_ops(concepts: Sequence[ConceptInfo], at: str) -> list[Operation]:
    """The new concepts (first in a batch: domains and links name them)."""
    return [
        AddConcept(id=i.id, name=i.name[:4096], type=i.type, description=i.description, recorded_at=at)
        for i in concepts
    ]


def concepts_of(concepts: Sequence[ConceptInfo], at: str) -> list[Concept]:
    """The new concepts as records, for a judge that must know them before they are written."""
    return [
        Concept(id=i.id, name=i.name[:4096], type=i.type, description=i.description, recorded_at=at)
        for i in concepts
    ]


def lesson_ops(
    lesson: LessonText, previous: Lesson | None, extraction: Extraction, at: str
) -> list[Operation]:
    """The lesson, its chunks, the aliases it registers and the concepts it links."""
    return [
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


def _span(candidate: ExtractedEdge, lesson_id: str) -> Span:
    return Span(
        lesson_id=lesson_id,
        chunk_id=candidate.chunk_id,
        start=candidate.start,
        end=candidate.end,
        quote=candidate.quote,
        kind=candidate.kind,
    )


def lesson_proposal(candidate: ExtractedEdge, lesson_id: str, at: str) -> Proposal:
    """A candidate edge of a lesson as a proposal (its id from the lesson and the triple)."""
    return propose(
        candidate.src,
        candidate.type,
        candidate.dst,
        context=(lesson_id,),
        confidence=round(min(1.0, max(0.0, candidate.confidence)), 6),
        evidence=(_span(candidate, lesson_id),),
        origin="ingest",
        lesson_id=lesson_id,
        rationale=candidate.reasoning,
        created_at=at,
    )


def dropped_ops(policy: Policy, extraction: Extraction, lesson_id: str, at: str) -> list[Operation]:
    """The candidates verification dropped: each a proposal, rejected at once with the reason (a
    triple dropped more than once is recorded once, with the first reason; one that another chunk
    of the lesson proposes is that chunk's proposal)."""
    ops: list[Operation] = []
    seen: set[str] = set()
    kept = {c.triple for c in extraction.candidates}
    for candidate, reason in extraction.dropped:
        dropped = lesson_proposal(candidate, lesson_id, at)
        if dropped.id in seen or candidate.triple in kept:
            continue  # the triple is proposed by another chunk's candidate, or already dropped once
        seen.add(dropped.id)
        ops.append(proposal_op(dropped))
        ops.append(decision(policy, dropped.id, "verification", "drop", "rejected", reason, at))
    return ops
