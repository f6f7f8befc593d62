"""Cost: LLM calls and tokens counted per stage.

Every agent asks its model through :func:`ask`, which adds the call to the stage's :class:`Cost`;
the decision record of a stage carries its cost. The spend cap is not here: it is a wrapper of
the LLM stack (``magg_kg/llm/budget.py``), whose refusals come back as ``over_budget`` failures,
counted apart (``capped``): no call was made, and none failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from magg_kg.llm.port import LLM, Answer, Failure, Prompt

__all__ = ["Cost", "ask"]

T = TypeVar("T", bound=BaseModel)


@dataclass
class Cost:
    """Calls and tokens of one stage (mutable: a running total)."""

    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    capped: int = 0
    """Calls the spend cap kept from being made (no request, no token): neither calls nor failures."""

    def add(self, other: Cost) -> None:
        self.calls += other.calls
        self.failures += other.failures
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.capped += other.capped

    def as_dict(self) -> dict[str, object]:
        """The cost as a decision records it; ``capped`` only when the cap kept a call from being
        made (a run the cap never stopped records what it always did)."""
        counts: dict[str, object] = {
            "calls": self.calls,
            "failures": self.failures,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }
        return counts | ({"capped": self.capped} if self.capped else {})


def ask(llm: LLM, prompt: Prompt, schema: type[T], cost: Cost) -> Answer[T] | Failure:
    """One model call, counted in the stage's ``cost`` (the spend cap is the LLM stack's own)."""
    reply = llm.ask(prompt, schema)
    if isinstance(reply, Failure) and reply.kind == "over_budget":  # no call was made
        cost.capped += 1
        return reply
    if isinstance(reply, Failure):
        cost.calls += reply.calls
        cost.failures += 1
        cost.prompt_tokens += reply.prompt_tokens
        cost.completion_tokens += reply.completion_tokens
        return reply
    cost.calls += reply.calls
    cost.prompt_tokens += reply.prompt_tokens
    cost.completion_tokens += reply.completion_tokens
    return reply
