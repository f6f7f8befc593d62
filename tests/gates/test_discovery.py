"""Discovery: two-hop sampling without enumerating pairs, capped; candidates through the pipeline."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from agents.support import GraphView
from governance.discovery import ATTEMPTS_PER_PAIR, SCAN, discover, sample_pairs
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import Batch
from magg_kg.records import Concept
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

from .world import ScriptedLLM, run_magg, seed

T = "2026-01-01T00:00:00.000000Z"


def synthetic(nodes: int, edges: int, seed: int = 3, kind: type[GraphView] = GraphView) -> GraphView:
    rng = random.Random(seed)
    concepts = [Concept(id=f"c{i}", name=f"concept {i}", type="concept", recorded_at=T) for i in range(nodes)]
    triples: set[tuple[str, str, str]] = set()
    while len(triples) < edges:
        # a few hubs and many small ones: preferential attachment, roughly
        a = int(nodes * rng.random() ** 2)
        b = rng.randrange(nodes)
        if a != b:
            triples.add((f"c{min(a, b)}", "related", f"c{max(a, b)}"))
    return kind(concepts, sorted(triples))


class Counting(GraphView):
    """Counts neighborhood lookups, to bound the work done."""

    lookups = 0

    def neighbors(self, concept_id: str) -> set[str]:
        Counting.lookups += 1
        return super().neighbors(concept_id)


def test_pairs_are_two_hops_apart_with_no_direct_edge_and_capped() -> None:
    view = synthetic(500, 1500)
    pairs = sample_pairs(view, 25, seed=7)
    assert len(pairs) == 25
    assert len({frozenset((p.a, p.c)) for p in pairs}) == 25
    for pair in pairs:
        assert pair.c not in view.neighbors(pair.a) and pair.via
        assert all(pair.a in view.neighbors(b) and pair.c in view.neighbors(b) for b in pair.via)
    assert sample_pairs(view, 25, seed=7) == pairs  # the seed makes it reproducible
    assert sample_pairs(view, 25, seed=8) != pairs


def test_high_degree_concepts_are_preferred() -> None:
    view = synthetic(2000, 6000)
    seeds = [p.a for p in sample_pairs(view, 50, seed=1)]
    degrees = [view.degree(c) for c in view.concept_ids()]
    uniform = sum(degrees) / len(degrees)  # the mean degree of a uniformly drawn concept
    weighted = sum(d * d for d in degrees) / sum(degrees)  # the same, drawn in proportion to degree
    observed = sum(view.degree(a) for a in seeds) / len(seeds)
    assert observed > (uniform + weighted) / 2


def test_a_20k_concept_graph_is_sampled_with_bounded_work_without_enumerating_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    view = synthetic(20_000, 60_000, kind=Counting)
    import itertools

    import networkx

    def forbidden(*_args: object, **_kwargs: object) -> object:
        raise AssertionError("discovery must not enumerate pairs")

    for name in ("all_pairs_shortest_path_length", "all_pairs_shortest_path", "non_edges"):
        monkeypatch.setattr(networkx, name, forbidden)
    monkeypatch.setattr(itertools, "combinations", forbidden)
    Counting.lookups = 0
    compared: list[tuple[str, str]] = []

    def count(a: str, c: str) -> bool:  # called once per candidate pair (a, c) weighed
        compared.append((a, c))
        return False

    pairs = sample_pairs(view, 20, seed=7, skip=count)
    assert len(pairs) == 20
    # Work is counted, not timed: the pairs weighed are capped by SCAN per neighbor of each seed,
    # and are fewer than the concepts (enumerating the graph's pairs would be 2 * 10^8 of them).
    seeds = {a for a, _ in compared}
    assert compared and len(seeds) <= 20 * ATTEMPTS_PER_PAIR
    assert len(compared) <= SCAN * sum(view.degree(a) for a in seeds)
    assert len(compared) < 20_000
    # Bounded by the cap: at most one lookup per seed and one per neighbor of a seed.
    assert Counting.lookups < 20 * 20 * 50


def test_discovered_candidates_run_through_rules_judge_and_debate(
    store: SQLiteStore, clock: StepClock
) -> None:
    seed(
        store,
        clock,
        [
            (
                "linear-algebra",
                "prerequisite",
                "neural-network",
                "Linear algebra is a prerequisite for neural networks.",
            ),
            (
                "neural-network",
                "prerequisite",
                "transformer",
                "Neural networks are a prerequisite for transformers.",
            ),
            ("attention", "related", "transformer", "Attention is related to transformers."),
        ],
    )
    llm = ScriptedLLM()
    found = list(discover(store, llm, Policy(), clock, limit=3, seed=7))
    assert 1 <= len(found) <= 3
    for item in found:
        now = clock.now()
        store.write(Batch.of(make_id("batch", "discover", now), now, journaled(list(item.ops), now)))
    proposals = [p for p in store.proposals() if p.origin == "discover"]
    assert proposals and all(p.evidence and all(s.kind == "inferred" for s in p.evidence) for p in proposals)
    pairs = {frozenset((p.src, p.dst)) for p in proposals}
    assert frozenset(("linear-algebra", "transformer")) in pairs
    stages = {d.stage for d in store.decisions() if d.proposal_id in {p.id for p in proposals}}
    assert {"discover", "judge"} <= stages
    assert "discover" in llm.tasks() and "judge" in llm.tasks()
    assert verify_store(store) == []
    again = list(discover(store, llm, Policy(), clock, limit=3, seed=7))
    assert not {frozenset((f.candidate.a, f.candidate.c)) for f in again} & pairs  # never proposed twice


def test_discovery_never_quotes_a_withdrawn_lesson(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Discover built new edges on quotes of a lesson a person had withdrawn: the path edges that
    # other lessons state too kept its quotes (found by a hostile run). Those are now grounded again
    # on the other lessons' quotes, and discover leaves out the quotes of a lesson the course no
    # longer has whatever the edges hold (a database written before).
    curriculum = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
    folder = tmp_path / "course"
    folder.mkdir()
    for lesson in sorted(curriculum.glob("*.md")):
        (folder / lesson.name).write_text(lesson.read_text(encoding="utf-8"), encoding="utf-8")
    db = str(tmp_path / "g.sqlite")
    run_magg(["ingest", str(folder), "--db", db])
    store = SQLiteStore.open(db)
    lesson = next(s for s in store.current_lessons() if s.lesson_key.startswith("14-"))
    quoted = [e for e in store.edges() if lesson.id in {s.lesson_id for s in e.grounding.evidence}]
    store.close()
    assert quoted, "no edge quotes the lesson: the test shows nothing"
    run_magg(["review", "withdraw", lesson.lesson_key, "--reviewer", "ann", "--reason", "gone", "--db", db])
    store = SQLiteStore.open(db)
    kept = [e for e in store.edges() if lesson.id in {s.lesson_id for s in e.grounding.evidence}]
    store.close()
    assert not kept  # an edge other lessons state too is grounded again on their quotes alone
    run_magg(["discover", "--db", db, "--limit", "200"])
    capsys.readouterr()
    store = SQLiteStore.open(db)
    try:
        discovered = [p for p in store.proposals() if p.origin == "discover"]
        assert discovered, "nothing discovered: the test shows nothing"
        assert not [p for p in discovered if lesson.id in {s.lesson_id for s in p.evidence}]
    finally:
        store.close()
