"""Self-consistency for the contested band: the judge sampled as often as the debate calls a
model, the majority deciding; and the replay's full-sc configuration."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel

from agents.judge import TASK as JUDGE_TASK
from agents.offline.handlers import offline_handlers
from agents.support import GraphView
from governance.claims import ask_judge, build_claim
from governance.consistency import ConsistencyResult, contest, majority, resample
from governance.evaluation.ablation import run_configuration
from governance.evaluation.replay import build_candidates, load_dataset
from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig, Policy
from magg_kg.llm.port import Answer, Failure, Prompt
from magg_kg.records import Proposal, Span
from magg_kg.sqlite import SQLiteStore
from tests.bench.conftest import write_dataset

T = TypeVar("T", bound=BaseModel)
T0 = "2026-01-01T00:00:00.000000Z"


class ScriptedJudge:
    """Answers judge prompts with the given scores in turn, and records every prompt."""

    def __init__(self, scores: list[float]) -> None:
        self.scores = list(scores)
        self.prompts: list[Prompt] = []

    @property
    def model(self) -> str:
        return "scripted"

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        self.prompts.append(prompt)
        assert prompt.task == JUDGE_TASK
        score = self.scores.pop(0)
        verdict = "commit" if score >= 0.8 else "reject" if score < 0.5 else "uncertain"
        value = schema.model_validate({"reasoning": "scripted", "score": score, "verdict": verdict})
        return Answer(value=value, model="scripted")


def claim(spans: int = 3):  # type: ignore[no-untyped-def]
    store = SQLiteStore.open(":memory:")
    quotes = [f"Quote number {i} about a and b." for i in range(spans)]
    proposal = Proposal(
        id="p-1",
        src="a",
        type="prerequisite",
        dst="b",
        confidence=0.5,
        evidence=tuple(Span(lesson_id="l", start=0, end=len(q), quote=q, kind="explicit") for q in quotes),
        origin="ingest",
        created_at=T0,
    )
    return build_claim(GraphView.of_store(store), proposal, proposal.evidence)


POLICY = Policy(contested="self-consistency")


def test_samples_match_the_debate_s_calls_and_the_majority_is_the_lower_median() -> None:
    assert POLICY.samples == 2 * POLICY.debate_rounds + 1 == 7
    assert Policy(contested="self-consistency", consistency_samples=3).samples == 3
    assert majority([0.9, 0.1, 0.85]) == 0.85  # 2 of 3 at or above 0.85
    assert majority([0.9, 0.9, 0.1, 0.1]) == 0.1  # a tie is no majority


def test_four_of_seven_samples_commit_and_three_do_not() -> None:
    four = ScriptedJudge([0.9, 0.6, 0.85, 0.6, 0.95, 0.6, 0.81])
    result = contest(four, claim(), POLICY, lambda _: True, judge=(0.6, "contested"))
    assert isinstance(result, ConsistencyResult)
    assert len(four.prompts) == 7 and result.calls == 7
    assert result.valid and result.score is not None and result.score >= POLICY.debate_commit_at
    assert result.verdict == "commit"
    three = ScriptedJudge([0.9, 0.6, 0.85, 0.6, 0.95, 0.6, 0.6])
    result = contest(three, claim(), POLICY, lambda _: True)
    assert result.score is not None and result.score < POLICY.debate_commit_at
    assert all(p.stage == "consistency" for p in three.prompts)


def test_resampling_is_seeded_and_draws_from_the_claim_s_own_evidence() -> None:
    original = claim(4)
    drawn = [resample(original, n) for n in range(7)]
    assert [d.evidence for d in drawn] == [resample(original, n).evidence for n in range(7)]
    assert all(set(d.evidence) <= set(original.evidence) and d.evidence for d in drawn)
    assert len({d.evidence for d in drawn}) > 1  # the samples are not all the same question
    single = claim(1)
    assert all(resample(single, n).evidence == single.evidence for n in range(7))


def test_the_replay_s_full_sc_samples_the_judge_instead_of_debating(tmp_path: Path) -> None:
    folder = write_dataset(tmp_path / "metacademy")
    dataset = load_dataset(folder)
    calls = {}
    for name in ("full", "full-sc"):
        result = run_configuration(
            name,
            build_candidates(dataset, 7),
            dataset,
            llm_config=LLMConfig(),
            policy=Policy(),
            clock_factory=lambda: StepClock(T0),
            handlers=offline_handlers(),
        )
        calls[name] = {str(row["stage"]): int(str(row["calls"])) for row in result.usage}
    assert "debate" not in calls["full-sc"] and "consistency" not in calls["full"]
    # The same proposals reach the contested band, at the same number of model calls.
    assert calls["full-sc"].get("consistency", 0) == calls["full"].get("debate", 0)


class Refusing:
    """An LLM behind a spent cap: every call is refused, none is made."""

    @property
    def model(self) -> str:
        return "scripted"

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        return Failure("over_budget", "the spend cap of 0 model calls is reached (MAGG_LLM_MAX_CALLS)")


def test_calls_the_spend_cap_refused_are_recorded_apart_not_as_calls() -> None:
    # The judge's decision recorded a refused call as `"calls": 1`, the debate's as 7 calls and 7
    # failures, self-consistency's as 7 calls: the audit report's cost per domain counted them.
    judged = ask_judge(Refusing(), Policy(), claim())
    debated = contest(Refusing(), claim(), Policy(), lambda _: True, judge=(0.6, "contested"))
    sampled = contest(Refusing(), claim(), POLICY, lambda _: True, judge=(0.6, "contested"))

    assert judged.problem and not debated.valid and not sampled.valid  # nothing was decided
    assert judged.detail()["cost"] == {"calls": 0, "capped": 1, "prompt_tokens": 0, "completion_tokens": 0}
    assert debated.detail()["cost"] == {
        "calls": 0,
        "failures": 0,
        "capped": 7,
        "prompt_tokens": 0,
        "completion_tokens": 0,
    }
    assert sampled.detail()["cost"] == {"calls": 0, "capped": 7}
    # A call made is recorded as it always was, without `capped`.
    made = ask_judge(ScriptedJudge([0.9]), Policy(), claim())
    assert made.detail()["cost"] == {"calls": 1, "prompt_tokens": 0, "completion_tokens": 0}
