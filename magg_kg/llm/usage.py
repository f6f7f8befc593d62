"""The usage log: every call, with what it cost and how it ended, kept for the caller's next batch.

The log is the outermost wrapper, so it sees every call: answered, served from the cache, refused
by the spend cap, failed. It writes nothing itself while the run works: it buffers ``record_usage``
ops (and the cache's ``put_cache`` ops, through the shared :class:`Outbox`) and :meth:`UsageLog.drain`
hands them to the caller, who puts them in the batch that records the work they paid for. What is
left at the end goes in a batch of its own (:meth:`UsageLog.flush`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from magg_kg.clock import Clock
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.llm.port import LLM, Answer, Failure, Prompt
from magg_kg.operations import Batch, Operation, PutCache, RecordUsage
from magg_kg.store import Store

__all__ = ["Outbox", "UsageLog", "outcome_of"]

T = TypeVar("T", bound=BaseModel)
_BATCH_OPS = 5_000


class Outbox:
    """Ops waiting to be written, in the order they were made."""

    def __init__(self) -> None:
        self._ops: list[Operation] = []

    def add(self, op: RecordUsage | PutCache) -> None:
        self._ops.append(op)

    def drain(self) -> list[Operation]:
        ops, self._ops = self._ops, []
        return ops

    def __len__(self) -> int:
        return len(self._ops)


def outcome_of(reply: Answer[T] | Failure) -> str:
    """The logged outcome: ok, cached, or the failure's kind.

    >>> outcome_of(Failure("over_budget", "cap reached"))
    'over_budget'
    """
    if isinstance(reply, Failure):
        return reply.kind
    return "cached" if reply.cached else "ok"


class UsageLog:
    """Wraps an :class:`~magg_kg.llm.port.LLM`; records one ``record_usage`` op per call.

    ``timer`` returns monotonic seconds (latency); ``clock`` stamps the rows.
    """

    def __init__(
        self, inner: LLM, clock: Clock, timer: Callable[[], float], outbox: Outbox | None = None
    ) -> None:
        self._inner = inner
        self._clock = clock
        self._timer = timer
        self.outbox = outbox if outbox is not None else Outbox()
        self._calls = 0
        self.recorded: list[RecordUsage] = []
        """Every call this log recorded: what this run spent, apart from any other process's."""

    @property
    def model(self) -> str:
        return self._inner.model

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        started = self._timer()
        reply = self._inner.ask(prompt, schema)
        latency_ms = max(0.0, (self._timer() - started) * 1000.0)
        self._calls += 1
        recorded_at = self._clock.now()
        cached = isinstance(reply, Answer) and reply.cached
        self.recorded.append(
            RecordUsage(
                id=make_id("usage", recorded_at, str(self._calls), prompt.task, prompt.agent),
                stage=prompt.stage,
                agent=prompt.agent,
                domain=prompt.domain,
                model=reply.model or self._inner.model,
                prompt_tokens=reply.prompt_tokens,
                completion_tokens=reply.completion_tokens,
                latency_ms=latency_ms,
                attempts=reply.attempts,
                outcome=outcome_of(reply),
                cache_hit=cached,
                recorded_at=recorded_at,
            )
        )
        self.outbox.add(self.recorded[-1])
        return reply

    def drain(self) -> list[Operation]:
        """The buffered ops (usage rows and cache entries), handed over once."""
        return self.outbox.drain()

    def flush(self, store: Store, clock: Clock) -> int:
        """Writes what was not drained, as batches of its own; the number of ops written."""
        ops = self.drain()
        for start in range(0, len(ops), _BATCH_OPS):
            part = ops[start : start + _BATCH_OPS]
            sent_at = clock.now()
            batch_id = make_id("batch", "usage", *(_name(op) for op in part))
            store.write(Batch.of(batch_id, sent_at, journaled(part, sent_at)))
        return len(ops)


def _name(op: Operation) -> str:
    if isinstance(op, RecordUsage):
        return op.id
    if isinstance(op, PutCache):
        return op.key
    return op.op
