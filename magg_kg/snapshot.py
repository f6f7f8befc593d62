"""A snapshot: what the store knew at one system time, read once for a report or a page.

Everything is filtered on the system time axis: a proposal created after ``as_of``, a decision
taken after it or an invalidation recorded after it is not in the snapshot, and a proposal's state
is the ``state_after`` of its latest decision taken by then. With ``as_of=None`` the snapshot is
the store as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from magg_kg.errors import UserError
from magg_kg.records import Concept, Decision, EdgeVersion, Proposal
from magg_kg.store import Row, Store

__all__ = ["DomainCard", "Snapshot", "read_snapshot"]


@dataclass(frozen=True)
class DomainCard:
    """A domain as known at the snapshot's time: its owner, concepts and bridge concepts."""

    id: str
    name: str
    owner: str
    concepts: tuple[str, ...]
    bridges: tuple[str, ...]


@dataclass(frozen=True)
class Snapshot:
    """The store's facts as known at ``as_of`` (``None``: now); ``taken_at`` measures ages."""

    as_of: str | None
    taken_at: str
    concepts: tuple[Concept, ...]
    domains: tuple[DomainCard, ...]
    owners: dict[str, tuple[str, ...]]
    proposals: tuple[Proposal, ...]
    decisions: dict[str, tuple[Decision, ...]]
    edge_versions: tuple[EdgeVersion, ...]
    active: tuple[EdgeVersion, ...]
    usage: tuple[Row, ...]
    lessons: int
    first_ingested_at: str | None
    decision_by_id: dict[str, Decision] = field(default_factory=dict)

    def domains_of(self, *concept_ids: str) -> tuple[str, ...]:
        """The domains that own any of these concepts, sorted."""
        return tuple(sorted({d for c in concept_ids for d in self.owners.get(c, ())}))

    @property
    def current_domains(self) -> tuple[DomainCard, ...]:
        """The domains that own concepts at the snapshot's time. A domain that owns none was retired
        when the domains were rebuilt (its concepts moved to others; ``magg domains`` no longer
        lists it)."""
        return tuple(card for card in self.domains if card.concepts)

    def domain(self, domain_id: str) -> DomainCard:
        """The current domain with this id; a :class:`UserError` naming the current ones otherwise
        (and saying so of a retired one)."""
        for card in self.current_domains:
            if card.id == domain_id:
                return card
        when = f" as of {self.as_of}" if self.as_of else ""
        known = ", ".join(card.id for card in self.current_domains) or "none"
        if any(card.id == domain_id for card in self.domains):
            said = f"domain {domain_id} was retired{when} (it owns no concept)"
        else:
            said = f"no domain {domain_id}{when}"
        if self.as_of:  # `magg domains` lists today's domains, not those of then
            raise UserError(f"{said}; known domains then: {known}")
        raise UserError(f"{said}; known domains: {known} (see `magg domains`)")


def _known(stamp: str | None, as_of: str | None) -> bool:
    return stamp is not None and (as_of is None or stamp <= as_of)


def _as_known(version: EdgeVersion, as_of: str | None) -> EdgeVersion:
    """The version with its invalidation only if that was recorded by ``as_of``."""
    if version.status == "active" or _known(version.expired_at, as_of):
        return version
    return version.model_copy(
        update={"status": "active", "invalid_at": None, "expired_at": None, "invalidated_by": None}
    )


def _card(row: Row, members: dict[str, set[str]], owners: dict[str, tuple[str, ...]]) -> DomainCard:
    domain_id = str(row["id"])
    concepts = tuple(sorted(members.get(domain_id, set())))
    return DomainCard(
        id=domain_id,
        name=str(row["name"]),
        owner=str(row["owner"]),
        concepts=concepts,
        bridges=tuple(c for c in concepts if len(owners.get(c, ())) > 1),
    )


def read_snapshot(store: Store, as_of: str | None, now: str) -> Snapshot:
    """Reads the store once, as known at ``as_of`` (``None``: now; ``now`` is the time of reading).

    An ``as_of`` before the first ingestion reads the empty graph of that time (nothing was known
    then). Raises :class:`UserError` if the database holds no lesson.
    """
    all_lessons = store.lessons()
    if not all_lessons:
        raise UserError("the database is empty: no lesson has been ingested; run `magg ingest PATH` first")
    first = min(lesson.ingested_at for lesson in all_lessons)
    owners = store.concept_domains(as_of)
    members: dict[str, set[str]] = {}
    for concept, domain_ids in owners.items():
        for domain_id in domain_ids:
            members.setdefault(domain_id, set()).add(concept)
    proposals = tuple(p for p in store.proposals() if _known(p.created_at, as_of))
    decisions: dict[str, list[Decision]] = {}
    by_id: dict[str, Decision] = {}
    for decision in store.decisions():
        if _known(decision.decided_at, as_of):
            by_id[decision.id] = decision
            if decision.proposal_id is not None:
                decisions.setdefault(decision.proposal_id, []).append(decision)
    states = {pid: found[-1].state_after for pid, found in decisions.items()}
    return Snapshot(
        as_of=as_of,
        taken_at=as_of or now,
        concepts=tuple(store.concepts(as_of)),
        domains=tuple(_card(row, members, owners) for row in store.domains(as_of)),
        owners=owners,
        proposals=tuple(p.model_copy(update={"state": states.get(p.id, "proposed")}) for p in proposals),
        decisions={pid: tuple(found) for pid, found in decisions.items()},
        edge_versions=tuple(
            _as_known(v, as_of) for v in store.edge_versions() if _known(v.recorded_at, as_of)
        ),
        active=tuple(store.edges(as_of)),
        usage=tuple(row for row in store.usage() if _known(str(row["recorded_at"]), as_of)),
        lessons=sum(1 for lesson in all_lessons if _known(lesson.ingested_at, as_of)),
        first_ingested_at=first,
        decision_by_id=by_id,
    )
