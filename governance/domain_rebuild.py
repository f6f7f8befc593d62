"""A domain rebuild: the communities of the whole stored graph, computed and written at once.

Ingestion recomputes the domains lesson by lesson, inside the lesson's batch. A rebuild does the same
from the store alone (active edges weigh 1.0, lessons add their co-occurrence weights, the stored
domains and their anchors give the ids), then writes the layout in batches of at most ``BATCH_OPS``
operations: the domain versions first, then the moves of concepts between domains. It reads the graph
as triples, never as grounding records.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from governance.domains import (
    Domain,
    Layout,
    compute_layout,
    domain_cards,
    layout_ops,
    stored_anchors,
    weighted_graph,
)
from magg_kg.clock import Clock
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import BATCH_OPS, Batch, Operation
from magg_kg.store import Store

__all__ = ["Rebuilt", "current_cards", "plan_rebuild", "rebuild_domains"]


@dataclass(frozen=True)
class Rebuilt:
    """The layout computed and the operations that write it."""

    layout: Layout
    ops: tuple[Operation, ...]


def plan_rebuild(store: Store, seed: int, at: str) -> Rebuilt:
    """The domains of the stored graph, matched to the stored ones, and the writes that set them."""
    concepts = {str(row["id"]): str(row["name"]) for row in store.query("concepts", {"as_of": None})}
    facts = store.triples()
    groups: dict[str, list[str]] = {}
    for row in store.lesson_roles():
        groups.setdefault(str(row["lesson_id"]), []).append(str(row["concept_id"]))
    assigned = store.concept_domains()
    previous: dict[str, set[str]] = {}
    for concept, domain_ids in assigned.items():
        for domain_id in domain_ids:
            previous.setdefault(domain_id, set()).add(concept)
    graph = weighted_graph(concepts, [(src, dst, 1.0) for src, _, dst in facts], groups.values())
    stored = store.domains()
    layout = compute_layout(graph, previous, concepts, seed, stored_anchors(stored))
    cards = domain_cards(layout, facts, _open_questions(store))
    return Rebuilt(layout, tuple(layout_ops(layout, cards, stored, assigned, at)))


def _open_questions(store: Store) -> list[tuple[str, str, str, str]]:
    return [(p.id, p.src, p.type, p.dst) for p in store.proposals_in(("abstained", "quarantined"))]


def current_cards(store: Store) -> dict[str, dict[str, object]]:
    """Each active domain's memory card as the graph stands now. A stored card is as of the last
    rebuild (the end of an ingest), while ``reconsider``, a person's review and a withdrawal commit
    and close edges and proposals since: the concepts, bridges and centre are the domain's stored
    ones, its facts and open questions are read now."""
    owned: dict[str, list[str]] = {}
    for concept, domain_ids in store.concept_domains().items():
        for domain_id in domain_ids:
            owned.setdefault(domain_id, []).append(concept)
    stored = {str(row["id"]): (row, json.loads(str(row["card"]))) for row in store.domains()}
    domains = [
        Domain(
            id=domain_id,
            name=str(row["name"]),
            owner=str(row["owner"]),
            concepts=tuple(sorted(owned.get(domain_id, ()))),
            bridges=tuple(card.get("bridges", ())),
            central=tuple(card.get("central", ())),
            anchor=tuple(card.get("anchor", ())),
        )
        for domain_id, (row, card) in stored.items()
        if not card.get("retired")
    ]
    fresh = domain_cards(Layout(tuple(domains)), store.triples(), _open_questions(store))
    return {domain_id: {**stored[domain_id][1], **card} for domain_id, card in fresh.items()}


def rebuild_domains(store: Store, seed: int, clock: Clock) -> Rebuilt:
    """Computes the domains (:func:`plan_rebuild`) and writes them, in as many batches as needed."""
    at = clock.now()
    rebuilt = plan_rebuild(store, seed, at)
    ops = list(rebuilt.ops)
    for start in range(0, len(ops), BATCH_OPS):  # domain operations carry no audit events
        chunk = journaled(ops[start : start + BATCH_OPS], at)
        store.write(Batch.of(make_id("batch", "domains", at, str(start)), at, chunk))
    return rebuilt
