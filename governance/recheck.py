"""Re-check: re-judge the most recently recorded active edges; invalidate those now below the bar.

An edge a person committed (approved, restored or reinstated: its decision's model is ``human``) is
never re-judged: a person's decision stands until a person reverses it.

Each edge is judged as if it were proposed today, against its own grounding evidence and the graph
without it (an edge does not support itself); no owner votes. An edge that now scores below
``policy.reject_below`` is invalidated: its version is closed (``invalid_at``, ``expired_at``,
``invalidated_by``), never deleted. Only the edge judged is touched. Every edge judged leaves a
``recheck`` decision (keep, invalidate, or void when the judge's reply is unusable, which keeps the
edge), each in a batch of its own, so a batch refused because another process changed that edge
meanwhile costs only that edge; running re-check again finishes the work. Each batch expects the
edge version still active (:class:`~magg_kg.operations.ExpectActive`): when another writer closed
it since it was read (another re-check, a person), the store refuses the batch as settled, and
neither a second closing nor a decision on the closed version is written.

The judge sees the neighbourhood of the edges judged (:mod:`agents.neighbourhood`): their paths,
neighbours and degrees as in the whole graph, read with indexed queries, so a re-check costs the
same on a graph of a thousand concepts or a hundred thousand.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from agents.judge import PROMPT_VERSION
from agents.neighbourhood import neighbourhood_view
from agents.support import GraphView
from governance.claims import build_claim
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.policy import Row, policy_decision
from magg_kg.builders import invalidation_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.llm.port import LLM
from magg_kg.operations import ExpectActive, Operation
from magg_kg.records import EdgeVersion, Proposal, ProposalState
from magg_kg.store import Store

__all__ = ["Rechecked", "edge_as_proposal", "recheck"]

_ROW = Row("recheck", "re-judged after the fact: score < reject_below invalidates", "reject")


@dataclass(frozen=True)
class Rechecked:
    """One edge re-judged: the verdict (keep, invalidate, void) and the ops recording it."""

    version_id: str
    src: str
    type: str
    dst: str
    score: float | None
    verdict: str
    reason: str
    ops: tuple[Operation, ...]

    def summary(self) -> dict[str, object]:
        return {
            "version_id": self.version_id,
            "src": self.src,
            "type": self.type,
            "dst": self.dst,
            "score": self.score,
            "verdict": self.verdict,
            "reason": self.reason,
        }


def recheck(store: Store, llm: LLM, policy: Policy, clock: Clock, limit: int) -> Iterator[Rechecked]:
    """Re-judges up to ``limit`` recently recorded active edges, newest first, one at a time.

    Yields each result as soon as it is judged, so that the caller writes its batch before the
    next edge is judged.
    """
    edges = store.recent_edges(limit)
    graph = GraphState(neighbourhood_view(store, {e.src for e in edges} | {e.dst for e in edges}))
    judgment = Judgment(llm, policy, clock, store, graph=graph)
    for edge in edges:
        graph.invalidate(edge.src, edge.type, edge.dst)  # an edge is judged as if it were new
        try:
            result = _rejudge(judgment, graph.view, edge, policy, clock, llm.model)
        finally:
            graph.commit(edge.src, edge.type, edge.dst)
        if result.verdict == "invalidate":
            graph.invalidate(edge.src, edge.type, edge.dst)
        yield result


def edge_as_proposal(edge: EdgeVersion) -> Proposal:
    """An active edge as the proposal the judge is shown when it judges the edge again: its
    grounding evidence and confidence, origin ``recheck`` (:mod:`governance.conflict` too)."""
    return Proposal(
        id=edge.version_id,
        src=edge.src,
        type=edge.type,
        dst=edge.dst,
        confidence=edge.grounding.confidence,
        evidence=edge.grounding.evidence,
        origin="recheck",
        created_at=edge.recorded_at,
    )


def _rejudge(
    judgment: Judgment, view: GraphView, edge: EdgeVersion, policy: Policy, clock: Clock, model: str
) -> Rechecked:
    claim = build_claim(view, edge_as_proposal(edge), edge.grounding.evidence)
    judged = judgment.judge(claim, stage="recheck")
    detail: dict[str, object] = {
        "version_id": edge.version_id,
        "edge_id": edge.edge_id,
        "edge": [edge.src, edge.type, edge.dst],
        "committed_at_confidence": edge.grounding.confidence,
        **judged.detail(),
    }
    now = clock.now()
    state: ProposalState
    if judged.problem or judged.score is None:
        verdict, state, reason = "void", "committed", f"kept: the judge's reply is unusable: {judged.problem}"
    elif judged.score < policy.reject_below:
        verdict, state = "invalidate", "invalidated"
        score = (
            f"{judged.score:.2f}" if round(judged.score, 2) < policy.reject_below else f"{judged.score:.4f}"
        )
        reason = f"now scores {score} < {policy.reject_below:.2f}: {judged.reasoning}"
    else:
        verdict, state = "keep", "committed"
        reason = f"still holds at {judged.score:.2f}: {judged.reasoning}"
    decision = policy_decision(
        policy,
        _ROW,
        None,
        "recheck",
        verdict,
        state,
        reason,
        subject=edge.version_id,
        score=judged.score,
        detail=detail,
        prompt_version=PROMPT_VERSION,
        model=judged.model or model,
        decided_at=now,
    )
    # Judged on the version being active: another writer may close it meanwhile.
    ops: list[Operation] = [ExpectActive(version_id=edge.version_id), decision]
    if verdict == "invalidate":
        ops.append(invalidation_op(edge.version_id, decision))
    return Rechecked(
        edge.version_id, edge.src, edge.type, edge.dst, judged.score, verdict, reason, tuple(ops)
    )
