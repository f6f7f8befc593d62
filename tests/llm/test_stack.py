"""The wrappers (cache, spend cap, usage log) and their composition by build_llm."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import httpx
import pytest
import respx
from pydantic import BaseModel, ConfigDict, Field, SecretStr
from typer.testing import CliRunner

from magg_kg.cli.app import app
from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig
from magg_kg.errors import ConfigError
from magg_kg.journal import journaled
from magg_kg.llm import Answer, Failure, Prompt, build_llm
from magg_kg.llm.budget import SpendCap
from magg_kg.llm.cache import CachedLLM
from magg_kg.llm.usage import UsageLog
from magg_kg.operations import Batch, Operation, PutCache, RecordUsage
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

BASE = "https://gateway.ai.cloudflare.com/v1/acct/gw/deepseek"
ENDPOINT = BASE + "/chat/completions"
T0 = "2026-01-01T00:00:00.000000Z"
T = TypeVar("T", bound=BaseModel)


class Score(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: float = Field(ge=0.0, le=1.0)
    reason: str


def prompt(data: str = "Backpropagation applies the chain rule.", stage: str = "judge") -> Prompt:
    return Prompt(
        task="judge",
        stage=stage,
        agent=f"{stage}-agent",
        domain="d-ml",
        system="Score the edge.",
        data=data,
        payload={"edge": "e-1"},
        prompt_version="judge-1",
    )


@dataclass(frozen=True)
class Scripted:
    """One scripted reply: the object the provider answers, and what it cost."""

    value: dict[str, object]
    prompt_tokens: int = 30
    completion_tokens: int = 5


class ScriptedLLM:
    """A fake provider: replies from a list, records every prompt it is asked."""

    def __init__(self, *replies: Scripted | Failure) -> None:
        self.replies = list(replies)
        self.asked: list[Prompt] = []

    @property
    def model(self) -> str:
        return "scripted-1"

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        self.asked.append(prompt)
        reply = self.replies.pop(0)
        if isinstance(reply, Failure):
            return reply
        return Answer(
            schema.model_validate(reply.value),
            self.model,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            attempts=1,
        )


def ok(score: float = 0.5, tokens: tuple[int, int] = (30, 5)) -> Scripted:
    return Scripted({"score": score, "reason": "r"}, *tokens)


class Ticks:
    """A monotonic timer that advances 0.25 s per read."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.25
        return self.now


def write(store: Store, ops: list[Operation], clock: StepClock) -> None:
    t = clock.now()
    store.write(Batch.of(f"b-{t}", t, journaled(ops, t)))


def completion(content: str = '{"score": 0.75, "reason": "r"}') -> httpx.Response:
    return httpx.Response(
        200,
        json={
            "id": "c",
            "object": "chat.completion",
            "created": 0,
            "model": "deepseek-chat",
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
            ],
            "usage": {"prompt_tokens": 40, "completion_tokens": 9, "total_tokens": 49},
        },
    )


def deepseek(**changes: object) -> LLMConfig:
    config = LLMConfig(provider="deepseek", base_url=BASE, api_key=SecretStr("sk-test"))
    return config.model_copy(update=changes)


@pytest.fixture
def gateway() -> Iterator[respx.MockRouter]:
    with respx.mock(assert_all_called=False) as router:
        yield router


# The cache.


def test_a_repeated_call_in_the_same_run_hits_before_anything_is_written(
    store: Store, clock: StepClock
) -> None:
    inner = ScriptedLLM(ok(0.5))
    cache = CachedLLM(inner, store, clock)

    first, second = cache.ask(prompt(), Score), cache.ask(prompt(), Score)

    assert isinstance(first, Answer) and not first.cached
    assert isinstance(second, Answer) and second.cached and second.value == first.value
    assert (second.prompt_tokens, second.completion_tokens, second.attempts) == (0, 0, 0)
    assert len(inner.asked) == 1
    [put] = cache.outbox.drain()
    assert isinstance(put, PutCache) and put.key == cache.key(prompt(), Score)


def test_a_written_entry_serves_the_next_run(store: Store, clock: StepClock) -> None:
    first_run = CachedLLM(ScriptedLLM(ok(0.25)), store, clock)
    first_run.ask(prompt(), Score)
    write(store, first_run.outbox.drain(), clock)

    inner = ScriptedLLM()
    answer = CachedLLM(inner, store, clock).ask(prompt(), Score)

    assert isinstance(answer, Answer) and answer.cached and answer.value.score == 0.25
    assert inner.asked == []


def test_another_prompt_schema_or_parameter_misses(store: Store, clock: StepClock) -> None:
    class Other(BaseModel):
        score: float

    cache = CachedLLM(ScriptedLLM(ok()), store, clock, params={"temperature": 0.0})
    keys = {
        cache.key(prompt(), Score),
        cache.key(prompt(data="Other text."), Score),
        cache.key(prompt(), Other),
        CachedLLM(ScriptedLLM(), store, clock, params={"temperature": 0.7}).key(prompt(), Score),
    }
    assert len(keys) == 4


def test_failures_are_not_cached(store: Store, clock: StepClock) -> None:
    inner = ScriptedLLM(Failure("invalid", "not JSON", "scripted-1"), ok())
    cache = CachedLLM(inner, store, clock)

    assert isinstance(cache.ask(prompt(), Score), Failure)
    assert isinstance(cache.ask(prompt(), Score), Answer)
    assert len(inner.asked) == 2


# The spend cap.


def test_the_call_cap_refuses_without_calling() -> None:
    inner = ScriptedLLM(ok(), Failure("invalid", "prose", "scripted-1"))
    cap = SpendCap(inner, max_calls=2)

    replies = [cap.ask(prompt(f"lesson {i}"), Score) for i in range(4)]

    assert len(inner.asked) == 2  # a failed call counts: it was made
    assert [r.kind for r in replies[2:] if isinstance(r, Failure)] == ["over_budget", "over_budget"]
    assert "2 model calls" in replies[3].reason  # type: ignore[union-attr]


def test_the_token_cap_counts_prompt_and_completion_tokens() -> None:
    inner = ScriptedLLM(ok(tokens=(60, 10)), ok(tokens=(60, 10)), ok())
    cap = SpendCap(inner, max_tokens=100)

    replies = [cap.ask(prompt(f"lesson {i}"), Score) for i in range(3)]

    assert [type(r).__name__ for r in replies] == ["Answer", "Answer", "Failure"]
    assert cap.tokens == 140 and len(inner.asked) == 2


# The usage log.


def test_every_call_is_logged_with_its_outcome_cost_and_latency(clock: StepClock) -> None:
    inner = ScriptedLLM(ok(tokens=(30, 5)), Failure("unavailable", "HTTP 503", "scripted-1", attempts=3))
    log = UsageLog(SpendCap(inner, max_calls=2), clock, Ticks())

    log.ask(prompt(stage="extract"), Score)
    log.ask(prompt(stage="judge"), Score)
    log.ask(prompt(stage="judge"), Score)

    rows = log.drain()
    assert all(isinstance(row, RecordUsage) for row in rows)
    summary = [(r.stage, r.outcome, r.attempts, r.prompt_tokens, r.latency_ms) for r in rows]  # type: ignore[union-attr]
    assert summary == [
        ("extract", "ok", 1, 30, 250.0),
        ("judge", "unavailable", 3, 0, 250.0),
        ("judge", "over_budget", 0, 0, 250.0),
    ]
    assert len({r.id for r in rows}) == 3  # type: ignore[union-attr]
    assert log.drain() == []


def test_flush_writes_the_leftovers_as_their_own_batch(store: Store, clock: StepClock) -> None:
    log = UsageLog(ScriptedLLM(ok(), ok()), clock, Ticks())
    log.ask(prompt("a"), Score)
    log.ask(prompt("b"), Score)

    assert log.flush(store, clock) == 2
    assert log.flush(store, clock) == 0
    assert [row["outcome"] for row in store.usage()] == ["ok", "ok"]


# The composition.


def test_build_llm_caches_caps_and_logs_a_deepseek_run(
    gateway: respx.MockRouter, store: Store, clock: StepClock
) -> None:
    route = gateway.post(ENDPOINT).mock(return_value=completion())
    llm, log = build_llm(deepseek(max_calls=2), store, clock, {}, sleep=lambda s: None, timer=Ticks())

    replies = [
        llm.ask(prompt("a"), Score),
        llm.ask(prompt("a"), Score),  # a cache hit: free, not counted
        llm.ask(prompt("b"), Score),
        llm.ask(prompt("c"), Score),  # over the cap: no request
        llm.ask(prompt("a"), Score),  # still served from the cache past the cap
    ]

    assert route.call_count == 2
    assert [r.kind if isinstance(r, Failure) else ("cached" if r.cached else "ok") for r in replies] == [
        "ok",
        "cached",
        "ok",
        "over_budget",
        "cached",
    ]
    ops = log.drain()
    write(store, ops, clock)
    usage = store.usage()
    assert [row["outcome"] for row in usage] == ["ok", "cached", "ok", "over_budget", "cached"]
    assert [row["cache_hit"] for row in usage] == [0, 1, 0, 0, 1]
    assert [row["attempts"] for row in usage] == [1, 0, 1, 0, 0]
    assert sum(int(str(row["prompt_tokens"])) for row in usage) == 80
    assert {row["model"] for row in usage} == {"deepseek-chat"}
    assert sum(isinstance(op, PutCache) for op in ops) == 2

    # A second run over the same database: every paid-for prompt is free.
    again, again_log = build_llm(deepseek(), store, clock, {}, sleep=lambda s: None, timer=Ticks())
    assert all(isinstance(again.ask(prompt(d), Score), Answer) for d in ("a", "b"))
    assert route.call_count == 2
    assert [op.outcome for op in again_log.drain() if isinstance(op, RecordUsage)] == ["cached", "cached"]


def test_build_llm_offline_logs_calls_without_caching(store: Store, clock: StepClock) -> None:
    handlers = {"judge": lambda p: {"score": 0.5, "reason": f"{len(p.data)} chars"}}
    llm, log = build_llm(LLMConfig(max_calls=1), store, clock, handlers, timer=Ticks())

    first, second = llm.ask(prompt(), Score), llm.ask(prompt(), Score)

    assert isinstance(first, Answer) and first.model == "offline-1" and not first.cached
    assert isinstance(second, Failure) and second.kind == "over_budget"
    ops = log.drain()
    assert [(op.outcome, op.model) for op in ops if isinstance(op, RecordUsage)] == [
        ("ok", "offline-1"),
        ("over_budget", "offline-1"),
    ]
    assert not any(isinstance(op, PutCache) for op in ops)


def test_build_llm_refuses_deepseek_without_a_key(store: Store, clock: StepClock) -> None:
    with pytest.raises(ConfigError, match="DEEPSEEK_API_KEY"):
        build_llm(deepseek(api_key=None), store, clock, {})


def test_magg_usage_json_reports_totals_by_stage(tmp_path: Path) -> None:
    db = tmp_path / "magg.sqlite"
    store = SQLiteStore.open(db)
    clock = StepClock(T0)
    inner = ScriptedLLM(ok(tokens=(30, 5)), ok(tokens=(20, 4)), ok(tokens=(7, 1)))
    log = UsageLog(CachedLLM(inner, store, clock), clock, Ticks())
    for stage, data in [("extract", "a"), ("judge", "b"), ("judge", "b"), ("judge", "c")]:
        log.ask(prompt(data, stage=stage), Score)
    log.flush(store, clock)
    store.close()

    result = CliRunner().invoke(app, ["usage", "--db", str(db), "--json"])

    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    by_stage = {row["stage"]: row for row in report["by_stage"]}
    assert (by_stage["extract"]["calls"], by_stage["extract"]["prompt_tokens"]) == (1, 30)
    assert (by_stage["judge"]["calls"], by_stage["judge"]["cache_hits"]) == (3, 1)
    assert (by_stage["judge"]["prompt_tokens"], by_stage["judge"]["completion_tokens"]) == (27, 5)
    assert report["total"] == {
        "calls": 4,
        "capped": 0,
        "cache_hits": 1,
        "attempts": 3,
        "prompt_tokens": 57,
        "completion_tokens": 10,
    }


def test_magg_usage_counts_the_calls_the_spend_cap_refused_as_not_made(tmp_path: Path) -> None:
    # `magg usage` said "judge 3 calls" where the spend cap had let one be made: the two it
    # refused were counted as calls, as `magg ingest` (which said "not made") did not.
    db = tmp_path / "magg.sqlite"
    store = SQLiteStore.open(db)
    clock = StepClock(T0)
    inner = ScriptedLLM(ok(tokens=(30, 5)))
    log = UsageLog(SpendCap(inner, max_calls=1), clock, Ticks())
    replies = [log.ask(prompt(data, stage="judge"), Score) for data in "abc"]
    log.flush(store, clock)
    store.close()
    assert [getattr(r, "kind", "ok") for r in replies] == ["ok", "over_budget", "over_budget"]

    listed = CliRunner().invoke(app, ["usage", "--db", str(db), "--json"])
    table = CliRunner().invoke(app, ["usage", "--db", str(db)], env={"COLUMNS": "120"})

    assert listed.exit_code == 0, listed.output
    report = json.loads(listed.output)
    (judge,) = report["by_stage"]
    assert (judge["calls"], judge["capped"], judge["prompt_tokens"]) == (1, 2, 30)
    assert (report["total"]["calls"], report["total"]["capped"]) == (1, 2)
    assert table.exit_code == 0 and "not made (spend cap)" in table.output
    rows = [line.split("│")[1:-1] for line in table.output.splitlines() if line.startswith("│")]
    assert [[cell.strip() for cell in row] for row in rows] == [
        ["judge", "1", "0", "1", "30", "5", "2"],
        ["total", "1", "0", "1", "30", "5", "2"],
    ]


def test_a_reply_longer_than_any_role_needs_is_invalid_and_never_cached(
    store: Store, clock: StepClock
) -> None:
    # It failed the cache record's bound (8,000,000 characters) with a traceback that ended the run.
    giant = Scripted({"score": 0.5, "reason": "x" * 8_000_001})
    cache = CachedLLM(ScriptedLLM(giant), store, clock)

    reply = cache.ask(prompt(), Score)

    assert isinstance(reply, Failure) and reply.kind == "invalid"
    assert "more than any role needs" in reply.reason
    assert not [op for op in cache.outbox.drain() if isinstance(op, PutCache)]
