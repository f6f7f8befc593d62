"""The rule engine: deterministic checks that run before any model call.

Pure and fast: it holds the concepts (id -> node type) and the active edges in memory, with one
incremental directed graph per acyclic edge type and one for the learning order (see
:mod:`magg_kg.vocabulary`), so a check costs a path search, never a graph rebuild. It never reads
a store; the caller hands it the current concepts and active edges::

    engine = RuleEngine(CURRICULUM, {c.id: c.type for c in store.concepts()},
                        [(e.src, e.type, e.dst) for e in store.edges()])

The rules, in the order they are checked (the first failure is the verdict):

``edge-type-known``
    the edge type is in the schema's closed vocabulary;
``no-self-loop``
    source and destination differ;
``endpoint-exists``
    both endpoints are known concepts;
``endpoint-typed``
    both endpoints have a node type of the schema;
``endpoint-types``
    the edge type allows these endpoint types;
``no-duplicate``
    no active edge has the same canonical (src, type, dst);
``not-retracted``
    a person has not invalidated the edge (``magg review invalidate``: :mod:`governance.retraction`);
    their reason is the rule's;
``no-contradiction``
    no active edge says the opposite directly: the reverse edge of the same acyclic type, or an
    active edge that orders the same two concepts the other way in learning order
    (A prerequisite B vs B prerequisite A, or vs A builds_on B);
``acyclic``
    the edge closes no cycle of its acyclic type, nor of the learning order
    (prerequisite and builds_on together).

Symmetric types are never refused for their direction: they are canonicalized (endpoints in
sorted order) before the checks, and the verdict carries the canonical triple.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise

import networkx as nx

from magg_kg.records import Triple
from magg_kg.vocabulary import GraphSchema

__all__ = ["RULES", "RuleEngine", "RuleVerdict"]

RULES = (
    "edge-type-known",
    "no-self-loop",
    "endpoint-exists",
    "endpoint-typed",
    "endpoint-types",
    "no-duplicate",
    "not-retracted",
    "no-contradiction",
    "acyclic",
)
"""Every rule's name, in checking order."""


@dataclass(frozen=True)
class RuleVerdict:
    """What the rule engine says about one triple: passed, or the first rule it breaks and why."""

    passed: bool
    rule: str
    reason: str
    src: str
    type: str
    dst: str

    @property
    def triple(self) -> Triple:
        return (self.src, self.type, self.dst)


def _show(triple: Triple) -> str:
    return f"{triple[0]} {triple[1]} {triple[2]}"


class RuleEngine:
    """The deterministic rules of one schema over one set of concepts and active edges.

    ``concepts`` maps concept id -> node type; ``active`` are the active edges' triples (taken as
    they are, even if they would break a rule today); ``retracted`` maps the triples a person
    invalidated to why (``"invalidated by NAME: REASON"``). :meth:`admit` checks and records an edge
    committed during the current batch so that later checks in the batch see it; :meth:`record`
    records one unchecked (the :class:`~governance.graph_state.GraphState` of a run does, after the
    stages checked it).
    """

    def __init__(
        self,
        schema: GraphSchema,
        concepts: Mapping[str, str],
        active: Iterable[tuple[str, str, str]],
        retracted: Mapping[Triple, str] | None = None,
    ) -> None:
        self._schema = schema
        self._retracted = {schema.canonical(*triple): why for triple, why in (retracted or {}).items()}
        self._concepts = dict(concepts)
        self._order_types = schema.order_types()
        self._active: set[Triple] = set()
        self._typed: dict[str, nx.DiGraph] = {
            name: nx.DiGraph()
            for name, edge_type in schema.edge_types.items()
            if edge_type.acyclic and edge_type.precedes is None
        }
        # The learning order, first -> later; each arc keeps the active triples that state it.
        self._order = nx.DiGraph()
        for src, type_, dst in active:
            self.record(src, type_, dst)

    @property
    def schema(self) -> GraphSchema:
        return self._schema

    def add_concept(self, concept_id: str, node_type: str) -> None:
        """Makes a concept known (idempotent); a known concept cannot change its node type."""
        known = self._concepts.get(concept_id)
        if known is not None and known != node_type:
            raise ValueError(f"concept {concept_id} is already typed {known!r}, not {node_type!r}")
        self._concepts[concept_id] = node_type

    def check(self, src: str, type: str, dst: str) -> RuleVerdict:
        """The verdict on one proposed edge: the first rule it breaks, or passed."""
        src, type, dst = self._schema.canonical(src, type, dst)
        failure = self._first_failure((src, type, dst))
        if failure is None:
            return RuleVerdict(True, "", "", src, type, dst)
        return RuleVerdict(False, failure[0], failure[1], src, type, dst)

    def admit(self, src: str, type: str, dst: str) -> None:
        """Records an edge committed during this batch; raises ValueError if a rule refuses it."""
        verdict = self.check(src, type, dst)
        if not verdict.passed:
            raise ValueError(f"rule {verdict.rule} refuses {_show(verdict.triple)}: {verdict.reason}")
        self.record(*verdict.triple)

    def invalidate(self, src: str, type: str, dst: str) -> None:
        """Forgets an active edge invalidated during this batch (nothing happens if it is unknown)."""
        triple = self._schema.canonical(src, type, dst)
        if triple not in self._active:
            return
        self._active.discard(triple)
        if type in self._typed:
            self._typed[type].remove_edge(triple[0], triple[2])
        arc = self._order_arc(triple)
        if arc is not None:
            stated: set[Triple] = self._order.edges[arc]["triples"]
            stated.discard(triple)
            if not stated:
                self._order.remove_edge(*arc)

    def conflicting(self, src: str, type: str, dst: str) -> list[Triple]:
        """The active edges a proposed edge is in conflict with: the one it contradicts (its
        reverse, or one stating the other learning order), or those of the cycle it would close;
        empty when it is in none (as the rules ``no-contradiction`` and ``acyclic`` find them)."""
        triple = self._schema.canonical(src, type, dst)
        found = self._contradiction(triple) or self._cycle(triple)
        return found[2] if found is not None else []

    def is_active(self, src: str, type: str, dst: str) -> bool:
        return self._schema.canonical(src, type, dst) in self._active

    def _order_arc(self, triple: Triple) -> tuple[str, str] | None:
        first = self._order_types.get(triple[1])
        if first is None:
            return None
        return (triple[0], triple[2]) if first == "src" else (triple[2], triple[0])

    def record(self, src: str, type: str, dst: str) -> None:
        """Records an active edge as it is, checked or not (as the constructor takes them)."""
        triple = self._schema.canonical(src, type, dst)
        self._active.add(triple)
        src, type_, dst = triple
        if type_ in self._typed:
            self._typed[type_].add_edge(src, dst)
        arc = self._order_arc(triple)
        if arc is not None:
            if self._order.has_edge(*arc):
                self._order.edges[arc]["triples"].add(triple)
            else:
                self._order.add_edge(*arc, triples={triple})

    def _first_failure(self, triple: Triple) -> tuple[str, str] | None:
        src, type_, dst = triple
        edge_type = self._schema.edge_types.get(type_)
        if edge_type is None:
            known = ", ".join(sorted(self._schema.edge_types))
            schema = self._schema.name
            return "edge-type-known", f"{type_!r} is not an edge type of the {schema} schema ({known})"
        if src == dst:
            return "no-self-loop", f"{src} cannot be joined to itself by {type_}"
        missing = [concept for concept in (src, dst) if concept not in self._concepts]
        if missing:
            return "endpoint-exists", f"unknown concept {' and '.join(missing)}"
        for concept in (src, dst):
            node_type = self._concepts[concept]
            if node_type not in self._schema.node_types:
                return (
                    "endpoint-typed",
                    f"concept {concept} has node type {node_type!r}, not one of the {self._schema.name} "
                    f"schema's types ({', '.join(sorted(self._schema.node_types))})",
                )
        src_type, dst_type = self._concepts[src], self._concepts[dst]
        if not edge_type.allows(src_type, dst_type):
            return (
                "endpoint-types",
                f"{type_} does not join a {src_type} ({src}) to a {dst_type} ({dst})",
            )
        if triple in self._active:
            return "no-duplicate", f"{_show(triple)} is already an active edge"
        if triple in self._retracted:
            return "not-retracted", f"{_show(triple)} was {self._retracted[triple]}"
        found = self._contradiction(triple) or self._cycle(triple)
        return found[:2] if found is not None else None

    def _contradiction(self, triple: Triple) -> tuple[str, str, list[Triple]] | None:
        """The rule, the reason and the active edges in conflict, when the edge contradicts one."""
        src, type_, dst = triple
        if type_ in self._typed and (dst, type_, src) in self._active:
            reverse = _show((dst, type_, src))
            return (
                "no-contradiction",
                f"{_show(triple)} contradicts the active edge {reverse}",
                [(dst, type_, src)],
            )
        arc = self._order_arc(triple)
        if arc is not None and self._order.has_edge(arc[1], arc[0]):
            stated = sorted(self._order.edges[arc[1], arc[0]]["triples"])
            return (
                "no-contradiction",
                f"{_show(triple)} puts {arc[0]} before {arc[1]} in learning order, "
                f"but the active edge {_show(stated[0])} puts {arc[1]} first",
                stated[:1],
            )
        return None

    def _cycle(self, triple: Triple) -> tuple[str, str, list[Triple]] | None:
        """The rule, the reason and the active edges of the cycle, when the edge would close one."""
        src, type_, dst = triple
        graph = self._typed.get(type_)
        if graph is not None and src in graph and dst in graph and nx.has_path(graph, dst, src):
            path = nx.bidirectional_shortest_path(graph, dst, src)
            cycle = [(a, type_, b) for a, b in pairwise(path)]
            return "acyclic", f"{type_} cycle: {' -> '.join([src, *path])}", cycle
        arc = self._order_arc(triple)
        if arc is None:
            return None
        first, later = arc
        if first in self._order and later in self._order and nx.has_path(self._order, later, first):
            path = nx.bidirectional_shortest_path(self._order, later, first)
            via = [min(self._order.edges[a, b]["triples"]) for a, b in pairwise(path)]
            return "acyclic", self._describe_order_cycle(triple, path, via), via
        return None

    def _describe_order_cycle(self, triple: Triple, path: list[str], via: list[Triple]) -> str:
        """A learning-order cycle in words, given the active path from the proposed edge's later
        endpoint to its first; a cycle of one type reads in that type's direction from src."""
        order = [path[-1], *path]
        types = {triple[1]} | {t for _, t, _ in via}
        if len(types) == 1:
            nodes = order if self._order_types[triple[1]] == "src" else [triple[0], *path[::-1]]
            return f"{triple[1]} cycle: {' -> '.join(nodes)}"
        stated = "; ".join(_show(t) for t in via)
        return (
            f"learning-order cycle (first -> later): {' -> '.join(order)} "
            f"({_show(triple)} against the active edges {stated})"
        )
