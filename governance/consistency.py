"""The contested band: a bounded debate, or self-consistency at the same number of model calls.

Smit et al. (2023, arXiv 2311.17371) found that multi-agent debate does not reliably beat
self-consistency at equal budget. ``policy.contested`` chooses what settles a contested proposal:

``debate``
    :func:`governance.debate.hold_debate`: ``debate_rounds`` rounds of advocate and critic, then
    the moderator (``2 * rounds + 1`` calls: 7 at the default 3 rounds);
``self-consistency``
    the judge asked ``Policy.samples`` times (``consistency_samples``, else as many calls as the
    debate makes), the majority deciding. The score is the lower median of the samples' scores:
    it reaches a threshold exactly when a strict majority of the samples does, so the gate reads
    it as it reads a moderator's score (commit at ``debate_commit_at``, else quarantine; a
    structural pre-screen below ``reject_below`` rejects).

Sampling. A provider at temperature 0, and the offline judge, answer one prompt one way, so each
sample is asked about a resample of the evidence: as many spans as the claim has, drawn with
replacement (duplicates dropped) and shuffled, seeded by the proposal id and the sample number.
A claim with one evidence span is therefore asked the same question every time, and its majority
is the single judge's score. Unusable samples do not vote; with none usable, the result is void.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import ClassVar

from agents.judge import Claim, score_band
from governance.claims import JudgeResult, ask_judge
from governance.debate import DebateResult, hold_debate
from magg_kg.config import Policy
from magg_kg.ids import digest
from magg_kg.llm.port import LLM

__all__ = ["ConsistencyResult", "Contest", "contest", "majority", "resample"]


@dataclass(frozen=True)
class ConsistencyResult:
    """The samples and their majority; ``problem`` is set when no sample was usable."""

    scores: tuple[float | None, ...]
    score: float | None
    verdict: str
    reasoning: str
    problem: str
    model: str
    calls: int
    capped: int = 0
    """Samples the spend cap refused: not made, so no calls."""
    decider: ClassVar[str] = "majority"
    """Who gave the verdict, as reasons name it."""

    @property
    def valid(self) -> bool:
        return not self.problem

    def detail(self) -> dict[str, object]:
        return {
            "method": "self-consistency",
            "samples": list(self.scores),
            "majority": {"score": self.score, "verdict": self.verdict, "problem": self.problem},
            "cost": {"calls": self.calls} | ({"capped": self.capped} if self.capped else {}),
        }


Contest = DebateResult | ConsistencyResult


def majority(scores: list[float]) -> float:
    """The lower median: at or above a threshold exactly when a strict majority is.

    >>> majority([0.9, 0.85, 0.6]), majority([0.9, 0.6, 0.85, 0.6])
    (0.85, 0.6)
    """
    return sorted(scores)[(len(scores) - 1) // 2]


def resample(claim: Claim, number: int) -> Claim:
    """The claim with its evidence resampled for one sample (module docstring)."""
    rng = random.Random(f"sample-{digest(claim.proposal_id, str(number))}")  # a seed, not an id
    spans = list(claim.evidence)
    drawn = [spans[rng.randrange(len(spans))] for _ in spans] if spans else []
    kept = list({(s.lesson_id, s.start, s.end, s.quote): s for s in drawn}.values())
    rng.shuffle(kept)
    return replace(claim, evidence=tuple(kept))


def _consistency(llm: LLM, claim: Claim, policy: Policy, domain: str) -> ConsistencyResult:
    results: list[JudgeResult] = [
        ask_judge(llm, policy, resample(claim, number), domain=domain, stage="consistency")
        for number in range(policy.samples)
    ]
    usable = [r.score for r in results if not r.problem and r.score is not None]
    scores = tuple(None if r.problem else r.score for r in results)
    model = next((r.model for r in results if r.model), llm.model)
    calls, capped = sum(r.calls for r in results), sum(r.capped for r in results)
    if not usable:
        return ConsistencyResult(scores, None, "void", "", "no usable judge sample", model, calls, capped)
    score = majority(usable)
    verdict = score_band(score, policy.debate_commit_at, policy.reject_below)
    commits = sum(s >= policy.debate_commit_at for s in usable)
    why = f"self-consistency: {commits} of {len(usable)} samples at or above {policy.debate_commit_at:.2f}"
    return ConsistencyResult(scores, score, verdict, why, "", model, calls, capped)


def contest(
    llm: LLM,
    claim: Claim,
    policy: Policy,
    is_concept: Callable[[str], bool],
    *,
    judge: tuple[float, str] | None = None,
    domain: str = "",
) -> Contest:
    """Settles a contested claim the way the policy says (module docstring)."""
    if policy.contested == "self-consistency":
        return _consistency(llm, claim, policy, domain)
    return hold_debate(llm, claim, policy, is_concept, judge=judge, domain=domain)
