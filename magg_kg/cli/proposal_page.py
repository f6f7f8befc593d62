"""What the page of one proposal shows (``/proposals/ID`` of ``magg serve``): the proposal, its
evidence in its lesson, the owners' ballots and reviews, the judge's reasoning and the debates."""

from __future__ import annotations

from collections.abc import Mapping

from governance.review import case_of
from magg_kg.store import Store

__all__ = ["proposal_view"]

_CONTEXT_CHARS = 320


def _evidence(store: Store, spans: object) -> list[dict[str, object]]:
    shown = []
    for span in spans if isinstance(spans, list) else []:
        lesson = store.lesson(str(span["lesson_id"]))
        text = lesson.text if lesson else ""
        start, end = int(span["start"]), int(span["end"])
        heading = next(
            (
                str(c["heading"])
                for c in store.chunks(str(span["lesson_id"]))
                if c["id"] == span.get("chunk_id")
            ),
            "",
        )
        shown.append(
            {
                **span,
                "title": lesson.title if lesson else "(lesson not found)",
                "heading": heading,
                "before": text[max(0, start - _CONTEXT_CHARS) : start],
                "after": text[end : end + _CONTEXT_CHARS],
                "cut_before": start > _CONTEXT_CHARS,
                "cut_after": end + _CONTEXT_CHARS < len(text),
            }
        )
    return shown


def _detail(decision: Mapping[str, object], key: str) -> dict[str, object]:
    value = decision.get(key)
    return value if isinstance(value, dict) else {}


def proposal_view(store: Store, ident: str) -> dict[str, object]:
    case = case_of(store, ident)
    proposal = case["proposal"]
    assert isinstance(proposal, dict)
    full = store.decisions(str(proposal["id"]))
    decisions = case["decisions"]
    assert isinstance(decisions, list)
    reviews = []
    for d in full:
        if d.stage == "review":
            owner, _, why = d.rationale.partition(": ")
            if not owner.startswith("owner:"):
                owner, why = f"reviewer {d.detail.get('reviewer', '?')}", d.rationale
            reviews.append({"owner": owner, "verdict": d.verdict, "score": d.score, "rationale": why})
    judges = [
        {
            "verdict": d.verdict,
            "score": d.score,
            "route": _detail(d.detail, "route").get("row"),
            "reasoning": _detail(d.detail, "judge").get("reasoning") or d.rationale,
        }
        for d in full
        if d.stage == "judge"
    ]
    debates = []
    for d in full:
        if d.stage != "debate":
            continue
        moderator = _detail(d.detail, "moderator")
        transcript = d.detail.get("transcript")
        debates.append(
            {
                "verdict": moderator.get("verdict", d.verdict),
                "score": moderator.get("score", d.score),
                "cited": moderator.get("cited_concepts") or [],
                "problem": moderator.get("problem") or "",
                "reasoning": moderator.get("reasoning") or d.rationale,
                "transcript": transcript if isinstance(transcript, list) else [],
            }
        )
    ballots = case["votes"]
    assert isinstance(ballots, list)
    votes = [
        {
            **vote,
            "owner": vote.get("owner") or f"owner:{vote.get('domain')}",
            "verdict": vote.get("verdict", "vote"),
        }
        for vote in ballots
    ]
    return {
        "p": proposal,
        "reason": case["reason"],
        "evidence": _evidence(store, case["evidence"]),
        "reviews": reviews,
        "votes": votes,
        "judges": judges,
        "debates": debates,
        "decisions": decisions,
        "domains": sorted(
            {d for c in (proposal["src"], proposal["dst"]) for d in store.concept_domains().get(str(c), ())}
        ),
    }
