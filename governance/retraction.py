"""Retraction: the edges a person invalidated, which admission never commits again.

``magg review invalidate`` (:func:`governance.curation.invalidate`) records a decision at stage
:data:`RETRACTION` (verdict ``invalidate``) on the proposal that committed the edge; ``magg review
restore`` (:func:`governance.curation.restore`) records one with verdict ``restore``. Of an edge's
retraction decisions, on any of its proposals, the latest holds: :func:`retractions` reads them
back for the rule engine (rule ``not-retracted``).
"""

from __future__ import annotations

from collections.abc import Mapping

from magg_kg.records import Decision, Proposal, Triple
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["RETRACTION", "in_force", "latest_retractions", "retractions"]

RETRACTION = "retraction"
"""The stage of a person's invalidation of a committed edge, and of its restoring."""


def latest_retractions(
    store: Store, schema: GraphSchema = CURRICULUM
) -> dict[Triple, tuple[Proposal, list[Decision]]]:
    """Each edge (canonical) a person's retraction decided: the proposal of its latest retraction
    decision, and all of them, oldest first."""
    decided: dict[Triple, list[tuple[Proposal, Decision]]] = {}
    for proposal_id in store.proposals_decided_at(RETRACTION):
        proposal = store.proposal(proposal_id)
        if proposal is not None:
            triple = schema.canonical(proposal.src, proposal.type, proposal.dst)
            mine = [(proposal, d) for d in store.decisions(proposal_id) if d.stage == RETRACTION]
            decided.setdefault(triple, []).extend(mine)
    found: dict[Triple, tuple[Proposal, list[Decision]]] = {}
    for triple, pairs in decided.items():
        if pairs:
            pairs.sort(key=lambda pair: (pair[1].decided_at, pair[1].id))
            found[triple] = (pairs[-1][0], [decision for _, decision in pairs])
    return found


def in_force(latest: Mapping[Triple, tuple[Proposal, list[Decision]]]) -> dict[Triple, str]:
    """Of :func:`latest_retractions`, the edges invalidated and not restored since, each with the
    invalidation's rationale ("invalidated by NAME: REASON")."""
    return {
        triple: every[-1].rationale
        for triple, (_, every) in latest.items()
        if every[-1].verdict == "invalidate"
    }


def retractions(store: Store, schema: GraphSchema = CURRICULUM) -> dict[Triple, str]:
    """The edges a person invalidated and did not restore since, with why (:func:`in_force`)."""
    return in_force(latest_retractions(store, schema))
