"""Retraction: the edges a person invalidated, which admission never commits again.

``magg review invalidate`` (:func:`governance.curation.invalidate`) records a decision at stage
:data:`RETRACTION` (verdict ``invalidate``) on the proposal that committed the edge; ``magg review
restore`` (:func:`governance.curation.restore`) records one with verdict ``restore``. The latest of
them is what holds: :func:`retractions` reads them back for the rule engine (rule
``not-retracted``).
"""

from __future__ import annotations

from magg_kg.records import Decision, Proposal, Triple
from magg_kg.store import Store

__all__ = ["RETRACTION", "latest_retractions", "retractions"]

RETRACTION = "retraction"
"""The stage of a person's invalidation of a committed edge, and of its restoring."""


def latest_retractions(store: Store) -> list[tuple[Proposal, Decision]]:
    """Each proposal a person's retraction decided, with the latest such decision."""
    found = []
    for proposal_id in sorted(store.proposals_decided_at(RETRACTION)):
        proposal = store.proposal(proposal_id)
        decided = [d for d in store.decisions(proposal_id) if d.stage == RETRACTION]
        if proposal is not None and decided:
            found.append((proposal, decided[-1]))
    return found


def retractions(store: Store) -> dict[Triple, str]:
    """The edges a person invalidated and did not restore, each with the decision's rationale
    ("invalidated by NAME: REASON")."""
    return {
        (proposal.src, proposal.type, proposal.dst): decision.rationale
        for proposal, decision in latest_retractions(store)
        if decision.verdict == "invalidate"
    }
