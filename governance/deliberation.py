"""Deliberation: confidence bands, and owners' weighted votes on the blackboard when uncertain.

After MAGG's DeliberationCoordinator: a proposal whose confidence is below
``policy.deliberate_from`` (0.35) is rejected without a vote; from ``policy.deliberate_below``
(0.70) on it passes without a vote; in between - or whenever its owners disagreed in review - the
owners post votes (weight: the share of the proposal's endpoints the owner's domain owns) and the
tally decides: it passes at :data:`PASS_AT` (a weighted majority) or above. The thresholds are
recorded with every deliberation decision.
"""

from __future__ import annotations

import json
from typing import Literal

from agents import owner as owner_role
from agents.cost import Cost, ask
from agents.owner import OwnerVote
from blackboard.board import Board, Hypothesis, Posting
from magg_kg.config import Policy
from magg_kg.llm.port import LLM, Failure, Prompt
from magg_kg.records import Proposal

__all__ = ["PASS_AT", "Ballot", "Band", "confidence_band", "hold_vote", "thresholds", "vote_weight"]

PASS_AT = 0.5
Band = Literal["reject", "vote", "pass"]


def confidence_band(confidence: float, policy: Policy, *, contested: bool = False) -> Band:
    """Which path a proposal takes.

    >>> p = Policy()
    >>> [confidence_band(c, p) for c in (0.2, 0.35, 0.69, 0.70)], confidence_band(0.9, p, contested=True)
    (['reject', 'vote', 'vote', 'pass'], 'vote')
    """
    if contested:
        return "vote"
    if confidence < policy.deliberate_from:
        return "reject"
    if confidence >= policy.deliberate_below:
        return "pass"
    return "vote"


def vote_weight(owned: int) -> float:
    """An owner's weight: the share of the proposal's two endpoints its domain owns."""
    return max(1, min(2, owned)) / 2


def thresholds(policy: Policy) -> dict[str, object]:
    return {
        "deliberate_from": policy.deliberate_from,
        "deliberate_below": policy.deliberate_below,
        "pass_at": PASS_AT,
        "policy_version": policy.version,
    }


Ballot = dict[str, object] | tuple[float, str]
"""What an owner votes with: the payload to ask it with, or the (score, rationale) it gave already."""


def hold_vote(
    board: Board,
    proposal: Proposal,
    confidence: float,
    ballots: list[tuple[str, int, Ballot]],
    llm: LLM,
    cost: Cost,
) -> list[dict[str, object]]:
    """Posts the proposal as a hypothesis and takes each owner's vote (domain, endpoints owned,
    ballot): the vote it gave with its review, else asked for; returns the votes as posted (an
    owner whose model call failed does not vote)."""
    evidence = tuple(span.quote for span in proposal.evidence)
    content = f"{proposal.src} {proposal.type} {proposal.dst}"
    board.post(Hypothesis(proposal.id, content, confidence, "extraction", evidence))
    posted: list[dict[str, object]] = []
    for domain, owned, payload in ballots:
        weight = vote_weight(owned)
        if isinstance(payload, tuple):
            score, rationale = payload
            board.vote(Posting(proposal.id, f"owner:{domain}", weight, score, rationale))
            posted.append(
                {"domain": domain, "weight": weight, "score": score, "rationale": rationale, "from": "review"}
            )
            continue
        prompt = Prompt(
            task=owner_role.VOTE_TASK,
            stage="deliberation",
            agent=f"owner:{domain}",
            domain=domain,
            system=owner_role.VOTE_SYSTEM,
            data=json.dumps([span.quote for span in proposal.evidence], ensure_ascii=False),
            payload=payload,
            prompt_version=owner_role.PROMPT_VERSION,
        )
        reply = ask(llm, prompt, OwnerVote, cost)
        if isinstance(reply, Failure):
            continue
        board.vote(Posting(proposal.id, f"owner:{domain}", weight, reply.value.score, reply.value.reasoning))
        posted.append(
            {
                "domain": domain,
                "weight": weight,
                "score": reply.value.score,
                "rationale": reply.value.reasoning,
            }
        )
    return posted
