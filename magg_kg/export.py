"""The canonical export: the graph as known now or at a past system time, as one JSON document."""

from __future__ import annotations

import json

from magg_kg.store import Store

__all__ = ["export_graph"]


def export_graph(store: Store, as_of: str | None = None) -> dict[str, object]:
    """Concepts with type, aliases and domains; active edges with their full grounding record,
    time stamps and decision id; the decisions behind them; lessons with id, title, sha256, text,
    and whether each is current (not replaced by a later version, nor withdrawn).
    """
    aliases: dict[str, list[str]] = {}
    for alias, concept_id in store.aliases(as_of).items():
        aliases.setdefault(concept_id, []).append(alias)
    owners = store.concept_domains(as_of)
    edges = store.edges(as_of)
    decision_ids = {edge.decision_id for edge in edges}
    stale = store.stale_lessons(as_of)
    return {
        "schema_version": store.schema_version(),
        "as_of": as_of,
        "concepts": [
            {
                "id": concept.id,
                "name": concept.name,
                "type": concept.type,
                "description": concept.description,
                "aliases": sorted(aliases.get(concept.id, [])),
                "domains": list(owners.get(concept.id, ())),
                "recorded_at": concept.recorded_at,
            }
            for concept in store.concepts(as_of)
        ],
        "edges": [
            {
                "edge_id": edge.edge_id,
                "version_id": edge.version_id,
                "src": edge.src,
                "type": edge.type,
                "dst": edge.dst,
                "grounding": json.loads(edge.grounding.model_dump_json()),
                "valid_at": edge.valid_at,
                "invalid_at": edge.invalid_at,
                "recorded_at": edge.recorded_at,
                "expired_at": edge.expired_at if as_of is None else None,
                "decision_id": edge.decision_id,
                "policy_version": edge.policy_version,
                "prompt_version": edge.prompt_version,
                "model": edge.model,
            }
            for edge in edges
        ],
        "decisions": [
            json.loads(decision.model_dump_json(exclude={"seq"}))
            for decision in store.decisions()
            if decision.id in decision_ids
        ],
        "lessons": [
            {
                "id": lesson.id,
                "key": lesson.lesson_key,
                "title": lesson.title,
                "sha256": lesson.sha256,
                "source_path": lesson.source_path,
                "supersedes": lesson.supersedes,
                "ingested_at": lesson.ingested_at,
                "current": lesson.id not in stale,
                "text": lesson.text,
            }
            for lesson in store.lessons(as_of)
        ],
    }
