"""The offline provider: every role performed deterministically from the evidence and the graph.

Its replies carry the tokens a model would have been sent and would have written, estimated as
characters / 4 (no HTTP attempts), so the cost figures mean the same with either provider.

The provider is a dispatcher: the roles themselves (cue phrases, co-occurrence, TF-IDF
similarity, graph structure) live with the agents that define them, and are handed in by the
composition root as ``handlers`` (task name -> function of the prompt). Replies go through the
same :func:`~magg_kg.llm.port.parse_reply` as a real model's, so a handler is held to the same
schema.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import TypeVar

from pydantic import BaseModel

from magg_kg.llm.bundle import BUNDLE_TASK, items_of
from magg_kg.llm.port import Answer, Failure, Prompt, parse_reply

__all__ = ["OFFLINE_MODEL", "Handler", "OfflineLLM"]

T = TypeVar("T", bound=BaseModel)
Handler = Callable[[Prompt], Mapping[str, object]]
OFFLINE_MODEL = "offline-1"


class OfflineLLM:
    """An :class:`~magg_kg.llm.port.LLM` that runs local, deterministic role functions."""

    def __init__(self, handlers: Mapping[str, Handler], model: str = OFFLINE_MODEL) -> None:
        self._handlers = dict(handlers)
        self._model = model

    @property
    def model(self) -> str:
        return self._model

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        if prompt.task == BUNDLE_TASK:  # each item answered by its role, exactly as if it were alone
            items = items_of(prompt)
            handlers = [self._handlers.get(item.task) for _, item in items]
            if any(handler is None for handler in handlers):
                return self._no_role(items[handlers.index(None)][1].task)
            body: dict[str, object] = {
                "items": [
                    {"id": item_id, "reply": dict(handler(item))}
                    for (item_id, item), handler in zip(items, handlers, strict=True)
                    if handler is not None
                ]
            }
        else:
            handler = self._handlers.get(prompt.task)
            if handler is None:
                return self._no_role(prompt.task)
            body = dict(handler(prompt))
        text = json.dumps(body)
        parsed = parse_reply(text, schema)
        sent = prompt.tokens()
        if isinstance(parsed, str):
            return Failure("invalid", parsed, self._model, prompt_tokens=sent)
        return Answer(value=parsed, model=self._model, prompt_tokens=sent, completion_tokens=len(text) // 4)

    def _no_role(self, task: str) -> Failure:
        return Failure("refused", f"the offline provider has no role for task {task!r}", self._model)
