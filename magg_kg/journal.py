"""The journal: audit events for the writes that change what the graph says, and their replay.

Every fact-changing operation (a decision, an edge committed or invalidated, a review enqueued, a
lesson registered) travels with an ``append_audit`` event whose payload is the operation itself,
so the hash-chained audit log is also the decision log: :func:`replay_edges` rebuilds every edge
version from it alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from magg_kg.ids import make_id
from magg_kg.operations import (
    AddLesson,
    AppendAudit,
    CommitEdge,
    EnqueueReview,
    InvalidateEdge,
    Operation,
    RecordDecision,
)
from magg_kg.records import AuditEvent, EdgeVersion, Grounding, Span, canonical_json

__all__ = ["journaled", "replay_edges"]

_AUDITED = (AddLesson, CommitEdge, InvalidateEdge, RecordDecision, EnqueueReview)


def _payload(op: Operation) -> str:
    body = op.model_dump(mode="json")
    if isinstance(op, AddLesson):
        body.pop("text")  # the lesson text is kept in `lessons`; its sha256 stands for it here
    return canonical_json(body)


def _subject(op: Operation) -> str:
    if isinstance(op, AddLesson | RecordDecision):
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
