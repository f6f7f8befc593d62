"""Ownership: domains as communities of the concept graph, with stable ids, owners and cards.

The concept graph is weighted: an active edge weighs 1.0, a standing proposal its confidence,
and concepts linked to the same lesson weigh ``1 / (n - 1)`` per lesson of ``n`` concepts (the
cold start, before any edge is active). Communities are networkx Louvain communities with the
configured seed, so the layout is reproducible. Communities smaller than :data:`MIN_SIZE` join
the community they are most tied to (isolated concepts join a "general" domain).

Ids are stable as the graph grows: each new community takes the id of the previous domain it
overlaps most (Jaccard >= :data:`MATCH_AT`, best pairs first); otherwise a new id is derived from
its most central concept. A concept with at least :data:`BRIDGE_SHARE` of its weight tied into
another community is a bridge and is owned by both. Each domain has a name (its three most
central concepts), an owner agent ``owner:<domain id>`` and a memory card.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from magg_kg.operations import AssignDomain, Operation, SetDomain, UnassignDomain
from magg_kg.records import stable_id

__all__ = [
    "BRIDGE_SHARE",
    "MATCH_AT",
    "MIN_SIZE",
    "RETIRED",
    "Domain",
    "Layout",
    "compute_layout",
    "layout_ops",
]

MIN_SIZE = 3
MATCH_AT = 0.2
BRIDGE_SHARE = 1 / 3
CARD_LIMIT = 300
RETIRED = "(retired)"
"""The name prefix of a domain that no longer owns anything (its id is kept, never reused)."""


@dataclass(frozen=True)
class Domain:
    id: str
    name: str
    owner: str
    concepts: tuple[str, ...]
    bridges: tuple[str, ...]
    central: tuple[str, ...]


@dataclass(frozen=True)
class Layout:
    domains: tuple[Domain, ...]

    def owners(self) -> dict[str, tuple[str, ...]]:
        """Concept id -> ids of the domains that own it (several for a bridge)."""
        owned: dict[str, list[str]] = {}
        for domain in self.domains:
            for concept in (*domain.concepts, *domain.bridges):
                owned.setdefault(concept, []).append(domain.id)
        return {concept: tuple(sorted(set(ids))) for concept, ids in owned.items()}

    def domain(self, domain_id: str) -> Domain:
        return next(d for d in self.domains if d.id == domain_id)


def weighted_graph(
    concepts: Iterable[str],
    edges: Iterable[tuple[str, str, float]],
    groups: Iterable[Sequence[str]],
) -> nx.Graph:
    """The undirected weighted concept graph (edges and lesson co-occurrence)."""
    graph = nx.Graph()
    graph.add_nodes_from(sorted(set(concepts)))
    for src, dst, weight in edges:
        if src != dst and src in graph and dst in graph:
            previous = graph.get_edge_data(src, dst, {"weight": 0.0})["weight"]
            graph.add_edge(src, dst, weight=previous + weight)
    for group in groups:
        members = sorted({c for c in group if c in graph})
        if len(members) < 2:
            continue
        share = 1.0 / (len(members) - 1)
        for index, a in enumerate(members):
            for b in members[index + 1 :]:
                previous = graph.get_edge_data(a, b, {"weight": 0.0})["weight"]
                graph.add_edge(a, b, weight=previous + share)
    return graph


def _communities(graph: nx.Graph, seed: int) -> list[set[str]]:
    found = [set(c) for c in nx.community.louvain_communities(graph, weight="weight", seed=seed)]
    big = [c for c in found if len(c) >= MIN_SIZE]
    general: set[str] = set()
    for small in (c for c in found if len(c) < MIN_SIZE):
        for node in sorted(small):
            ties = [sum(graph[node][n]["weight"] for n in graph[node] if n in c) for c in big]
            if big and max(ties) > 0:
                big[ties.index(max(ties))].add(node)
            else:
                general.add(node)
    if general:
        big.append(general)
    return sorted(big, key=lambda c: (-len(c), min(c)))


def compute_layout(
    graph: nx.Graph, previous: Mapping[str, set[str]], names: Mapping[str, str], seed: int
) -> Layout:
    """Domains of the graph, matched to the ``previous`` domains (id -> concepts) by overlap."""
    if graph.number_of_nodes() == 0:
        return Layout(())
    communities = _communities(graph, seed)
    degree = dict(graph.degree(weight="weight"))
    pairs = sorted(
        (
            (-len(c & old) / len(c | old), index, old_id)
            for index, c in enumerate(communities)
            for old_id, old in sorted(previous.items())
            if c & old
        ),
    )
    assigned: dict[int, str] = {}
    taken: set[str] = set()
    for negative, index, old_id in pairs:
        if -negative >= MATCH_AT and index not in assigned and old_id not in taken:
            assigned[index] = old_id
            taken.add(old_id)
    membership = {node: index for index, c in enumerate(communities) for node in c}
    bridges: dict[int, set[str]] = {}
    for node in graph:
        total = sum(d["weight"] for d in graph[node].values())
        if total <= 0:
            continue
        by_community: dict[int, float] = {}
        for neighbour, data in graph[node].items():
            by_community[membership[neighbour]] = (
                by_community.get(membership[neighbour], 0.0) + data["weight"]
            )
        for index, weight in by_community.items():
            if index != membership[node] and weight / total >= BRIDGE_SHARE:
                bridges.setdefault(index, set()).add(node)
    domains = []
    for index, members in enumerate(communities):
        central = tuple(sorted(members, key=lambda n: (-degree.get(n, 0.0), n))[:3])
        domain_id = assigned.get(index)
        if domain_id is None:
            domain_id = stable_id("d", central[0], length=8)
            while domain_id in taken:
                domain_id = stable_id("d", domain_id, length=8)
            taken.add(domain_id)
        domains.append(
            Domain(
                id=domain_id,
                name=" / ".join(names.get(c, c) for c in central),
                owner=f"owner:{domain_id}",
                concepts=tuple(sorted(members)),
                bridges=tuple(sorted(bridges.get(index, set()))),
                central=central,
            )
        )
    return Layout(tuple(sorted(domains, key=lambda d: d.id)))


def card(
    domain: Domain,
    facts: Iterable[tuple[str, str, str]],
    open_questions: Iterable[tuple[str, str, str, str]],
) -> dict[str, object]:
    """A domain's memory card: its concepts, its facts (active edges inside) and its open
    questions (abstained or quarantined proposals touching it)."""
    inside = set(domain.concepts) | set(domain.bridges)
    return {
        "concepts": list(domain.concepts[:CARD_LIMIT]),
        "bridges": list(domain.bridges),
        "central": list(domain.central),
        "facts": sorted(f"{s} {t} {d}" for s, t, d in facts if s in inside and d in inside)[:CARD_LIMIT],
        "open_questions": sorted(
            f"{p}: {s} {t} {d}" for p, s, t, d in open_questions if s in inside or d in inside
        )[:CARD_LIMIT],
    }


def layout_ops(
    layout: Layout,
    cards: Mapping[str, dict[str, object]],
    stored: Sequence[Mapping[str, object]],
    assigned: Mapping[str, tuple[str, ...]],
    at: str,
) -> list[Operation]:
    """The writes that turn the stored domains (rows) and ownership into ``layout``.

    Only the concepts of the layout are moved: a concept it does not know (another writer's, newer
    than the reads it was computed from) keeps its domains. A domain gets a new version when its
    name or card changed and whenever a concept joins or leaves it, so the version is the domain's
    optimistic lock: two writers that both change one domain write the same next version, and the
    store refuses the later one as a conflict (``UNIQUE constraint failed: domains.id,
    domains.version``) instead of letting it undo the other's assignments.
    """
    ops: list[Operation] = []
    versions = {
        str(row["id"]): (int(str(row["version"])), str(row["card"]), str(row["name"])) for row in stored
    }
    wanted = layout.owners()
    moves: list[Operation] = []
    touched: set[str] = set()
    for concept in sorted(wanted):
        before, after = set(assigned.get(concept, ())), set(wanted[concept])
        moves += [
            UnassignDomain(concept_id=concept, domain_id=d, expired_at=at) for d in sorted(before - after)
        ]
        moves += [
            AssignDomain(concept_id=concept, domain_id=d, recorded_at=at) for d in sorted(after - before)
        ]
        touched |= before ^ after
    for domain in layout.domains:
        body = cards[domain.id]
        text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        old = versions.get(domain.id)
        if old is None or old[1] != text or old[2] != domain.name or domain.id in touched:
            ops.append(
                SetDomain(
                    id=domain.id,
                    version=(old[0] + 1) if old else 1,
                    name=domain.name,
                    owner=domain.owner,
                    card=body,
                    recorded_at=at,
                )
            )
    ops += moves
    live = {d.id for d in layout.domains}
    for domain_id, (version, _, name) in sorted(versions.items()):
        if domain_id not in live and not name.startswith(RETIRED):
            ops.append(
                SetDomain(
                    id=domain_id,
                    version=version + 1,
                    name=f"{RETIRED} {name}"[:4000],
                    owner=f"owner:{domain_id}",
                    card={"concepts": [], "retired": True},
                    recorded_at=at,
                )
            )
    return ops
