"""The response cache: the same prompt to the same model with the same parameters is asked once.

The key is :meth:`~magg_kg.llm.port.Prompt.key` over the model, the full prompt, the provider's
parameters and the reply schema, so a changed prompt, schema or setting misses. Hits come from the
database (``llm_cache``) or from replies made earlier in this run whose ``put_cache`` op is not
written yet. A hit costs nothing: it is an :class:`~magg_kg.llm.port.Answer` with ``cached=True``,
0 tokens and 0 attempts.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TypeVar

from pydantic import BaseModel

from magg_kg.clock import Clock
from magg_kg.llm.port import LLM, Answer, Failure, Prompt, overlong, parse_reply
from magg_kg.llm.usage import Outbox
from magg_kg.operations import PutCache
from magg_kg.store import Store

__all__ = ["CachedLLM"]

T = TypeVar("T", bound=BaseModel)


@dataclass(frozen=True)
class _Entry:
    model: str
    response: str


class CachedLLM:
    """Wraps an :class:`~magg_kg.llm.port.LLM` with the response cache.

    New replies become ``put_cache`` ops in ``outbox`` (shared with the usage log, which hands
    them to the caller's next batch) and are remembered in memory until the run ends.
    """

    def __init__(
        self,
        inner: LLM,
        store: Store,
        clock: Clock,
        *,
        params: Mapping[str, object] | None = None,
        outbox: Outbox | None = None,
    ) -> None:
        self._inner = inner
        self._store = store
        self._clock = clock
        self._params = dict(params or {})
        self.outbox = outbox if outbox is not None else Outbox()
        self._made: dict[str, _Entry] = {}

    @property
    def model(self) -> str:
        return self._inner.model

    def key(self, prompt: Prompt, schema: type[BaseModel]) -> str:
        """The cache key of one call."""
        return prompt.key(self.model, {"provider": self._params, "schema": schema.model_json_schema()})

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        key = self.key(prompt, schema)
        entry = self._lookup(key)
        if entry is not None:
            parsed = parse_reply(entry.response, schema)
            if not isinstance(parsed, str):
                return Answer(value=parsed, model=entry.model, cached=True)
            # An entry that no longer validates is ignored; the fresh reply is not stored over it
            # (the cache is append-only), so this key keeps asking: a sign to bump prompt_version.
        answer = self._inner.ask(prompt, schema)
        if isinstance(answer, Answer) and not answer.cached:
            response = json.dumps(answer.value.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
            reason = overlong(len(response))  # no role's reply is that long: a model gone wrong
            if reason:
                return Failure("invalid", reason, answer.model)
            self._made[key] = _Entry(answer.model, response)
            if entry is None:
                self.outbox.add(
                    PutCache(
                        key=key,
                        model=answer.model,
                        response=response,
                        prompt_tokens=answer.prompt_tokens,
                        completion_tokens=answer.completion_tokens,
                        recorded_at=self._clock.now(),
                    )
                )
        return answer

    def _lookup(self, key: str) -> _Entry | None:
        made = self._made.get(key)
        if made is not None:
            return made
        row = self._store.cache_entry(key)
        if row is None:
            return None
        return _Entry(str(row["model"]), str(row["response"]))
