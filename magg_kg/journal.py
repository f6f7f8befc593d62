"""The journal: audit events for the writes that change what the graph says, and their replay.

Every fact-changing operation (a decision, an edge committed or invalidated, a review enqueued, a
lesson registered) travels with an ``append_audit`` event whose payload is the operation itself,
so the hash-chained audit log is also the decision log: :func:`replay_edges` rebuilds every edge
version from it alone.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
from magg_kg.records import AuditEvent, canonical_json

__all__ = ["ReplayedEdge", "journaled", "replay_edges"]

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


@dataclass(frozen=True)
class ReplayedEdge:
    """An edge version as the journal tells it."""

    version_id: str
    src: str
    type: str
    dst: str
    status: str
    confidence: float
    decision_id: str
    recorded_at: str
    expired_at: str | None
    invalidated_by: str | None


def replay_edges(events: Iterable[AuditEvent]) -> dict[str, ReplayedEdge]:
    """Every edge version rebuilt from the audit log alone, by version id."""
    edges: dict[str, ReplayedEdge] = {}
    for event in events:
        body = json.loads(event.payload)
        if event.kind == "commit_edge":
            edges[body["version_id"]] = ReplayedEdge(
                version_id=body["version_id"],
                src=body["src"],
                type=body["type"],
                dst=body["dst"],
                status="active",
                confidence=float(body["confidence"]),
                decision_id=body["decision_id"],
                recorded_at=body["recorded_at"],
                expired_at=None,
                invalidated_by=None,
            )
        elif event.kind == "invalidate_edge":
            before = edges[body["version_id"]]
            edges[body["version_id"]] = ReplayedEdge(
                **{
                    **before.__dict__,
                    "status": "invalidated",
                    "expired_at": body["expired_at"],
                    "invalidated_by": body["decision_id"],
                }
            )
    return edges
