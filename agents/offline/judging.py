"""The offline judge: the learned judgment model applied to a judge prompt.

The score is the calibrated probability of :mod:`agents.offline.model` over the features of
:mod:`agents.offline.features`, read from the prompt's payload and data alone. Its reasoning names
the features that moved the score most, with their log-odds, so that a person can see why.
The verdict is the band of the score under the prompt's policy.
"""

from __future__ import annotations

from collections.abc import Mapping

from agents.judge import score_band
from agents.offline.features import claim_features, describe
from agents.offline.model import JudgmentModel, LinearModel, is_bare_claim, judgment_model
from magg_kg.llm.port import Prompt

__all__ = ["gate_bars", "judge_learned", "reasons", "score_claim"]

_SHOWN = 6


def score_claim(
    payload: Mapping[str, object], data: str, model: JudgmentModel | LinearModel | None = None
) -> tuple[float, str]:
    """The calibrated score of the claim in a judge-layout payload, and the reasons for it."""
    chosen = model or judgment_model()
    values = claim_features(payload, data)
    if isinstance(chosen, JudgmentModel):
        chosen = chosen.model_for(values, bare=is_bare_claim(payload, data))
    return round(chosen.probability(values), 4), reasons(chosen, values)


def reasons(model: LinearModel, values: Mapping[str, float]) -> str:
    """The features that moved the score most, in words, with their calibrated log-odds."""
    shown = model.contributions(values)[:_SHOWN]
    terms = "; ".join(f"{describe(name)} ({weight:+.2f})" for name, weight in shown)
    return terms or "no feature of the claim carries weight"


def gate_bars(payload: Mapping[str, object]) -> tuple[float, float]:
    """The gate's commit and reject bars as a prompt's ``policy`` gives them (0.80 and 0.50 for
    one it does not give).

    >>> gate_bars({"policy": {"commit_at": 0.9}}), gate_bars({})
    ((0.9, 0.5), (0.8, 0.5))
    """
    policy = payload.get("policy")
    given = policy if isinstance(policy, dict) else {}

    def bar(name: str, default: float) -> float:
        value = given.get(name)
        return float(value) if isinstance(value, int | float) else default

    return bar("commit_at", 0.8), bar("reject_below", 0.5)


def judge_learned(prompt: Prompt, model: JudgmentModel | None = None) -> dict[str, object]:
    """The offline judge's reply to a judge prompt, by ``model`` (the shipped judgment model when
    none is given)."""
    score, why = score_claim(prompt.payload, prompt.data, model)
    commit_at, reject_below = gate_bars(prompt.payload)
    return {
        "reasoning": f"learned judgment ({(model or judgment_model()).version}): {why}; score {score:.2f}",
        "score": score,
        "verdict": score_band(score, commit_at, reject_below),
    }
