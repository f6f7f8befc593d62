"""Retraction: the edges a person invalidated, which admission never commits again.

``magg review invalidate`` (:func:`governance.curation.invalidate`) records a decision at stage
:data:`RETRACTION` (verdict ``invalidate``) on the proposal that committed the edge; ``magg review
restore`` (:func:`governance.curation.restore`) records one with verdict ``restore``. Of an edge's
retraction decisions, on any of its proposals, the latest holds: :func:`retractions` reads them
back for the rule engine (rule ``not-retracted``).
"""

from __future__ import annotations

from magg_kg.records import Decision, Proposal, Triple
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["RETRACTION", "latest_retractions", "retractions"]

RETRACTION = "retraction"
"""The stage of a person's invalidation of a committed edge, and of its restoring."""


def latest_retractions(
    store: Store, schema: GraphSchema = CURRICULUM
) -> dict[Triple, tuple[Proposal, list[Decision]]]:
    """Each edge (canonical) a person's retraction decided: the proposal of its latest retraction
    decision, and all of them, oldest first."""
    found: dict[Triple, tuple[Proposal, list[Decision]]] = {}
    for proposal_id in sorted(store.proposals_decided_at(RETRACTION)):
        proposal = store.proposal(proposal_id)
        if proposal is None:
            continue
        triple = schema.canonical(proposal.src, proposal.type, proposal.dst)
        decided = [d for d in store.decisions(proposal_id) if d.stage == RETRACTION]
        earlier = found.get(triple, (proposal, []))[1]
        every = sorted([*earlier, *decided], key=lambda d: (d.decided_at, d.id))
        latest = proposal if decided and every[-1] is decided[-1] else found.get(triple, (proposal, []))[0]
        found[triple] = (latest, every)
    return found


def retractions(store: Store, schema: GraphSchema = CURRICULUM) -> dict[Triple, str]:
    """The edges a person invalidated and did not restore since, each with the invalidation's
    rationale ("invalidated by NAME: REASON")."""
    return {
        triple: decisions[-1].rationale
        for triple, (_, decisions) in latest_retractions(store, schema).items()
        if decisions[-1].verdict == "invalidate"
    }
