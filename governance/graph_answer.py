"""Typed sub-questions answered by the graph algorithm they need, through a reader that counts
what was read (:mod:`magg_kg.graph_reader`).

One :class:`GraphAnswer` per subject concept of a one-concept type (``prerequisites``,
``unlocks``, ``part_of``, ``parts``) and one per pair of a two-concept type (``path``,
``which_first``, ``relation``). Each carries the answer's concepts (``found``), the path when
there is one, the concept that comes first, the edges that support it (in the order the answer
reads them), a headline in plain words and, when the graph holds nothing for it, ``covered`` false
and a headline that says "The graph does not cover ...".

The algorithms are :mod:`magg_kg.learning_order`'s; which of them a type uses:

============== =====================================================================
prerequisites  :func:`~magg_kg.learning_order.steps_into` (``full``: ``steps_before``)
start          :func:`~magg_kg.learning_order.starting_points` (of no concept)
overview       :func:`~magg_kg.coverage.central_concepts` (of no concept)
unlocks        :func:`~magg_kg.learning_order.steps_out_of`
path           :func:`~magg_kg.learning_order.learning_path` (A to B; the reverse is
               reported when only B to A exists)
which_first    ``learning_path`` both ways: the start of the path that exists, else neither
part_of/parts  :func:`~magg_kg.learning_order.wholes_and_parts`
relation       :func:`~magg_kg.learning_order.connection` (a chain of more than
               :data:`CHAIN_STEPS` steps only when every step orders or contains)
============== =====================================================================
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from agents.qa import edge_in_words
from magg_kg.coverage import central_concepts
from magg_kg.learning_order import (
    Step,
    Touching,
    connection,
    learning_path,
    starting_points,
    steps_before,
    steps_into,
    steps_out_of,
    wholes_and_parts,
)
from magg_kg.records import Concept
from magg_kg.vocabulary import CURRICULUM

__all__ = ["GraphAnswer", "Names", "answer_by_graph", "domains_of_edges", "names_from", "uncovered_names"]


@dataclass
class GraphAnswer:
    """The graph's answer to one typed question about one concept (or one pair)."""

    type: str
    concepts: list[str]
    found: list[str] = field(default_factory=list)
    path: list[str] = field(default_factory=list)
    first: str | None = None
    edges: list[str] = field(default_factory=list)
    headline: str = ""
    covered: bool = True
    cited: list[str] = field(default_factory=list)
    """Edges the headline cites that the answer is not made of (an uncovered answer's related
    concepts, :mod:`governance.prior_relations`): the answer's citations, never sent to an expert,
    and they leave it uncovered."""

    def as_json(self) -> dict[str, object]:
        return {
            "type": self.type,
            "concepts": self.concepts,
            "found": self.found,
            "path": self.path,
            "first": self.first,
            "edges": self.edges,
            "headline": self.headline,
            "covered": self.covered,
        }


Names = Callable[[str], str]

CHAIN_STEPS = 2
"""The most steps a chain of edges of any type may take and still say how two concepts relate: a
longer chain says it only when every step orders or contains (:data:`TELLING_TYPES`); "A is related
to C, C to D, D to B" says nothing of how A and B relate."""
TELLING_TYPES = frozenset({*CURRICULUM.order_types(), "part_of"})
"""The edge types a chain of any length may be made of: which is learned first, what is part of what."""


def _listed(names: Names, concepts: Sequence[str]) -> str:
    return ", ".join(names(c) for c in concepts)


def _chain(names: Names, steps: Sequence[Step]) -> list[str]:
    return [steps[0].src, *(s.dst for s in steps)] if steps else []


def _types(touching: Touching, steps: Sequence[Step]) -> set[str]:
    """The types of the edges of a chain."""
    ids = {step.edge_id for step in steps}
    return {edge.type for step in steps for edge in touching(step.src) if edge.edge_id in ids}


def _one(kind: str, concept: str, full: bool, touching: Touching, names: Names) -> GraphAnswer:
    name = names(concept)
    answer = GraphAnswer(kind, [concept])
    if kind == "prerequisites":
        if full:
            answer.found, steps = steps_before(touching, concept)
            lead, what = f"Everything before {name}, in learning order", f"what comes before {name}"
        else:
            steps = steps_into(touching, concept)
            answer.found = list(dict.fromkeys(s.src for s in steps))
            lead, what = f"Learn before {name}", f"what comes before {name}"
        answer.edges = [s.edge_id for s in steps]
    elif kind == "unlocks":
        steps = steps_out_of(touching, concept)
        answer.found = list(dict.fromkeys(s.dst for s in steps))
        answer.edges = [s.edge_id for s in steps]
        lead, what = f"{name} leads on to", f"what builds on {name}"
    else:
        wholes, parts = wholes_and_parts(touching, concept)
        chosen = wholes if kind == "part_of" else parts
        answer.found = list(dict.fromkeys(e.dst if kind == "part_of" else e.src for e in chosen))
        answer.edges = [e.edge_id for e in chosen]
        lead = f"{name} is part of" if kind == "part_of" else f"Parts of {name}"
        what = f"what {name} is part of" if kind == "part_of" else f"what is part of {name}"
    if answer.found:
        answer.headline = f"{lead}: {_listed(names, answer.found)}."
    else:
        answer.covered = False
        answer.headline = f"The graph does not cover {what}."
    return answer


def _start(touching: Touching, names: Names, every: Sequence[str]) -> GraphAnswer:
    """Where to start: the concepts nothing comes before that lead on to the most, with the steps
    out of each."""
    answer = GraphAnswer("start", [])
    chosen = starting_points(touching, every)
    answer.found = [concept for concept, _ in chosen]
    answer.edges = [step.edge_id for _, steps in chosen for step in steps[:2]]  # two that show it
    if answer.found:
        them = "them, and they lead" if len(answer.found) > 1 else "it, and it leads"
        said = f"nothing in the graph comes before {them} on to the most"
        answer.headline = f"Start with: {_listed(names, answer.found)} ({said})."
    else:
        answer.covered = False
        answer.headline = "The graph does not cover where to start: it holds no learning order."
    return answer


def _overview(
    touching: Touching, names: Names, every: Sequence[str], owners: Mapping[str, Sequence[str]]
) -> GraphAnswer:
    """What the graph covers: the central concept of each of its largest domains, each with its
    best-supported edge."""
    answer = GraphAnswer("overview", [])
    domains, central = central_concepts(touching, every, owners)
    answer.found = [concept for concept, _ in central]
    answer.edges = [edge.edge_id for _, edge in central]
    if answer.found:
        which = "each" if domains <= len(central) else f"the {len(central)} largest"
        counted = f"{domains} domain{'' if domains == 1 else 's'}"
        listed = _listed(names, answer.found)
        answer.headline = f"The graph covers {counted}; the central concept of {which}: {listed}."
    else:
        answer.covered = False
        answer.headline = "The graph does not cover what it holds: it has no edges yet."
    return answer


def _pair(kind: str, first: str, second: str, touching: Touching, names: Names, direct: bool) -> GraphAnswer:
    a, b = names(first), names(second)
    answer = GraphAnswer(kind, [first, second])
    if first == second:
        answer.covered = False
        answer.headline = f"The question names {a} twice: ask about two different concepts."
        return answer
    if kind == "relation":
        joined = connection(touching, first, second)
        joined = [] if direct and any({s.src, s.dst} != {first, second} for s in joined) else joined
        answer.edges = [s.edge_id for s in joined]
        answer.path = _chain(names, joined)
        if not joined:
            answer.covered = False
            answer.headline = f"The graph does not cover how {a} relates to {b}: no edges join them."
        elif all({s.src, s.dst} == {first, second} for s in joined):
            answer.path = []
            types = {edge.edge_id: edge.type for edge in touching(first)}
            said = (edge_in_words(types[s.edge_id], names(s.src), names(s.dst)) for s in joined)
            answer.headline = f"{'; '.join(dict.fromkeys(said))}."
        elif len(joined) <= CHAIN_STEPS or _types(touching, joined) <= TELLING_TYPES:
            answer.headline = f"{a} relates to {b} through: {' → '.join(names(c) for c in answer.path)}."
        else:  # a walk through loosely related concepts: what the lessons say of the two is asked
            answer.covered, answer.edges, answer.path = False, [], []
            answer.headline = (
                f"The graph does not cover how {a} relates to {b}: no edge joins them, only a chain of "
                f"{len(joined)} steps through other concepts."
            )
        return answer
    forward = learning_path(touching, first, second)
    backward = None if forward is not None else learning_path(touching, second, first)
    steps = forward if forward is not None else backward
    if steps is not None:
        answer.path = _chain(names, steps)
        answer.edges = [s.edge_id for s in steps]
        answer.first = answer.path[0]
    chain = " → ".join(names(c) for c in answer.path)
    if kind == "which_first":
        answer.found = [answer.first] if answer.first else []
        if answer.first is None:
            answer.headline = (
                f"The graph does not say which comes first: it holds no learning path between {a} and {b}."
            )
        else:
            answer.headline = f"{names(answer.first)} comes first: {chain}."
        return answer
    if forward is not None:
        answer.found = answer.path
        answer.headline = f"Learning path from {a} to {b} ({len(forward)} step(s)): {chain}."
    elif backward is not None:
        answer.path, answer.edges, answer.first = [], [], None
        answer.covered = False
        answer.headline = (
            f"The graph does not cover a path from {a} to {b}: the learning order runs the other way, "
            f"{chain}."
        )
    else:
        answer.covered = False
        answer.headline = f"The graph does not cover a learning path from {a} to {b}: none joins them."
    return answer


def answer_by_graph(
    kind: str,
    concepts: Sequence[str],
    full: bool,
    touching: Touching,
    names: Names,
    every: Sequence[str] = (),
    owners: Mapping[str, Sequence[str]] | None = None,
    direct: bool = False,
) -> list[GraphAnswer]:
    """The graph's answers to a typed sub-question (empty for ``open`` or too few concepts); where
    to start is read among ``every`` concept, and what the graph covers by the domains that
    ``owners`` gives; ``direct``: only an edge joining the two relates them, no chain (whether they
    are one thing is asked, :func:`agents.sameness.asks_identity`)."""
    if kind == "start":
        return [_start(touching, names, every)]
    if kind == "overview":
        return [_overview(touching, names, every, owners or {})]
    if kind in ("path", "which_first", "relation"):
        if len(concepts) < 2:
            return []
        return [_pair(kind, concepts[0], concepts[1], touching, names, direct)]
    if kind in ("prerequisites", "unlocks", "part_of", "parts"):
        return [_one(kind, concept, full, touching, names) for concept in dict.fromkeys(concepts)]
    return []


def uncovered_names(unknown: Sequence[str], near: Sequence[str] = ()) -> str:
    """The sentence for names the graph does not know, with the names of concepts it has that
    contain them (``near``), if any.

    >>> uncovered_names(["quantum chromodynamics"])
    'The graph does not cover quantum chromodynamics.'
    >>> uncovered_names(["a", "b"])
    'The graph does not cover a or b.'
    >>> uncovered_names(["attention"], ["attention pooling", "multi-head attention", "self-attention"])
    'The graph does not cover attention; it has attention pooling, multi-head attention and self-attention.'
    """
    if not unknown:
        return ""
    said = f"The graph does not cover {' or '.join(unknown)}"
    if not near:
        return said + "."
    listed = near[0] if len(near) == 1 else f"{', '.join(near[:-1])} and {near[-1]}"
    return f"{said}; it has {listed}."


def domains_of_edges(edges: Sequence[str], holders: Callable[[str], Sequence[str]]) -> dict[str, list[str]]:
    """Domain -> its edges among ``edges``: the fewest domains whose reads hold every edge (an edge
    between two domains is in both), in order of first appearance along ``edges`` (the experts
    along a path). Greedy: the domain holding the most edges not yet given out first, ties to the
    one met first; each edge goes to the first chosen domain that holds it.

    >>> held = {"ab": ("a",), "bc": ("a", "b"), "cd": ("b",), "de": ("b", "c")}
    >>> domains_of_edges(["ab", "bc", "cd", "de"], lambda e: held[e])
    {'a': ['ab'], 'b': ['bc', 'cd', 'de']}
    >>> domains_of_edges(["ab", "bc"], lambda e: held[e])
    {'a': ['ab', 'bc']}
    """
    held = {edge: tuple(holders(edge)) or ("",) for edge in edges}
    met = {domain: at for at, domain in enumerate(dict.fromkeys(d for edge in edges for d in held[edge]))}
    left, chosen = list(edges), []
    while left:
        counts = Counter(domain for edge in left for domain in held[edge])
        best = min(counts, key=lambda domain: (-counts[domain], met[domain]))
        chosen.append(best)
        left = [edge for edge in left if best not in held[edge]]
    parts: dict[str, list[str]] = {}
    for edge in edges:
        parts.setdefault(next(domain for domain in chosen if domain in held[edge]), []).append(edge)
    return {domain: parts[domain] for domain in sorted(parts, key=met.__getitem__)}


def names_from(concepts: Mapping[str, Concept]) -> Names:
    """A name lookup over the index's concepts (the id when unknown)."""

    def name(concept: str) -> str:
        found = concepts.get(concept)
        return found.name if found is not None else concept

    return name
