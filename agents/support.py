"""The supporting subgraph: what the active graph says about one proposed edge.

A :class:`GraphView` holds the concepts (with names, aliases and descriptions) and the active edges
in memory, indexed for the questions the judge, the debaters and discovery ask:

- the learning order (``prerequisite`` and ``builds_on`` edges oriented first -> later, see
  :mod:`magg_kg.vocabulary`) and the ``part_of`` hierarchy, searched with a bounded breadth-first
  walk (a few hops, never the whole graph);
- the undirected neighborhood of a concept (any edge type), for shared neighbors and discovery;
- the TF-IDF cosine similarity of two concepts' names and descriptions;
- the teaching order (:class:`~agents.teaching.TeachingOrder`);
- lesson co-occurrence (:class:`~agents.lesson_index.LessonIndex`): lessons and sentences naming
  both, and whether a lesson's headings name both or it emphasises either.

:meth:`GraphView.support` answers all of it for one claim as a frozen :class:`Support`, which the
roles put in their prompt payloads, so the offline roles compute from the payload alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from agents.lesson_index import LessonIndex, LessonProse, prose_reader
from agents.teaching import TeachingOrder
from agents.term_weights import TermWeights
from agents.text import MentionFinder, content_words, lexicon
from agents.walks import bounded_paths
from agents.wider_names import WiderNames
from magg_kg.records import Concept, Triple
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["CONFLICTING_TYPES", "GraphView", "Support", "current_positions"]

CONFLICTING_TYPES: frozenset[frozenset[str]] = frozenset(
    {
        frozenset({"part_of", "contrasts_with"}),
        frozenset({"prerequisite", "contrasts_with"}),
        frozenset({"builds_on", "contrasts_with"}),
    }
)
"""Edge types that cannot both hold between the same two concepts: a part of a thing, or a step
towards it, is not its alternative."""

_HOPS = 3
_SHOWN = 12


@dataclass(frozen=True)
class Support:
    """The supporting subgraph of one claim ``src type dst``.

    ``paths`` are existing paths consistent with the claim (the same learning order or the same
    hierarchy, or for the other types two-hop paths through a shared neighbor); ``reverse_paths``
    order the two concepts the other way; ``between`` are the active edges joining the two
    concepts directly; ``contradicting`` those of them that conflict with the claim.
    """

    src: str
    type: str
    dst: str
    src_known: bool
    dst_known: bool
    src_neighbors: tuple[str, ...]
    dst_neighbors: tuple[str, ...]
    shared_neighbors: tuple[str, ...]
    paths: tuple[tuple[str, ...], ...]
    reverse_paths: tuple[tuple[str, ...], ...]
    between: tuple[Triple, ...]
    contradicting: tuple[Triple, ...]
    similarity: float
    concepts: tuple[str, ...] = field(default=())
    order: tuple[str, str] | None = None
    """(first, later) when the claim states a learning order."""
    first_taught: tuple[int | None, int | None] = (None, None)
    """The position (ingestion order) of the first lesson that teaches ``order``'s first and later."""
    lessons: int = 0
    degrees: tuple[int, int] = (0, 0)
    """How many concepts each endpoint is joined to by active edges (the claim excluded)."""
    order_degrees: tuple[int, int, int, int] = (0, 0, 0, 0)
    """In learning order: the concepts before src, after src, before dst, after dst."""
    cited: tuple[int, int] = (0, 0)
    """How many other concepts' descriptions name src, and dst (a foundation is named by many)."""
    together: tuple[int, int, int] = (0, 0, 0)
    """Lessons linking src, linking dst, and linking both (see :meth:`LessonIndex.together`)."""
    sentences: int = 0
    """Sentences naming both, in the lessons linking both (see :meth:`LessonIndex.cooccurrence`)."""
    presented: tuple[bool, bool] = (False, False)
    """Whether such a lesson's headings name both, and one emphasises either (``Cooccurrence``)."""
    anchored: tuple[bool, bool] = (True, True)
    """Whether each endpoint relates to the rest of the curriculum (see :meth:`GraphView.anchored`)."""
    named_as_one: str = ""
    """A sentence of such a lesson that gives the two as names of one concept (:mod:`agents.synonyms`)."""
    short_name: str = ""
    """Why one is the other's short name in the lessons (:func:`agents.lesson_index.short_name`)."""

    def payload(self) -> dict[str, object]:
        """The subgraph as JSON-ready data for a prompt (``named_as_one``, ``short_name`` when given)."""
        return {
            "src_known": self.src_known,
            "dst_known": self.dst_known,
            "src_neighbors": list(self.src_neighbors),
            "dst_neighbors": list(self.dst_neighbors),
            "shared_neighbors": list(self.shared_neighbors),
            "paths": [list(path) for path in self.paths],
            "reverse_paths": [list(path) for path in self.reverse_paths],
            "between": [list(triple) for triple in self.between],
            "contradicting": [list(triple) for triple in self.contradicting],
            "similarity": round(self.similarity, 4),
            "order": list(self.order) if self.order else None,
            "first_taught": list(self.first_taught),
            "lessons": self.lessons,
            "degrees": list(self.degrees),
            "order_degrees": list(self.order_degrees),
            "cited": list(self.cited),
            "anchored": list(self.anchored),
            "together": list(self.together),
            "sentences": self.sentences,
            "presented": list(self.presented),
        } | {
            key: value
            for key, value in (("named_as_one", self.named_as_one), ("short_name", self.short_name))
            if value
        }


class GraphView:
    """Concepts and active edges in memory; updated as a batch commits or invalidates edges."""

    def __init__(
        self,
        concepts: Iterable[Concept],
        edges: Iterable[Triple],
        aliases: Mapping[str, str] | None = None,
        schema: GraphSchema = CURRICULUM,
        taught: Mapping[str, int] | None = None,
        lessons: int = 0,
        members: Mapping[str, Iterable[str]] | None = None,
        prose_of: LessonProse | None = None,
        courses: Iterable[Mapping[str, int]] = (),
    ) -> None:
        self._schema = schema
        self.teaching = TeachingOrder(taught, courses)
        self.lessons = LessonIndex(members, lessons, prose_of)
        self._order_types = schema.order_types()
        self._concepts: dict[str, Concept] = {c.id: c for c in concepts}
        self._names: dict[str, list[str]] = {}
        for alias, concept_id in sorted((aliases or {}).items()):
            self._names.setdefault(concept_id, []).append(alias)
        self._active: set[Triple] = set()
        self._adjacent: dict[str, dict[str, set[Triple]]] = {}
        self._later: dict[str, dict[str, set[Triple]]] = {}  # learning order, first -> later
        self._earlier: dict[str, dict[str, set[Triple]]] = {}  # learning order, later -> first
        self._citations: dict[str, int] | None = None
        self._words: dict[str, set[str]] | None = None
        self._wider: WiderNames | None = None
        self._whole: dict[str, set[str]] = {}  # part_of, part -> whole
        self._weights: TermWeights | None = None
        for src, type_, dst in edges:
            self.add_edge(src, type_, dst)

    @classmethod
    def of_store(
        cls, store: Store, schema: GraphSchema = CURRICULUM, prose_of: LessonProse | None = None
    ) -> GraphView:
        """The view of the store's graph now; ``prose_of`` reads a lesson's prose (default: the store)."""
        position = current_positions(store)
        taught: dict[str, int] = {}
        members: dict[str, set[str]] = {}
        for row in store.lesson_roles():
            if str(row["lesson_id"]) not in position:
                continue  # a version a later one replaced, or a withdrawn lesson
            members.setdefault(str(row["concept_id"]), set()).add(str(row["lesson_id"]))
            at = position.get(str(row["lesson_id"]))
            if row["role"] == "teaches" and at is not None:
                concept = str(row["concept_id"])
                taught[concept] = min(at, taught.get(concept, at))
        return cls(
            store.concepts(),
            store.triples(),
            store.aliases(),
            schema,
            taught,
            len(position),
            members,
            prose_of or prose_reader(store),
        )

    def add_lesson(self, lesson_id: str, concepts: Iterable[str], prose: str | None = None) -> None:
        """Records the concepts a lesson links (for lesson co-occurrence), before its proposals,
        and its prose view when the store does not hold the lesson yet."""
        self.lessons.add(lesson_id, concepts, prose)

    @property
    def schema(self) -> GraphSchema:
        return self._schema

    def concept_ids(self) -> list[str]:
        return list(self._concepts)

    def has_concept(self, concept_id: str) -> bool:
        return concept_id in self._concepts

    def concept(self, concept_id: str) -> Concept | None:
        return self._concepts.get(concept_id)

    def add_concept(self, concept: Concept) -> None:
        if concept.id not in self._concepts:
            self._concepts[concept.id] = concept
            self._weights = None
            self._citations = None
            self._words = None
            self._wider = None

    def add_names(self, aliases: Mapping[str, str]) -> None:
        """Adds aliases (alias -> concept id) not known yet."""
        for alias, concept_id in sorted(aliases.items()):
            known = self._names.setdefault(concept_id, [])
            if alias not in known:
                known.append(alias)
                self._citations = None
                self._words = None
                self._wider = None

    def names(self, concept_id: str) -> list[str]:
        """The concept's name and aliases (the id itself when nothing else is known)."""
        concept = self._concepts.get(concept_id)
        found = [concept.name] if concept is not None else [concept_id.replace("-", " ")]
        return found + [name for name in self._names.get(concept_id, []) if name not in found]

    def wider_names(self, a: str, b: str) -> list[str]:
        """Other concepts' names that hold both (:meth:`agents.wider_names.WiderNames.joining`)."""
        if self._wider is None:
            self._wider = WiderNames({cid: self.names(cid) for cid in self._concepts})
        return self._wider.joining(self.names(a), self.names(b), excluded=(a, b))

    def node_type(self, concept_id: str) -> str:
        return self._concepts[concept_id].type

    def is_active(self, src: str, type_: str, dst: str) -> bool:
        return self._schema.canonical(src, type_, dst) in self._active

    def triples(self) -> AbstractSet[Triple]:
        """The active edges, canonical: a live, read-only view that follows :meth:`add_edge` and
        :meth:`remove_edge`."""
        return self._active

    def edge_count(self) -> int:
        return len(self._active)

    def neighbors(self, concept_id: str) -> set[str]:
        return set(self._adjacent.get(concept_id, {}))

    def degree(self, concept_id: str) -> int:
        return len(self._adjacent.get(concept_id, {}))

    def edges_between(self, a: str, b: str) -> list[Triple]:
        return sorted(self._adjacent.get(a, {}).get(b, set()))

    def add_edge(self, src: str, type_: str, dst: str) -> None:
        triple = self._schema.canonical(src, type_, dst)
        if triple in self._active:
            return
        self._active.add(triple)
        src, type_, dst = triple
        self._adjacent.setdefault(src, {}).setdefault(dst, set()).add(triple)
        self._adjacent.setdefault(dst, {}).setdefault(src, set()).add(triple)
        arc = self._order_arc(triple)
        if arc is not None:
            self._later.setdefault(arc[0], {}).setdefault(arc[1], set()).add(triple)
            self._earlier.setdefault(arc[1], {}).setdefault(arc[0], set()).add(triple)
        if type_ == "part_of":
            self._whole.setdefault(src, set()).add(dst)

    def remove_edge(self, src: str, type_: str, dst: str) -> None:
        triple = self._schema.canonical(src, type_, dst)
        if triple not in self._active:
            return
        self._active.discard(triple)
        src, type_, dst = triple
        for a, b in ((src, dst), (dst, src)):
            joined = self._adjacent[a][b]
            joined.discard(triple)
            if not joined:
                del self._adjacent[a][b]
        arc = self._order_arc(triple)
        if arc is not None:
            for index, (a, b) in ((self._later, arc), (self._earlier, (arc[1], arc[0]))):
                stated = index[a][b]
                stated.discard(triple)
                if not stated:
                    del index[a][b]
        if type_ == "part_of":
            self._whole[src].discard(dst)

    def _order_arc(self, triple: Triple) -> tuple[str, str] | None:
        first = self._order_types.get(triple[1])
        if first is None:
            return None
        return (triple[0], triple[2]) if first == "src" else (triple[2], triple[0])

    def order_paths(self, first: str, later: str, hops: int = _HOPS, limit: int = 3) -> list[tuple[str, ...]]:
        """Up to ``limit`` learning-order paths first -> ... -> later of at most ``hops`` edges."""
        return bounded_paths(lambda node: self._later.get(node, {}).keys(), first, later, hops, limit)

    def whole_paths(self, part: str, whole: str, hops: int = _HOPS, limit: int = 3) -> list[tuple[str, ...]]:
        """Up to ``limit`` part_of paths part -> ... -> whole of at most ``hops`` edges."""
        return bounded_paths(lambda node: self._whole.get(node, set()), part, whole, hops, limit)

    def claim_order(self, src: str, type_: str, dst: str) -> tuple[str, str] | None:
        """(first, later) in learning order if the claim states one, else None."""
        return self._order_arc((src, type_, dst))

    def support(self, src: str, type_: str, dst: str) -> Support:
        """The supporting subgraph of the claim ``src type_ dst`` (the claim itself excluded)."""
        src, type_, dst = self._schema.canonical(src, type_, dst)
        claim = (src, type_, dst)
        src_near = self.neighbors(src) - {dst}
        dst_near = self.neighbors(dst) - {src}
        shared = sorted(src_near & dst_near)
        order = self._order_arc(claim)
        both = self.lessons.cooccurrence(src, dst, self.names, self.wider_names(src, dst))
        if order is not None:
            paths = [p for p in self.order_paths(*order) if len(p) > 2 or _direct(self, p, claim)]
            reverse = self.order_paths(order[1], order[0])
        elif type_ == "part_of":
            paths = [p for p in self.whole_paths(src, dst) if len(p) > 2]
            reverse = self.whole_paths(dst, src)
        else:
            paths = [(src, middle, dst) for middle in shared[:3]]
            reverse = []
        between = [t for t in self.edges_between(src, dst) if t != claim]
        contradicting = [
            t
            for t in between
            if frozenset({t[1], type_}) in CONFLICTING_TYPES
            or (t[1] == type_ and t != claim and not self._schema.edge_types[type_].symmetric)
        ]
        mentioned = {src, dst, *(n for path in paths + reverse for n in path), *shared[:_SHOWN]}
        return Support(
            src=src,
            type=type_,
            dst=dst,
            src_known=src in self._concepts,
            dst_known=dst in self._concepts,
            src_neighbors=tuple(sorted(src_near)[:_SHOWN]),
            dst_neighbors=tuple(sorted(dst_near)[:_SHOWN]),
            shared_neighbors=tuple(shared[:_SHOWN]),
            paths=tuple(paths),
            reverse_paths=tuple(reverse),
            between=tuple(between),
            contradicting=tuple(contradicting),
            similarity=self.similarity(src, dst),
            concepts=tuple(sorted(c for c in mentioned if c in self._concepts)),
            order=order,
            first_taught=self.teaching.positions(*order) if order else (None, None),
            lessons=self.lessons.count,
            degrees=(len(src_near), len(dst_near)),
            order_degrees=(
                len(self._earlier.get(src, {}).keys() - {dst}),
                len(self._later.get(src, {}).keys() - {dst}),
                len(self._earlier.get(dst, {}).keys() - {src}),
                len(self._later.get(dst, {}).keys() - {src}),
            ),
            cited=(self.cited(src), self.cited(dst)),
            anchored=(self.anchored(src), self.anchored(dst)),
            together=self.lessons.together(src, dst),
            sentences=both.sentences,
            presented=(both.headed, both.marked),
            named_as_one=both.one,
            short_name=both.short,
        )

    def anchored(self, concept_id: str) -> bool:
        """Whether a concept relates to the rest of the curriculum: it has an active edge, a lesson
        teaches it or defines it (it has a description), the lessons of two files name it, another
        concept's description names it, or a content word of its name or aliases is one of another
        concept's. A concept that appears from nowhere (in one lesson file) has none of these."""
        concept = self._concepts.get(concept_id)
        if concept is None:
            return False
        if concept.description or self.degree(concept_id) or self.teaching.is_taught(concept_id):
            return True
        if self.lessons.files(concept_id) >= 2:
            return True
        if self.cited(concept_id):
            return True
        if self._words is None:
            self._words = {}
            for cid in self._concepts:
                for word in self._content_words(cid):
                    self._words.setdefault(word, set()).add(cid)
        return any(self._words.get(word, set()) - {concept_id} for word in self._content_words(concept_id))

    def _content_words(self, concept_id: str) -> set[str]:
        """The content words of a concept's name and aliases ("RAG", alias "retrieval augmented
        generation": "rag", "retrieval", "augmented", "generation")."""
        return {word for name in self.names(concept_id) for word in content_words(name)}

    def cited(self, concept_id: str) -> int:
        """How many other concepts' descriptions name this concept (by name or alias)."""
        if self._citations is None:
            finder = MentionFinder(lexicon([(cid, self.names(cid)) for cid in sorted(self._concepts)]))
            counts: dict[str, int] = {}
            for cid, concept in self._concepts.items():
                if concept.description:
                    for named in {c for _, _, c in finder.find(concept.description)} - {cid}:
                        counts[named] = counts.get(named, 0) + 1
            self._citations = counts
        return self._citations.get(concept_id, 0)

    def similarity(self, a: str, b: str) -> float:
        """The TF-IDF cosine similarity of two concepts' names and descriptions (0 if unknown)."""
        if a not in self._concepts or b not in self._concepts:
            return 0.0
        if self._weights is None:
            self._weights = TermWeights({i: f"{c.name} {c.description}" for i, c in self._concepts.items()})
        return self._weights.similarity(a, b)


def current_positions(store: Store) -> dict[str, int]:
    """Each current lesson's id (:meth:`~magg_kg.store.Store.current_lessons`) and its position in
    ingestion order: the lessons the course holds now, as the teaching order and the lesson
    co-occurrence count them (a version a later one replaced, or a withdrawn lesson, not counted)."""
    return {lesson: i for i, lesson in enumerate(store.current_lesson_ids())}


def _direct(view: GraphView, path: tuple[str, ...], claim: Triple) -> bool:
    """Whether a one-edge order path is stated by an edge other than the claim itself."""
    return any(t != claim for t in view.edges_between(path[0], path[1]) if view.claim_order(*t) is not None)
