"""The offline domain owner, with its belief from the learned judgment model.

The owner's checks stay those of :func:`agents.owner.review_offline`, in its order: an instruction
in the evidence, evidence that does not name both concepts, a cue that states another type or the
other direction (revise), and a contradiction with the owner's memory card reject or revise the
proposal whatever any score says, with one exception: a cue of another type or direction does
not revise a proposal whose learned belief as proposed reaches the gate's commit bar (the model
reads that cue too, among everything else the evidence and the graph say; one cue phrase does not
outweigh a calibrated belief). What changes is the owner's belief in a proposal it approves:
it is the calibrated probability of :mod:`agents.offline.model` over the same features the judge
reads (the prompt carries the judge's view of the claim: its evidence spans, the concepts'
descriptions and the supporting subgraph), so that the deliberation band and the vote mean what
the thresholds say. A revised proposal keeps the rule-based belief: the subgraph in the prompt was
drawn for the original direction.

An owner whose belief in a proposal it approves (the evidence's check passed) is below the gate's
reject bar says so: its reasoning opens "belief below the reject bar (0.01 < 0.50)", and its vote
is that belief, so the deliberation weighs it as the doubt it is. (Its reasoning said only "the
evidence supports ..." before: of d2l's 2,998 owner approvals, 1,080 were below 0.5, down to
0.006.) The verdict stays an approval: all owners' rejecting a proposal rejects it at review, and
read so, such doubts cut the Metacademy replay's recall from 0.653 to 0.383. The audit report reads
an owner's score against the judge's bar, so a doubting approval counts as an owner against.

The vote is the same probability, capped by the owner's own review score when its review rejected
the proposal; the review carries it (``vote``), so deliberation need not ask again. Without the
judge's view in the prompt (no subgraph), both fall back to the rule-based owner, whose vote is
asked for when it is needed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from agents.offline.judging import gate_bars, score_claim
from agents.offline.model import JudgmentModel
from agents.owner import OwnerReview, OwnerVote, review_offline, vote_offline
from magg_kg.llm.port import Prompt
from magg_kg.markup import as_read

__all__ = ["review_learned", "vote_learned"]


def _claim_payload(payload: Mapping[str, object], triple: tuple[str, str, str]) -> dict[str, object] | None:
    subgraph = payload.get("subgraph")
    proposal = payload.get("proposal")
    if not isinstance(subgraph, dict) or not isinstance(proposal, dict):
        return None
    descriptions = payload.get("descriptions")
    described = descriptions if isinstance(descriptions, dict) else {}
    return {
        "proposal": {
            "src": triple[0],
            "type": triple[1],
            "dst": triple[2],
            "origin": proposal.get("origin"),
            "src_names": proposal.get("src_names", []),
            "dst_names": proposal.get("dst_names", []),
            "src_description": described.get("src", ""),
            "dst_description": described.get("dst", ""),
        },
        "evidence": payload.get("evidence", []),
        "subgraph": subgraph,
    }


def _data(quotes: list[str]) -> str:
    return json.dumps([{"index": i, "quote": q} for i, q in enumerate(quotes)], ensure_ascii=False)


def review_learned(prompt: Prompt, model: JudgmentModel | None = None) -> dict[str, object]:
    """The owner's review: the rule-based checks, and the learned belief when it approves; with
    the vote it would post on the proposal as reviewed (none for a revision, whose vote is asked
    when it is needed, nor without the judge's view: the rule-based vote reads the deliberated
    confidence, known only once every owner has reviewed)."""
    payload = dict(prompt.payload)
    quotes = [as_read(str(q)) for q in json.loads(prompt.data or "[]")]
    review = review_offline(payload, quotes)
    proposal = payload.get("proposal")
    if not isinstance(proposal, dict):
        return _doubted(review, gate_bars(payload)[1]).model_dump()
    kept = ""
    if review.verdict == "revise":
        # Scored as proposed first: a belief at the commit bar keeps the proposal as it is.
        stated = _claim_payload(payload, (str(proposal["src"]), str(proposal["type"]), str(proposal["dst"])))
        belief, why = score_claim(stated, _data(quotes), model) if stated is not None else (0.0, "")
        if belief < gate_bars(payload)[0]:
            return review.model_dump()
        kept = f"kept as proposed although {review.reasoning}; "
        review = review_offline(payload, quotes, revise=False)
    else:
        claim = _claim_payload(payload, (review.src, review.type, review.dst))
        if claim is None:
            return _doubted(review, gate_bars(payload)[1]).model_dump()
        belief, why = score_claim(claim, _data(quotes), model)
    ballot = _capped(belief, review.verdict, review.score)
    if review.verdict != "approve":
        return review.model_copy(update={"vote": ballot}).model_dump()
    score = min(belief, review.score) if review.concern == "weak" else belief
    learned = OwnerReview(
        reasoning=f"{kept}{review.reasoning}; learned belief {score:.2f}: {why}",
        verdict="approve",
        src=review.src,
        type=review.type,
        dst=review.dst,
        concern=review.concern,
        score=score,
        vote=ballot,
    )
    return _doubted(learned, gate_bars(payload)[1]).model_dump()


def _doubted(review: OwnerReview, bar: float) -> OwnerReview:
    """An approval whose belief is below the gate's reject bar, said as such: its reasoning opens
    with the belief and the bar. The verdict and the vote are as they were (see the module's
    docstring)."""
    if review.verdict != "approve" or review.score >= bar:
        return review
    reasoning = f"belief below the reject bar ({review.score:.2f} < {bar:.2f}): {review.reasoning}"
    return review.model_copy(update={"reasoning": reasoning[:4000]})


def _capped(belief: float, verdict: object, review_score: object) -> float:
    """The vote: the learned belief, at most the owner's review score when its review rejected."""
    if verdict == "reject" and isinstance(review_score, int | float):
        return min(belief, float(review_score))
    return belief


def vote_learned(prompt: Prompt, model: JudgmentModel | None = None) -> dict[str, object]:
    """The owner's vote: the learned belief, at most its review's score if that review rejected."""
    payload = dict(prompt.payload)
    proposal = payload.get("proposal")
    claim = (
        _claim_payload(payload, (str(proposal["src"]), str(proposal["type"]), str(proposal["dst"])))
        if isinstance(proposal, dict)
        else None
    )
    if claim is None:
        return vote_offline(payload).model_dump()
    quotes = [as_read(str(q)) for q in json.loads(prompt.data or "[]")]
    belief, why = score_claim(claim, _data(quotes), model)
    score = _capped(belief, payload.get("review_verdict"), payload.get("review_score"))
    return OwnerVote(reasoning=f"learned belief {score:.2f}: {why}", score=score).model_dump()
