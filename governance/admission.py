"""Admission: rules, owner review, deliberation and the gate, for each proposal of a batch.

For each proposal, in the order given (callers sort them), the stages run and each records a
decision (stage, verdict, score, rationale, detail with votes and cost, versions):

1. ``rules`` - the rule engine, before any model call; a refusal rejects, at no cost;
2. ``review`` - the owners of the endpoints' domains (both, for a cross-domain proposal) each
   approve, revise or reject; a rejection for an instruction, missing support or a contradiction
   is a veto; a revision (the best-scoring owner's) becomes a new proposal that goes through the
   rules again, and the original is closed with verdict ``revise``;
3. ``deliberation`` - the confidence bands and, when uncertain or contested, the owners' votes on
   the blackboard (:mod:`governance.deliberation`);
4. the gate (judge, debate, human review; :class:`governance.stages.Gate`) when one is set; without
   one a proposal that survives stays ``proposed``.

``flat`` mode is the ablation: a proposal that passes the schema checks is committed at once.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from agents import owner as owner_role
from agents.cost import Cost, ask
from agents.owner import OwnerReview
from blackboard.board import Board
from governance.briefing import judge_view, owner_payload
from governance.conflict import CONFLICT_RULES, Contest
from governance.deliberation import PASS_AT, Ballot, confidence_band, hold_vote, thresholds, vote_weight
from governance.domains import Layout
from governance.graph_state import GraphState
from governance.stages import Gate, Reviewed, Vote
from governance.writes import flat_commit, revision_of
from magg_kg.builders import decision_op, proposal_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.llm.bundle import each
from magg_kg.llm.port import LLM, Failure, Prompt
from magg_kg.operations import Operation, RecordDecision
from magg_kg.records import Proposal, ProposalState

__all__ = ["SCHEMA_RULES", "Admission", "AdmissionContext", "admit"]

SCHEMA_RULES = frozenset(
    {"edge-type-known", "no-self-loop", "endpoint-exists", "endpoint-typed", "endpoint-types"}
)
RULES_VERSION = "rules-1"
VETO = frozenset({"instruction", "unsupported", "contradiction"})


@dataclass
class AdmissionContext:
    """What admission runs with. ``graph`` is the run's graph state: the rules, the owners' memory
    and the judge read it, and each commit is recorded in it once (by the gate, which must judge
    against this same state, or by flat admission)."""

    llm: LLM
    graph: GraphState
    layout: Layout
    policy: Policy
    clock: Clock
    names: Callable[[str], list[str]]
    gate: Gate | None = None
    flat: bool = False
    contest: Contest | None = None
    """Weighs a proposal the rules refuse for a conflict against the active edges in conflict
    (:func:`governance.conflict.settle_conflict`): the operations that quarantine it, if any."""

    def __post_init__(self) -> None:
        if self.gate is not None and self.gate.graph is not self.graph:
            raise ValueError("the gate must judge against the admission's own graph state")


@dataclass
class Admission:
    ops: list[Operation] = field(default_factory=list)
    states: dict[str, ProposalState] = field(default_factory=dict)
    cost: dict[str, Cost] = field(default_factory=dict)


class _Run:
    """The stages for one batch of proposals; collects operations and the states they leave."""

    def __init__(self, ctx: AdmissionContext, batch_id: str) -> None:
        self.ctx = ctx
        self.out = Admission()
        self.board = Board(batch_id)
        self.owners = ctx.layout.owners()
        self.shown: dict[str, dict[str, object]] = {}  # the judge's view, per proposal id

    def decide(
        self,
        proposal: Proposal,
        stage: str,
        verdict: str,
        state: ProposalState,
        rationale: str,
        *,
        score: float | None = None,
        detail: dict[str, object] | None = None,
        by_model: bool = False,
    ) -> RecordDecision:
        prompt_version = owner_role.PROMPT_VERSION if by_model else RULES_VERSION
        model = self.ctx.llm.model if by_model else "rules"
        at = self.ctx.clock.now()
        decision = decision_op(
            proposal.id,
            stage,
            verdict,
            state,
            rationale,
            score=None if score is None else round(min(1.0, max(0.0, score)), 6),
            detail=detail or {},
            policy_version=self.ctx.policy.version,
            prompt_version=prompt_version,
            model=model,
            decided_at=at,
        )
        self.out.ops.append(decision)
        self.out.states[proposal.id] = state
        return decision

    def cost(self, stage: str) -> Cost:
        return self.out.cost.setdefault(stage, Cost())

    def run(self, proposal: Proposal) -> None:
        self.out.ops.append(proposal_op(proposal))
        decisions: list[RecordDecision] = []
        verdict = self.ctx.graph.rules.check(proposal.src, proposal.type, proposal.dst)
        if self.ctx.flat:
            self._flat(
                proposal, verdict.passed or verdict.rule not in SCHEMA_RULES, verdict.rule, verdict.reason
            )
            return
        if not verdict.passed and self.ctx.contest is not None and verdict.rule in CONFLICT_RULES:
            held = self.ctx.contest(proposal, self.ctx.graph.rules.conflicting(*verdict.triple))
            if held:  # it outscores an edge it conflicts with: a person settles the conflict
                self.out.ops.extend(held)
                self.out.states[proposal.id] = "quarantined"
                self.ctx.graph.memory.claims[(proposal.src, proposal.type, proposal.dst)] -= 1
                return
        if not verdict.passed:
            self.decide(
                proposal,
                "rules",
                f"fail:{verdict.rule}",
                "rejected",
                verdict.reason,
                detail={"rule": verdict.rule, "cost": Cost().as_dict()},
            )
            self.ctx.graph.memory.claims[(proposal.src, proposal.type, proposal.dst)] -= 1
            return
        decisions.append(
            self.decide(
                proposal, "rules", "pass", "proposed", "every rule holds", detail={"cost": Cost().as_dict()}
            )
        )
        claims = self.ctx.graph.memory.claims
        reviewed = self._review(proposal, decisions)
        if reviewed is None:
            claims[(proposal.src, proposal.type, proposal.dst)] -= 1
            return
        proposal, original, votes, contested, confidence = reviewed
        if proposal is not original:
            claims[(original.src, original.type, original.dst)] -= 1
            claims[(proposal.src, proposal.type, proposal.dst)] += 1
        passed = self._deliberate(proposal, confidence, votes, contested, decisions, proposal is not original)
        if not passed:
            claims[(proposal.src, proposal.type, proposal.dst)] -= 1
            return
        domains = tuple(sorted({v.domain for v in votes}))
        if self.ctx.gate is None:
            return
        settled = self.ctx.gate(
            Reviewed(proposal, original, confidence, tuple(votes), domains, tuple(decisions))
        )
        self.out.ops.extend(settled.ops)
        self.out.states[proposal.id] = settled.state

    def _flat(self, proposal: Proposal, schema_ok: bool, rule: str, reason: str) -> None:
        triple = self.ctx.graph.schema.canonical(proposal.src, proposal.type, proposal.dst)
        if not schema_ok or self.ctx.graph.is_active(*triple):
            why = reason or "already active"
            self.decide(proposal, "flat", f"fail:{rule or 'no-duplicate'}", "rejected", why)
            return
        decision = self.decide(
            proposal,
            "flat",
            "commit",
            "committed",
            "flat admission: schema checks only",
            score=proposal.confidence,
        )
        self.out.ops.append(flat_commit(proposal, decision, self.ctx.llm.model))
        self.ctx.graph.commit(*triple)

    def _payload(self, proposal: Proposal, domain: str) -> dict[str, object]:
        ctx = self.ctx
        if proposal.id not in self.shown:  # the graph does not change while one proposal is reviewed
            view = ctx.graph.view if ctx.gate is not None else None
            self.shown[proposal.id] = judge_view(proposal, view, ctx.policy)
        return owner_payload(
            proposal,
            domain,
            layout=ctx.layout,
            support=ctx.graph.memory,
            names=ctx.names,
            schema=ctx.graph.schema,
            shown=self.shown[proposal.id],
        )

    def _domains(self, proposal: Proposal) -> list[tuple[str, int]]:
        owned: Counter[str] = Counter()
        for concept in (proposal.src, proposal.dst):
            for domain in self.owners.get(concept, ("unowned",)):
                owned[domain] += 1
        return sorted(owned.items())

    def _review(
        self, proposal: Proposal, decisions: list[RecordDecision]
    ) -> tuple[Proposal, Proposal, list[Vote], bool, float] | None:
        cost = Cost()
        votes: list[Vote] = []
        reviews: list[tuple[str, OwnerReview]] = []
        quotes = json.dumps([span.quote for span in proposal.evidence], ensure_ascii=False)
        for domain, owned in self._domains(proposal):
            prompt = Prompt(
                task=owner_role.REVIEW_TASK,
                stage="review",
                agent=f"owner:{domain}",
                domain=domain,
                system=owner_role.REVIEW_SYSTEM,
                data=quotes,
                payload=self._payload(proposal, domain),
                prompt_version=owner_role.PROMPT_VERSION,
            )
            reply = ask(self.ctx.llm, prompt, OwnerReview, cost)
            if isinstance(reply, Failure):
                continue
            reviews.append((domain, reply.value))
            votes.append(
                Vote(
                    domain,
                    f"owner:{domain}",
                    reply.value.verdict,
                    vote_weight(owned),
                    reply.value.score,
                    reply.value.reasoning,
                    reply.value.vote,
                )
            )
        self.cost("review").add(cost)
        detail: dict[str, object] = {"votes": [v.__dict__ for v in votes], "cost": cost.as_dict()}
        if not reviews:
            self.decide(
                proposal,
                "review",
                "failed",
                "abstained",
                "no owner could review it (model failure)",
                by_model=True,
            )
            return None
        score = sum(v.score * v.weight for v in votes) / sum(v.weight for v in votes)
        vetoes = [(d, r) for d, r in reviews if r.verdict == "reject" and r.concern in VETO]
        if vetoes or all(r.verdict == "reject" for _, r in reviews):
            domain, review = (vetoes or reviews)[0]
            self.decide(
                proposal,
                "review",
                "reject",
                "rejected",
                f"owner:{domain}: {review.reasoning}",
                score=score,
                by_model=True,
            )
            return None
        revisions = sorted(
            (r for _, r in reviews if r.verdict == "revise"), key=lambda r: (-r.score, r.type, r.src)
        )
        contested = any(r.verdict == "reject" for _, r in reviews)
        if not revisions:
            decisions.append(
                self.decide(
                    proposal,
                    "review",
                    "approve",
                    "proposed",
                    "; ".join(f"owner:{d}: {r.reasoning}" for d, r in reviews),
                    score=score,
                    by_model=True,
                )
            )
            return proposal, proposal, votes, contested, score
        revision = revisions[0]
        revised = revision_of(proposal, (revision.src, revision.type, revision.dst), revision.reasoning)
        detail["revised_into"] = revised.id
        self.decide(
            proposal,
            "review",
            "revise",
            "rejected",
            f"revised into {revised.id}: {revision.reasoning}",
            score=score,
            by_model=True,
        )
        self.out.ops.append(proposal_op(revised))
        decisions.clear()
        verdict = self.ctx.graph.rules.check(revised.src, revised.type, revised.dst)
        if not verdict.passed:
            self.decide(
                revised,
                "rules",
                f"fail:{verdict.rule}",
                "rejected",
                verdict.reason,
                detail={"rule": verdict.rule, "cost": Cost().as_dict()},
            )
            return None
        decisions.append(
            self.decide(
                revised, "rules", "pass", "proposed", "every rule holds", detail={"cost": Cost().as_dict()}
            )
        )
        revised_detail = {
            **detail,
            "original": proposal.id,
            "original_triple": [proposal.src, proposal.type, proposal.dst],
            "cost": Cost().as_dict(),
        }
        decisions.append(
            self.decide(
                revised,
                "review",
                "revised",
                "proposed",
                revision.reasoning,
                score=revision.score,
                detail=revised_detail,
                by_model=True,
            )
        )
        return revised, proposal, votes, contested, revision.score

    def _deliberate(
        self,
        proposal: Proposal,
        confidence: float,
        votes: list[Vote],
        contested: bool,
        decisions: list[RecordDecision],
        revised: bool,
    ) -> bool:
        path = confidence_band(confidence, self.ctx.policy, contested=contested)
        detail: dict[str, object] = {
            "band": path,
            "thresholds": thresholds(self.ctx.policy),
            "contested": contested,
        }
        if path == "reject":
            detail["cost"] = Cost().as_dict()
            self.decide(
                proposal,
                "deliberation",
                "reject-without-vote",
                "rejected",
                f"confidence {confidence:.2f} is below {self.ctx.policy.deliberate_from}",
                score=confidence,
                detail=detail,
                by_model=True,
            )
            return False
        if path == "pass":
            detail["cost"] = Cost().as_dict()
            decisions.append(
                self.decide(
                    proposal,
                    "deliberation",
                    "pass-without-vote",
                    "proposed",
                    f"confidence {confidence:.2f} is at least {self.ctx.policy.deliberate_below}",
                    score=confidence,
                    detail=detail,
                    by_model=True,
                )
            )
            return True
        cost = Cost()
        by_domain = {v.domain: v for v in votes}
        ballots: list[tuple[str, int, Ballot]] = []
        for domain, owned in self._domains(proposal):
            review = by_domain.get(domain)
            if review is not None and review.ballot is not None and not revised:
                ballots.append((domain, owned, (review.ballot, review.rationale)))  # given with the review
                continue
            payload = self._payload(proposal, domain)
            payload["proposal"] = {**payload["proposal"], "confidence": confidence}  # type: ignore[dict-item]
            payload["review_verdict"] = review.verdict if review else ""
            payload["review_score"] = review.score if review else None
            ballots.append((domain, owned, payload))
        posted = hold_vote(self.board, proposal, confidence, ballots, self.ctx.llm, cost)
        self.cost("deliberation").add(cost)
        result = self.board.tally(proposal.id)
        detail.update({"votes": posted, "tally": result.score, "cost": cost.as_dict()})
        if result.score is None:
            self.decide(
                proposal,
                "deliberation",
                "no-vote",
                "abstained",
                "no owner could vote (model failure)",
                detail=detail,
                by_model=True,
            )
            return False
        passed = result.score >= PASS_AT
        decision = self.decide(
            proposal,
            "deliberation",
            "vote-pass" if passed else "vote-reject",
            "proposed" if passed else "rejected",
            f"weighted tally {result.score:.2f} of {len(posted)} vote(s) "
            f"{'reaches' if passed else 'is below'} {PASS_AT}",
            score=result.score,
            detail=detail,
            by_model=True,
        )
        if passed:
            decisions.append(decision)
        return passed


def admit(proposals: Sequence[Proposal], ctx: AdmissionContext, batch_id: str) -> Admission:
    """Runs every proposal through the stages, in the order given; returns the operations to write.

    With a :class:`~magg_kg.llm.bundle.Bundler` the proposals advance together, one at a time, and
    the calls they make at the same stage go to each owner (and to the judge) in bundles.
    """
    run = _Run(ctx, batch_id)
    each(ctx.llm, proposals, run.run)
    return run.out
