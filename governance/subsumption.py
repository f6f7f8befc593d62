"""A ``related`` edge beside an edge of another type between the same two concepts.

``related`` is the weakest type of the curriculum: the two concepts belong together. An edge of
another type between them (one is a prerequisite of the other, a part of it, builds on it, is
applied to it or contrasts with it) says that and more, so a ``related`` edge beside it is the same
relation said twice, the vaguer way. A lesson often gives both: "*Bilinear interpolation* is one of
the commonly used upsampling techniques" (part_of) and, a paragraph later, a sentence that names
the two together (related). Of the active edges of the d2l graph, 9 were such ``related``
duplicates, 3 of the demo's.

The gate keeps one edge for the pair, the typed one:

- a ``related`` claim between two concepts that an edge of another type joins is not committed: it
  stays open (abstained), its evidence pooled for later (:data:`governance.policy.SUBSUMED`), so
  that it is judged again should the typed edge ever be invalidated;
- committing an edge of another type closes the active ``related`` edge between the two, with a
  ``subsume`` decision that names the typed edge (invalidated, never deleted; its history stays
  readable as of any time), whether the gate commits it or a person does (approving a quarantined
  proposal, restoring an edge: :func:`closed_for`). An edge a person committed is left alone: a
  person's decision stands until a person reverses it.
"""

from __future__ import annotations

from governance.graph_state import GraphState
from governance.policy import SUBSUMED, policy_decision
from magg_kg.builders import invalidation_op
from magg_kg.config import Policy
from magg_kg.operations import Operation, RecordDecision
from magg_kg.records import Triple
from magg_kg.store import Store
from magg_kg.vocabulary import GraphSchema

__all__ = ["RELATED", "PendingEdges", "closed_for", "closing", "related_beside", "typed_between"]

RELATED = "related"
_PERSON = "human"
"""The model of a decision a person took (approve, restore, reinstate)."""


def typed_between(graph: GraphState, a: str, b: str) -> Triple | None:
    """An active edge of a type other than ``related`` between two concepts, either way (the first
    of the view's sorted ones), or None."""
    return next((t for t in graph.view.edges_between(a, b) if t[1] != RELATED), None)


def related_beside(graph: GraphState, triple: Triple) -> Triple | None:
    """The active ``related`` edge between the two ends of ``triple``, when ``triple`` is of
    another type, or None."""
    src, type_, dst = triple
    if type_ == RELATED:
        return None
    related = graph.schema.canonical(src, RELATED, dst)
    return related if graph.is_active(*related) else None


class PendingEdges:
    """The edge versions a gate committed that the store may not hold yet (its caller writes a
    batch's operations together, after the gate settled them all), so that a later proposal of
    the batch can close one."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._versions: dict[Triple, str] = {}

    def committed(self, triple: Triple, version_id: str) -> None:
        self._versions[triple] = version_id

    def forget(self) -> None:
        """Forgets them (the store holds them once the caller has written the batch)."""
        self._versions.clear()

    def version(self, triple: Triple) -> str | None:
        """The active version of an edge to close: the store's, or one of this batch's that the
        store has not written yet; None for an edge a person committed, or one not found."""
        stored = self._store.active_edge(*triple)
        if stored is not None:
            return None if stored.model == _PERSON else stored.version_id
        pending = self._versions.get(triple)
        if pending is not None and self._store.edge_version(pending) is None:
            return pending
        return None


def closing(
    policy: Policy, related: Triple, version_id: str, typed: Triple, by: RecordDecision
) -> list[Operation]:
    """The closing of the ``related`` edge version ``version_id`` by the commit of ``typed``
    (decided by ``by``, at its time): a ``subsume`` decision and the invalidation."""
    decision = policy_decision(
        policy,
        SUBSUMED,
        None,
        "subsume",
        "invalidate",
        "invalidated",
        f"closed: {' '.join(typed)} joins the two and says more than {' '.join(related)}",
        subject=version_id,
        detail={"subsumed_by": by.id},
        prompt_version=by.prompt_version,
        model=by.model,
        decided_at=by.decided_at,
    )
    return [decision, invalidation_op(version_id, decision)]


def closed_for(
    store: Store, schema: GraphSchema, policy: Policy, typed: Triple, by: RecordDecision
) -> list[Operation]:
    """The closing of the active ``related`` edge beside ``typed``, an edge a person commits (decided
    by ``by``): none when ``typed`` is itself ``related``, when no such edge is active, or when a
    person committed it."""
    src, type_, dst = typed
    if type_ == RELATED:
        return []
    related = schema.canonical(src, RELATED, dst)
    version = PendingEdges(store).version(related)
    return closing(policy, related, version, typed, by) if version else []
