"""The scopes of a graph's domain experts: what each may see (its own concepts and its card's
bridge concepts, :func:`domain_scopes`), and each domain's bridge concepts (:func:`bridges_of`)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from governance.experts import UNOWNED
from magg_kg.graph_index import GraphIndex

__all__ = ["bridges_of", "domain_scopes"]


def domain_scopes(graph: GraphIndex, bridges: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    """Domain id -> the concepts its expert may see: its own and its bridge concepts (built once
    per graph and bridges)."""
    key = ("scopes", tuple(sorted((domain, tuple(extra)) for domain, extra in bridges.items())))
    return graph.kept(key, lambda: _scopes(graph, bridges))


def _scopes(graph: GraphIndex, bridges: Mapping[str, Sequence[str]]) -> dict[str, frozenset[str]]:
    scopes: dict[str, set[str]] = {}
    for concept, owners in graph.owners.items():
        for owner in owners:
            scopes.setdefault(owner, set()).add(concept)
    for domain, extra in bridges.items():
        scopes.setdefault(domain, set()).update(c for c in extra if c in graph.concepts)
    unowned = {c for c in graph.concepts if not graph.owners.get(c)}
    if unowned:
        scopes[UNOWNED] = unowned
    return {domain: frozenset(members) for domain, members in scopes.items()}


def bridges_of(rows: Sequence[Mapping[str, object]]) -> dict[str, list[str]]:
    """Domain id -> its card's bridge concepts, from ``store.domains()`` rows."""
    found: dict[str, list[str]] = {}
    for row in rows:
        card = json.loads(str(row.get("card") or "{}"))
        found[str(row["id"])] = [str(c) for c in card.get("bridges", [])]
    return found
