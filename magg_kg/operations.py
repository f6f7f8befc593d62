"""Typed write operations and the batch that carries them.

A :class:`Batch` is the unit of writing for both backends: the embedded SQLite store applies it
in one transaction, the D1 backend sends the same JSON to the ``ts-apply`` Worker. Each operation
type maps to prepared statements in ``protocol/statements.json``; the JSON Schema of a batch
(``protocol/batch.schema.json``) is generated from these models and validated by the Worker.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import Annotated, Literal, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from magg_kg.canonical import ModelWriter, Writer, allowed_types
from magg_kg.records import (
    EvidenceKind,
    ProposalState,
    Role,
    Score,
    Span,
    Timestamp,
)

__all__ = [
    "BATCH_OPS",
    "JSON_TEXT",
    "AddAlias",
    "AddChunk",
    "AddConcept",
    "AddLesson",
    "AddProposal",
    "AppendAudit",
    "AssignDomain",
    "Batch",
    "CommitEdge",
    "EnqueueReview",
    "ExpectActive",
    "ExpectState",
    "ExpectUnclaimed",
    "InvalidateEdge",
    "LinkLessonConcept",
    "Operation",
    "PutCache",
    "RecordDecision",
    "RecordUsage",
    "SetDomain",
    "SpanData",
    "UnassignDomain",
    "batch_json_schema",
    "digest_of",
    "field_json",
    "op_fields",
    "op_writer",
    "span_data",
    "statements",
]

ShortText = Annotated[str, StringConstraints(min_length=1, max_length=4096)]
"""A non-empty operation field, bounded to fit one D1 row (a record field is :data:`magg_kg.records.Text`)."""
LONG_TEXT = 8_000_000
"""The most characters a long text field holds (a lesson, a cached reply)."""
LongText = Annotated[str, StringConstraints(max_length=LONG_TEXT)]
Count = Annotated[int, Field(ge=0, le=2**53)]
ONE_LINE = r"^[^\n]*$"
"""No line break: the audit hash joins an event's fields with line breaks, so a field that held one
could move text into the next field without changing the hash (:func:`magg_kg.audit.chain_hash`)."""


class _Op(BaseModel):
    """An operation's fields, validated strictly: a number sent as text ("0.9") is refused, not read
    as a number, as the Worker's JSON Schema refuses it (the shared vectors check both)."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class SpanData(_Op):
    """An evidence span as written: lesson id, chunk id, char offsets, exact quote, kind."""

    lesson_id: ShortText
    chunk_id: Annotated[str, StringConstraints(max_length=4096)] = ""
    start: Count
    end: Count
    quote: Annotated[str, StringConstraints(min_length=1, max_length=20_000)]
    kind: EvidenceKind


Evidence = Annotated[list[SpanData], Field(min_length=1, max_length=64)]


def span_data(spans: Iterable[Span]) -> list[SpanData]:
    """Evidence spans (records) as the span data a write operation carries."""
    return [SpanData.model_validate(span.model_dump()) for span in spans]


class ExpectState(_Op):
    """A precondition: the proposal is still in the state it was read in (its latest decision's
    ``state_after``; ``proposed`` with none) when the batch is applied. Otherwise the batch is
    refused, nothing of it written, with a reason that starts with ``settled:`` (another writer
    decided the proposal since). It writes no row."""

    op: Literal["expect_state"] = "expect_state"
    proposal_id: ShortText
    state: ProposalState


class ExpectUnclaimed(_Op):
    """A precondition: no proposal joins these two concepts (either way, of any type) and no
    active edge does, when the batch is applied; otherwise it is refused as ``settled:``. It
    writes no row."""

    op: Literal["expect_unclaimed"] = "expect_unclaimed"
    src: ShortText
    dst: ShortText


class ExpectActive(_Op):
    """A precondition: the edge version is still active (not closed by another writer) when the
    batch is applied; otherwise it is refused as ``settled:``. It writes no row."""

    op: Literal["expect_active"] = "expect_active"
    version_id: ShortText


class AddLesson(_Op):
    op: Literal["add_lesson"] = "add_lesson"
    id: ShortText
    lesson_key: ShortText
    title: ShortText
    sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    source_path: Annotated[str, StringConstraints(max_length=4096)]
    text: LongText
    supersedes: ShortText | None = None
    ingested_at: Timestamp


class AddChunk(_Op):
    op: Literal["add_chunk"] = "add_chunk"
    id: ShortText
    lesson_id: ShortText
    ordinal: Count
    start: Count
    end: Count
    heading: Annotated[str, StringConstraints(max_length=4096)] = ""


class AddConcept(_Op):
    op: Literal["add_concept"] = "add_concept"
    id: ShortText
    name: ShortText
    type: ShortText
    description: Annotated[str, StringConstraints(max_length=20_000)] = ""
    recorded_at: Timestamp


class AddAlias(_Op):
    op: Literal["add_alias"] = "add_alias"
    alias: ShortText
    concept_id: ShortText
    recorded_at: Timestamp


class LinkLessonConcept(_Op):
    op: Literal["link_lesson_concept"] = "link_lesson_concept"
    lesson_id: ShortText
    concept_id: ShortText
    role: Role
    evidence: Evidence
    recorded_at: Timestamp


class SetDomain(_Op):
    """Adds a domain version and closes the previous one."""

    op: Literal["set_domain"] = "set_domain"
    id: ShortText
    version: Annotated[int, Field(ge=1)]
    name: ShortText
    owner: ShortText
    card: dict[str, object]
    recorded_at: Timestamp


class AssignDomain(_Op):
    op: Literal["assign_domain"] = "assign_domain"
    concept_id: ShortText
    domain_id: ShortText
    recorded_at: Timestamp


class UnassignDomain(_Op):
    op: Literal["unassign_domain"] = "unassign_domain"
    concept_id: ShortText
    domain_id: ShortText
    expired_at: Timestamp


class AddProposal(_Op):
    op: Literal["add_proposal"] = "add_proposal"
    id: ShortText
    src: ShortText
    type: ShortText
    dst: ShortText
    confidence: Score
    evidence: Annotated[list[SpanData], Field(max_length=64)]
    origin: Literal["ingest", "discover", "recheck", "replay", "manual"]
    lesson_id: ShortText | None = None
    rationale: Annotated[str, StringConstraints(max_length=20_000)] = ""
    created_at: Timestamp


class RecordDecision(_Op):
    op: Literal["record_decision"] = "record_decision"
    id: ShortText
    proposal_id: ShortText | None
    stage: ShortText
    verdict: ShortText
    state_after: ProposalState
    score: Score | None = None
    rationale: Annotated[str, StringConstraints(min_length=1, max_length=200_000)]
    detail: dict[str, object]
    policy_version: ShortText
    prompt_version: ShortText
    model: ShortText
    decided_at: Timestamp


class CommitEdge(_Op):
    """Adds an active edge version with its full grounding record."""

    op: Literal["commit_edge"] = "commit_edge"
    version_id: ShortText
    edge_id: ShortText
    src: ShortText
    type: ShortText
    dst: ShortText
    confidence: Score
    reason: Annotated[str, StringConstraints(min_length=1, max_length=200_000)]
    source: ShortText
    evidence: Evidence
    valid_at: Timestamp
    recorded_at: Timestamp
    decision_id: ShortText
    policy_version: ShortText
    prompt_version: ShortText
    model: ShortText


class InvalidateEdge(_Op):
    """Closes an active edge version (never deletes it)."""

    op: Literal["invalidate_edge"] = "invalidate_edge"
    version_id: ShortText
    decision_id: ShortText
    invalid_at: Timestamp
    expired_at: Timestamp
    reason: Annotated[str, StringConstraints(min_length=1, max_length=20_000)]


class EnqueueReview(_Op):
    op: Literal["enqueue_review"] = "enqueue_review"
    id: ShortText
    proposal_id: ShortText
    reason: Annotated[str, StringConstraints(min_length=1, max_length=20_000)]
    enqueued_at: Timestamp


class AppendAudit(_Op):
    """Extends the audit chain; the applier fills in seq, prev_hash and hash."""

    op: Literal["append_audit"] = "append_audit"
    event_id: Annotated[str, StringConstraints(min_length=1, max_length=4096, pattern=ONE_LINE)]
    kind: Annotated[str, StringConstraints(min_length=1, max_length=4096, pattern=ONE_LINE)]
    subject: Annotated[str, StringConstraints(max_length=4096, pattern=ONE_LINE)]
    payload: Annotated[str, StringConstraints(min_length=2, max_length=1_000_000, pattern=ONE_LINE)]
    recorded_at: Timestamp


class RecordUsage(_Op):
    op: Literal["record_usage"] = "record_usage"
    id: ShortText
    stage: ShortText
    agent: ShortText
    domain: Annotated[str, StringConstraints(max_length=4096)] = ""
    model: ShortText
    prompt_tokens: Count
    completion_tokens: Count
    latency_ms: Annotated[float, Field(ge=0.0, allow_inf_nan=False)]
    attempts: Count
    outcome: ShortText
    cache_hit: bool
    recorded_at: Timestamp


class PutCache(_Op):
    op: Literal["put_cache"] = "put_cache"
    key: ShortText
    model: ShortText
    response: LongText
    prompt_tokens: Count
    completion_tokens: Count
    recorded_at: Timestamp


Operation = Annotated[
    ExpectState
    | ExpectUnclaimed
    | ExpectActive
    | AddLesson
    | AddChunk
    | AddConcept
    | AddAlias
    | LinkLessonConcept
    | SetDomain
    | AssignDomain
    | UnassignDomain
    | AddProposal
    | RecordDecision
    | CommitEdge
    | InvalidateEdge
    | EnqueueReview
    | AppendAudit
    | RecordUsage
    | PutCache,
    Field(discriminator="op"),
]


BATCH_OPS = 20_000
"""The most operations one batch may carry (the Worker's schema holds the same bound)."""


class Batch(BaseModel):
    """An atomic, idempotent group of operations.

    ``digest`` identifies the content: a retried batch (same id, same digest) changes nothing;
    the same id with another digest is refused as a conflict.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    batch_id: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    sent_at: Timestamp
    ops: Annotated[list[Operation], Field(min_length=1, max_length=BATCH_OPS)]
    digest: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")] = "0" * 64

    @classmethod
    def of(cls, batch_id: str, sent_at: str, ops: list[Operation]) -> Batch:
        """Builds a batch and computes its digest."""
        return cls(batch_id=batch_id, sent_at=sent_at, ops=ops, digest=_digest(batch_id, sent_at, ops))

    def content_digest(self) -> str:
        """The digest of the batch's content, computed here whatever ``digest`` says: a store never
        takes a client's word for it (a reused id with other content must be a conflict)."""
        return _digest(self.batch_id, self.sent_at, self.ops)


def _digest(batch_id: str, sent_at: str, ops: list[Operation]) -> str:
    return digest_of(batch_id, sent_at, [_OP_WRITERS[op.op].write(op_fields(op))[2] for op in ops])


def digest_of(batch_id: str, sent_at: str, op_texts: list[str]) -> str:
    """A batch's digest from the canonical JSON of each of its operations (:func:`op_writer`): the
    SHA-256 of the canonical JSON of ``{"batch_id", "ops", "sent_at"}``."""
    ops = ",".join(op_texts)
    body = f'{{"batch_id":{field_json(batch_id)},"ops":[{ops}],"sent_at":{field_json(sent_at)}}}'
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


_WRITER = Writer(SpanData)
_KINDS: tuple[type[_Op], ...] = get_args(get_args(Operation)[0])
_AS_JSON = frozenset(kind for kind in _KINDS if _WRITER.holds_json(kind))
"""The operation types written from the model itself (all but those with a free-form object)."""

JSON_TEXT: Mapping[str, frozenset[str]] = {
    kind.model_fields["op"].default: frozenset(
        name
        for name, field in kind.model_fields.items()
        if any(get_origin(allowed) in (list, dict) for allowed in allowed_types(field.annotation))
    )
    for kind in _KINDS
}
"""Operation type -> the fields a store keeps as JSON text (lists and objects)."""


_OP_WRITERS: Mapping[str, ModelWriter] = {
    kind.model_fields["op"].default: _WRITER.model_writer(kind) for kind in _KINDS
}


def op_writer(kind: str) -> ModelWriter:
    """The writer of operations of type ``kind``: from :func:`op_fields`, each field's value and
    JSON text in sorted name order (a store binds the text of those named in :data:`JSON_TEXT`),
    and the operation's canonical JSON (what its batch's digest covers) made of those texts.

    >>> alias = AddAlias(alias="sgd", concept_id="sgd", recorded_at="2026-01-01T00:00:00.000000Z")
    >>> writer = op_writer("add_alias")
    >>> values, texts, text = writer.write(op_fields(alias))
    >>> writer.names[:2], values[:2], texts[:2], text == field_json(op_fields(alias))
    (('alias', 'concept_id'), ('sgd', 'sgd'), ('"sgd"', '"sgd"'), True)
    """
    return _OP_WRITERS[kind]


def op_fields(op: Operation) -> Mapping[str, object]:
    """The operation's fields as its JSON writes them: what ``op.model_dump(mode="json")`` gives,
    except that evidence spans may stay models (:func:`field_json` writes them as their fields).

    >>> alias = AddAlias(alias="sgd", concept_id="sgd", recorded_at="2026-01-01T00:00:00.000000Z")
    >>> dict(op_fields(alias)) == alias.model_dump(mode="json")
    True
    """
    return op.__dict__ if type(op) in _AS_JSON else op.model_dump(mode="json")


def field_json(value: object) -> str:
    """The canonical JSON text (:func:`~magg_kg.records.canonical_json`) of a value from
    :func:`op_fields`, evidence spans included.

    >>> from magg_kg.records import canonical_json
    >>> span = SpanData(lesson_id="l", start=0, end=4, quote="uses", kind="explicit")
    >>> field_json([span]) == canonical_json([span.model_dump()])
    True
    """
    return _WRITER.text(value)


_BATCH_ADAPTER: TypeAdapter[Batch] = TypeAdapter(Batch)


def batch_json_schema() -> dict[str, object]:
    """The JSON Schema of a batch, as the Worker validates it."""
    return _BATCH_ADAPTER.json_schema()


def statements() -> dict[str, object]:
    """The shared write protocol: operation type -> prepared statements."""
    text = resources.files("magg_kg.protocol").joinpath("statements.json").read_text("utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded
