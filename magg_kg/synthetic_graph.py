"""The synthetic graph: a seeded curriculum-shaped graph of any size, written like real writes.

For the scale benchmark (``magg bench perf``). :func:`plan_graph` draws the graph from a
:class:`GraphShape` and a seed; :func:`graph_batches` turns it into batches of operations;
:func:`write_graph` applies them with ``store.write``: the store's normal, validated write path.
The same shape and seed give the same batches, byte for byte.

What it looks like:

- concepts in planted communities (sizes drawn around ``GraphShape.community``), typed with a
  curriculum mix of node types, each named by two made-up words (the community's topic word and
  its own), so names are unique and look like names to the lexicon;
- edges with a realistic mix of the six curriculum types, ``inside`` of them within a community and
  the rest to a nearby community; endpoints are skewed towards the first concepts of a community,
  which become its hubs; at most one edge joins two concepts;
- the acyclic types (``prerequisite``, ``builds_on``, ``part_of``) all follow one seeded rank of the
  concepts, so they are acyclic alone and together (the learning order included);
- lessons of about ``GraphShape.lesson`` concepts each, whose text defines their concepts and states
  their edges: each concept is linked to its lesson (``teaches``) and each edge carries a full
  grounding record whose one evidence span quotes its sentence exactly, at its offsets;
- every edge is committed under its own decision, and both are journaled (audit events), as the
  gate commits an edge.

Batches hold at most :data:`BATCH_LIMIT` operations: first the lessons and their concepts, then the
edges, each batch with its own time stamp from the clock.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from magg_kg.builders import commit_op, decision_op
from magg_kg.clock import Clock
from magg_kg.ids import edge_id
from magg_kg.journal import journaled
from magg_kg.operations import (
    BATCH_OPS,
    AddChunk,
    AddConcept,
    AddLesson,
    Batch,
    LinkLessonConcept,
    Operation,
    SpanData,
)
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM

__all__ = [
    "BATCH_LIMIT",
    "EDGE_MIX",
    "GraphPlan",
    "GraphShape",
    "PlannedEdge",
    "graph_batches",
    "plan_graph",
    "write_graph",
]

BATCH_LIMIT = BATCH_OPS
"""The most operations in one batch (the store's own bound)."""
EDGE_MIX = (
    ("prerequisite", 0.30),
    ("builds_on", 0.12),
    ("part_of", 0.10),
    ("related", 0.28),
    ("applies_to", 0.10),
    ("contrasts_with", 0.10),
)
"""Edge types and their shares of the edges."""
NODE_MIX = (
    ("concept", 0.40),
    ("method", 0.20),
    ("math", 0.10),
    ("model", 0.10),
    ("task", 0.10),
    ("metric", 0.05),
    ("tool", 0.05),
)
_SENTENCE = {
    "prerequisite": "{a} is a prerequisite for {b}.",
    "builds_on": "{a} builds on {b}.",
    "part_of": "{a} is part of {b}.",
    "related": "{a} is related to {b}.",
    "applies_to": "{a} is applied to {b}.",
    "contrasts_with": "{a} contrasts with {b}.",
}
_ONSETS = ("b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "j")
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ou", "ea")
_SPREAD = 3
"""An edge that leaves its community goes to one at most this many communities away."""
_TRIES = 50
"""Draws per edge before the plan gives up (a shape that asks for more edges than fit)."""


@dataclass(frozen=True)
class GraphShape:
    """What to generate: ``concepts`` concepts and ``edges`` edges, drawn with ``seed``."""

    concepts: int
    edges: int
    seed: int = 0
    community: int = 100
    """The mean size of a planted community."""
    lesson: int = 25
    """Concepts per lesson."""
    inside: float = 0.85
    """The share of edges within a community."""
    start: str = "2026-01-01T00:00:00.000000Z"

    def __post_init__(self) -> None:
        if self.concepts < 2 or self.edges < 0 or self.community < 2 or self.lesson < 1:
            raise ValueError(f"a synthetic graph needs at least 2 concepts and communities of 2: {self}")
        if not 0.0 <= self.inside <= 1.0:
            raise ValueError(f"inside must be a share in [0, 1], got {self.inside}")


@dataclass(frozen=True)
class PlannedEdge:
    src: int
    type: str
    dst: int
    confidence: float


@dataclass(frozen=True)
class GraphPlan:
    """The drawn graph: concepts by index (id, name, type), communities and edges by index."""

    shape: GraphShape
    ids: tuple[str, ...]
    names: tuple[str, ...]
    types: tuple[str, ...]
    communities: tuple[range, ...]
    edges: tuple[PlannedEdge, ...]

    def community_of(self, concept: int) -> int:
        """The index of the planted community a concept belongs to."""
        low, high = 0, len(self.communities) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if self.communities[middle].start <= concept:
                low = middle
            else:
                high = middle - 1
        return low


def _word(number: int, rng: random.Random) -> str:
    """A pronounceable made-up word, unique per number: one syllable per digit in base 16, whose one
    consonant is the digit (the vowels between are drawn, so they never make two words alike)."""
    syllables = []
    while True:
        number, digit = divmod(number, len(_ONSETS))
        syllables.append(_ONSETS[digit] + rng.choice(_VOWELS))
        if number == 0:
            break
    return "".join(syllables)


def _communities(shape: GraphShape, rng: random.Random) -> tuple[range, ...]:
    found, start = [], 0
    while start < shape.concepts:
        size = rng.randint(max(2, shape.community // 2), max(2, shape.community * 3 // 2))
        end = min(shape.concepts, start + size)
        if shape.concepts - end < 2:  # no community of one at the end
            end = shape.concepts
        found.append(range(start, end))
        start = end
    return tuple(found)


def _skewed(members: range, rng: random.Random) -> int:
    """A member, the first ones (the hubs) far more often than the last."""
    return members.start + int(len(members) * rng.random() ** 2.5)


def _choose(mix: Sequence[tuple[str, float]], rng: random.Random) -> str:
    point, total = rng.random(), 0.0
    for name, share in mix:
        total += share
        if point < total:
            return name
    return mix[-1][0]


def plan_graph(shape: GraphShape) -> GraphPlan:
    """Draws the graph of ``shape`` (see the module docstring); never enumerates pairs."""
    rng = random.Random(shape.seed)
    communities = _communities(shape, rng)
    names, types = [], []
    for number, members in enumerate(communities):
        topic = _word(number, rng).capitalize()
        for offset in range(len(members)):
            names.append(f"{topic} {_word(offset, rng)}")
            types.append(_choose(NODE_MIX, rng))
    ids = tuple(name.lower().replace(" ", "-") for name in names)
    order = list(range(shape.concepts))
    rng.shuffle(order)
    rank = {concept: position for position, concept in enumerate(order)}
    pairs: set[tuple[int, int]] = set()
    edges: list[PlannedEdge] = []
    schema = CURRICULUM.edge_types
    for _ in range(shape.edges):
        for _ in range(_TRIES):
            here = rng.randrange(len(communities))
            a = _skewed(communities[here], rng)
            there = here
            if rng.random() >= shape.inside and len(communities) > 1:
                step = rng.choice((-1, 1)) * rng.randint(1, _SPREAD)
                there = min(len(communities) - 1, max(0, here + step))
            b = _skewed(communities[there], rng)
            type_ = _choose(EDGE_MIX, rng)
            if a == b or (min(a, b), max(a, b)) in pairs:
                continue
            if schema[type_].acyclic:
                # prerequisite: the earlier first; builds_on and part_of: the later first.
                a, b = (a, b) if (rank[a] < rank[b]) == (type_ == "prerequisite") else (b, a)
            elif type_ == "applies_to" and not schema[type_].allows(types[a], types[b]):
                if not schema[type_].allows(types[b], types[a]):
                    type_ = "related"
                else:
                    a, b = b, a
            if schema[type_].symmetric and ids[b] < ids[a]:
                a, b = b, a
            pairs.add((min(a, b), max(a, b)))
            edges.append(PlannedEdge(a, type_, b, round(0.8 + 0.2 * rng.random(), 3)))
            break
        else:
            raise ValueError(
                f"cannot place {shape.edges} edges among {shape.concepts} concepts "
                f"(placed {len(edges)}); ask for fewer edges or more concepts"
            )
    return GraphPlan(shape, ids, tuple(names), tuple(types), communities, tuple(edges))


@dataclass(frozen=True)
class _Lesson:
    id: str
    title: str
    text: str
    members: range
    spans: dict[int, tuple[int, int]]
    """Concept index -> the offsets of the sentence that defines it."""


def _lessons(plan: GraphPlan) -> tuple[list[_Lesson], dict[int, tuple[int, int, int]]]:
    """The lessons, and edge index -> (lesson index, start, end) of the sentence stating it."""
    size = plan.shape.lesson
    stated: dict[int, list[int]] = {}
    for index, edge in enumerate(plan.edges):
        stated.setdefault(edge.src // size, []).append(index)
    lessons: list[_Lesson] = []
    where: dict[int, tuple[int, int, int]] = {}
    for number, start in enumerate(range(0, len(plan.ids), size)):
        members = range(start, min(start + size, len(plan.ids)))
        title = f"{plan.names[start].split(' ')[0]} {number}"
        parts, offset, spans = [f"# {title}\n\n"], len(title) + 4, {}
        for concept in members:
            sentence = f"{plan.names[concept]} is a {plan.types[concept]} of {title}. "
            spans[concept] = (offset, offset + len(sentence) - 1)
            parts.append(sentence)
            offset += len(sentence)
        for index in stated.get(number, []):
            edge = plan.edges[index]
            sentence = _SENTENCE[edge.type].format(a=plan.names[edge.src], b=plan.names[edge.dst]) + " "
            where[index] = (number, offset, offset + len(sentence) - 1)
            parts.append(sentence)
            offset += len(sentence)
        lessons.append(_Lesson(f"lesson-synthetic-{number}", title, "".join(parts), members, spans))
    return lessons, where


def _lesson_ops(plan: GraphPlan, lesson: _Lesson, at: str) -> list[Operation]:
    digest = hashlib.sha256(lesson.text.encode("utf-8")).hexdigest()
    ops: list[Operation] = [
        AddLesson(
            id=lesson.id,
            lesson_key=lesson.id,
            title=lesson.title,
            sha256=digest,
            source_path=f"synthetic/{lesson.id}.md",
            text=lesson.text,
            ingested_at=at,
        ),
        AddChunk(id=f"{lesson.id}-0", lesson_id=lesson.id, ordinal=0, start=0, end=len(lesson.text)),
    ]
    for concept in lesson.members:
        start, end = lesson.spans[concept]
        ops.append(
            AddConcept(
                id=plan.ids[concept],
                name=plan.names[concept],
                type=plan.types[concept],
                description=lesson.text[start:end],
                recorded_at=at,
            )
        )
        ops.append(
            LinkLessonConcept(
                lesson_id=lesson.id,
                concept_id=plan.ids[concept],
                role="teaches",
                evidence=[_span(lesson, start, end)],
                recorded_at=at,
            )
        )
    return ops


def _span(lesson: _Lesson, start: int, end: int) -> SpanData:
    return SpanData(
        lesson_id=lesson.id,
        chunk_id=f"{lesson.id}-0",
        start=start,
        end=end,
        quote=lesson.text[start:end],
        kind="explicit",
    )


def _edge_ops(plan: GraphPlan, edge: PlannedEdge, span: SpanData, at: str) -> list[Operation]:
    src, dst = plan.ids[edge.src], plan.ids[edge.dst]
    decision = decision_op(
        None,
        "synthetic",
        "commit",
        "committed",
        "a synthetic edge, stated by its lesson",
        subject=edge_id(src, edge.type, dst),
        score=edge.confidence,
        detail={"seed": plan.shape.seed},
        policy_version="synthetic",
        prompt_version="none",
        model="none",
        decided_at=at,
    )
    commit = commit_op(
        decision,
        src,
        edge.type,
        dst,
        confidence=edge.confidence,
        reason=f"the lesson says so: {span.quote}",
        source=f"synthetic:{span.lesson_id}",
        evidence=[span],
    )
    return [decision, commit]


def _groups(sizes: Sequence[int]) -> Iterator[range]:
    """Consecutive items whose operations (``sizes``, audit events included) fill a batch."""
    start, filled = 0, 0
    for index, size in enumerate(sizes):
        if filled + size > BATCH_LIMIT and index > start:
            yield range(start, index)
            start, filled = index, 0
        filled += size
    if start < len(sizes):
        yield range(start, len(sizes))


def graph_batches(plan: GraphPlan, clock: Clock) -> Iterator[Batch]:
    """The batches that write ``plan``: lessons with their concepts first, then the edges."""
    lessons, where = _lessons(plan)
    prefix = f"synthetic-{plan.shape.seed}-{len(plan.ids)}-{len(plan.edges)}"
    count = 0

    def batch(ops: list[Operation], at: str) -> Batch:
        nonlocal count
        count += 1
        return Batch.of(f"{prefix}-{count}", at, journaled(ops, at))

    # A lesson writes 3 + 2 per concept operations (its audit event included), an edge 4.
    for group in _groups([3 + 2 * len(lesson.members) for lesson in lessons]):
        at = clock.now()
        yield batch([op for number in group for op in _lesson_ops(plan, lessons[number], at)], at)
    for group in _groups([4] * len(plan.edges)):
        at = clock.now()
        ops: list[Operation] = []
        for index in group:
            number, start, end = where[index]
            ops += _edge_ops(plan, plan.edges[index], _span(lessons[number], start, end), at)
        yield batch(ops, at)


def write_graph(store: Store, plan: GraphPlan, clock: Clock) -> int:
    """Writes ``plan`` through ``store.write``; returns the number of batches."""
    written = 0
    for batch in graph_batches(plan, clock):
        store.write(batch)
        written += 1
    return written
