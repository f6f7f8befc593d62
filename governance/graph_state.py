"""The graph state of one run: what the rules, the owners and the judge all read.

Admission judges each proposal against the graph *as the batch being built leaves it*: an edge
committed for an earlier proposal of the lesson must be seen by the rules (no duplicate, no cycle),
by the owners (their memory card) and by the judge (paths and degrees) of every later one. A
:class:`GraphState` is that graph, read once from the store (or given) and then changed only
through :meth:`commit` and :meth:`invalidate`, each of which updates the rule engine's indexes and
the judge's :class:`~agents.support.GraphView` together. The owners' memory reads the view's
active edges directly and keeps only what is not a graph fact: the count of standing claims.

    >>> from magg_kg.records import Concept
    >>> at = "2026-01-01T00:00:00.000000Z"
    >>> concepts = [Concept(id=c, name=c, type="concept", recorded_at=at) for c in "abc"]
    >>> state = GraphState(GraphView(concepts, [("a", "prerequisite", "b")]))
    >>> state.commit("b", "prerequisite", "c")
    >>> state.rules.check("c", "prerequisite", "a").rule, ("b", "prerequisite", "c") in state.memory.facts
    ('acyclic', True)
    >>> state.invalidate("a", "prerequisite", "b")
    >>> state.view.is_active("a", "prerequisite", "b"), state.rules.check("c", "prerequisite", "a").passed
    (False, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping

from agents.lesson_index import LessonProse
from agents.support import GraphView
from governance.memory import OwnerMemory
from governance.retraction import retractions
from governance.rules import RuleEngine
from magg_kg.records import Concept, Triple
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["GraphState"]


class GraphState:
    """Concepts, active edges and standing claims, shared by the rules, the owners and the judge.

    ``claims`` counts the standing proposals per triple (see :class:`~governance.memory.OwnerMemory`);
    ``retracted`` the edges a person invalidated, with why (:func:`governance.retraction.retractions`).
    """

    def __init__(
        self,
        view: GraphView,
        claims: Counter[Triple] | None = None,
        retracted: Mapping[Triple, str] | None = None,
    ) -> None:
        self._view = view
        self._rules = RuleEngine(
            view.schema, {cid: view.node_type(cid) for cid in view.concept_ids()}, view.triples(), retracted
        )
        self._memory = OwnerMemory(facts=view.triples(), claims=claims if claims is not None else Counter())
        self._taught: set[str] = set()

    @classmethod
    def of_store(
        cls,
        store: Store,
        schema: GraphSchema = CURRICULUM,
        claims: Counter[Triple] | None = None,
        prose_of: LessonProse | None = None,
    ) -> GraphState:
        """The state of the store's graph now (one read of concepts, aliases, edges and lessons, and
        of the edges a person invalidated; ``prose_of`` reads a stored lesson's prose, the store by
        default)."""
        return cls(GraphView.of_store(store, schema, prose_of), claims, retractions(store, schema))

    @property
    def view(self) -> GraphView:
        """What the judge reads (and owners are shown of the claim)."""
        return self._view

    @property
    def rules(self) -> RuleEngine:
        return self._rules

    @property
    def memory(self) -> OwnerMemory:
        """The owners' memory: the active edges (this state's, read live) and the standing claims."""
        return self._memory

    @property
    def schema(self) -> GraphSchema:
        return self._view.schema

    def is_active(self, src: str, type_: str, dst: str) -> bool:
        return self._view.is_active(src, type_, dst)

    def add_concepts(self, concepts: Iterable[Concept]) -> None:
        """Makes concepts known (those the batch being built will write)."""
        for concept in concepts:
            self._view.add_concept(concept)
            self._rules.add_concept(concept.id, self._view.node_type(concept.id))

    def add_lesson(
        self, lesson_id: str, concepts: Iterable[str], taught: Iterable[str] = (), prose: str | None = None
    ) -> None:
        """Records the concepts a lesson links (the judge's lesson co-occurrence: ``prose`` is the
        lesson's prose view, for one the store does not hold yet) and those it teaches (core
        concepts from now on)."""
        self._view.add_lesson(lesson_id, concepts, prose)
        self._taught.update(taught)

    def is_core(self, concept_id: str) -> bool:
        """Whether the curriculum already stands on a concept: it has an active edge, or a lesson
        teaches it (a stored lesson, or one added to this state). Only a contested edge between
        core concepts is debated (:mod:`governance.policy`)."""
        view = self._view
        taught = view.teaching.is_taught(concept_id) or concept_id in self._taught
        return view.degree(concept_id) > 0 or taught

    def commit(self, src: str, type_: str, dst: str) -> None:
        """Records an edge committed by the batch being built, as it is (the stages checked it)."""
        triple = self.schema.canonical(src, type_, dst)
        self._view.add_edge(*triple)
        self._rules.record(*triple)

    def invalidate(self, src: str, type_: str, dst: str) -> None:
        """Forgets an active edge the batch being built invalidates (nothing if it is not active)."""
        triple = self.schema.canonical(src, type_, dst)
        self._view.remove_edge(*triple)
        self._rules.invalidate(*triple)
