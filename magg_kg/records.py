"""Records: the frozen values the system passes around.

Every record is a frozen pydantic model, so it validates where it is built and round-trips
through JSON unchanged. Time stamps are :data:`Timestamp` strings (UTC, microseconds, ``Z``),
whose text order is time order.
"""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from magg_kg.ids import edge_id

__all__ = [
    "AuditEvent",
    "Concept",
    "Decision",
    "EdgeVersion",
    "EvidenceKind",
    "Grounding",
    "Lesson",
    "Proposal",
    "ProposalState",
    "Role",
    "Span",
    "Timestamp",
    "Triple",
    "canonical_json",
    "edge_id",
]

Timestamp = Annotated[
    str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z$")
]
"""ASCII digits only: ``\\d`` would take other scripts' digits, and text order would not be time order."""
Text = Annotated[str, StringConstraints(min_length=1)]
Score = Annotated[float, Field(ge=0.0, le=1.0, allow_inf_nan=False)]
EvidenceKind = Literal["explicit", "implicit", "inferred"]
Role = Literal["teaches", "uses", "mentions"]
ProposalState = Literal["proposed", "committed", "rejected", "abstained", "quarantined", "invalidated"]
Triple = tuple[str, str, str]
"""An edge as (source concept id, edge type, target concept id)."""


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


def canonical_json(value: object) -> str:
    """The one JSON text of a value: sorted keys, no spaces, UTF-8 kept.

    >>> canonical_json({"b": 1, "a": [True, None]})
    '{"a":[true,null],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


class Span(Record):
    """One piece of evidence: an exact quote of a lesson, with its offsets."""

    lesson_id: Text
    chunk_id: str = ""
    start: Annotated[int, Field(ge=0)]
    end: Annotated[int, Field(ge=0)]
    quote: Text
    kind: EvidenceKind


class Grounding(Record):
    """Why a fact is believed: the grounding record carried by every write."""

    confidence: Score
    reason: Text
    source: Text
    evidence: tuple[Span, ...] = Field(min_length=1)


class Concept(Record):
    id: Text
    name: Text
    type: Text
    description: str = ""
    recorded_at: Timestamp


class EdgeVersion(Record):
    """One version of a typed edge, with its grounding record and two time axes."""

    version_id: Text
    edge_id: Text
    src: Text
    type: Text
    dst: Text
    status: Literal["active", "invalidated"]
    grounding: Grounding
    valid_at: Timestamp
    invalid_at: Timestamp | None = None
    recorded_at: Timestamp
    expired_at: Timestamp | None = None
    decision_id: Text
    invalidated_by: str | None = None
    policy_version: Text
    prompt_version: Text
    model: Text


class Lesson(Record):
    id: Text
    lesson_key: Text
    title: Text
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    source_path: str
    text: str
    supersedes: str | None = None
    ingested_at: Timestamp


class Proposal(Record):
    """A candidate edge, immutable; its state comes from its latest decision."""

    id: Text
    src: Text
    type: Text
    dst: Text
    confidence: Score
    evidence: tuple[Span, ...]
    origin: Literal["ingest", "discover", "recheck", "replay", "manual"]
    lesson_id: str | None = None
    rationale: str = ""
    created_at: Timestamp
    state: ProposalState = "proposed"


class Decision(Record):
    """A stage's verdict on a proposal, and the state it leaves the proposal in."""

    id: Text
    proposal_id: str | None
    stage: Text
    verdict: Text
    state_after: ProposalState
    score: Score | None = None
    rationale: Text
    detail: dict[str, object] = Field(default_factory=dict)
    policy_version: Text
    prompt_version: Text
    model: Text
    decided_at: Timestamp
    seq: int | None = None


class AuditEvent(Record):
    seq: Annotated[int, Field(ge=1)]
    event_id: Text
    kind: Text
    subject: str
    payload: str
    recorded_at: Timestamp
    prev_hash: str
    hash: str
