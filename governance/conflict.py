"""Conflicts: a proposal against the active edges it contradicts or would close a cycle with.

The rule engine refuses an edge that contradicts an active edge (its reverse, or the other
learning order) or that would close a cycle with active edges. Before, the refusal was the end of
it, silently: the edge admitted first held however thinly it was supported, and every later claim
against it was refused. But a cycle means that one of its edges is wrong, and the first admitted
need not be the one: an early lesson may say "transformers are a prerequisite for tokenization"
while the course teaches tokenization first and a later lesson states "tokenization and word
embeddings are prerequisites for the transformer".

:func:`settle_conflict` weighs the proposal against the edges in conflict on neutral ground: each
is judged against the graph without any of them, so that none is scored down for the conflict
itself (the active edges on their own grounding evidence, as :mod:`governance.recheck` judges
them; the proposal on its evidence). When the proposal scores ``commit_at`` or more and above the
weakest of those edges, the conflict is a person's to settle: the proposal is quarantined with a
``conflict`` decision that names the weakest edge and both scores, and ``magg review approve``
closes that edge (invalidated, never deleted) before it commits the proposal. Otherwise the rule
refuses the proposal, as before. Nothing is invalidated without a person: on Metacademy's replay
the judge scored two established prerequisites (``gradient descent`` before ``stochastic gradient
descent`` among them) below the contradictions stated against them, so displacing the weaker edge
automatically would have traded true edges for false ones. Ties keep the edge; only edges already
in the store are weighed; the caller lets no tainted proposal contest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agents.judge import PROMPT_VERSION, Claim
from governance.claims import build_claim
from governance.judgment import Judgment
from governance.policy import Row, policy_decision
from governance.recheck import edge_as_proposal
from governance.taint import Quarantine, taint
from magg_kg.builders import queue_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.operations import Operation
from magg_kg.records import Proposal, Triple
from magg_kg.store import Store

__all__ = ["CONFLICT_RULES", "Contest", "contest_for", "settle_conflict"]

CONFLICT_RULES = frozenset({"no-contradiction", "acyclic"})
"""The rules whose refusal is a conflict with active edges, which :func:`settle_conflict` weighs."""

_ROW = Row("conflict", "a proposal at commit_at or more outscores an active edge it conflicts with", "review")


Contest = Callable[[Proposal, Sequence[Triple]], list[Operation]]
"""Weighs a proposal against the active edges in conflict with it: the operations that follow."""


def contest_for(
    gate: object, quarantine: Quarantine, store: Store, policy: Policy, clock: Clock
) -> Contest | None:
    """How a lesson's admission weighs conflicts: by the judgment gate behind ``quarantine``, for a
    proposal whose evidence is not tainted; None when the gate is not the judgment (nothing is weighed)."""
    if not isinstance(gate, Judgment):
        return None

    def contest(proposal: Proposal, triples: Sequence[Triple]) -> list[Operation]:
        if taint(proposal.evidence, quarantine.scan_of):
            return []
        return settle_conflict(gate, store, policy, clock, proposal, triples)

    return contest


def settle_conflict(
    judgment: Judgment,
    store: Store,
    policy: Policy,
    clock: Clock,
    proposal: Proposal,
    triples: Sequence[Triple],
) -> list[Operation]:
    """The operations that quarantine ``proposal`` for a person when it outscores the weakest of
    the active ``triples`` it conflicts with (as the rule engine named them); none when they hold."""
    edges = [store.active_edge(*triple) for triple in triples]
    known = [edge for edge in edges if edge is not None]
    if not known or len(known) < len(edges):
        return []
    graph = judgment.graph
    # The claims are read from the graph without the edges in conflict, and the graph is whole
    # again before the judge is asked: other proposals of the batch go on while a call waits.
    for edge in known:
        graph.invalidate(edge.src, edge.type, edge.dst)
    try:
        claim = build_claim(graph.view, proposal, proposal.evidence)
        held = [build_claim(graph.view, edge_as_proposal(edge), edge.grounding.evidence) for edge in known]
    finally:
        for edge in known:
            graph.commit(edge.src, edge.type, edge.dst)
    claimed = judgment.judge(claim, stage="conflict")
    if claimed.problem or claimed.score is None or claimed.score < policy.commit_at:
        return []
    scored = [(_score(judgment, one), edge) for one, edge in zip(held, known, strict=True)]
    score, weakest = min(scored, key=lambda item: (item[0], item[1].recorded_at))
    if score >= claimed.score or not graph.is_active(weakest.src, weakest.type, weakest.dst):
        return []
    reason = (
        f"quarantined for a person: conflicts with the active edge {weakest.src} {weakest.type} "
        f"{weakest.dst}, which scores {score:.2f} against this proposal's {claimed.score:.2f}; "
        "approving it closes that edge"
    )
    decision = policy_decision(
        policy,
        _ROW,
        proposal.id,
        "conflict",
        "quarantine",
        "quarantined",
        reason,
        score=claimed.score,
        detail={
            "weakest": weakest.version_id,
            "weakest_edge": [weakest.src, weakest.type, weakest.dst],
            "weakest_score": score,
            "in_conflict": [[e.src, e.type, e.dst] for e in known],
        },
        prompt_version=PROMPT_VERSION,
        model=claimed.model,
        decided_at=clock.now(),
    )
    return [decision, queue_op(decision)]


def _score(judgment: Judgment, claim: Claim) -> float:
    """The judge's score of an edge in conflict (1.0, so that it holds, when the reply is unusable)."""
    judged = judgment.judge(claim, stage="conflict")
    return 1.0 if judged.problem or judged.score is None else judged.score
