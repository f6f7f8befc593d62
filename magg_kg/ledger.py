"""The ledger: a store's proposals, kept between reads and read again only where they changed.

Ingestion reads every proposal before each lesson (what earlier lessons proposed, and in what
state), so reading them whole each time grows with the course. Every proposal is written with its
first decision, in one batch, and a proposal's state is its latest decision's; so the proposals
that are new or changed since a read are exactly those with a decision after the last one that
read saw (:meth:`~magg_kg.store.Store.proposals_decided_since`). That holds whoever wrote them:
another writer's decisions are read as this run's are.
"""

from __future__ import annotations

from magg_kg.records import Proposal
from magg_kg.store import Store

__all__ = ["ProposalLedger"]


class ProposalLedger:
    """The store's proposals as :meth:`~magg_kg.store.Store.proposals` reads them, in its order."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._seen = 0
        self._by_id: dict[str, Proposal] = {}

    def current(self) -> list[Proposal]:
        """Every proposal in its state now: those that changed since the last call read again."""
        head, changed = self._store.proposals_decided_since(self._seen)
        self._by_id.update((proposal.id, proposal) for proposal in changed)
        self._seen = head
        return sorted(self._by_id.values(), key=lambda proposal: (proposal.created_at, proposal.id))
