"""The journal: audit events for the writes that change what the graph says, and their replay.

Every fact-changing operation (a lesson registered, a proposal made, a decision, an edge committed
or invalidated, a review enqueued) travels with an ``append_audit`` event whose payload is the
operation itself, so the hash-chained audit log is also the decision log: :func:`replay_edges`
rebuilds every edge version from it alone, :func:`replay_records` every decision, proposal and
lesson (its text stood for by its sha256). A database written before proposals were journaled
(``add_proposal``) holds proposals with no event of their own.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from magg_kg.ids import make_id
from magg_kg.operations import (
    AddLesson,
    AddProposal,
    AppendAudit,
    CommitEdge,
    EnqueueReview,
    InvalidateEdge,
    Operation,
    RecordDecision,
)
from magg_kg.records import (
    AuditEvent,
    Decision,
    EdgeVersion,
    Grounding,
    Lesson,
    Proposal,
    Span,
    canonical_json,
)

__all__ = ["Journal", "journaled", "replay_edges", "replay_records"]

_AUDITED = (AddLesson, AddProposal, CommitEdge, InvalidateEdge, RecordDecision, EnqueueReview)


def _payload(op: Operation) -> str:
    body = op.model_dump(mode="json")
    if isinstance(op, AddLesson):
        body.pop("text")  # the lesson text is kept in `lessons`; its sha256 stands for it here
    return canonical_json(body)


def _subject(op: Operation) -> str:
    if isinstance(op, AddLesson | AddProposal | RecordDecision):
        return op.id
    if isinstance(op, CommitEdge | InvalidateEdge):
        return op.version_id
    if isinstance(op, EnqueueReview):
        return op.proposal_id
    return ""


def journaled(ops: Sequence[Operation], recorded_at: str) -> list[Operation]:
    """The operations, each fact-changing one followed by its audit event.

    >>> from magg_kg.operations import AddConcept
    >>> t = "2026-01-01T00:00:00.000000Z"
    >>> [op.op for op in journaled([AddConcept(id="a", name="A", type="concept", recorded_at=t)], t)]
    ['add_concept']
    """
    out: list[Operation] = []
    for op in ops:
        out.append(op)
        if isinstance(op, _AUDITED):
            payload = _payload(op)
            out.append(
                AppendAudit(
                    event_id=make_id("audit_event", op.op, payload),
                    kind=op.op,
                    subject=_subject(op),
                    payload=payload,
                    recorded_at=recorded_at,
                )
            )
    return out


def replay_edges(events: Iterable[AuditEvent]) -> dict[str, EdgeVersion]:
    """Every edge version rebuilt from the audit log alone, by version id: each field of it, the
    grounding record and both time axes included, as the store should hold it."""
    edges: dict[str, EdgeVersion] = {}
    for event in events:
        if event.kind == "commit_edge":
            op = CommitEdge.model_validate_json(event.payload)
            grounding = Grounding(
                confidence=op.confidence,
                reason=op.reason,
                source=op.source,
                evidence=tuple(Span.model_validate(span.model_dump()) for span in op.evidence),
            )
            fields = op.model_dump(exclude={"op", "confidence", "reason", "source", "evidence"})
            edges[op.version_id] = EdgeVersion(**fields, status="active", grounding=grounding)
        elif event.kind == "invalidate_edge":
            closed = InvalidateEdge.model_validate_json(event.payload)
            edges[closed.version_id] = edges[closed.version_id].model_copy(
                update={
                    "status": "invalidated",
                    "invalid_at": closed.invalid_at,
                    "expired_at": closed.expired_at,
                    "invalidated_by": closed.decision_id,
                }
            )
    return edges


@dataclass
class Journal:
    """The decisions, proposals and lessons as the audit log records them, by id (a lesson with no
    text: its event carries the text's sha256 instead), the decisions in the order recorded, and
    for each proposal the event of its first decision, and the first ``add_proposal`` event (0
    when the log journals no proposal)."""

    decisions: dict[str, Decision] = field(default_factory=dict)
    proposals: dict[str, Proposal] = field(default_factory=dict)
    lessons: dict[str, Lesson] = field(default_factory=dict)
    first_decided: dict[str, int] = field(default_factory=dict)
    proposals_from: int = 0


def _body(event: AuditEvent) -> dict[str, object]:
    body: dict[str, object] = json.loads(event.payload)
    body.pop("op", None)
    return body


def replay_records(events: Iterable[AuditEvent]) -> Journal:
    """The decisions, proposals and lessons the audit log records (:class:`Journal`), each read as
    the store reads its row (a decision without its ``seq``, a proposal in state ``proposed``, a
    lesson without its text). Raises ValueError for an event that is not its operation's JSON."""
    journal = Journal()
    for event in events:
        if event.kind == "record_decision":
            decision = Decision.model_validate(_body(event), strict=False)
            journal.decisions[decision.id] = decision
            if decision.proposal_id is not None:
                journal.first_decided.setdefault(decision.proposal_id, event.seq)
        elif event.kind == "add_proposal":
            proposal = Proposal.model_validate(_body(event), strict=False)
            journal.proposals[proposal.id] = proposal
            journal.proposals_from = journal.proposals_from or event.seq
        elif event.kind == "add_lesson":
            lesson = Lesson.model_validate({**_body(event), "text": ""}, strict=False)
            journal.lessons[lesson.id] = lesson
    return journal
