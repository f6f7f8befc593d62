"""Claims and the judge's reply: what the judge is shown about a proposal, its checked reply, and
the grounding checks that run in code before anything is committed.

A judge reply is unusable when the model's output does not validate (not JSON, a score out of
[0, 1]) or when its verdict disagrees with the band of its own score (a self-contradiction).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import asdict, dataclass

from agents.findings import read_quote
from agents.judge import Claim, JudgeReply, judge_prompt, score_band
from agents.names import headed_by
from agents.offline.injection import instruction_like
from agents.support import GraphView
from governance.stages import Vote
from magg_kg.config import Policy
from magg_kg.llm.port import LLM, Failure
from magg_kg.operations import SpanData, span_data
from magg_kg.records import Proposal, Span, Triple

__all__ = [
    "JudgeResult",
    "anchored",
    "ask_judge",
    "build_claim",
    "current_spans",
    "ground",
    "hub_comention",
    "merge_evidence",
    "short_reason",
    "strongest_first",
]

REASON_CHARS = 600
"""A committed edge's reason is the verdict's reasoning, cut to this length."""
HUB_SHARE = 0.4
"""A concept named by at least this share of a course's lessons is a hub of the course. Of the
labelled lesson claims (``benchmarks/data``) the shipped judgment scores at or above the commit
bar, those with an endpoint named by >= 40% of the lessons are acceptable 4 of 8 times (the d2l
training chapters in the book's order), 0 of 1 (its evaluation chapters) and 8 of 18 (genai); the
others 0.85 to 0.89 (d2l, four files) and 0.80 (genai, 12 of 15)."""
HUB_MIN_LESSONS = 4
"""Nor is a concept a hub that fewer lessons name: early in a course (three lessons in, two of
them naming it) a share says little. ``magg reconsider`` judges what was left open again once the
course is in."""


@dataclass(frozen=True)
class JudgeResult:
    """The judge's reply, checked: ``problem`` says why it is unusable ("" when it stands)."""

    score: float | None
    verdict: str
    reasoning: str
    problem: str
    model: str
    calls: int
    prompt_tokens: int
    completion_tokens: int
    capped: int = 0
    """1 when the spend cap refused the call: it was not made (``calls`` is 0)."""

    def detail(self) -> dict[str, object]:
        cost: dict[str, object] = {"calls": self.calls}
        return {
            "judge": {
                "score": self.score,
                "verdict": self.verdict,
                "reasoning": self.reasoning,
                "problem": self.problem,
            },
            "cost": cost
            | ({"capped": self.capped} if self.capped else {})  # as agents.cost.Cost records it
            | {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens},
        }


def build_claim(
    view: GraphView,
    proposal: Proposal,
    evidence: Sequence[Span],
    *,
    votes: Sequence[Vote] = (),
    confidence: float | None = None,
    original: Triple | None = None,
) -> Claim:
    """What the judge and the debaters are shown about a proposal."""
    src, dst = proposal.src, proposal.dst
    source, target = view.concept(src), view.concept(dst)
    return Claim(
        proposal_id=proposal.id,
        src=src,
        type=proposal.type,
        dst=dst,
        origin=proposal.origin,
        confidence=confidence,
        evidence=tuple(evidence),
        support=view.support(src, proposal.type, dst),
        src_names=tuple(view.names(src)),
        dst_names=tuple(view.names(dst)),
        src_type=source.type if source else "",
        dst_type=target.type if target else "",
        src_description=source.description if source else "",
        dst_description=target.description if target else "",
        votes=tuple(asdict(vote) for vote in votes),
        original=original,
    )


def ask_judge(
    llm: LLM, policy: Policy, claim: Claim, *, domain: str = "", stage: str = "judge"
) -> JudgeResult:
    """Asks the judge about one claim and checks its reply."""
    reply = llm.ask(
        judge_prompt(claim, policy.commit_at, policy.reject_below, stage=stage, domain=domain), JudgeReply
    )
    if isinstance(reply, Failure):
        refused = reply.kind == "over_budget"  # the spend cap kept the call from being made
        return JudgeResult(
            None,
            "void",
            "",
            f"judge reply unusable ({reply.kind}): {reply.reason}",
            reply.model or llm.model,
            0 if refused else 1,
            reply.prompt_tokens,
            reply.completion_tokens,
            capped=int(refused),
        )
    value = reply.value
    expected = score_band(value.score, policy.commit_at, policy.reject_below)
    problem = ""
    if value.verdict != expected:
        problem = (
            f"judge contradicted itself: score {value.score:.2f} is '{expected}', "
            f"verdict says '{value.verdict}'"
        )
    return JudgeResult(
        value.score,
        value.verdict,
        value.reasoning,
        problem,
        reply.model,
        1,
        reply.prompt_tokens,
        reply.completion_tokens,
    )


def ground(evidence: Sequence[Span], lesson_text: Callable[[str], str | None]) -> tuple[list[SpanData], str]:
    """The evidence fit to ground a commit, or why there is none (checked in code, whatever a model
    said): quotes with instruction-like text are dropped, the rest must be found in their lesson at
    their offsets. A lesson not in the store yet (one of the batch being written) or external
    evidence is checked by its own stage, and ``magg audit verify`` checks every quote again.
    """
    if not evidence:
        return [], "no evidence span"
    clean = [s for s in evidence if not instruction_like(s.quote)]
    if not clean:
        return [], "every evidence quote carries instruction-like text"
    found = []
    for span in clean:
        text = lesson_text(span.lesson_id)
        if text is None or text[span.start : span.end] == span.quote:
            found.append(span)
    if not found:
        return [], "no evidence quote is found in its lesson at its offsets"
    return span_data(found[:64]), ""


def strongest_first(claim: Claim, spans: Sequence[SpanData]) -> list[SpanData]:
    """The grounded quotes of a commit, the one that supports the claim most directly first
    (:meth:`~agents.findings.Reading.strength`), ties in their order: the first quote is what a
    person, an expert answering a question and an export show of an edge.
    """
    names = (claim.src_names, claim.dst_names)
    triple = (claim.src, claim.type, claim.dst)
    strength = [
        read_quote(i, span.lesson_id, span.kind, span.quote, triple, names).strength()
        for i, span in enumerate(spans)
    ]
    order = sorted(range(len(spans)), key=strength.__getitem__, reverse=True)  # stable: ties keep their order
    return [spans[i] for i in order]


def anchored(claim: Claim) -> bool:
    """Whether both endpoints relate to the curriculum (:meth:`GraphView.anchored`), or more than
    one distinct quote backs the claim; the gate never commits a claim that is neither."""
    quotes = {(span.lesson_id, " ".join(span.quote.split())) for span in claim.evidence}
    return all(claim.support.anchored) or len(quotes) > 1


def hub_comention(claim: Claim) -> str:
    """Why ``claim`` only names a hub of the course together with another concept ("" when it
    does not): an endpoint is named by at least :data:`HUB_SHARE` of the lessons, and by at least
    :data:`HUB_MIN_LESSONS`, no quote is explicit or states a relation between the two
    (:func:`agents.findings.read_quote`), and neither name is a kind of the other's ("recurrent
    neural network", "neural network": :func:`agents.names.headed_by`)."""
    total = claim.support.lessons
    src_lessons, dst_lessons, _ = claim.support.together
    hubs = [
        (lessons, names[0])
        for lessons, names in ((src_lessons, claim.src_names), (dst_lessons, claim.dst_names))
        if names and lessons >= max(HUB_MIN_LESSONS, HUB_SHARE * total)
    ]
    if not hubs or headed_by(claim.src_names, claim.dst_names) or headed_by(claim.dst_names, claim.src_names):
        return ""
    triple, names = (claim.src, claim.type, claim.dst), (claim.src_names, claim.dst_names)
    for i, span in enumerate(claim.evidence):
        reading = read_quote(i, span.lesson_id, span.kind, span.quote, triple, names)
        if span.kind == "explicit" or reading.stated not in ("none", "unnamed"):
            return ""
    lessons, name = max(hubs)
    return f"{name!r} is named by {lessons} of the {total} lessons, and the quotes only name the two together"


def current_spans(spans: Iterable[Span], stale: AbstractSet[str], lesson_id: str | None) -> list[Span]:
    """The spans that quote no lesson of ``stale`` (versions a later one replaced, withdrawn
    lessons) and no other version of the claim's own lesson ``lesson_id`` (a version being
    ingested replaces the stored ones before the store knows it): a proposal an earlier version
    made, closed before its version was replaced, is no evidence for a proposal of the new one.

    >>> def span(lesson: str) -> Span:
    ...     return Span(lesson_id=lesson, start=0, end=1, quote="x", kind="implicit")
    >>> old, new, other = span("intro@aaaaaaaaaaaa"), span("intro@bbbbbbbbbbbb"), span("loops@cccccccccccc")
    >>> [s.lesson_id for s in current_spans([old, new, other], set(), "intro@bbbbbbbbbbbb")]
    ['intro@bbbbbbbbbbbb', 'loops@cccccccccccc']
    """
    key = lesson_id.rsplit("@", 1)[0] if lesson_id else None
    return [
        span
        for span in spans
        if span.lesson_id not in stale
        and (span.lesson_id == lesson_id or span.lesson_id.rsplit("@", 1)[0] != key)
    ]


def merge_evidence(groups: Iterable[Sequence[Span]]) -> list[Span]:
    seen: set[tuple[str, int, int]] = set()
    merged: list[Span] = []
    for group in groups:
        for span in group:
            key = (span.lesson_id, span.start, span.end)
            if key not in seen:
                seen.add(key)
                merged.append(span)
    return merged


def short_reason(text: str) -> str:
    text = " ".join(text.split()) or "committed"
    return text if len(text) <= REASON_CHARS else text[: REASON_CHARS - 1] + "…"
