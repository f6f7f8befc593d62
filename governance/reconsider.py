"""Reconsideration: judge the open proposals again, against the graph as it stands now.

A proposal the judge scored in the middle band abstains: it stays open, and its evidence joins the
next proposal of the same edge. But the judge reads the graph and the lessons as they were when the
proposal came in: a claim from the first lesson of a course was judged against an empty graph, with
one lesson's co-occurrence behind it. Once the course is in, the same claim may stand on much more
(lessons that name both concepts sentence after sentence, neighbours its endpoints now share) or
much less (a prerequisite that would now close a cycle).

:func:`reconsider` takes the open (``abstained``) proposals, one edge at a time, oldest first: all
open proposals of one edge are one case, as their evidence is pooled. Each case passes the rule
engine again, then goes to the judge gate as a new proposal of origin ``recheck`` that carries the
case's evidence, in judge-only mode: a score at or above ``commit_at`` commits (the gate's checks
included, so an unanchored claim is quarantined for a person instead), one below ``reject_below``
rejects, and anything between stays as it was. Only a change is written: the new proposal, its
decisions, and the supersession of the open proposals it settles (closed, never deleted). A case
that still abstains writes nothing, so running reconsideration again on an unchanged graph changes
nothing. An edge committed during a run is seen by the edges judged after it, not by those judged
before it: another round judges those against it too. ``magg reconsider`` runs rounds while one
commits edges and leaves others open, :data:`ROUNDS` at most (on the d2l sections, read appendix
first, the first round committed 63 edges and rejected 88 of 501 open ones, the second 13 and 22 of
the 350 left). A case that now breaks a rule closes its open proposals as rejected, with the rule.

A proposal held for a person only because an endpoint related to nothing in the curriculum when it
came in (the judge said commit, the gate quarantined it as *unanchored*: a concept from nowhere
never gets a committed edge on one bare assertion) is open in the same way, once both endpoints
relate to the curriculum (:meth:`agents.support.GraphView.anchored`: an active edge, a lesson that
teaches or defines it, the lessons of two files naming it ...): the hold's one reason has lapsed,
and a person would be asked to decide what the gate now decides on its own. It is judged again with
the others (:func:`released_holds`); one whose endpoint still relates to nothing stays held, and so
does any other hold (a debate's, a tainted quote's, a person's decision since). On the d2l sections,
read appendix first, 25 of the 28 claims held so came to relate to the curriculum by the end of the
course ("DenseNet related ResNet": DenseNet was named by one section when the claim came in).

Each case's batch carries the state its open proposals were read in
(:class:`~magg_kg.operations.ExpectState`): when another run settled one of them meanwhile, the
store refuses the batch as settled, and nothing of it is written. A case left open writes no batch:
:func:`still_open` reads whether its proposals are open still, for a count of what is.

No owner review and no debate: the owners approved each of these proposals when it came in (it
reached the judge), and reconsideration spends one judge call per edge.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from agents.judge import PROMPT_VERSION
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.policy import UNANCHORED, policy_decision
from governance.review import out_of_course
from magg_kg.builders import proposal_op, propose
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.llm.port import LLM
from magg_kg.operations import ExpectState, Operation, RecordDecision
from magg_kg.records import Proposal, Triple
from magg_kg.store import Store

__all__ = ["ORIGINS", "ROUNDS", "Reconsidered", "open_cases", "reconsider", "released_holds", "still_open"]

ORIGINS = ("ingest", "discover", "recheck")
"""The origins of the proposals reconsidered: those grounded in lessons (not replays or manual ones)."""
ROUNDS = 3
"""The most rounds ``magg reconsider`` runs by default: while a round commits edges and leaves others
open, the next judges those against the edges it committed."""


@dataclass(frozen=True)
class Reconsidered:
    """One edge judged again: what became of it, the score, and the ops recording any change."""

    triple: Triple
    settled: tuple[str, ...]
    """The ids of the open proposals of the edge."""
    state: str
    """``committed``, ``rejected``, ``quarantined``, or ``open`` (unchanged, nothing written)."""
    score: float | None
    reason: str
    ops: tuple[Operation, ...]

    def summary(self) -> dict[str, object]:
        return {
            "edge": list(self.triple),
            "proposals": list(self.settled),
            "state": self.state,
            "score": self.score,
            "reason": self.reason,
        }


def open_cases(store: Store, graph: GraphState) -> list[tuple[Triple, list[Proposal]]]:
    """The open proposals, and the holds released (:func:`released_holds`), grounded in lessons the
    course has now (evidence held back as tainted left out, and so are a lesson version a later one
    replaced and a withdrawn lesson: the course no longer says what they quote), grouped by edge,
    each group oldest first, the groups in the order of their oldest proposal."""
    cases: dict[Triple, list[Proposal]] = {}
    stale = store.stale_lessons()
    opened = store.proposals_in(("abstained",), without_stage="taint")
    for proposal in (*opened, *released_holds(store, graph)):
        if (
            proposal.origin in ORIGINS
            and proposal.evidence
            and not out_of_course(store, proposal.evidence, stale)
        ):
            triple = graph.view.schema.canonical(proposal.src, proposal.type, proposal.dst)
            cases.setdefault(triple, []).append(proposal)
    for group in cases.values():
        group.sort(key=lambda p: (p.created_at, p.id))
    return sorted(cases.items(), key=lambda item: (item[1][0].created_at, item[1][0].id))


def released_holds(store: Store, graph: GraphState) -> list[Proposal]:
    """The proposals held for a person only as unanchored (their last decision) whose two endpoints
    both relate to the curriculum now (module docstring); none held at a taint."""
    view = graph.view
    released = []
    for proposal in store.proposals_in(("quarantined",), without_stage="taint"):
        if view.anchored(proposal.src) and view.anchored(proposal.dst):
            decisions = store.decisions(proposal.id)
            if decisions and decisions[-1].verdict == UNANCHORED.name:
                released.append(proposal)
    return released


def reconsider(
    store: Store, llm: LLM, policy: Policy, clock: Clock, limit: int | None = None
) -> Iterator[Reconsidered]:
    """Judges up to ``limit`` open edges again (all when None), one at a time, oldest first.

    Yields each result as soon as it is settled, so that the caller writes its ops (one batch each)
    before the next edge is judged; an edge committed here is seen by the edges judged after it.
    """
    graph = GraphState.of_store(store)
    gate = Judgment(llm, policy, clock, store, graph=graph, escalate=False)
    cases = open_cases(store, graph)
    for triple, group in cases if limit is None else cases[:limit]:
        verdict = graph.rules.check(*triple)
        if not verdict.passed:
            why = f"rule {verdict.rule}: {verdict.reason}"
            yield _broken(triple, group, why, verdict.rule, policy, clock)
            continue
        yield _judged(store, triple, group, gate, policy, clock)


def still_open(store: Store, found: Reconsidered) -> bool:
    """Whether the proposals of an edge judged to stay open are all open still (abstained, or held
    for a person): another writer (a lesson withdrawn, a person's decision, another run) may have
    settled them since they were read."""
    return all(
        (p := store.proposal(ident)) is not None and p.state in ("abstained", "quarantined")
        for ident in found.settled
    )


def _judged(
    store: Store, triple: Triple, group: Sequence[Proposal], gate: Judgment, policy: Policy, clock: Clock
) -> Reconsidered:
    latest = group[-1]
    now = clock.now()
    fresh = propose(
        *triple,
        context=("recheck", latest.id),  # never reconsidered again once written (not abstained)
        origin="recheck",
        confidence=latest.confidence,
        evidence=latest.evidence,
        created_at=now,
        lesson_id=latest.lesson_id,
        rationale=f"reconsidered against the graph as of {now}: {latest.rationale}",
    )
    settled = gate.settle(fresh, confidence=latest.confidence)
    last = next(
        op for op in reversed(settled.ops) if isinstance(op, RecordDecision) and op.proposal_id == fresh.id
    )
    ids = tuple(p.id for p in group)
    if settled.state == "abstained":
        return Reconsidered(triple, ids, "open", last.score, last.rationale, ())
    opened = policy_decision(
        policy,
        None,
        fresh.id,
        "reconsider",
        "propose",
        "proposed",
        f"open proposal(s) {', '.join(ids)} judged again against the graph as it stands{_released(group)}",
        score=latest.confidence,
        detail={"reconsidered": list(ids)},
        prompt_version=PROMPT_VERSION,
        model="none",
        decided_at=now,
    )
    # The gate may also close other open proposals of the edge (a quarantined one): as they are now.
    decided = {op.proposal_id for op in settled.ops if isinstance(op, RecordDecision) and op.proposal_id}
    others = [p for p in map(store.proposal, sorted(decided - {fresh.id, *ids})) if p is not None]
    ops = (*_still_open([*group, *others]), proposal_op(fresh), opened, *settled.ops)
    return Reconsidered(triple, ids, settled.state, last.score, last.rationale, ops)


def _released(group: Sequence[Proposal]) -> str:
    """What the reconsideration says of the holds of a case it judges again (:func:`released_holds`)."""
    held = [p.id for p in group if p.state == "quarantined"]
    if not held:
        return ""
    return f" ({', '.join(held)} held as unanchored: both concepts relate to the curriculum now)"


def _still_open(group: Sequence[Proposal]) -> tuple[ExpectState, ...]:
    """The batch's preconditions: each open proposal of the case is still in the state it was read
    in, or another run settled it meanwhile and the store refuses the batch as settled."""
    return tuple(ExpectState(proposal_id=p.id, state=p.state) for p in group)


def _broken(
    triple: Triple, group: Sequence[Proposal], why: str, rule: str, policy: Policy, clock: Clock
) -> Reconsidered:
    now = clock.now()
    ops = tuple(
        policy_decision(
            policy,
            None,
            proposal.id,
            "rules",
            rule,
            "rejected",
            f"reconsidered: {why}",
            detail={},
            prompt_version=PROMPT_VERSION,
            model="none",
            decided_at=now,
        )
        for proposal in group
    )
    return Reconsidered(
        triple, tuple(p.id for p in group), "rejected", None, why, (*_still_open(group), *ops)
    )
