"""The spend cap: after ``max_calls`` model calls or ``max_tokens`` tokens, the model is not asked.

It sits inside the cache (cache hits are free: they neither count nor are refused) and counts the
calls that reach the provider, failed ones too, with every token they spent. The cap is checked
before a call, so the call that crosses ``max_tokens`` completes; every call after it is a
``Failure("over_budget")`` made without a request, which governance turns into an abstention.
"""

from __future__ import annotations

from typing import TypeVar

from pydantic import BaseModel

from magg_kg.config import CAP_SETTINGS
from magg_kg.llm.port import LLM, Answer, Failure, Prompt

__all__ = ["SpendCap"]

T = TypeVar("T", bound=BaseModel)


class SpendCap:
    """Wraps an :class:`~magg_kg.llm.port.LLM` with a cap on calls and tokens (``None``: no cap)."""

    def __init__(
        self,
        inner: LLM,
        *,
        max_calls: int | None = None,
        max_tokens: int | None = None,
        settings: tuple[str, str] = CAP_SETTINGS,
    ) -> None:
        self._inner = inner
        self._max_calls = max_calls
        self._max_tokens = max_tokens
        self._settings = settings
        """What set each cap (``MAGG_LLM_MAX_CALLS``, ``--max-calls``), as a refusal names it."""
        self.calls = 0
        self.tokens = 0

    @property
    def model(self) -> str:
        return self._inner.model

    def exhausted(self) -> str:
        """Why no further call is allowed, or ``""``."""
        if self._max_calls is not None and self.calls >= self._max_calls:
            return f"the spend cap of {self._max_calls} model calls is reached ({self._settings[0]})"
        if self._max_tokens is not None and self.tokens >= self._max_tokens:
            return (
                f"the spend cap of {self._max_tokens} tokens is reached ({self.tokens} spent; "
                f"{self._settings[1]})"
            )
        return ""

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        reason = self.exhausted()
        if reason:
            return Failure("over_budget", reason, self._inner.model)
        reply = self._inner.ask(prompt, schema)
        self.calls += 1
        self.tokens += reply.prompt_tokens + reply.completion_tokens
        return reply
