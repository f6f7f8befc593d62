"""Typed curriculum questions generated from a gold graph, with their gold answers.

The gold graph is the active graph of a store (the Metacademy prerequisites loaded as established
edges, or the demo graph). Gold answers come from networkx on that graph, apart from the code
that answers (:mod:`magg_kg.learning_order`): learning order is ``A prerequisite B`` and
``B builds_on A`` read as ``A -> B``.

Per type, up to ``per_type`` questions, drawn with a seeded generator, each phrased by one of a
few templates:

``prerequisites``       a concept with direct prerequisites; gold: their set
``prerequisites_full``  a concept with at least two concepts before it; gold: every ancestor
``unlocks``             a concept with successors; gold: their set
``path``                A, B with B reachable from A in two steps or more; gold: the shortest length
``which_first``         four in five: two concepts one of which comes before the other (asked in
                        either order); one in five: two concepts with no order between them
                        (gold: neither)
``part_of`` / ``parts`` a concept with ``part_of`` edges out / in; gold: the wholes / the parts
``relation``            two concepts joined by an edge; gold: the edges between them
``two_part``            two questions about concepts of different domains, joined by "and":
                        what comes before each, or what comes before the first and what the
                        second unlocks (half of each); gold: both sets

A question is asked only when its answer is one: about concepts that no other concept's name
reads as (a name is all a question gives; LectureBank has "context free grammar" and "context free
grammars" as two topics, which the graph's names read as one), and "which comes first" never of two
concepts each before the other (a gold graph may hold a prerequisite cycle, as LectureBank's does).

Every question also carries its *support*: the concepts a citation may touch and still support
the answer (the question's, the gold answer's, and for paths and order every concept on some
chain between the two).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import networkx as nx

from agents.text import normalize_name
from magg_kg.graph_index import GraphIndex

__all__ = ["QUESTION_KINDS", "GoldQuestion", "askable", "generate_questions", "gold_order"]

QUESTION_KINDS = (
    "prerequisites",
    "prerequisites_full",
    "unlocks",
    "path",
    "which_first",
    "part_of",
    "parts",
    "relation",
    "two_part",
)
_TEMPLATES = {
    "prerequisites": (
        "What should I learn before {a}?",
        "What are the prerequisites of {a}?",
        "What do I need to know before {a}?",
    ),
    "prerequisites_full": (
        "What is everything I need to learn before {a}, in order?",
        "List all the prerequisites of {a} in learning order.",
    ),
    "unlocks": ("What does {a} unlock?", "What builds on {a}?", "What can I learn after {a}?"),
    "path": ("What is the learning path from {a} to {b}?", "How do I get from {a} to {b}?"),
    "which_first": ("Which comes first, {a} or {b}?", "Should I learn {a} or {b} first?"),
    "part_of": ("What is {a} part of?",),
    "parts": ("What are the parts of {a}?", "What is part of {a}?"),
    "relation": ("How is {a} related to {b}?", "What is the relation between {a} and {b}?"),
}
_TWO_PARTS = {
    "prerequisites": "What should I learn before {a}, and what are the prerequisites of {b}?",
    "unlocks": "What should I learn before {a}, and what does {b} unlock?",
}
"""The two-part templates by the second part's type (the first asks what comes before)."""


@dataclass(frozen=True)
class GoldQuestion:
    kind: str
    text: str
    concepts: tuple[str, ...]
    gold: tuple[str, ...] = ()
    """The gold set (sets), the gold edge ids (relation), the concept that comes first or
    ``neither`` (which_first)."""
    length: int = 0
    """The gold shortest path length (path)."""
    support: frozenset[str] = field(default_factory=frozenset)
    parts: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    """two_part: (concept, type, its gold set) per part."""


def gold_order(graph: GraphIndex) -> nx.DiGraph:
    """The learning order of the graph's active edges, as networkx reads it."""
    order = nx.DiGraph()
    order.add_nodes_from(graph.concepts)
    for edge in graph.edges.values():
        if edge.type == "prerequisite":
            order.add_edge(edge.src, edge.dst)
        elif edge.type == "builds_on":
            order.add_edge(edge.dst, edge.src)
    order.remove_edges_from(list(nx.selfloop_edges(order)))
    return order


def _name(graph: GraphIndex, concept: str) -> str:
    return graph.concepts[concept].name


def _phrase(rng: random.Random, kind: str, graph: GraphIndex, *concepts: str) -> str:
    template = rng.choice(_TEMPLATES[kind])
    names = [_name(graph, c) for c in concepts]
    return template.format(a=names[0], b=names[1] if len(names) > 1 else "")


def _sample(rng: random.Random, items: Sequence[str], count: int) -> list[str]:
    return rng.sample(list(items), min(count, len(items)))


def askable(graph: GraphIndex) -> frozenset[str]:
    """The concepts a question can name: those whose name no other concept's name reads as."""
    readers: dict[str, set[str]] = {}
    for concept in graph.concepts.values():
        readers.setdefault(normalize_name(concept.name), set()).add(concept.id)
    return frozenset(c for ids in readers.values() if len(ids) == 1 for c in ids)


def _sets(
    graph: GraphIndex, order: nx.DiGraph, named: frozenset[str], rng: random.Random, per_type: int
) -> list[GoldQuestion]:
    questions = []
    nodes = sorted(order)
    part_of = nx.DiGraph(
        (e.src, e.dst) for e in graph.edges.values() if e.type == "part_of" and e.src != e.dst
    )
    ancestors = {n: frozenset(str(a) for a in nx.ancestors(order, n)) for n in nodes}
    pools: dict[str, dict[str, frozenset[str]]] = {
        "prerequisites": {n: frozenset(order.predecessors(n)) for n in nodes},
        "prerequisites_full": {n: a for n, a in ancestors.items() if len(a) >= 2},
        "unlocks": {n: frozenset(order.successors(n)) for n in nodes},
        "part_of": {n: frozenset(part_of.successors(n)) for n in sorted(part_of)},
        "parts": {n: frozenset(part_of.predecessors(n)) for n in sorted(part_of)},
    }
    for kind, gold_of in pools.items():
        for concept in _sample(
            rng, sorted(c for c, gold in gold_of.items() if gold and c in named), per_type
        ):
            gold = tuple(sorted(gold_of[concept]))
            text = _phrase(rng, kind, graph, concept)
            questions.append(GoldQuestion(kind, text, (concept,), gold, support=frozenset({concept, *gold})))
    return questions


def _between(order: nx.DiGraph, start: str, goal: str) -> frozenset[str]:
    return frozenset((nx.descendants(order, start) & nx.ancestors(order, goal)) | {start, goal})


def _pairs(
    graph: GraphIndex, order: nx.DiGraph, named: frozenset[str], rng: random.Random, per_type: int
) -> list[GoldQuestion]:
    questions = []
    nodes = sorted(n for n in order if order.degree(n) and n in named)
    reachable = [(a, b) for a in nodes for b in sorted(nx.descendants(order, a)) if b in named]
    far = [(a, b) for a, b in reachable if not order.has_edge(a, b)]
    for a, b in rng.sample(far, min(per_type, len(far))):
        length = nx.shortest_path_length(order, a, b)
        text = _phrase(rng, "path", graph, a, b)
        questions.append(GoldQuestion("path", text, (a, b), (), length, _between(order, a, b)))
    cycle = {
        node: index for index, part in enumerate(nx.strongly_connected_components(order)) for node in part
    }
    before = [(a, b) for a, b in reachable if cycle[a] != cycle[b]]  # in a cycle, each is before the other
    ordered = rng.sample(before, min(per_type - per_type // 5, len(before)))
    undirected = order.to_undirected()
    unordered: list[tuple[str, str]] = []
    for _ in range(per_type * 20):
        if len(unordered) >= per_type // 5 or len(nodes) < 2:
            break
        a, b = rng.sample(nodes, 2)
        if not nx.has_path(order, a, b) and not nx.has_path(order, b, a) and nx.has_path(undirected, a, b):
            unordered.append((a, b))
    for a, b in [*ordered, *unordered]:
        asked = (a, b) if rng.random() < 0.5 else (b, a)
        gold = a if nx.has_path(order, a, b) else "neither"
        support = _between(order, a, b) if gold != "neither" else frozenset({a, b})
        questions.append(
            GoldQuestion(
                "which_first", _phrase(rng, "which_first", graph, *asked), asked, (gold,), 0, support
            )
        )
    joined: dict[frozenset[str], list[str]] = {}
    for edge in sorted(graph.edges.values(), key=lambda e: e.edge_id):
        if edge.src != edge.dst:
            joined.setdefault(frozenset({edge.src, edge.dst}), []).append(edge.edge_id)
    keys = sorted((pair for pair in joined if pair <= named), key=sorted)
    for pair in rng.sample(keys, min(per_type, len(keys))):
        a, b = sorted(pair) if rng.random() < 0.5 else sorted(pair, reverse=True)
        text = _phrase(rng, "relation", graph, a, b)
        questions.append(GoldQuestion("relation", text, (a, b), tuple(joined[pair]), 0, frozenset(pair)))
    return questions


def _two_part(
    graph: GraphIndex, order: nx.DiGraph, named: frozenset[str], rng: random.Random, per_type: int
) -> list[GoldQuestion]:
    pool = [n for n in sorted(order) if order.in_degree(n) and n in named]
    unlocking = [n for n in sorted(order) if order.out_degree(n) and n in named]
    questions: list[GoldQuestion] = []
    for _ in range(per_type * 20):
        second = "prerequisites" if len(questions) % 2 == 0 else "unlocks"
        if len(questions) >= per_type or len(pool) < 2 or not unlocking:
            break
        a, b = rng.choice(pool), rng.choice(pool if second == "prerequisites" else unlocking)
        if a == b or set(graph.owners.get(a, ())) & set(graph.owners.get(b, ())):
            continue
        after = order.predecessors(b) if second == "prerequisites" else order.successors(b)
        parts = (
            (a, "prerequisites", tuple(sorted(order.predecessors(a)))),
            (b, second, tuple(sorted(after))),
        )
        support = frozenset({a, b, *parts[0][2], *parts[1][2]})
        text = _TWO_PARTS[second].format(a=_name(graph, a), b=_name(graph, b))
        questions.append(GoldQuestion("two_part", text, (a, b), (), 0, support, parts))
    return questions


def generate_questions(graph: GraphIndex, *, per_type: int, seed: int) -> list[GoldQuestion]:
    """Up to ``per_type`` questions of every kind the graph can answer, reproducibly from ``seed``."""
    rng = random.Random(seed)
    order, named = gold_order(graph), askable(graph)
    return [
        *_sets(graph, order, named, rng, per_type),
        *_pairs(graph, order, named, rng, per_type),
        *_two_part(graph, order, named, rng, per_type),
    ]
