"""A snapshot: what the store knew at one system time, read once for a report or a page.

Everything is filtered on the system time axis: a proposal created after ``as_of``, a decision
taken after it or an invalidation recorded after it is not in the snapshot, and a proposal's state
is the ``state_after`` of its latest decision taken by then. With ``as_of=None`` the snapshot is
the store as it is now.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from magg_kg.errors import UserError
from magg_kg.records import Concept, Decision, EdgeVersion, Proposal
from magg_kg.store import Row, Store

__all__ = ["DomainCard", "Snapshot", "domain_refusal", "named_domains", "read_snapshot"]


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

    def domain(self, wanted: str) -> DomainCard:
        """The current domain ``wanted`` names (:func:`named_domains`: its id or its name as
        ``magg domains`` shows it, or the start of one); a :class:`UserError` otherwise
        (:func:`domain_refusal`)."""
        cards = self.current_domains
        known = [(card.id, card.name) for card in cards]
        chosen = named_domains(wanted, known)
        if len(chosen) == 1:
            return next(card for card in cards if card.id == chosen[0])
        retired = any(card.id.casefold() == wanted.strip().casefold() for card in self.domains)
        raise UserError(domain_refusal(wanted, chosen, known, self.as_of, retired=retired))


def domain_refusal(
    wanted: str,
    chosen: Sequence[str],
    known: Sequence[tuple[str, str]],
    as_of: str | None = None,
    *,
    retired: bool = False,
) -> str:
    """Why ``wanted`` names no one domain: the candidates when it names several, else the known
    domains (as of ``as_of``; a retired one said to be), each by id and name.

    >>> known = [("dom-1", "a / b"), ("dom-2", "c / d")]
    >>> domain_refusal("x", (), known)
    'no domain x; known domains: dom-1  a / b; dom-2  c / d (see `magg domains`)'
    >>> domain_refusal("dom", ("dom-1", "dom-2"), known)
    "domain 'dom' names 2 domains: dom-1  a / b; dom-2  c / d; give one's id"
    """
    when = f" as of {as_of}" if as_of else ""
    if chosen:
        named = "; ".join(f"{ident}  {name}" for ident, name in known if ident in chosen)
        return f"domain {wanted!r} names {len(chosen)} domains{when}: {named}; give one's id"
    listing = "; ".join(f"{ident}  {name}" for ident, name in known) or "none"
    said = (
        f"domain {wanted} was retired{when} (it owns no concept)" if retired else f"no domain {wanted}{when}"
    )
    if as_of:  # `magg domains` lists today's domains, not those of then
        return f"{said}; known domains then: {listing}"
    return f"{said}; known domains: {listing} (see `magg domains`)"


def named_domains(wanted: str, known: Sequence[tuple[str, str]]) -> tuple[str, ...]:
    """The ids of the domains ``wanted`` names among ``known`` (id, name) pairs: the one whose id
    or name it is, in any case and blanks aside; failing that, every one whose id or name starts
    with it. More than one id: ambiguous (the caller says which); none: unknown.

    >>> known = [("dom-aa58", "embedding / RAG / retrieval"), ("dom-3c93", "Prompt Engineering / API")]
    >>> [named_domains(text, known) for text in ("DOM-AA58", "embedding", "prompt  eng")]
    [('dom-aa58',), ('dom-aa58',), ('dom-3c93',)]
    >>> named_domains("dom-", known), named_domains("  ", known)
    (('dom-aa58', 'dom-3c93'), ())
    """
    key = " ".join(wanted.split()).casefold()
    if not key:
        return ()
    keys = [(ident, (ident.casefold(), " ".join(name.split()).casefold())) for ident, name in known]
    exact = tuple(dict.fromkeys(ident for ident, texts in keys if key in texts))
    if exact:
        return exact
    return tuple(dict.fromkeys(ident for ident, texts in keys if any(t.startswith(key) for t in texts)))


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
