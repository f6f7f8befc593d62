"""Coverage: how much of the curriculum the graph holds, overall and per domain."""

from __future__ import annotations

from collections import Counter

import networkx as nx

from magg_kg.graph import typed_digraph
from magg_kg.records import EdgeVersion
from magg_kg.store import Store

__all__ = ["ACYCLIC_TYPES", "coverage_report"]

ACYCLIC_TYPES = ("prerequisite", "builds_on", "part_of")


def _section(concepts: set[str], edges: list[EdgeVersion]) -> dict[str, object]:
    inside = [edge for edge in edges if edge.src in concepts or edge.dst in concepts]
    touched = {edge.src for edge in inside} | {edge.dst for edge in inside}
    cycles = [
        [str(node) for node in cycle]
        for cycle in nx.simple_cycles(typed_digraph(inside, ["prerequisite"]), length_bound=12)
    ]
    return {
        "concepts": len(concepts),
        "active_edges": len(inside),
        "edge_types": dict(sorted(Counter(edge.type for edge in inside).items())),
        "orphans": sorted(concepts - touched),
        "prerequisite_cycles": sorted(cycles),
    }


def coverage_report(store: Store, as_of: str | None = None) -> dict[str, object]:
    """Concept and active-edge counts, edge types, orphans, prerequisite cycles (there must be
    none) and lessons without concepts, overall and per domain, now or as of a past time."""
    concepts = {concept.id for concept in store.concepts(as_of)}
    edges = store.edges(as_of)
    taught = {str(row["lesson_id"]) for row in store.lesson_concepts(as_of)}
    lessons = store.lessons(as_of)
    owners = store.concept_domains(as_of)
    members: dict[str, set[str]] = {}
    for concept, domain_ids in owners.items():
        for domain_id in domain_ids:
            members.setdefault(domain_id, set()).add(concept)
    names = {str(row["id"]): str(row["name"]) for row in store.domains(as_of)}
    overall = _section(concepts, edges)
    overall["lessons"] = len(lessons)
    overall["lessons_without_concepts"] = sorted(lesson.id for lesson in lessons if lesson.id not in taught)
    return {
        "as_of": as_of,
        "overall": overall,
        "domains": {
            domain_id: {"name": names.get(domain_id, domain_id), **_section(ids, edges)}
            for domain_id, ids in sorted(members.items())
        },
    }
