"""What admission writes for a proposal besides its decisions: a revision, and the flat commit.

Flat admission is the ablation: an edge committed with no review, its grounding record saying so.
"""

from __future__ import annotations

from magg_kg.builders import commit_op, propose
from magg_kg.operations import CommitEdge, RecordDecision, span_data
from magg_kg.records import Proposal

__all__ = ["flat_commit", "revision_of"]


def revision_of(proposal: Proposal, triple: tuple[str, str, str], reasoning: str) -> Proposal:
    """An owner's revision of ``proposal`` into ``triple``: a new proposal on the same evidence."""
    src, type_, dst = triple
    return propose(
        src,
        type_,
        dst,
        context=(proposal.id, "revised"),
        origin=proposal.origin,
        confidence=proposal.confidence,
        evidence=proposal.evidence,
        created_at=proposal.created_at,
        lesson_id=proposal.lesson_id,
        rationale=f"revision of {proposal.id} ({proposal.src} {proposal.type} {proposal.dst}): {reasoning}",
    )


def flat_commit(proposal: Proposal, decision: RecordDecision, model: str) -> CommitEdge:
    """The edge version flat admission commits for a proposal, under ``decision``."""
    return commit_op(
        decision,
        proposal.src,
        proposal.type,
        proposal.dst,
        confidence=proposal.confidence,
        reason="flat admission (ablation): schema checks only",
        source=f"flat:{proposal.lesson_id}",
        evidence=span_data(proposal.evidence),
        prompt_version="flat",
        model=model,
    )
