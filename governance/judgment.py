"""The gate: the judge, the decision table, then commit, reject, abstain, debate or human review.

:class:`Judgment` implements :class:`governance.stages.Gate`. For one reviewed proposal it

1. merges the evidence of earlier abstained or quarantined proposals of the same edge (the
   re-evaluation when new evidence arrives; a ``reevaluation`` decision closes the earlier ones);
2. asks the judge (:mod:`governance.claims`) for a score, with the evidence, the owners' votes and
   the supporting subgraph; an unusable or self-contradicting reply abstains, with the reason;
3. routes the score through the decision table (:mod:`governance.policy`): commit, reject,
   abstain, debate (:mod:`governance.debate`), or human review (after a debate pre-screen when
   ``policy.prescreen`` is ``debate``);
4. commits only what passes the grounding checks in code, whatever a model said: at least one
   evidence quote without instruction-like text, found in its lesson at its offsets, and the rule
   engine's check against the graph as it is now (edges committed earlier in the batch included);
   a claim to a concept from nowhere goes to a person, a mere co-mention of a hub stays open, and
   so does a ``related`` claim beside a typed edge (committing a typed edge closes the ``related``
   one beside it: :mod:`governance.subsumption`).

Every stage leaves a ``record_decision`` with the policy values and the table row in its detail;
the last one carries the proposal's state. A commit adds ``commit_edge`` with the full grounding
record. The caller writes :attr:`Settled.ops` in one batch, through ``journaled``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agents.debate import PROMPT_VERSION as DEBATE_PROMPT
from agents.judge import PROMPT_VERSION as JUDGE_PROMPT
from agents.judge import Claim
from agents.support import GraphView
from governance import claims as checks
from governance.claims import (
    JudgeResult,
    ask_judge,
    build_claim,
    current_spans,
    ground,
    merge_evidence,
    short_reason,
    strongest_first,
)
from governance.consistency import Contest, contest
from governance.graph_state import GraphState
from governance.policy import HUB, SUBSUMED, UNANCHORED, Case, Row, policy_decision, route
from governance.stages import Reviewed, Settled, Vote
from governance.subsumption import RELATED, PendingEdges, closing, related_beside, typed_between
from magg_kg.builders import commit_op, queue_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.llm.port import LLM
from magg_kg.operations import Operation, RecordDecision
from magg_kg.records import Proposal, ProposalState, Triple
from magg_kg.store import Store

__all__ = ["Judgment"]

_OPEN: tuple[ProposalState, ...] = ("abstained", "quarantined")
_POOLED: tuple[ProposalState, ...] = ("abstained", "quarantined", "invalidated")


class Judgment:
    """The judge gate over one graph state (see the module docstring).

    ``graph`` is the run's :class:`~governance.graph_state.GraphState` (read from the store when
    not given): the gate judges against it, checks a commit against its rules (``checked``; the
    judge-only ablation does not) and records the commit in it, so that later proposals of the
    batch see the edge. ``escalate=False`` is the judge-only mode: contested proposals abstain
    instead of going to a debate or a person.
    """

    def __init__(
        self,
        llm: LLM,
        policy: Policy,
        clock: Clock,
        store: Store,
        *,
        graph: GraphState | None = None,
        escalate: bool = True,
        checked: bool = True,
    ) -> None:
        self._llm = llm
        self._policy = policy
        self._clock = clock
        self._store = store
        self._graph = graph if graph is not None else GraphState.of_store(store)
        self._escalate = escalate
        self._checked = checked
        self._pool: dict[Triple, dict[str, tuple[Proposal, ProposalState]]] | None = None
        self._read: Sequence[Proposal] | None = None
        self._lessons: dict[str, str | None] = {}
        self._stale: set[str] = set()  # lessons replaced or withdrawn, read with the pool
        self._pending = PendingEdges(store)

    @property
    def graph(self) -> GraphState:
        return self._graph

    @property
    def _view(self) -> GraphView:
        return self._graph.view

    def attach(self, graph: GraphState, proposals: Sequence[Proposal] | None = None) -> None:
        """Judges against ``graph`` from now on (read afresh from the store, this process's writes
        and other writers' included), forgetting what was cached about the store; ``proposals``
        are the store's proposals as the caller read them with the graph (then they are not read
        again for the pool of open proposals)."""
        self._graph = graph
        self._pool = None
        self._read = proposals
        self._lessons = {}
        self._pending.forget()

    def _sync_concepts(self) -> None:
        """Adds the concepts written since the state was read (a caller that writes a batch's
        concepts before judging its proposals); the edges stay as this gate has seen them."""
        self._view.add_names(self._store.aliases())
        self._graph.add_concepts(self._store.concepts())

    def is_concept(self, concept_id: str) -> bool:
        return self._view.has_concept(concept_id)

    def __call__(self, reviewed: Reviewed) -> Settled:
        proposal, original = reviewed.proposal, reviewed.original
        changed = (original.src, original.type, original.dst) != (proposal.src, proposal.type, proposal.dst)
        return self.settle(
            proposal,
            votes=reviewed.votes,
            confidence=reviewed.confidence,
            original=(original.src, original.type, original.dst) if changed else None,
            domain=",".join(reviewed.domains),
        )

    def settle(
        self,
        proposal: Proposal,
        *,
        votes: Sequence[Vote] = (),
        confidence: float | None = None,
        original: Triple | None = None,
        domain: str = "",
    ) -> Settled:
        """Judges one proposal (that passed the rules) and settles it."""
        known = {proposal.src, proposal.dst}
        if not all(self._view.has_concept(c) for c in known):
            self._sync_concepts()
        triple = self._view.schema.canonical(proposal.src, proposal.type, proposal.dst)
        earlier = [p for p in self._pooled(triple) if p.id != proposal.id]
        pooled = merge_evidence([proposal.evidence, *(p.evidence for p in earlier)])
        evidence = current_spans(pooled, self._stale, proposal.lesson_id)
        claim = build_claim(
            self._view,
            proposal,
            evidence,
            votes=votes,
            confidence=proposal.confidence if confidence is None else confidence,
            original=original,
        )
        judged = self.judge(claim, domain=domain)
        base: dict[str, object] = dict(judged.detail())
        if earlier:
            base["merged_from"] = [p.id for p in earlier]
        ops: list[Operation] = []
        if judged.problem or judged.score is None:
            row = Row("unusable", "the judge's reply is unusable or contradicts itself", "abstain")
            ops.append(
                self._decide(
                    proposal.id,
                    "judge",
                    "void",
                    "abstained",
                    None,
                    f"abstained: {judged.problem}",
                    base,
                    row,
                    JUDGE_PROMPT,
                    judged.model,
                )
            )
            return self._finish(proposal, triple, earlier, "abstained", ops)
        score = judged.score
        ordered = self._ordered_already(proposal)
        core = self._graph.is_core(proposal.src) and self._graph.is_core(proposal.dst)
        row = route(self._policy, Case(score, proposal.type, proposal.origin, ordered, core))
        if not self._escalate and row.action in ("debate", "review"):
            row = Row("judge-only", "contested, and the gate runs in judge-only mode", "abstain")
        reason = judged.reasoning
        match row.action:
            case "commit":
                ops += self._commit(
                    claim, proposal, score, reason, "judge", "commit", base, row, JUDGE_PROMPT, judged.model
                )
            case "reject" | "abstain":
                state: ProposalState = "rejected" if row.action == "reject" else "abstained"
                said = (proposal.id, "judge", row.action, state, score, f"{row.name}: {reason}", base, row)
                ops.append(self._decide(*said, JUDGE_PROMPT, judged.model))
            case "review" if self._policy.prescreen == "judge":
                why = "structural claim (new prerequisite chain) for a person to decide; "
                why += f"pre-screen: judge {score:.2f}: {reason}"
                model = judged.model
                ops += self._quarantine(proposal, "review", score, why, base, row, model, stage="judge")
            case "debate" | "review":
                ops.append(
                    self._decide(
                        proposal.id,
                        "judge",
                        row.action,
                        "proposed",
                        score,
                        f"{row.name}: {reason}",
                        base,
                        row,
                        JUDGE_PROMPT,
                        judged.model,
                    )
                )
                debate = contest(
                    self._llm,
                    claim,
                    self._policy,
                    lambda c: c in known or self.is_concept(c),
                    judge=(score, reason),
                    domain=domain,
                )
                ops += self._after_debate(claim, proposal, debate, row)
        state = next(op.state_after for op in reversed(ops) if isinstance(op, RecordDecision))
        return self._finish(proposal, triple, earlier, state, ops)

    def judge(self, claim: Claim, *, domain: str = "", stage: str = "judge") -> JudgeResult:
        """Asks the judge about one claim and checks its reply."""
        return ask_judge(self._llm, self._policy, claim, domain=domain, stage=stage)

    # What happens after each kind of verdict.

    def _after_debate(self, claim: Claim, proposal: Proposal, debate: Contest, row: Row) -> list[Operation]:
        detail: dict[str, object] = {**debate.detail()}
        model = debate.model
        if not debate.valid or debate.score is None:
            why = f"quarantined: the {debate.decider}'s verdict is void: {debate.problem}"
            return self._quarantine(proposal, "void", debate.score, why, detail, row, model)
        score = debate.score
        summary = f"{debate.decider} {score:.2f}: {debate.reasoning}"
        how = (detail, row, DEBATE_PROMPT, model)
        if row.action == "review":
            if score < self._policy.reject_below:
                why = f"pre-screen rejects the structural claim: {summary}"
                return [self._decide(proposal.id, "debate", "reject", "rejected", score, why, *how)]
            why = f"structural claim (new prerequisite chain) for a person to decide; pre-screen: {summary}"
            return self._quarantine(proposal, "review", score, why, detail, row, model)
        if score >= self._policy.debate_commit_at:
            return self._commit(claim, proposal, score, debate.reasoning, "debate", "commit", *how)
        why = f"quarantined: {debate.decider} below {self._policy.debate_commit_at:.2f}: {summary}"
        return self._quarantine(proposal, "quarantine", score, why, detail, row, model)

    def _quarantine(
        self,
        proposal: Proposal,
        verdict: str,
        score: float | None,
        why: str,
        detail: dict[str, object],
        row: Row,
        model: str,
        stage: str = "debate",
    ) -> list[Operation]:
        prompt = DEBATE_PROMPT if stage == "debate" else JUDGE_PROMPT
        decision = self._decide(
            proposal.id, stage, verdict, "quarantined", score, why, detail, row, prompt, model
        )
        return [decision, queue_op(decision)]

    def _commit(
        self,
        claim: Claim,
        proposal: Proposal,
        score: float,
        reasoning: str,
        stage: str,
        verdict: str,
        detail: dict[str, object],
        row: Row,
        prompt_version: str,
        model: str,
    ) -> list[Operation]:
        spans, problem = ground(claim.evidence, self._lesson_text)
        if not problem and self._checked:
            checked = self._graph.rules.check(proposal.src, proposal.type, proposal.dst)
            if not checked.passed:
                problem = f"rule {checked.rule}: {checked.reason}"
        if not problem and not checks.anchored(claim):
            why = f"quarantined: {UNANCHORED.when} ({stage} says {verdict} at {score:.2f})"
            return self._quarantine(proposal, "unanchored", score, why, detail, UNANCHORED, model, stage)
        left = self._left_open(claim, proposal) if not problem else None
        if left is not None:
            why = f"left open, {left[1]} ({stage}: {verdict} at {score:.2f})"
            tail = (detail, left[0], prompt_version, model)
            return [self._decide(proposal.id, stage, left[0].name, "abstained", score, why, *tail)]
        if problem:
            said = f"{stage} says {verdict}: {reasoning}"
            how = (row, prompt_version, model)
            return [
                self._decide(proposal.id, stage, verdict, "proposed", score, said, detail, *how),
                self._decide(
                    proposal.id,
                    "grounding",
                    "refused",
                    "rejected",
                    score,
                    f"not committed: {problem}",
                    {},
                    *how,
                ),
            ]
        decision = self._decide(
            proposal.id, stage, verdict, "committed", score, reasoning, detail, row, prompt_version, model
        )
        src, type_, dst = self._view.schema.canonical(proposal.src, proposal.type, proposal.dst)
        where = f"lesson:{proposal.lesson_id}" if proposal.lesson_id else f"{proposal.origin}:{proposal.id}"
        commit = commit_op(
            decision,
            src,
            type_,
            dst,
            confidence=score,
            reason=short_reason(reasoning),
            source=f"{where} via {model} {stage}",
            evidence=strongest_first(claim, spans),
        )
        self._pending.committed((src, type_, dst), commit.version_id)
        related = related_beside(self._graph, (src, type_, dst))
        version = self._pending.version(related) if related is not None else None
        if related is None or version is None:
            return [decision, commit]
        self._graph.invalidate(*related)  # the decision that closes it comes first: the last is the claim's
        return [*closing(self._policy, related, version, (src, type_, dst), decision), decision, commit]

    def _left_open(self, claim: Claim, proposal: Proposal) -> tuple[Row, str] | None:
        """Why a claim that would commit stays open: a co-mention of a hub, or a ``related`` claim
        beside a typed edge (:mod:`governance.subsumption`)."""
        if hub := checks.hub_comention(claim):
            return HUB, f"a co-mention of a hub of the course: {hub}"
        typed = typed_between(self._graph, proposal.src, proposal.dst) if proposal.type == RELATED else None
        return (SUBSUMED, f"{' '.join(typed)} already joins them and says more") if typed else None

    def _lesson_text(self, lesson_id: str) -> str | None:
        if lesson_id not in self._lessons:
            lesson = self._store.lesson(lesson_id)
            self._lessons[lesson_id] = lesson.text if lesson else None
        return self._lessons[lesson_id]

    def _ordered_already(self, proposal: Proposal) -> bool:
        order = self._view.claim_order(proposal.src, proposal.type, proposal.dst)
        return order is not None and bool(self._view.order_paths(*order, limit=1))

    def _decide(
        self,
        proposal_id: str,
        stage: str,
        verdict: str,
        state: ProposalState,
        score: float | None,
        rationale: str,
        detail: Mapping[str, object],
        row: Row,
        prompt_version: str,
        model: str,
    ) -> RecordDecision:
        return policy_decision(
            self._policy,
            row,
            proposal_id,
            stage,
            verdict,
            state,
            rationale,
            score=score,
            detail=detail,
            prompt_version=prompt_version,
            model=model,
            decided_at=self._clock.now(),
        )

    # Bookkeeping: the graph state and the pool of open proposals.

    def _pooled(self, triple: Triple) -> list[Proposal]:
        if self._pool is None:
            self._pool = {}
            # Evidence held back as tainted (governance.taint) never joins another proposal's.
            if self._read is None:
                pooled = self._store.proposals_in(_POOLED, without_stage="taint")
            else:
                tainted = self._store.proposals_decided_at("taint")
                pooled = [p for p in self._read if p.state in _POOLED and p.id not in tainted]
            self._stale = self._store.stale_lessons()
            for proposal in pooled:
                key = self._view.schema.canonical(proposal.src, proposal.type, proposal.dst)
                self._pool.setdefault(key, {})[proposal.id] = (proposal, proposal.state)
        return [p for p, _ in self._pool.get(triple, {}).values()]

    def _finish(
        self,
        proposal: Proposal,
        triple: Triple,
        earlier: Sequence[Proposal],
        state: ProposalState,
        ops: list[Operation],
    ) -> Settled:
        assert self._pool is not None
        pool = self._pool.setdefault(triple, {})
        for old in earlier:
            pool.pop(old.id, None)
            if old.state in _OPEN:
                closed: ProposalState = state if state in ("committed", "rejected") else "invalidated"
                ops.append(
                    self._decide(
                        old.id,
                        "reevaluation",
                        "superseded",
                        closed,
                        None,
                        f"re-evaluated with new evidence as proposal {proposal.id}: {state}",
                        {"superseded_by": proposal.id},
                        Row("reevaluation", "", "abstain"),
                        JUDGE_PROMPT,
                        self._llm.model,
                    )
                )
        if state in _OPEN:
            pool[proposal.id] = (proposal.model_copy(update={"state": state}), state)
            for old in earlier:  # their evidence stays in the pool through the newest proposal
                pool[old.id] = (old.model_copy(update={"state": "invalidated"}), "invalidated")
        if state == "committed":
            self._graph.commit(*triple)
        return Settled(state=state, ops=tuple(ops))
