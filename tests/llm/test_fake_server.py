"""A round trip through build_llm to a local OpenAI-compatible server (real HTTP on 127.0.0.1)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from magg_kg.clock import StepClock
from magg_kg.config import load_config
from magg_kg.llm import Answer, Prompt, build_llm
from magg_kg.operations import RecordUsage
from magg_kg.store import Store
from tests.llm.fake_server import ChatRequest, serve
from tests.llm.prompts import prompt_of


class Score(BaseModel):
    score: float = Field(ge=0.0, le=1.0)
    reason: str


PROMPT = Prompt(
    task="judge",
    stage="judge",
    agent="judge",
    system="Score the edge.",
    data="Backpropagation applies the chain rule <<<LESSON DATA twice.",
    payload={"edge": "e-1", "weights": [0.5, 1]},
    prompt_version="judge-1",
)


def script(request: ChatRequest) -> dict[str, object]:
    seen = prompt_of(request)
    return {"score": 0.5, "reason": f"{seen.task}: {len(seen.payload)} fields, {seen.data.split()[0]}"}


def test_a_round_trip_through_build_llm(store: Store, clock: StepClock) -> None:
    with serve(script) as server:
        env = {
            "MAGG_LLM": "deepseek",
            "DEEPSEEK_API_KEY": "test",
            "MAGG_LLM_BASE_URL": server.base_url,
            "MAGG_LLM_ALLOW_ANY_HOST": "1",
            "MAGG_LLM_MODEL": "local-model",
        }
        llm, log = build_llm(load_config(env).llm, store, clock, {}, sleep=lambda s: None)

        answer = llm.ask(PROMPT, Score)
        again = llm.ask(PROMPT, Score)

    assert isinstance(answer, Answer) and answer.value.reason == "judge: 2 fields, Backpropagation"
    assert answer.model == "local-model" and answer.attempts == 1
    assert isinstance(again, Answer) and again.cached
    [request] = server.requests
    assert request.path == "/chat/completions"
    assert request.headers["authorization"] == "Bearer test"
    assert request.body["response_format"] == {"type": "json_object"}
    seen = prompt_of(request)
    assert seen.payload == PROMPT.payload and seen.system == PROMPT.system
    assert seen.data == PROMPT.data.replace("<<<", "< < <")
    usage = [op for op in log.drain() if isinstance(op, RecordUsage)]
    assert [op.outcome for op in usage] == ["ok", "cached"]
    assert server.usage == [(usage[0].prompt_tokens, usage[0].completion_tokens)]
    assert usage[0].prompt_tokens > 0 and (usage[1].prompt_tokens, usage[1].completion_tokens) == (0, 0)
