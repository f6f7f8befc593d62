"""How much of the graph a question reads: the whole graph at once, or one domain at a time.

The graph algorithms (:mod:`magg_kg.learning_order`) ask for the edges touching one concept at
a time. A reader answers and keeps count of what it had to read to answer:

- :class:`WholeGraphReader` (the flat baseline) holds every active edge from the start: it reads
  the whole graph for every question;
- :class:`DomainReader` (routing) reads a domain's edges - every edge touching one of its
  concepts, so an edge between two domains belongs to both, as both owners reviewed it - only
  when the search first reaches one of that domain's concepts, and remembers which domains each
  edge was read from (the experts who may answer for that step).

>>> reader = WholeGraphReader([])
>>> reader.touching("x"), reader.consulted, len(reader.edges_read)
([], [], 0)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from magg_kg.records import EdgeVersion

__all__ = ["DomainReader", "WholeGraphReader", "domain_members", "edges_by_concept"]


def edges_by_concept(edges: Iterable[EdgeVersion]) -> dict[str, list[EdgeVersion]]:
    """Concept id -> the edges touching it, in edge id order."""
    found: dict[str, list[EdgeVersion]] = {}
    for edge in sorted(edges, key=lambda e: e.edge_id):
        found.setdefault(edge.src, []).append(edge)
        if edge.dst != edge.src:
            found.setdefault(edge.dst, []).append(edge)
    return found


class WholeGraphReader:
    """Every active edge, read at once (``touching``: edges by concept, in edge id order, when the
    caller already has them)."""

    def __init__(
        self, edges: Iterable[EdgeVersion], touching: Mapping[str, Sequence[EdgeVersion]] | None = None
    ) -> None:
        self._edges = touching if touching is not None else edges_by_concept(edges)
        self.edges_read = {e.edge_id for touching in self._edges.values() for e in touching}
        self.consulted: list[str] = []

    def touching(self, concept: str) -> Sequence[EdgeVersion]:
        return self._edges.get(concept, [])


def domain_members(
    touching: Mapping[str, Sequence[EdgeVersion]], owners: Mapping[str, Sequence[str]], unowned: str
) -> dict[str, list[str]]:
    """Domain id -> its concepts that have edges, in id order (``unowned`` for those of no domain)."""
    members: dict[str, list[str]] = {}
    for concept in sorted(touching):
        for domain in tuple(owners.get(concept) or (unowned,)):
            members.setdefault(domain, []).append(concept)
    return members


class DomainReader:
    """The edges of a concept's domains, each domain read when first needed.

    ``owners`` maps a concept to its domains; a concept no domain owns belongs to ``unowned``.
    ``touching`` (edges by concept, in edge id order) and ``members`` (:func:`domain_members`) may be
    given when the caller keeps them between questions; they are derived from ``edges`` otherwise.
    """

    def __init__(
        self,
        edges: Iterable[EdgeVersion],
        owners: Mapping[str, Sequence[str]],
        unowned: str,
        *,
        touching: Mapping[str, Sequence[EdgeVersion]] | None = None,
        members: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        self._edges = touching if touching is not None else edges_by_concept(edges)
        self._given = owners
        self._members = members if members is not None else domain_members(self._edges, owners, unowned)
        self._holders: dict[str, list[str]] = {}
        self.edges_read: set[str] = set()
        self.consulted: list[str] = []
        self._unowned = unowned

    def owners_of(self, concept: str) -> tuple[str, ...]:
        if concept not in self._edges:
            return (self._unowned,)
        return tuple(self._given.get(concept) or (self._unowned,))

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
                held = self._holders.setdefault(edge.edge_id, [])
                if domain not in held:
                    held.append(domain)

    def holders(self, edge_id: str) -> tuple[str, ...]:
        """The domains whose read held this edge, in the order they were read (an edge between two
        domains read is in both): the experts that may be shown it."""
        return tuple(self._holders.get(edge_id, ()))
