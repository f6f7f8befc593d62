"""One builder per write record: each kind of write is made in one place, with one id recipe.

A proposal's id is its context (what sets it apart from another proposal of the same triple: its
lesson, its replay index, its parent) followed by its triple. A decision's id is its proposal (or,
for a decision about no proposal, its subject: an edge version, an edge), stage, verdict, rationale
and time. An edge version's id is its edge and the decision that committed it, and the version
takes its times, policy, prompt and model from that decision; so do an invalidation and a review-
queue entry. The prefixes are :data:`magg_kg.ids.KINDS`.

>>> t = "2026-01-01T00:00:00.000000Z"
>>> p = propose("a", "prerequisite", "b", context=("lesson-1",), origin="ingest", confidence=0.8,
...             evidence=(), created_at=t)
>>> d = decision_op(p.id, "judge", "commit", "committed", "the lesson says so", detail={},
...                 policy_version="policy-1", prompt_version="judge-1", model="offline", decided_at=t)
>>> edge = commit_op(d, "a", "prerequisite", "b", confidence=0.9, reason="says so", source="test",
...                  evidence=[SpanData(lesson_id="l", start=0, end=1, quote="a", kind="explicit")])
>>> p.id[:2], d.id[:4], edge.version_id[:2], edge.recorded_at == d.decided_at
('p-', 'dec-', 'v-', True)
>>> proposal_op(p).id == p.id
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from magg_kg.ids import edge_id, make_id
from magg_kg.operations import (
    AddProposal,
    CommitEdge,
    EnqueueReview,
    InvalidateEdge,
    RecordDecision,
    SpanData,
    span_data,
)
from magg_kg.records import Proposal, ProposalState, Span

__all__ = [
    "commit_op",
    "decision_op",
    "invalidation_op",
    "proposal_op",
    "propose",
    "queue_op",
]

_REASON = 20_000
_RATIONALE = 200_000


def propose(
    src: str,
    type_: str,
    dst: str,
    *,
    context: Sequence[str],
    origin: str,
    confidence: float,
    evidence: Sequence[Span],
    created_at: str,
    lesson_id: str | None = None,
    rationale: str = "",
) -> Proposal:
    """A proposal, its id from ``context`` and its triple (the module docstring)."""
    return Proposal.model_validate(
        {
            "id": make_id("proposal", *context, src, type_, dst),
            "src": src,
            "type": type_,
            "dst": dst,
            "confidence": confidence,
            "evidence": tuple(evidence),
            "origin": origin,
            "lesson_id": lesson_id,
            "rationale": rationale[:_REASON],
            "created_at": created_at,
        }
    )


def proposal_op(proposal: Proposal) -> AddProposal:
    """The ``add_proposal`` operation recording a proposal."""
    return AddProposal(
        id=proposal.id,
        src=proposal.src,
        type=proposal.type,
        dst=proposal.dst,
        confidence=proposal.confidence,
        evidence=span_data(proposal.evidence),
        origin=proposal.origin,
        lesson_id=proposal.lesson_id,
        rationale=proposal.rationale[:_REASON],
        created_at=proposal.created_at,
    )


def decision_op(
    proposal_id: str | None,
    stage: str,
    verdict: str,
    state_after: ProposalState,
    rationale: str,
    *,
    detail: Mapping[str, object],
    policy_version: str,
    prompt_version: str,
    model: str,
    decided_at: str,
    score: float | None = None,
    subject: str = "",
) -> RecordDecision:
    """A decision; an empty rationale is written as ``stage: verdict``, an empty model as ``none``."""
    said = rationale.strip()[:_RATIONALE] or f"{stage}: {verdict}"
    return RecordDecision(
        id=make_id("decision", proposal_id or "", subject, stage, verdict, said, decided_at),
        proposal_id=proposal_id,
        stage=stage,
        verdict=verdict,
        state_after=state_after,
        score=score,
        rationale=said,
        detail=dict(detail),
        policy_version=policy_version,
        prompt_version=prompt_version,
        model=model or "none",
        decided_at=decided_at,
    )


def commit_op(
    decision: RecordDecision,
    src: str,
    type_: str,
    dst: str,
    *,
    confidence: float,
    reason: str,
    source: str,
    evidence: Sequence[SpanData],
    prompt_version: str | None = None,
    model: str | None = None,
) -> CommitEdge:
    """The edge version ``decision`` commits: valid and recorded when it was decided, under its
    policy, prompt and model unless others are named (flat admission names its own)."""
    edge = edge_id(src, type_, dst)
    return CommitEdge(
        version_id=make_id("version", edge, decision.id),
        edge_id=edge,
        src=src,
        type=type_,
        dst=dst,
        confidence=confidence,
        reason=reason[:_RATIONALE],
        source=source,
        evidence=list(evidence),
        valid_at=decision.decided_at,
        recorded_at=decision.decided_at,
        decision_id=decision.id,
        policy_version=decision.policy_version,
        prompt_version=prompt_version or decision.prompt_version,
        model=model or decision.model,
    )


def invalidation_op(version_id: str, decision: RecordDecision) -> InvalidateEdge:
    """The closing of an edge version by ``decision``, at its time and for its rationale."""
    return InvalidateEdge(
        version_id=version_id,
        decision_id=decision.id,
        invalid_at=decision.decided_at,
        expired_at=decision.decided_at,
        reason=decision.rationale[:_REASON],
    )


def queue_op(decision: RecordDecision) -> EnqueueReview:
    """The review-queue entry for the proposal ``decision`` quarantined, with its rationale."""
    if decision.proposal_id is None:
        raise ValueError(f"decision {decision.id} has no proposal to put in the review queue")
    return EnqueueReview(
        id=make_id("queue_entry", decision.proposal_id, decision.id),
        proposal_id=decision.proposal_id,
        reason=decision.rationale[:_REASON],
        enqueued_at=decision.decided_at,
    )
