"""The question-answering index: a LlamaIndex PropertyGraphIndex over the store's active graph.

Concepts become ``EntityNode``s (the node's name is the concept id; its properties carry the
concept's name, type and owning domains), active edges become ``Relation``s whose properties
carry the edge id, the type, the confidence and the first grounding quote. Entity embeddings come
from :class:`~magg_kg.embedding.HashingEmbedding` (local, deterministic) and live in a separate
``SimpleVectorStore``; the graph lives in a ``SimplePropertyGraphStore``.

Nothing here generates text. ``PropertyGraphIndex`` resolves an LLM even with no extractors, so
the index is given LlamaIndex's ``MockLLM`` only to satisfy its constructor: no answer ever comes
from it (every generation goes through the magg LLM port, :mod:`magg_kg.llm.port`), and
LlamaIndex's global ``Settings`` are never read or set. LlamaIndex is imported inside the
functions, so ``magg`` starts without it.

Retrieval (:func:`retrieve`) may be restricted to a scope (a domain's concepts): the seeds are
the given concepts in the scope plus the scope's concepts nearest the query, and the one-hop
expansion keeps only the edges whose two ends are both in the scope.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from magg_kg.records import Concept, EdgeVersion
from magg_kg.store import Store

if TYPE_CHECKING:
    from llama_index.core.indices.property_graph import PropertyGraphIndex
    from llama_index.core.vector_stores import SimpleVectorStore

    from magg_kg.embedding import HashingEmbedding

__all__ = ["GraphIndex", "build_graph_index", "retrieve"]


@dataclass(frozen=True)
class GraphIndex:
    """The index and what the answering code needs beside it (all as of one time)."""

    index: PropertyGraphIndex
    embedding: HashingEmbedding
    vectors: SimpleVectorStore
    """The entity embeddings (node id = concept id)."""
    concepts: Mapping[str, Concept]
    names: Mapping[str, tuple[str, ...]]
    """Concept id -> its name and aliases."""
    owners: Mapping[str, tuple[str, ...]]
    """Concept id -> the domains that own it."""
    edges: Mapping[str, EdgeVersion]
    """Edge id -> its active version."""
    as_of: str | None = None


def _entity_text(concept: Concept, names: Iterable[str]) -> str:
    return " ".join([concept.name, *names, concept.description]).strip()


def build_graph_index(store: Store, as_of: str | None = None) -> GraphIndex:
    """The property graph of the active edges (as of ``as_of``) and its entity embeddings."""
    from llama_index.core.graph_stores import SimplePropertyGraphStore
    from llama_index.core.graph_stores.types import EntityNode, Relation
    from llama_index.core.indices.property_graph import PropertyGraphIndex
    from llama_index.core.llms import MockLLM
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores import SimpleVectorStore

    from magg_kg.embedding import HashingEmbedding

    concepts = {concept.id: concept for concept in store.concepts(as_of)}
    aliases: dict[str, list[str]] = {}
    for alias, concept_id in store.aliases(as_of).items():
        aliases.setdefault(concept_id, []).append(alias)
    names = {cid: (c.name, *sorted(aliases.get(cid, []))) for cid, c in concepts.items()}
    owners = store.concept_domains(as_of)
    edges = {
        edge.edge_id: edge for edge in store.edges(as_of) if edge.src in concepts and edge.dst in concepts
    }
    embed = HashingEmbedding()
    ordered = sorted(concepts.values(), key=lambda c: c.id)
    vectors = embed.vectors([_entity_text(c, names[c.id][1:]) for c in ordered])
    graph_store = SimplePropertyGraphStore()
    graph_store.upsert_nodes(
        [
            EntityNode(
                name=c.id,
                label=c.type,
                properties={"name": c.name, "type": c.type, "domains": list(owners.get(c.id, ()))},
            )
            for c in ordered
        ]
    )
    graph_store.upsert_relations(
        [
            Relation(
                label=edge.type,
                source_id=edge.src,
                target_id=edge.dst,
                properties={
                    "edge_id": edge.edge_id,
                    "type": edge.type,
                    "confidence": edge.grounding.confidence,
                    "quote": edge.grounding.evidence[0].quote,
                },
            )
            for edge in sorted(edges.values(), key=lambda e: e.edge_id)
        ]
    )
    vector_store = SimpleVectorStore()
    if ordered:
        vector_store.add(
            [
                TextNode(id_=c.id, text=_entity_text(c, names[c.id][1:]), embedding=vector)
                for c, vector in zip(ordered, vectors, strict=True)
            ]
        )
    index = PropertyGraphIndex.from_existing(
        property_graph_store=graph_store,
        vector_store=vector_store,
        llm=MockLLM(),  # satisfies the constructor only: answers never come from it
        embed_model=embed,
        embed_kg_nodes=False,  # the entity vectors are added above, from the store's concepts
        kg_extractors=[],
        show_progress=False,
    )
    return GraphIndex(index, embed, vector_store, concepts, names, owners, edges, as_of)


def retrieve(
    graph: GraphIndex,
    query: str,
    *,
    seeds: Iterable[str] = (),
    scope: Collection[str] | None = None,
    top_k: int = 3,
    limit: int = 40,
) -> list[EdgeVersion]:
    """The active edges around ``seeds`` and the ``top_k`` concepts nearest the query.

    With a ``scope``, seeds outside it are ignored, the nearest concepts are searched inside it
    and only edges with both ends inside it are kept. Edges touching a given seed come first.
    """
    from llama_index.core.vector_stores.types import VectorStoreQuery

    index = graph.index
    inside = None if scope is None else frozenset(scope)
    given = [s for s in dict.fromkeys(seeds) if s in graph.concepts and (inside is None or s in inside)]
    nearest: list[str] = []
    if top_k > 0 and graph.concepts and (inside is None or inside):
        embedding = graph.embedding.get_query_embedding(query)
        found = graph.vectors.query(
            VectorStoreQuery(
                query_embedding=embedding,
                similarity_top_k=top_k,
                node_ids=None if inside is None else sorted(inside),
            )
        )
        nearest = [str(node_id) for node_id in found.ids or []]
    start = [s for s in dict.fromkeys([*given, *nearest]) if s in graph.concepts]
    if not start:
        return []
    store = index.property_graph_store
    triplets = store.get_triplets(ids=start)
    focus = set(given)
    kept: dict[str, EdgeVersion] = {}
    for source, relation, target in triplets:
        edge = graph.edges.get(str(relation.properties.get("edge_id", "")))
        if edge is None or (inside is not None and not {source.id, target.id} <= inside):
            continue
        kept[edge.edge_id] = edge
    ranked = sorted(
        kept.values(),
        key=lambda e: (not ({e.src, e.dst} & focus), -e.grounding.confidence, e.edge_id),
    )
    return ranked[:limit]
