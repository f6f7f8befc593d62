"""Every role's offline handler, by task name, for :class:`magg_kg.llm.offline.OfflineLLM`.

Each role module defines its task name and its deterministic handler; the composition root builds
the offline provider as ``OfflineLLM(offline_handlers())``. A new role adds one line here.
"""

from __future__ import annotations

from functools import partial

from agents import concepts, debate, discovery, evidence, judge, owner, qa, relations, synthesis
from agents.offline import concepts as offline_concepts
from agents.offline import judging, moderating, owning
from agents.offline.model import JudgmentModel
from magg_kg.llm.offline import Handler

__all__ = ["offline_handlers"]


def offline_handlers(judgment: JudgmentModel | None = None) -> dict[str, Handler]:
    """Task name -> offline handler, for every role; the owners, the judge and the moderator score
    by ``judgment`` (the shipped judgment model when none is given: another one is what a
    benchmark trained on part of the data passes, to replay the rest out of sample)."""
    learned = {
        owner.REVIEW_TASK: owning.review_learned,
        owner.VOTE_TASK: owning.vote_learned,
        judge.TASK: judging.judge_learned,
        debate.MODERATOR: moderating.moderator_learned,
    }
    bound = {task: partial(handler, model=judgment) for task, handler in learned.items()}
    return {
        concepts.TASK: offline_concepts.offline_handler,
        relations.TASK: relations.offline_handler,
        evidence.TASK: evidence.offline_handler,
        **judge.offline_handlers(),
        **debate.offline_handlers(),
        **discovery.offline_handlers(),
        **qa.offline_handlers(),
        **synthesis.offline_handlers(),
        **bound,  # the learned roles replace the rule-based judge and moderator
    }
