"""Ownership: domains as communities of the concept graph, with stable ids, owners and cards.

The concept graph is weighted: an active edge weighs 1.0, a standing proposal its confidence,
and concepts linked to the same lesson weigh ``1 / (n - 1)`` per lesson of ``n`` concepts (the
cold start, before any edge is active). Communities are Louvain communities with the configured
seed, so the layout is reproducible. igraph's C implementation of the algorithm computes them;
networkx's is the reference the tests hold it to (the same quality on small graphs). networkx takes
over 15 minutes at 100k concepts and 500k edges where igraph takes seconds, and ingestion computes
the layout once per lesson: on the 134 d2l sections 16 CPU s against 2, with the same edges
admitted. Communities smaller than :data:`MIN_SIZE` join the community they are most tied to
(isolated concepts join a "general" domain).

Ids name stable topics. A domain's *anchor* is its three most central concepts when its id was made,
kept in its card for good (a retired domain's too). A new community holds an anchor when it has at
least half of its concepts; each community takes the id of a domain whose anchor it holds, live or
retired, best pairs first (the anchor concepts held weighing most in the graph, then the larger
Jaccard overlap with the domain's last concepts), one id per community. A live domain whose anchor no
community holds is retired, and a community holding the anchor of a retired one gets its id back (a
new version). A stored domain with no anchor (written before anchors) still takes the community it
overlaps most (Jaccard >= :data:`MATCH_AT`) and is anchored from then on. Any other community gets a
new id, derived from its most central concept and never one used before, anchored on its central
concepts. Only the ids depend on the earlier domains: the communities, bridges and names do not.

A concept with at least :data:`BRIDGE_SHARE` of its weight tied into another community is a bridge
and is owned by both. Each domain has a name (its three most central concepts), an owner agent
``owner:<domain id>`` and a memory card.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import networkx as nx

from magg_kg.ids import make_id
from magg_kg.operations import AssignDomain, Operation, SetDomain, UnassignDomain

if TYPE_CHECKING:
    from types import ModuleType

__all__ = [
    "BRIDGE_SHARE",
    "MATCH_AT",
    "MIN_SIZE",
    "RETIRED",
    "Domain",
    "Layout",
    "WeightedGraph",
    "card",
    "compute_layout",
    "domain_cards",
    "layout_ops",
    "louvain_communities",
    "stored_anchors",
    "weighted_graph",
]

MIN_SIZE = 3
MATCH_AT = 0.2
BRIDGE_SHARE = 1 / 3
CARD_LIMIT = 300
RETIRED = "(retired)"
"""The name prefix of a domain that no longer owns anything (its id is kept, given back only to a
community holding its anchor)."""


@dataclass(frozen=True)
class Domain:
    id: str
    name: str
    owner: str
    concepts: tuple[str, ...]
    bridges: tuple[str, ...]
    central: tuple[str, ...]
    anchor: tuple[str, ...] = ()


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


@dataclass(frozen=True)
class WeightedGraph:
    """The undirected weighted concept graph, as plain dictionaries: each concept (in sorted order)
    to its neighbours (in the order their pairs first appeared) and the weight of each tie.

    Ingestion lays out the domains once per lesson, over every concept and lesson tie of the course
    so far; a networkx graph of the same ties cost more to build than the communities cost to find
    (4.5 of the 11 s a layout took over the 134 d2l sections). The order is networkx's, so that
    :meth:`to_networkx` and :meth:`edges` give Louvain the same graph.
    """

    adjacency: Mapping[str, Mapping[str, float]]

    @property
    def nodes(self) -> list[str]:
        return list(self.adjacency)

    def __len__(self) -> int:
        return len(self.adjacency)

    def edges(self) -> Iterator[tuple[str, str, float]]:
        """Each tie once, in the order networkx's ``Graph.edges`` reports it."""
        seen: set[str] = set()
        for node, neighbours in self.adjacency.items():
            for neighbour, weight in neighbours.items():
                if neighbour not in seen:
                    yield node, neighbour, weight
            seen.add(node)

    def to_networkx(self) -> nx.Graph:
        """The same graph as networkx's (for its reference Louvain, modularity, tests)."""
        graph = nx.Graph()
        graph.add_nodes_from(self.adjacency)
        graph.add_weighted_edges_from(self.edges())
        return graph


def weighted_graph(
    concepts: Iterable[str],
    edges: Iterable[tuple[str, str, float]],
    groups: Iterable[Sequence[str]],
) -> WeightedGraph:
    """The undirected weighted concept graph (edges and lesson co-occurrence)."""
    nodes = sorted(set(concepts))
    known = set(nodes)
    # Weights are summed first and each pair added once, in the order it first appears (networkx's
    # Louvain visits neighbours in that order), with the same sums as edge by edge.
    weights: dict[tuple[str, str], float] = {}
    for src, dst, weight in edges:
        if src != dst and src in known and dst in known:
            pair = (src, dst) if src < dst else (dst, src)
            weights[pair] = weights.get(pair, 0.0) + weight
    for group in groups:
        members = sorted({c for c in group if c in known})
        if len(members) < 2:
            continue
        share = 1.0 / (len(members) - 1)
        for index, a in enumerate(members):
            for b in members[index + 1 :]:
                weights[(a, b)] = weights.get((a, b), 0.0) + share
    adjacency: dict[str, dict[str, float]] = {node: {} for node in nodes}
    for (a, b), weight in weights.items():
        adjacency[a][b] = weight
        adjacency[b][a] = weight
    return WeightedGraph(adjacency)


@contextmanager
def _seeded_igraph(seed: int) -> Iterator[ModuleType]:
    """igraph, whose one process-wide generator is seeded for the call and given back after.

    Imported here, when a layout first needs it: importing igraph imports matplotlib's pyplot
    (0.7 s), which no command without a layout should pay for.
    """
    import igraph

    igraph.set_random_number_generator(random.Random(seed))
    try:
        yield igraph
    finally:
        igraph.set_random_number_generator(random)


def louvain_communities(graph: WeightedGraph, seed: int, *, backend: str = "igraph") -> list[set[str]]:
    """The Louvain communities of a weighted graph, reproducible with ``seed``.

    ``backend`` is ``igraph`` (what ingestion uses) or ``networkx`` (the reference).

    >>> ties = [("a", "b", 1.0), ("b", "c", 1.0), ("a", "c", 1.0), ("x", "y", 1.0), ("y", "z", 1.0)]
    >>> g = weighted_graph("abcxyz", [*ties, ("x", "z", 1.0), ("c", "x", 1.0)], [])
    >>> sorted(sorted(c) for c in louvain_communities(g, 1, backend="igraph"))
    [['a', 'b', 'c'], ['x', 'y', 'z']]
    """
    if backend not in ("igraph", "networkx"):
        raise ValueError(f"unknown Louvain backend {backend!r}: igraph or networkx")
    if backend == "networkx":
        reference = graph.to_networkx()
        return [set(c) for c in nx.community.louvain_communities(reference, weight="weight", seed=seed)]
    nodes = graph.nodes
    index = {node: number for number, node in enumerate(nodes)}
    pairs, weights = [], []
    for a, b, weight in graph.edges():
        pairs.append((index[a], index[b]))
        weights.append(float(weight))
    with _seeded_igraph(seed) as igraph:
        found = igraph.Graph(n=len(nodes), edges=pairs).community_multilevel(weights=weights)
    return [{nodes[i] for i in members} for members in found]


def _communities(graph: WeightedGraph, seed: int) -> list[set[str]]:
    found = louvain_communities(graph, seed)
    big = [c for c in found if len(c) >= MIN_SIZE]
    general: set[str] = set()
    for small in (c for c in found if len(c) < MIN_SIZE):
        for node in sorted(small):
            neighbours = graph.adjacency[node]
            ties = [sum(w for n, w in neighbours.items() if n in c) for c in big]
            if big and max(ties) > 0:
                big[ties.index(max(ties))].add(node)
            else:
                general.add(node)
    if general:
        big.append(general)
    return sorted(big, key=lambda c: (-len(c), min(c)))


def compute_layout(
    graph: WeightedGraph,
    previous: Mapping[str, set[str]],
    names: Mapping[str, str],
    seed: int,
    anchors: Mapping[str, Sequence[str]] | None = None,
) -> Layout:
    """Domains of the graph, with the ids of the ``previous`` domains (id -> concepts) and of the
    ``anchors`` (id -> anchor, of every stored domain, retired ones too) by the module's rule."""
    if not len(graph):
        return Layout(())
    communities = _communities(graph, seed)
    membership = {node: index for index, c in enumerate(communities) for node in c}
    bridges: dict[int, set[str]] = {}
    degree: dict[str, float] = {}
    for node, neighbours in graph.adjacency.items():
        total = degree[node] = sum(neighbours.values())
        if total <= 0:
            continue
        by_community: dict[int, float] = {}
        for neighbour, weight in neighbours.items():
            community = membership[neighbour]
            by_community[community] = by_community.get(community, 0.0) + weight
        for index, weight in by_community.items():
            if index != membership[node] and weight / total >= BRIDGE_SHARE:
                bridges.setdefault(index, set()).add(node)
    assigned = _match(communities, previous, anchors or {}, degree)
    domains = []
    taken = {*previous, *(anchors or {}), *assigned.values()}  # an id is never given to another topic
    for index, members in enumerate(communities):
        central = tuple(sorted(members, key=lambda n: (-degree.get(n, 0.0), n))[:3])
        domain_id = assigned.get(index)
        anchor = tuple((anchors or {}).get(domain_id, ())) if domain_id else ()
        if domain_id is None:
            domain_id = make_id("domain", central[0])
            while domain_id in taken:
                domain_id = make_id("domain", domain_id)
            taken.add(domain_id)
        domains.append(
            Domain(
                id=domain_id,
                name=" / ".join(names.get(c, c) for c in central),
                owner=f"owner:{domain_id}",
                concepts=tuple(sorted(members)),
                bridges=tuple(sorted(bridges.get(index, set()))),
                central=central,
                anchor=anchor or central,
            )
        )
    return Layout(tuple(sorted(domains, key=lambda d: d.id)))


def _match(
    communities: Sequence[set[str]],
    previous: Mapping[str, set[str]],
    anchors: Mapping[str, Sequence[str]],
    degree: Mapping[str, float],
) -> dict[int, str]:
    """Community index -> the id it keeps (the module's rule): by anchor, then by overlap for a
    domain stored without an anchor."""
    where = {node: index for index, c in enumerate(communities) for node in c}
    by_anchor = []
    for old_id, anchor in anchors.items():
        held: dict[int, list[str]] = {}
        for concept in anchor:
            if concept in where:
                held.setdefault(where[concept], []).append(concept)
        old = previous.get(old_id, set())
        for index, concepts in held.items():
            if 2 * len(concepts) >= len(anchor):
                overlap = _jaccard(len(old & communities[index]), old, communities[index])
                weight = sum(degree.get(c, 0.0) for c in concepts)
                by_anchor.append((-weight, -overlap, index, old_id))
    was: dict[str, list[str]] = {}
    for old_id, old in previous.items():
        if old_id not in anchors:
            for concept in old:
                was.setdefault(concept, []).append(old_id)
    by_overlap = []
    for index, c in enumerate(communities):
        shared_with: dict[str, int] = {}
        for concept in c:
            for old_id in was.get(concept, ()):
                shared_with[old_id] = shared_with.get(old_id, 0) + 1
        # Jaccard overlap, only with the previous domains it shares a concept with.
        by_overlap += [
            (-overlap, 0.0, index, old_id)
            for old_id, n in shared_with.items()
            if (overlap := _jaccard(n, c, previous[old_id])) >= MATCH_AT
        ]
    assigned: dict[int, str] = {}
    taken: set[str] = set()
    for pairs in (sorted(by_anchor), sorted(by_overlap)):
        for _, _, index, old_id in pairs:
            if index not in assigned and old_id not in taken:
                assigned[index] = old_id
                taken.add(old_id)
    return assigned


def _jaccard(shared: int, a: set[str], b: set[str]) -> float:
    """The Jaccard overlap of two sets that share ``shared`` members."""
    return shared / (len(a) + len(b) - shared)


def stored_anchors(stored: Iterable[Mapping[str, object]]) -> dict[str, list[str]]:
    """Domain id -> its anchor, from the stored domains (rows with a card), retired ones too; a
    domain stored before anchors has none."""
    anchors = {}
    for row in stored:
        anchor = json.loads(str(row["card"])).get("anchor")
        if anchor:
            anchors[str(row["id"])] = [str(c) for c in anchor]
    return anchors


def domain_cards(
    layout: Layout,
    facts: Iterable[tuple[str, str, str]],
    open_questions: Iterable[tuple[str, str, str, str]],
) -> dict[str, dict[str, object]]:
    """Every domain's :func:`card`, each fact and open question read once (not once per domain)."""
    owners = layout.owners()
    facts_of: dict[str, list[tuple[str, str, str]]] = {}
    for fact in facts:
        for domain_id in set(owners.get(fact[0], ())) & set(owners.get(fact[2], ())):
            facts_of.setdefault(domain_id, []).append(fact)
    questions_of: dict[str, list[tuple[str, str, str, str]]] = {}
    for question in open_questions:
        for domain_id in set(owners.get(question[1], ())) | set(owners.get(question[3], ())):
            questions_of.setdefault(domain_id, []).append(question)
    return {d.id: card(d, facts_of.get(d.id, []), questions_of.get(d.id, [])) for d in layout.domains}


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
        "anchor": list(domain.anchor or domain.central),
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
    anchors = stored_anchors(stored)
    for domain_id, (version, _, name) in sorted(versions.items()):
        if domain_id not in live and not name.startswith(RETIRED):
            retired: dict[str, object] = {"concepts": [], "retired": True}
            if domain_id in anchors:  # kept, so that a community holding it gets the id back
                retired["anchor"] = anchors[domain_id]
            ops.append(
                SetDomain(
                    id=domain_id,
                    version=version + 1,
                    name=f"{RETIRED} {name}"[:4000],
                    owner=f"owner:{domain_id}",
                    card=retired,
                    recorded_at=at,
                )
            )
    return ops
