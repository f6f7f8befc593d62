"""The bounded debate: exactly ``policy.debate_rounds`` rounds of advocate and critic, then the
moderator, whose verdict is checked in code.

Each round asks the advocate, then the critic; both see the transcript so far. The two debaters
switch sides between rounds (:func:`agents.debate.debater_for`) and each round has its own
instruction. A debater whose call fails leaves an empty turn with the failure; the moderator still
decides.

The moderator's verdict is void, with the reason recorded, when its reply is unusable (out-of-range
score, not JSON), when it cites no concept id, when it cites an id that is not a concept of the
graph, or when its verdict disagrees with the band of its own score (a self-contradiction). A void
verdict never commits; governance quarantines the proposal with that reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from agents.debate import (
    ADVOCATE,
    CRITIC,
    MODERATOR,
    MODERATOR_SYSTEM,
    PROMPT_VERSION,
    Argument,
    ModeratorReply,
    Side,
    debater_for,
    system_for,
)
from agents.judge import Claim, claim_data, claim_payload, score_band
from magg_kg.config import Policy
from magg_kg.llm.port import LLM, Answer, Failure, Prompt

__all__ = ["DebateResult", "Turn", "hold_debate"]


@dataclass(frozen=True)
class Turn:
    round: int
    side: Side
    agent: str
    reasoning: str
    points: tuple[dict[str, object], ...]
    failure: str = ""

    def as_dict(self) -> dict[str, object]:
        turn: dict[str, object] = {
            "round": self.round,
            "side": self.side,
            "agent": self.agent,
            "reasoning": self.reasoning,
            "points": list(self.points),
        }
        if self.failure:
            turn["failure"] = self.failure
        return turn


@dataclass(frozen=True)
class DebateResult:
    """The transcript and the moderator's verdict; ``problem`` is set when the verdict is void."""

    turns: tuple[Turn, ...]
    score: float | None
    verdict: str
    reasoning: str
    cited: tuple[str, ...]
    problem: str
    model: str
    calls: int
    failures: int
    prompt_tokens: int
    completion_tokens: int = 0
    rounds: int = field(default=0)
    capped: int = 0
    """Calls the spend cap refused: not made, so neither calls nor failures."""
    decider: ClassVar[str] = "moderator"
    """Who gave the verdict, as reasons name it."""

    @property
    def valid(self) -> bool:
        return not self.problem

    def detail(self) -> dict[str, object]:
        return {
            "rounds": self.rounds,
            "transcript": [turn.as_dict() for turn in self.turns],
            "moderator": {
                "score": self.score,
                "verdict": self.verdict,
                "reasoning": self.reasoning,
                "cited_concepts": list(self.cited),
                "problem": self.problem,
            },
            "cost": {"calls": self.calls, "failures": self.failures}
            | ({"capped": self.capped} if self.capped else {})  # as agents.cost.Cost records it
            | {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens},
        }


@dataclass
class _Tally:
    calls: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    capped: int = 0

    def count(self, reply: Answer[Argument] | Answer[ModeratorReply] | Failure) -> None:
        if isinstance(reply, Failure) and reply.kind == "over_budget":  # no call was made
            self.capped += 1
            return
        self.calls += 1
        self.failures += isinstance(reply, Failure)
        self.prompt_tokens += reply.prompt_tokens
        self.completion_tokens += reply.completion_tokens


def hold_debate(
    llm: LLM,
    claim: Claim,
    policy: Policy,
    is_concept: Callable[[str], bool],
    *,
    judge: tuple[float, str] | None = None,
    domain: str = "",
) -> DebateResult:
    """Runs the debate on one claim and checks the moderator's verdict.

    ``is_concept`` says whether an id is a concept of the graph (the citation check); ``judge`` is
    the judge's score and reasoning, shown to the debaters and the moderator.
    """
    base = claim_payload(claim, policy.debate_commit_at, policy.reject_below)
    base["known_concepts"] = sorted({claim.src, claim.dst, *claim.support.concepts})
    if judge is not None:
        base["judge"] = {"score": judge[0], "reasoning": judge[1][:2000]}
    data = claim_data(claim.evidence)
    tally = _Tally()
    turns: list[Turn] = []
    for round_number in range(1, policy.debate_rounds + 1):
        for side, task in (("advocate", ADVOCATE), ("critic", CRITIC)):
            side_name: Side = "advocate" if side == "advocate" else "critic"
            agent = debater_for(side_name, round_number)
            prompt = Prompt(
                task=task,
                stage="debate",
                agent=agent,
                domain=domain,
                system=system_for(side_name, round_number),
                data=data,
                payload={
                    **base,
                    "round": round_number,
                    "side": side,
                    "transcript": [t.as_dict() for t in turns],
                },
                prompt_version=PROMPT_VERSION,
            )
            reply = llm.ask(prompt, Argument)
            tally.count(reply)
            if isinstance(reply, Failure):
                turns.append(Turn(round_number, side_name, agent, "", (), f"{reply.kind}: {reply.reason}"))
            else:
                points = tuple(point.model_dump() for point in reply.value.points)
                turns.append(Turn(round_number, side_name, agent, reply.value.reasoning, points))
    moderator = llm.ask(
        Prompt(
            task=MODERATOR,
            stage="debate",
            agent="moderator",
            domain=domain,
            system=MODERATOR_SYSTEM,
            data=data,
            payload={**base, "transcript": [t.as_dict() for t in turns]},
            prompt_version=PROMPT_VERSION,
        ),
        ModeratorReply,
    )
    tally.count(moderator)

    def result(
        score: float | None, verdict: str, reasoning: str, cited: tuple[str, ...], model: str, problem: str
    ) -> DebateResult:
        return DebateResult(
            turns=tuple(turns),
            score=score,
            verdict=verdict,
            reasoning=reasoning,
            cited=cited,
            problem=problem,
            model=model,
            calls=tally.calls,
            failures=tally.failures,
            prompt_tokens=tally.prompt_tokens,
            completion_tokens=tally.completion_tokens,
            rounds=policy.debate_rounds,
            capped=tally.capped,
        )

    if isinstance(moderator, Failure):
        unusable = f"moderator reply unusable ({moderator.kind}): {moderator.reason}"
        return result(None, "void", "", (), moderator.model or llm.model, unusable)
    said = moderator.value
    problem = _problem(said, policy, is_concept)
    return result(
        said.score, said.verdict, said.reasoning, tuple(said.cited_concepts), moderator.model, problem
    )


def _problem(reply: ModeratorReply, policy: Policy, is_concept: Callable[[str], bool]) -> str:
    """Why the moderator's verdict is void, or "" when it stands."""
    if not reply.cited_concepts:
        return "moderator cited no concept id"
    unknown = sorted({c for c in reply.cited_concepts if not is_concept(c)})
    if unknown:
        return f"moderator cited ids that are not concepts of the graph: {', '.join(unknown)}"
    expected = score_band(reply.score, policy.debate_commit_at, policy.reject_below)
    if reply.verdict != expected:
        return (
            f"moderator contradicted itself: score {reply.score:.2f} is '{expected}', "
            f"verdict says '{reply.verdict}'"
        )
    return ""
