"""The offline judge: the learned judgment model applied to a judge prompt.

The score is the calibrated probability of :mod:`agents.offline.model` over the features of
:mod:`agents.offline.features`, read from the prompt's payload and data alone. Its reasoning names
the features that moved the score most, with their log-odds, so that a person can see why.
The verdict is the band of the score under the prompt's policy.

One objection no feature weighs, as no labelled claim shows it: the two concepts are names of one,
as a lesson sentence says (the subgraph's ``named_as_one``), as the lessons use them (one written
alone only after the other, whose name ends in it, as its short name: ``short_name``,
:func:`agents.lesson_index.short_name`; unless a quote states the claim: "The VAE builds on the
autoencoder" says they are two) or as their names say, one abbreviating the other before the same
head ("FC layer", "fully-connected layer"; :mod:`agents.synonyms`) or one naming the other with a
generic head noun after it ("ReAct prompting", "ReAct": :func:`agents.head_nouns.headless_between`).
Two names of one thing stand in no relation to each other, so such a claim scores at most
:data:`ONE_CONCEPT`.
"""

from __future__ import annotations

from collections.abc import Mapping

from agents.head_nouns import headless_between
from agents.judge import score_band
from agents.offline.features import claim_features, describe
from agents.offline.model import JudgmentModel, LinearModel, is_bare_claim, judgment_model
from agents.payload import as_list, as_mapping, as_strings
from agents.synonyms import abbreviation_between
from magg_kg.llm.port import Prompt

__all__ = ["ONE_CONCEPT", "gate_bars", "judge_learned", "reasons", "score_claim"]

_SHOWN = 6
ONE_CONCEPT = 0.05
"""The highest score of a claim between two names that a lesson gives for one concept."""


def score_claim(
    payload: Mapping[str, object], data: str, model: JudgmentModel | LinearModel | None = None
) -> tuple[float, str]:
    """The calibrated score of the claim in a judge-layout payload, and the reasons for it."""
    chosen = model or judgment_model()
    values = claim_features(payload, data)
    if isinstance(chosen, JudgmentModel):
        chosen = chosen.model_for(values, bare=is_bare_claim(payload, data))
    score, why = round(chosen.probability(values), 4), reasons(chosen, values)
    one = _one_concept(payload)
    return (min(score, ONE_CONCEPT), f"{one}; {why}") if one else (score, why)


def _one_concept(payload: Mapping[str, object]) -> str:
    """Why the claim's two concepts are names of one (module docstring); empty when nothing says so."""
    subgraph, proposal = as_mapping(payload.get("subgraph")), as_mapping(payload.get("proposal"))
    stated, short = subgraph.get("named_as_one"), subgraph.get("short_name")
    if isinstance(stated, str) and stated:
        return f"a lesson gives both as names of one concept: {stated[:200]!r}"
    stating = any(as_mapping(span).get("kind") == "explicit" for span in as_list(payload.get("evidence")))
    if isinstance(short, str) and short and not stating:
        return f"the lessons use one as the other's short name: {short[:200]}"
    src, dst = (
        [str(proposal.get(end, "")), *as_strings(proposal.get(f"{end}_names"))] for end in ("src", "dst")
    )
    short = abbreviation_between(src, dst)
    if short:
        return f"{short[0]!r} abbreviates {short[1]!r}: two names of one concept"
    headed = headless_between(src, dst)
    return (
        f"{headed[0]!r} is {headed[1]!r} named with a generic head noun: two names of one concept"
        if headed
        else ""
    )


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
