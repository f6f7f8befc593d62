"""Coverage: how much of the curriculum the graph holds, overall and per domain.

It reads the graph as triples (no grounding records) and hands each edge to the domains of its
two ends in one pass, so a domain's section costs the edges of its own concepts. Prerequisite
cycles (there must be none) are searched only inside the strongly connected parts of the
prerequisite graph, and a domain's own cycles only when one of those parts touches it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

import networkx as nx

from magg_kg.records import EdgeVersion
from magg_kg.store import Store, Triple

__all__ = ["ACYCLIC_TYPES", "central_concepts", "coverage_report"]

ACYCLIC_TYPES = ("prerequisite", "builds_on", "part_of")
_CYCLE_LENGTH = 12


def _cycles(edges: Iterable[Triple]) -> list[list[str]]:
    graph = nx.DiGraph((src, dst) for src, type_, dst in edges if type_ == "prerequisite")
    found = nx.simple_cycles(graph, length_bound=_CYCLE_LENGTH)
    return sorted([str(node) for node in cycle] for cycle in found)


def _section(concepts: set[str], inside: Sequence[Triple], cyclic: bool) -> dict[str, object]:
    touched = {src for src, _, _ in inside} | {dst for _, _, dst in inside}
    return {
        "concepts": len(concepts),
        "active_edges": len(inside),
        "edge_types": dict(sorted(Counter(type_ for _, type_, _ in inside).items())),
        "orphans": sorted(concepts - touched),
        "prerequisite_cycles": _cycles(inside) if cyclic else [],
    }


def _looped(edges: Iterable[Triple]) -> set[str]:
    """The concepts on some prerequisite cycle (in a strongly connected part of two or more).

    Concepts with nothing before them are peeled off first (Kahn's algorithm): on an acyclic graph
    nothing is left and networkx is not needed.
    """
    after: dict[str, list[str]] = {}
    before: Counter[str] = Counter()
    for src, type_, dst in edges:
        if type_ == "prerequisite":
            after.setdefault(src, []).append(dst)
            before[dst] += 1
    ready = [node for node in after if not before[node]]
    left = set(after) | set(before)
    while ready:
        node = ready.pop()
        left.discard(node)
        for later in after.get(node, ()):
            before[later] -= 1
            if not before[later]:
                ready.append(later)
    if not left:
        return set()
    graph = nx.DiGraph((src, dst) for src, type_, dst in edges if type_ == "prerequisite" and src in left)
    return {str(node) for part in nx.strongly_connected_components(graph) if len(part) > 1 for node in part}


def coverage_report(store: Store, as_of: str | None = None) -> dict[str, object]:
    """Concept and active-edge counts, edge types, orphans, prerequisite cycles (there must be
    none) and lessons without concepts, overall and per domain, now or as of a past time."""
    concepts = {str(row["id"]) for row in store.query("concepts", {"as_of": as_of})}
    edges = store.triples(as_of)
    taught = {str(row["lesson_id"]) for row in store.query("taught_lessons", {"as_of": as_of})}
    lessons = store.current_lesson_ids(as_of)  # not versions a later one replaced, nor withdrawn lessons
    owners = store.concept_domains(as_of)
    members: dict[str, set[str]] = {}
    for concept, domain_ids in owners.items():
        for domain_id in domain_ids:
            members.setdefault(domain_id, set()).add(concept)
    names = {str(row["id"]): str(row["name"]) for row in store.domains(as_of)}
    inside: dict[str, list[Triple]] = {domain_id: [] for domain_id in members}
    none: tuple[str, ...] = ()
    for edge in edges:  # each edge goes to the domains of its two ends, in the edges' order
        at_src, at_dst = owners.get(edge[0], none), owners.get(edge[2], none)
        for domain_id in at_src if at_src == at_dst else {*at_src, *at_dst}:
            inside[domain_id].append(edge)
    looped = _looped(edges)
    overall = _section(concepts, [e for e in edges if e[0] in concepts or e[2] in concepts], bool(looped))
    overall["lessons"] = len(lessons)
    overall["lessons_without_concepts"] = sorted(lesson for lesson in lessons if lesson not in taught)
    domains: dict[str, object] = {}
    for domain_id, ids in sorted(members.items()):
        section = _section(ids, inside[domain_id], bool(ids & looped))
        domains[domain_id] = {"name": names.get(domain_id, domain_id), **section}
    return {"as_of": as_of, "overall": overall, "domains": domains}


def central_concepts(
    touching: Callable[[str], Sequence[EdgeVersion]],
    concepts: Iterable[str],
    owners: Mapping[str, Sequence[str]],
    most: int = 5,
) -> tuple[int, list[tuple[str, EdgeVersion]]]:
    """What the graph covers: (how many domains it has, the central concept of each of the ``most``
    largest with its best-supported edge). The concepts no domain owns count as one more domain; a
    domain's size is its concepts that have an edge, its central concept the one with the most
    edges (ties by id), a concept owned by two domains central to one at most.

    >>> from types import SimpleNamespace as E
    >>> edges = [E(edge_id=f"e{i}", src=a, dst=b, grounding=E(confidence=c))
    ...          for i, (a, b, c) in enumerate([("a", "b", 0.9), ("a", "c", 0.95), ("d", "e", 0.8)])]
    >>> touching = lambda c: [e for e in edges if c in (e.src, e.dst)]
    >>> owners = {"a": ["x"], "b": ["x"], "c": ["x"], "d": ["y"], "e": ["y"]}
    >>> domains, central = central_concepts(touching, "abcde", owners)
    >>> domains, [(concept, edge.edge_id) for concept, edge in central]
    (2, [('a', 'e1'), ('d', 'e2')])
    """
    members: dict[str, list[str]] = {}
    degree: dict[str, int] = {}
    for concept in concepts:
        degree[concept] = len(touching(concept))
        if degree[concept]:
            for domain in owners.get(concept) or ("",):
                members.setdefault(domain, []).append(concept)
    chosen: list[tuple[str, EdgeVersion]] = []
    taken: set[str] = set()
    for domain in sorted(members, key=lambda d: (-len(members[d]), d)):
        left = [c for c in members[domain] if c not in taken]
        if len(chosen) == most or not left:
            continue
        concept = min(left, key=lambda c: (-degree[c], c))
        best = min(touching(concept), key=lambda e: (-e.grounding.confidence, e.edge_id))
        chosen.append((concept, best))
        taken.add(concept)
    return len(members), chosen
