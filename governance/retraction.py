"""Retraction: the edges a person invalidated, which admission never commits again.

``magg review invalidate`` (:func:`governance.review.invalidate`) records a decision at stage
:data:`RETRACTION` on the proposal that committed the edge. :func:`retractions` reads them back
for the rule engine (rule ``not-retracted``).
"""

from __future__ import annotations

from magg_kg.records import Triple
from magg_kg.store import Store

__all__ = ["RETRACTION", "retractions"]

RETRACTION = "retraction"
"""The stage of a person's invalidation of an active edge."""


def retractions(store: Store) -> dict[Triple, str]:
    """The edges a person invalidated, each with its decision's rationale ("invalidated by NAME:
    REASON"); the latest, when one was invalidated twice."""
    found: dict[Triple, str] = {}
    for proposal_id in sorted(store.proposals_decided_at(RETRACTION)):
        proposal = store.proposal(proposal_id)
        said = [d for d in store.decisions(proposal_id) if d.stage == RETRACTION]
        if proposal is not None and said:
            found[(proposal.src, proposal.type, proposal.dst)] = said[-1].rationale
    return found
