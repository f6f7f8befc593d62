"""How much of the graph a question reads: the whole graph at once, or one domain at a time.

The graph algorithms (:mod:`magg_kg.learning_order`) ask for the edges touching one concept at
a time. A reader answers and keeps count of what it had to read to answer:

- :class:`WholeGraphReader` (the flat baseline) holds every active edge from the start: it reads
  the whole graph for every question;
- :class:`DomainReader` (routing) reads a domain's edges - every edge touching one of its
  concepts, so an edge between two domains belongs to both, as both owners reviewed it - only
  when the search first reaches one of that domain's concepts, and remembers which domain each
  edge was read from (the expert who answers for that step).

>>> reader = WholeGraphReader([])
>>> reader.touching("x"), reader.consulted, len(reader.edges_read)
([], [], 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from magg_kg.records import EdgeVersion

__all__ = ["DomainReader", "WholeGraphReader"]


def _by_concept(edges: Iterable[EdgeVersion]) -> dict[str, list[EdgeVersion]]:
    found: dict[str, list[EdgeVersion]] = {}
    for edge in sorted(edges, key=lambda e: e.edge_id):
        found.setdefault(edge.src, []).append(edge)
        if edge.dst != edge.src:
            found.setdefault(edge.dst, []).append(edge)
    return found


class WholeGraphReader:
    """Every active edge, read at once."""

    def __init__(self, edges: Iterable[EdgeVersion]) -> None:
        self._edges = _by_concept(edges)
        self.edges_read = {e.edge_id for touching in self._edges.values() for e in touching}
        self.consulted: list[str] = []

    def touching(self, concept: str) -> Sequence[EdgeVersion]:
        return self._edges.get(concept, [])

    def domain_of(self, edge_id: str) -> str:
        """The domain an edge was read from: none, for the whole graph."""
        return ""


class DomainReader:
    """The edges of a concept's domains, each domain read when first needed.

    ``owners`` maps a concept to its domains; a concept no domain owns belongs to ``unowned``.
    """

    def __init__(
        self, edges: Iterable[EdgeVersion], owners: Mapping[str, Sequence[str]], unowned: str
    ) -> None:
        self._edges = _by_concept(edges)
        self._owners = {c: tuple(owners.get(c) or (unowned,)) for c in self._edges}
        self._members: dict[str, list[str]] = {}
        for concept, domains in sorted(self._owners.items()):
            for domain in domains:
                self._members.setdefault(domain, []).append(concept)
        self._source: dict[str, str] = {}
        self.edges_read: set[str] = set()
        self.consulted: list[str] = []
        self._unowned = unowned

    def owners_of(self, concept: str) -> tuple[str, ...]:
        return self._owners.get(concept, (self._unowned,))

    def touching(self, concept: str) -> Sequence[EdgeVersion]:
        for domain in self.owners_of(concept):
            if domain not in self.consulted:
                self._read(domain)
        return self._edges.get(concept, [])

    def _read(self, domain: str) -> None:
        self.consulted.append(domain)
        for member in self._members.get(domain, []):
            for edge in self._edges.get(member, []):
                self.edges_read.add(edge.edge_id)
                self._source.setdefault(edge.edge_id, domain)

    def domain_of(self, edge_id: str) -> str:
        """The domain whose expert read this edge first ("" if no domain read it)."""
        return self._source.get(edge_id, "")
