"""The LLM port: a prompt in, a validated object (or a failure value) out.

Agents depend on this protocol only, never on a vendor SDK. Lesson text is untrusted: it travels
in :attr:`Prompt.data`, apart from the instructions, and providers delimit it as data.
A failure is a value (:class:`Failure`) that governance acts on (abstain), not an exception.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from magg_kg.operations import LONG_TEXT
from magg_kg.records import canonical_json

__all__ = [
    "LLM",
    "Answer",
    "Failure",
    "FailureKind",
    "Prompt",
    "Reply",
    "parse_reply",
]

T = TypeVar("T", bound=BaseModel)
FailureKind = Literal["invalid", "unavailable", "over_budget", "refused"]


class Prompt(BaseModel):
    """One request to a model role.

    ``system`` holds the instructions; ``data`` the untrusted source text (lesson excerpts),
    always delimited as data; ``payload`` the structured inputs (ids, scores, subgraph), which
    the offline provider computes from and the model provider renders as JSON.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    task: str
    stage: str
    agent: str
    domain: str = ""
    system: str
    data: str = ""
    payload: dict[str, object]
    prompt_version: str

    def tokens(self) -> int:
        """The tokens a model would be sent, estimated as characters / 4.

        >>> Prompt(task="t", stage="s", agent="a", system="x" * 40, data="y" * 40, payload={},
        ...        prompt_version="v").tokens()
        20
        """
        return (len(self.system) + len(self.data) + len(json.dumps(self.payload, ensure_ascii=False))) // 4

    def key(self, model: str, params: dict[str, object]) -> str:
        """The response-cache key: model, the full prompt and the call parameters."""
        import hashlib

        text = canonical_json(
            {"model": model, "params": params, "prompt": json.loads(self.model_dump_json())}
        )
        return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Answer(Generic[T]):
    """A validated reply.

    Tokens are what this logical call spent (all its re-asks together; 0 for a cache hit);
    ``attempts`` counts its HTTP requests (0 for the offline provider and for a cache hit).
    """

    value: T
    model: str
    cached: bool = False
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 0
    calls: int = 1
    """The model calls this reply stands for: 0 for an item of a bundle other than its first (the
    bundle's one call is counted with its first item), 2 after an unusable bundle reply."""


@dataclass(frozen=True)
class Failure:
    """A call that produced no usable reply, and why (with what it spent trying)."""

    kind: FailureKind
    reason: str
    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    attempts: int = 0
    calls: int = 1


Reply = Answer[T] | Failure


class LLM(Protocol):
    """What agents call. Providers and wrappers (cache, usage log, spend cap) implement it."""

    @property
    def model(self) -> str:
        """The model identifier recorded with every decision."""
        ...

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        """Asks one role for a reply that validates against ``schema``."""
        ...


def overlong(length: int) -> str:
    """Why a reply of ``length`` characters is refused, or "" when no role's reply is shorter.

    >>> overlong(12)
    ''
    >>> overlong(LONG_TEXT + 1)
    'a reply of 8,000,001 characters, more than any role needs (8,000,000)'
    """
    if length <= LONG_TEXT:
        return ""
    return f"a reply of {length:,} characters, more than any role needs ({LONG_TEXT:,})"


def parse_reply(text: str, schema: type[T]) -> T | str:
    """The one place model output is parsed: the validated object, or the reason it is unusable.

    >>> class Score(BaseModel):
    ...     score: float
    >>> parse_reply('{"score": 0.5}', Score)
    Score(score=0.5)
    >>> parse_reply('Sure! Here you go', Score)
    'not JSON: Expecting value at char 0'
    """
    stripped = text.strip()
    if stripped.startswith("```"):
        stripped = stripped.strip("`")
        stripped = stripped[stripped.find("{") :] if "{" in stripped else stripped
    try:
        loaded = json.loads(stripped)
    except json.JSONDecodeError as error:
        return f"not JSON: {error.msg} at char {error.pos}"
    try:
        return schema.model_validate(loaded)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(root)"
        return f"invalid {schema.__name__}: {where}: {first['msg']}"
