"""The offline debate moderator, with its score from the learned judgment model.

The moderator's prompt carries the judge's view of the claim (its evidence spans, the concepts'
descriptions and the supporting subgraph) and the debate's transcript. The debaters' points are
the findings of :mod:`agents.findings`, which read the same evidence and graph as the learned
model; adding their hand-set weights to the model's score would count that evidence twice with
weights nobody fitted. So the score is the calibrated probability of :mod:`agents.offline.model`
over the claim, and the debate's part is what the policy gives it: a stricter threshold to clear
(``debate_commit_at``) and concepts to cite. The reasoning names the distinct points of each side
and the features that moved the score. Without the judge's view in the prompt (no subgraph), the
rule-based moderator of :mod:`agents.debate` answers.
"""

from __future__ import annotations

from agents.debate import moderation, moderator_offline
from agents.offline.judging import score_claim
from agents.offline.model import JudgmentModel, judgment_model
from magg_kg.llm.port import Prompt

__all__ = ["moderator_learned"]


def moderator_learned(prompt: Prompt, model: JudgmentModel | None = None) -> dict[str, object]:
    """The moderator's reply: the learned score of the debated claim (module docstring), by
    ``model`` (the shipped judgment model when none is given)."""
    if not isinstance(prompt.payload.get("subgraph"), dict):
        return moderator_offline(prompt)
    score, why = score_claim(prompt.payload, prompt.data, model)
    basis = f"learned judgment ({(model or judgment_model()).version}): {why}; score {score:.2f}"
    return moderation(prompt, score, basis)
