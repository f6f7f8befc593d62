"""The write operations admission emits for proposals: the proposal itself, and the flat commit.

Flat admission is the ablation: an edge committed with no review, its grounding record saying so.
"""

from __future__ import annotations

from magg_kg.operations import AddProposal, CommitEdge, RecordDecision, span_data
from magg_kg.records import Proposal, edge_id, stable_id

__all__ = ["flat_commit", "proposal_op"]


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
        rationale=proposal.rationale[:20_000],
        created_at=proposal.created_at,
    )


def flat_commit(proposal: Proposal, decision: RecordDecision, model: str) -> CommitEdge:
    """The edge version flat admission commits for a proposal, under ``decision``."""
    at = decision.decided_at
    return CommitEdge(
        version_id=stable_id("v", proposal.id, at),
        edge_id=edge_id(proposal.src, proposal.type, proposal.dst),
        src=proposal.src,
        type=proposal.type,
        dst=proposal.dst,
        confidence=proposal.confidence,
        reason="flat admission (ablation): schema checks only",
        source=f"flat:{proposal.lesson_id}",
        evidence=span_data(proposal.evidence),
        valid_at=at,
        recorded_at=at,
        decision_id=decision.id,
        policy_version=decision.policy_version,
        prompt_version="flat",
        model=model,
    )
