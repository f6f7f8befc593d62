"""Cost: LLM calls and tokens counted per stage, and the run's call and token budget.

Every agent asks its model through :func:`ask`, which refuses (as a ``over_budget`` failure value)
once the budget is spent and adds the call to the stage's :class:`Cost`; the decision record of a
stage carries its cost.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from pydantic import BaseModel

from magg_kg.llm.port import LLM, Answer, Failure, Prompt

__all__ = ["Budget", "Cost", "ask"]

T = TypeVar("T", bound=BaseModel)


@dataclass
class Cost:
    """Calls and tokens of one stage (mutable: a running total)."""

    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Cost) -> None:
        self.calls += other.calls
        self.failures += other.failures
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens

    def as_dict(self) -> dict[str, object]:
        return {
            "calls": self.calls,
            "failures": self.failures,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
        }


@dataclass
class Budget:
    """The run's spend cap: None means no cap. Spent counts are shared by every stage."""

    max_calls: int | None = None
    max_tokens: int | None = None
    calls: int = 0
    tokens: int = 0
    refused: int = field(default=0)

    def exhausted(self) -> str | None:
        if self.max_calls is not None and self.calls >= self.max_calls:
            return f"the run's budget of {self.max_calls} LLM calls is spent"
        if self.max_tokens is not None and self.tokens >= self.max_tokens:
            return f"the run's budget of {self.max_tokens} tokens is spent"
        return None


def ask(llm: LLM, prompt: Prompt, schema: type[T], cost: Cost, budget: Budget) -> Answer[T] | Failure:
    """One model call, counted in ``cost`` and in the budget; refused once the budget is spent."""
    spent = budget.exhausted()
    if spent is not None:
        budget.refused += 1
        cost.failures += 1
        return Failure("over_budget", spent, llm.model)
    reply = llm.ask(prompt, schema)
    cost.calls += 1
    budget.calls += 1
    if isinstance(reply, Failure):
        cost.failures += 1
        return reply
    tokens = reply.prompt_tokens + reply.completion_tokens
    cost.prompt_tokens += reply.prompt_tokens
    cost.completion_tokens += reply.completion_tokens
    budget.tokens += tokens
    return reply
