"""Which roles one model call may serve for many items at once (:mod:`magg_kg.llm.bundle`).

A role is bundled when its items are independent: the concepts and the relations of one chunk,
one owner's review or vote on one proposal, the judge's verdict on one claim. Debate is not (its
rounds answer each other, one proposal at a time). The judge's samples for self-consistency are
asked one after another, so two samples of one claim never share a call.
"""

from __future__ import annotations

from agents import concepts, judge, owner, relations

__all__ = ["BUNDLED"]

BUNDLED = (concepts.TASK, relations.TASK, owner.REVIEW_TASK, owner.VOTE_TASK, judge.TASK)
"""In pipeline order (:class:`magg_kg.llm.bundle.Bundler` answers the earliest first)."""
