"""The gated configurations of the replay ablation: judge only, and full governance.

``judge``
    the judge gate (:class:`governance.judgment.Judgment`) in judge-only mode: no rule engine, no
    owners, no deliberation, no debate, no person. A candidate must be well formed to be judged
    (an edge type of the vocabulary, two distinct concepts of the graph: what the store needs to
    hold an edge at all); one that is not is kept out without a model call. A score at or above
    the commit bar commits (through the gate's grounding checks); below the reject bar it is
    rejected; in between it abstains. A candidate whose edge is already active counts as admitted.
``full``
    governed admission exactly as ingestion runs it (:func:`governance.admission.admit`): the rule
    engine, owner review by the domains' owners, deliberation, then the judge gate with debate and
    human review. Each candidate is admitted alone, in its own batch, with the LLM usage it
    caused; owners see the active facts only (no standing claims from other candidates). The
    taint rule (:mod:`governance.taint`) stands before the gate: a candidate any of whose evidence
    texts holds instruction-like text is quarantined for a person, never committed.

For a candidate that an owner revised, the candidate's own triple was not admitted (its proposal
is closed with verdict ``revise``); the outcome's stage says what became of the revision.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.support import GraphView
from governance.admission import AdmissionContext, admit
from governance.conflict import contest_for
from governance.evaluation.ablation_bench import Bench, Outcome, replay_proposal, write
from governance.evaluation.replay import Candidate
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.taint import Quarantine
from magg_kg.builders import proposal_op
from magg_kg.operations import Operation, RecordDecision

__all__ = ["run_full", "run_judge"]


def _last_stage(ops: Sequence[Operation], proposal_id: str) -> tuple[str, str]:
    """The stage and verdict of the last decision recorded for a proposal."""
    for op in reversed(ops):
        if isinstance(op, RecordDecision) and op.proposal_id == proposal_id:
            return op.stage, op.verdict
    return "none", ""


def _malformed(bench: Bench, view: GraphView, candidate: Candidate) -> str:
    if candidate.type not in bench.schema.edge_types:
        return f"{candidate.type!r} is not an edge type of the vocabulary"
    if candidate.src == candidate.dst:
        return "a self-loop"
    unknown = [tag for tag in (candidate.src, candidate.dst) if not view.has_concept(tag)]
    return f"unknown concept {' and '.join(unknown)}" if unknown else ""


def _graph(bench: Bench) -> GraphState:
    """The seeded store's graph, with the teaching orders of the data set's textbooks."""
    graph = GraphState.of_store(bench.store, bench.schema)
    for order in bench.dataset.courses:
        graph.view.teaching.add_course(order)
    return graph


def run_judge(bench: Bench, candidates: Sequence[Candidate]) -> list[Outcome]:
    graph = _graph(bench)
    view = graph.view
    # The judge alone: no escalation, and a commit is not checked against the rules.
    gate = Judgment(
        bench.llm, bench.policy, bench.clock, bench.store, graph=graph, escalate=False, checked=False
    )
    outcomes = []
    for index, candidate in enumerate(candidates):
        proposal = replay_proposal(candidate, index, bench)
        problem = _malformed(bench, view, candidate)
        if problem:
            outcomes.append(Outcome("rejected", "malformed", False, problem))
            continue
        if view.is_active(candidate.src, candidate.type, candidate.dst):
            outcomes.append(Outcome("committed", "already-active", True))
            continue
        settled = gate.settle(proposal, confidence=candidate.confidence)
        stage, verdict = _last_stage(settled.ops, proposal.id)
        write(bench, f"judge-{index}", [proposal_op(proposal), *settled.ops, *bench.usage.drain()])
        outcomes.append(Outcome(settled.state, stage, settled.state == "committed", verdict))
    return outcomes


def run_full(bench: Bench, candidates: Sequence[Candidate], group: int = 1) -> list[Outcome]:
    """Full governance; ``group`` candidates are admitted together in one batch, as the proposals
    of one lesson are (with a :class:`~magg_kg.llm.bundle.Bundler`, their calls go in bundles)."""
    graph = _graph(bench)
    gate = Judgment(bench.llm, bench.policy, bench.clock, bench.store, graph=graph)
    quarantine = Quarantine(gate, bench.policy, bench.clock, lambda _: None)
    context = AdmissionContext(
        llm=bench.llm,
        graph=graph,
        layout=bench.layout,
        policy=bench.policy,
        clock=bench.clock,
        names=graph.view.names,
        gate=quarantine,
        contest=contest_for(gate, quarantine, bench.store, bench.policy, bench.clock),
    )
    outcomes = []
    for first in range(0, len(candidates), max(1, group)):
        members = candidates[first : first + max(1, group)]
        proposals = [replay_proposal(c, first + k, bench) for k, c in enumerate(members)]
        result = admit(proposals, context, f"replay-{first}")
        revisions = _revisions(result.ops)
        for proposal in proposals:
            state = result.states.get(proposal.id, "proposed")
            stage, verdict = _last_stage(result.ops, proposal.id)
            if verdict == "revise":
                revised = revisions.get(proposal.id)
                after = result.states.get(revised, "proposed") if revised else "proposed"
                stage, verdict = f"revised({after})", "revise"
            outcomes.append(Outcome(state, stage, state == "committed", verdict))
        write(bench, f"full-{first}", [*result.ops, *bench.usage.drain()])
    return outcomes


def _revisions(ops: Sequence[Operation]) -> dict[str, str]:
    """Original proposal id -> the id of its revision, from the revisions' review decisions."""
    return {
        str(op.detail["original"]): op.proposal_id
        for op in ops
        if isinstance(op, RecordDecision) and op.verdict == "revised" and op.proposal_id
    }
