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

Each scope has an index of its own - its concepts and the edges with both ends inside - built the
first time a question reaches it and kept in the :class:`GraphIndex` for every later question
(the whole graph's index likewise, for the flat baseline). The graph is as of one time and never
changes, so nothing kept goes stale; a caller that keeps a :class:`GraphIndex` between questions
(a server, the benchmarks) builds each domain's index once. What is derived from the whole graph
for every question - the edges by concept, the members of each domain - is kept the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar, cast

from magg_kg.graph_reader import edges_by_concept
from magg_kg.records import Concept, EdgeVersion
from magg_kg.store import Store

if TYPE_CHECKING:
    from llama_index.core.indices.property_graph import PropertyGraphIndex
    from llama_index.core.vector_stores import SimpleVectorStore

    from magg_kg.embedding import HashingEmbedding

__all__ = ["GraphIndex", "ScopeIndex", "build_graph_index", "retrieve"]

T = TypeVar("T")


@dataclass(frozen=True)
class ScopeIndex:
    """The LlamaIndex side of one scope: its property graph and its entity embeddings."""

    index: PropertyGraphIndex
    vectors: SimpleVectorStore
    """The entity embeddings (node id = concept id)."""


@dataclass(frozen=True)
class GraphIndex:
    """The graph as of one time and what the answering code needs beside it; the indexes of its
    scopes are built when first needed and kept (see the module docstring)."""

    embedding: HashingEmbedding
    concepts: Mapping[str, Concept]
    names: Mapping[str, tuple[str, ...]]
    """Concept id -> its name and aliases."""
    owners: Mapping[str, tuple[str, ...]]
    """Concept id -> the domains that own it."""
    edges: Mapping[str, EdgeVersion]
    """Edge id -> its active version."""
    as_of: str | None = None
    store: Store | None = field(default=None, compare=False, repr=False)
    """The store the graph was read from: what open questions read beside it (the lessons and
    their chunks) is read from it when first needed."""
    _kept: dict[object, object] = field(default_factory=dict, compare=False, repr=False)

    def kept(self, key: object, build: Callable[[], T]) -> T:
        """What ``build`` returns, built the first time ``key`` is asked for and kept after."""
        if key not in self._kept:
            self._kept[key] = build()
        return cast(T, self._kept[key])

    def scope_index(self, scope: frozenset[str] | None) -> ScopeIndex:
        """The index of a scope's concepts and of the edges with both ends in it (``None``: the
        whole graph), built once."""
        return self.kept(("scope", scope), lambda: _scope_index(self, scope))

    def touching(self) -> Mapping[str, Sequence[EdgeVersion]]:
        """Concept id -> the edges touching it, in edge id order."""
        return self.kept("touching", lambda: edges_by_concept(self.edges.values()))


def _entity_text(concept: Concept, names: Iterable[str]) -> str:
    return " ".join([concept.name, *names, concept.description]).strip()


def build_graph_index(store: Store, as_of: str | None = None) -> GraphIndex:
    """The active graph (as of ``as_of``), ready for its scopes' indexes to be built."""
    from magg_kg.embedding import HashingEmbedding

    concepts = {concept.id: concept for concept in store.concepts(as_of)}
    aliases: dict[str, list[str]] = {}
    for alias, concept_id in store.aliases(as_of).items():
        aliases.setdefault(concept_id, []).append(alias)
    names = {cid: (c.name, *sorted(aliases.get(cid, []))) for cid, c in concepts.items()}
    owners = store.concept_domains(as_of)
    stale = store.stale_lessons(as_of)
    edges = {
        edge.edge_id: _current_first(edge, stale)
        for edge in store.edges(as_of)
        if edge.src in concepts and edge.dst in concepts
    }
    return GraphIndex(HashingEmbedding(), concepts, names, owners, edges, as_of, store)


def _current_first(edge: EdgeVersion, stale: set[str]) -> EdgeVersion:
    """``edge`` with the evidence of current lessons first, so that an answer quotes what the
    course says now: not a version an edit replaced, nor a withdrawn lesson, when another lesson
    grounds the edge too (``stale``: :meth:`~magg_kg.store.Store.stale_lessons`)."""
    spans = edge.grounding.evidence
    if not stale or spans[0].lesson_id not in stale:
        return edge
    ordered = tuple(sorted(spans, key=lambda span: span.lesson_id in stale))  # stable: False first
    return edge.model_copy(update={"grounding": edge.grounding.model_copy(update={"evidence": ordered})})


def _scope_index(graph: GraphIndex, scope: frozenset[str] | None) -> ScopeIndex:
    from llama_index.core.graph_stores import SimplePropertyGraphStore
    from llama_index.core.graph_stores.types import EntityNode, Relation
    from llama_index.core.indices.property_graph import PropertyGraphIndex
    from llama_index.core.llms import MockLLM
    from llama_index.core.schema import TextNode
    from llama_index.core.vector_stores import SimpleVectorStore

    ids = sorted(graph.concepts if scope is None else (c for c in scope if c in graph.concepts))
    ordered = [graph.concepts[cid] for cid in ids]
    if scope is None:
        edges = sorted(graph.edges.values(), key=lambda e: e.edge_id)
    else:
        touching = graph.touching()
        found = {e.edge_id: e for c in ids for e in touching.get(c, ()) if e.src in scope and e.dst in scope}
        edges = [found[edge_id] for edge_id in sorted(found)]
    texts = [_entity_text(c, graph.names[c.id][1:]) for c in ordered]
    vectors = graph.embedding.vectors(texts)
    graph_store = SimplePropertyGraphStore()
    graph_store.upsert_nodes(
        [
            EntityNode(
                name=c.id,
                label=c.type,
                properties={"name": c.name, "type": c.type, "domains": list(graph.owners.get(c.id, ()))},
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
            for edge in edges
        ]
    )
    vector_store = SimpleVectorStore()
    if ordered:
        vector_store.add(
            [
                TextNode(id_=c.id, text=text, embedding=vector)
                for c, text, vector in zip(ordered, texts, vectors, strict=True)
            ]
        )
    index = PropertyGraphIndex.from_existing(
        property_graph_store=graph_store,
        vector_store=vector_store,
        llm=MockLLM(),  # satisfies the constructor only: answers never come from it
        embed_model=graph.embedding,
        embed_kg_nodes=False,  # the entity vectors are added above, from the store's concepts
        kg_extractors=[],
        show_progress=False,
    )
    return ScopeIndex(index, vector_store)


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
    and only edges with both ends inside it are kept (the scope's own index holds nothing else).
    Edges touching a given seed come first.
    """
    from llama_index.core.vector_stores.types import VectorStoreQuery

    inside = None if scope is None else frozenset(scope)
    given = [s for s in dict.fromkeys(seeds) if s in graph.concepts and (inside is None or s in inside)]
    if inside is not None and not (inside & graph.concepts.keys()):
        return []
    scoped = graph.scope_index(inside)
    nearest: list[str] = []
    if top_k > 0 and graph.concepts:
        embedding = graph.embedding.get_query_embedding(query)
        found = scoped.vectors.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=top_k))
        nearest = [str(node_id) for node_id in found.ids or []]
    start = [s for s in dict.fromkeys([*given, *nearest]) if s in graph.concepts]
    if not start:
        return []
    triplets = scoped.index.property_graph_store.get_triplets(ids=start)
    focus = set(given)
    kept: dict[str, EdgeVersion] = {}
    for _source, relation, _target in triplets:
        edge = graph.edges.get(str(relation.properties.get("edge_id", "")))
        if edge is not None:
            kept[edge.edge_id] = edge
    ranked = sorted(
        kept.values(),
        key=lambda e: (not ({e.src, e.dst} & focus), -e.grounding.confidence, e.edge_id),
    )
    return ranked[:limit]
