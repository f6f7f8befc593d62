"""Retraction: the edges a person invalidated, which admission never commits again.

``magg review invalidate`` (:func:`governance.curation.invalidate`) records a decision at stage
:data:`RETRACTION` (verdict ``invalidate``) on the proposal that committed the edge (none, for a
version grounded anew: the decision names the version); ``magg review
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
) -> dict[Triple, tuple[Proposal | None, list[Decision]]]:
    """Each edge (canonical) a person's retraction decided: the proposal of its latest retraction
    decision that has one, and all of them, oldest first. A decision on an edge version that no
    proposal committed (one grounded anew on an edited or withdrawn lesson's neighbours) names
    the version instead, and counts alike."""
    decided: dict[Triple, list[Decision]] = {}
    proposals: dict[Triple, Proposal] = {}
    for decision in store.decisions_at(RETRACTION):
        proposal = store.proposal(decision.proposal_id) if decision.proposal_id else None
        named = proposal or store.edge_version(str(decision.detail.get("version_id", "")))
        if named is None:
            continue
        triple = schema.canonical(named.src, named.type, named.dst)
        decided.setdefault(triple, []).append(decision)
        if proposal is not None:
            proposals[triple] = proposal
    for every in decided.values():
        every.sort(key=lambda decision: (decision.decided_at, decision.id))
    return {triple: (proposals.get(triple), every) for triple, every in decided.items()}


def in_force(latest: Mapping[Triple, tuple[Proposal | None, list[Decision]]]) -> dict[Triple, str]:
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
