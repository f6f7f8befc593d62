"""Every role's offline handler, by task name, for :class:`magg_kg.llm.offline.OfflineLLM`.

Each role module defines its task name and its deterministic handler; the composition root builds
the offline provider as ``OfflineLLM(offline_handlers())``. A new role adds one line here.
"""

from __future__ import annotations

from agents import concepts, debate, discovery, evidence, judge, owner, qa, relations, synthesis
from agents.offline import concepts as offline_concepts
from agents.offline import judging, moderating, owning
from magg_kg.llm.offline import Handler

__all__ = ["offline_handlers"]


def offline_handlers() -> dict[str, Handler]:
    """Task name -> offline handler, for every role."""
    return {
        concepts.TASK: offline_concepts.offline_handler,
        relations.TASK: relations.offline_handler,
        evidence.TASK: evidence.offline_handler,
        owner.REVIEW_TASK: owning.review_learned,
        owner.VOTE_TASK: owning.vote_learned,
        **judge.offline_handlers(),
        judge.TASK: judging.judge_learned,
        **debate.offline_handlers(),
        debate.MODERATOR: moderating.moderator_learned,
        **discovery.offline_handlers(),
        **qa.offline_handlers(),
        **synthesis.offline_handlers(),
    }
