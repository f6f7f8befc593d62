"""Discovery: sample concept pairs two hops apart with no direct edge, propose the missing relation,
and run each proposal through the same pipeline (rules, then the judge gate, whose decision table
sends contested discovery candidates to debate).

Sampling never enumerates pairs. Seeds are drawn by degree-weighted sampling (the configuration's
seed makes it reproducible), so high-degree, foundational concepts come first; for each seed the
two-hop neighborhood is scanned (each neighbor's neighbors, at most :data:`SCAN` of them) and the
concept reached by the most paths wins (a dense cluster: many shared neighbors). A pair that
already has an active edge, or any proposal, is skipped; each candidate's batch says so
(:class:`~magg_kg.operations.ExpectUnclaimed`), and the store refuses it as settled if another
run proposed the pair meanwhile. The batch stops at the cap, or after
:data:`ATTEMPTS_PER_PAIR` seeds per wanted pair: the work is bounded by the cap, not by the graph.
"""

from __future__ import annotations

import heapq
import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Protocol

from agents.discovery import PROMPT_VERSION, DiscoveryReply, discovery_prompt
from agents.support import GraphView
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.policy import policy_decision
from magg_kg.builders import proposal_op, propose
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.llm.port import LLM, Failure
from magg_kg.operations import ExpectUnclaimed, Operation, RecordDecision
from magg_kg.records import Span, Triple
from magg_kg.store import Store

__all__ = [
    "ATTEMPTS_PER_PAIR",
    "SCAN",
    "Discovered",
    "Neighbourhoods",
    "TwoHopPair",
    "discover",
    "sample_pairs",
]

SCAN = 200
"""At most this many neighbors of a neighbor are looked at per seed (hubs cost a bounded scan)."""
ATTEMPTS_PER_PAIR = 20
"""Seeds drawn per wanted pair before the batch gives up."""


@dataclass(frozen=True)
class TwoHopPair:
    """Two concepts two hops apart and the middle concepts joining them."""

    a: str
    c: str
    via: tuple[str, ...]


@dataclass(frozen=True)
class Discovered:
    """What became of one candidate: the proposal (if any), its final state, and the ops."""

    candidate: TwoHopPair
    triple: Triple | None
    state: str
    reason: str
    ops: tuple[Operation, ...]

    def summary(self) -> dict[str, object]:
        return {
            "a": self.candidate.a,
            "c": self.candidate.c,
            "via": list(self.candidate.via),
            "proposal": list(self.triple) if self.triple else None,
            "state": self.state,
            "reason": self.reason,
        }


class Neighbourhoods(Protocol):
    """What sampling reads: a judge's :class:`GraphView`, or the lighter
    :class:`~magg_kg.graph.Adjacency`."""

    def concept_ids(self) -> list[str]: ...

    def neighbors(self, concept_id: str) -> set[str]: ...

    def degree(self, concept_id: str) -> int: ...


def sample_pairs(
    view: Neighbourhoods, limit: int, seed: int, skip: Callable[[str, str], bool] = lambda a, c: False
) -> list[TwoHopPair]:
    """Up to ``limit`` two-hop pairs with no direct edge (see the module docstring)."""
    ids = sorted(c for c in view.concept_ids() if view.degree(c) > 0)
    if not ids or limit <= 0:
        return []
    totals = list(accumulate(view.degree(c) for c in ids))
    rng = random.Random(seed)
    found: list[TwoHopPair] = []
    taken: dict[str, set[str]] = {}  # concept -> the concepts it is already paired with
    tried: set[str] = set()
    for _ in range(limit * ATTEMPTS_PER_PAIR):
        if len(found) >= limit or len(tried) >= len(ids):
            break
        a = ids[min(bisect_left(totals, rng.random() * totals[-1]), len(ids) - 1)]
        if a in tried:
            continue
        tried.add(a)
        near = view.neighbors(a)
        paired = taken.get(a, set())
        reach: Counter[str] = Counter()
        middles: dict[str, list[str]] = {}
        for b in sorted(near):
            for c in _first(view.neighbors(b), SCAN):
                if c == a or c in near or c in paired or skip(a, c):
                    continue
                reach[c] += 1
                middles.setdefault(c, []).append(b)
        if not reach:
            continue
        c = max(reach, key=lambda k: (reach[k], view.degree(k), k))
        taken.setdefault(a, set()).add(c)
        taken.setdefault(c, set()).add(a)
        found.append(TwoHopPair(a, c, tuple(middles[c][:5])))
    return found


def _first(concepts: set[str], count: int) -> Iterable[str]:
    """The ``count`` first concepts in id order (a hub's neighbours are not all sorted to find them);
    in no particular order, as only which concepts they are matters."""
    return concepts if len(concepts) <= count else heapq.nsmallest(count, concepts)


def _concept(view: GraphView, concept_id: str) -> dict[str, object]:
    concept = view.concept(concept_id)
    return {
        "id": concept_id,
        "name": concept.name if concept else concept_id,
        "type": concept.type if concept else "",
        "description": (concept.description if concept else "")[:400],
    }


def _inferred(spans: list[Span]) -> list[Span]:
    out: dict[tuple[str, int, int], Span] = {}
    for span in spans:
        out.setdefault((span.lesson_id, span.start, span.end), span.model_copy(update={"kind": "inferred"}))
    return list(out.values())[:16]


def discover(
    store: Store, llm: LLM, policy: Policy, clock: Clock, limit: int, seed: int
) -> Iterator[Discovered]:
    """Samples up to ``limit`` candidates and runs each through rules and the judge gate.

    Yields each result with its ops as soon as it is settled; the caller writes one batch each.
    """
    graph = GraphState.of_store(store)
    view = graph.view
    proposed = {frozenset((p.src, p.dst)) for p in store.proposals()}
    stale = store.stale_lessons()  # replaced or withdrawn: the course no longer says what they quote
    gate = Judgment(llm, policy, clock, store, graph=graph)
    vocabulary = {name: t.description for name, t in view.schema.edge_types.items()}
    for candidate in sample_pairs(view, limit, seed, lambda a, c: frozenset((a, c)) in proposed):
        paths = [
            [ab, bc]
            for b in candidate.via
            for ab in view.edges_between(candidate.a, b)[:1]
            for bc in view.edges_between(b, candidate.c)[:1]
        ]
        reply = llm.ask(
            discovery_prompt(_concept(view, candidate.a), _concept(view, candidate.c), paths, vocabulary),
            DiscoveryReply,
        )
        if isinstance(reply, Failure):
            yield Discovered(
                candidate, None, "skipped", f"proposer failed ({reply.kind}): {reply.reason}", ()
            )
            continue
        said = reply.value
        if said.type == "none" or {said.src, said.dst} != {candidate.a, candidate.c}:
            why = "no relation proposed" if said.type == "none" else "proposal names other concepts"
            yield Discovered(candidate, None, "skipped", why, ())
            continue
        spans = _inferred([s for path in paths for t in path for s in _evidence(store, t, stale)[:2]])
        if not spans:
            yield Discovered(candidate, None, "skipped", "no current lesson states the path between them", ())
            continue
        now = clock.now()
        stored = propose(
            said.src,
            said.type,
            said.dst,
            context=("discover", now),
            origin="discover",
            confidence=said.confidence,
            evidence=spans,
            rationale=said.reasoning,
            created_at=now,
        )
        pid = stored.id
        proposed.add(frozenset((said.src, said.dst)))
        ops: list[Operation] = [
            # Judged on the pair having no proposal and no edge: another run may propose it meanwhile.
            ExpectUnclaimed(src=candidate.a, dst=candidate.c),
            proposal_op(stored),
            policy_decision(
                policy,
                None,
                pid,
                "discover",
                "propose",
                "proposed",
                said.reasoning,
                score=said.confidence,
                detail={"paths": [[list(t) for t in p] for p in paths]},
                prompt_version=PROMPT_VERSION,
                model=reply.model,
                decided_at=now,
            ),
        ]
        verdict = graph.rules.check(said.src, said.type, said.dst)
        triple = (said.src, said.type, said.dst)
        if not verdict.passed:
            why = f"rule {verdict.rule}: {verdict.reason}"
            ops.append(
                policy_decision(
                    policy,
                    None,
                    pid,
                    "rules",
                    verdict.rule,
                    "rejected",
                    why,
                    detail={},
                    prompt_version=PROMPT_VERSION,
                    model="none",
                    decided_at=clock.now(),
                )
            )
            yield Discovered(candidate, triple, "rejected", why, tuple(ops))
            continue
        settled = gate.settle(stored, confidence=said.confidence)
        last = next(op for op in reversed(settled.ops) if isinstance(op, RecordDecision))
        yield Discovered(candidate, triple, settled.state, last.rationale, (*ops, *settled.ops))


def _evidence(store: Store, triple: Triple, stale: set[str]) -> tuple[Span, ...]:
    """The grounding evidence of an active edge, read by its triple (an index lookup), without
    quotes of the ``stale`` lessons (versions a later one replaced, withdrawn lessons)."""
    edge = store.active_edge(*triple)
    return tuple(s for s in edge.grounding.evidence if s.lesson_id not in stale) if edge is not None else ()
