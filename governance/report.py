"""The audit report: what governance decided, per domain and across domains, as one JSON value.

Read from a :class:`~magg_kg.snapshot.Snapshot`, so that a report as of a past time shows what was
known then. A proposal belongs to every domain that owns one of its endpoints (a cross-domain
proposal counts in both). The shape is documented in ``docs/audit-report.md``; the renderers
(:mod:`magg_kg.views`) read nothing else.

- *owners' votes*: the owners' review verdicts (stage ``review``, not by a person) and their
  deliberation ballots; *judge*: the judge's score; *moderator*: the debate moderator's score.
- *agreement*: for each owner review of a proposal the judge also scored, whether the owner
  (approve or revise at or above the reject bar of the policy recorded with the judge's decision:
  for; reject, or a score below that bar: against) agrees with the judge (at or above that bar:
  for). The judge scores only what the deliberation passed, so that owners against are few.
- *cost*: the calls and tokens recorded with the decisions (across domains: every LLM call,
  extraction included), per edge admitted; a call the spend cap refused was not made: it is no
  call, and is counted apart (``capped``).
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from magg_kg.policy import Policy
from magg_kg.records import Decision, EdgeVersion, Proposal
from magg_kg.snapshot import DomainCard, Snapshot

__all__ = ["REPORT_SCHEMA", "SCORE_BINS", "Prices", "audit_report", "reason_kind"]

REPORT_SCHEMA = "magg-audit-report/1"
SCORE_BINS = 10
"""Score histograms have ten bins of width 0.1 over [0, 1]."""
_QUARANTINE_PREFIX = re.compile(r"^(quarantined( for a person)?|structural|low-stakes|contested|reject):\s*")
_OWNER_PREFIX = re.compile(r"^owner:[^:]+:\s*")
_DEFAULT_REJECT_BELOW = 0.5
_CAPPED = "over_budget"
"""The outcome the usage log records for a call the spend cap refused (no request was made)."""


def reason_kind(text: str, src: str = "", dst: str = "") -> str:
    """The kind of a reason: its first clause, with the endpoints' ids written as A and B.

    >>> reason_kind("quarantined: moderator below 0.80: moderator 0.79: 2 point(s)")
    'moderator below 0.80'
    >>> reason_kind("owner:d-1: contradicts the learning order of the card (a before b)")
    'contradicts the learning order of the card'
    >>> reason_kind("a-b comes before c in the card; x", "a-b", "c")
    'A comes before B in the card'
    """
    text = _OWNER_PREFIX.sub("", _QUARANTINE_PREFIX.sub("", text.strip()))
    first = re.split(r":|;| \(", text, maxsplit=1)[0].strip()
    for concept, letter in ((src, "A"), (dst, "B")):
        if concept:
            first = re.sub(rf"(?<![\w-]){re.escape(concept)}(?![\w-])", letter, first)
    return first[:100] or "(no reason given)"


def _seconds(start: str, end: str) -> float:
    parse = datetime.fromisoformat
    return max(0.0, (parse(end.replace("Z", "+00:00")) - parse(start.replace("Z", "+00:00"))).total_seconds())


def _distribution(scores: Sequence[float]) -> dict[str, object]:
    counts = [0] * SCORE_BINS
    for score in scores:
        counts[min(int(score * SCORE_BINS), SCORE_BINS - 1)] += 1
    return {
        "count": len(scores),
        "mean": round(statistics.fmean(scores), 4) if scores else None,
        "median": round(statistics.median(scores), 4) if scores else None,
        "histogram": counts,
    }


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _mapping(value: object) -> dict[str, object]:
    return {str(k): v for k, v in value.items()} if isinstance(value, dict) else {}


def _ballots(decision: Decision) -> list[float]:
    votes = decision.detail.get("votes")
    found = [_number(_mapping(vote).get("score")) for vote in votes] if isinstance(votes, list) else []
    return [score for score in found if score is not None]


def _owner_review(decision: Decision) -> bool:
    return decision.stage == "review" and decision.model != "human"


def _standing(proposal: Proposal, decisions: Sequence[Decision]) -> str:
    """What became of a proposal, as the report counts it: its state, except that one closed for a
    later proposal of the same edge (verdict ``superseded``: re-evaluated with new evidence, its
    twin approved by a person, its lesson's new version) is ``superseded``, whatever state its
    decision records (the later proposal's outcome), and one an owner replaced by a revision of it
    is ``revised``, not a rejection."""
    last = decisions[-1] if decisions else None
    if last is not None and last.verdict == "superseded":
        return "superseded"
    if last is not None and _owner_review(last) and last.verdict == "revise":
        return "revised"
    return proposal.state


def _bars(decisions: Iterable[Decision]) -> list[dict[str, object]]:
    """The gate's bars (reject below, commit at) of the policies recorded with the decisions, each
    with how many decisions were made under it, the most used first; the default policy's when no
    decision recorded one (a report under ``MAGG_POLICY`` said "rejects below 0.50" all the same).

    >>> _bars([])
    [{'reject_below': 0.5, 'commit_at': 0.8, 'decisions': 0}]
    """
    counts: Counter[tuple[float, float]] = Counter()
    for decision in decisions:
        policy = _mapping(decision.detail.get("policy"))
        reject, commit = _number(policy.get("reject_below")), _number(policy.get("commit_at"))
        if reject is not None and commit is not None:
            counts[(reject, commit)] += 1
    if not counts:
        default = Policy()
        return [{"reject_below": default.reject_below, "commit_at": default.commit_at, "decisions": 0}]
    return [
        {"reject_below": reject, "commit_at": commit, "decisions": n}
        for (reject, commit), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    ]


def _judge_bar(decision: Decision) -> float | None:
    """The reject bar a judge's decision was taken under (None for no judge's score)."""
    if decision.stage != "judge" or decision.score is None:
        return None
    bar = _number(_mapping(decision.detail.get("policy")).get("reject_below"))
    return _DEFAULT_REJECT_BELOW if bar is None else bar


def _owner_for(decision: Decision, bar: float) -> bool:
    """Whether an owner's review is for the proposal: it approves or revises it, and believes it
    at the bar or above (an approval it scores below the bar is no vote for it)."""
    return decision.verdict != "reject" and (decision.score is None or decision.score >= bar)


def _scores(decisions: Iterable[Decision]) -> dict[str, object]:
    judge, owners, moderator = [], [], []
    for d in decisions:
        if d.stage == "judge" and d.score is not None:
            judge.append(d.score)
        elif _owner_review(d) and d.score is not None:
            owners.append(d.score)
        elif d.stage == "debate":
            score = _number(_mapping(d.detail.get("moderator")).get("score"))
            if score is not None:
                moderator.append(score)
        if d.stage == "deliberation":
            owners.extend(_ballots(d))
    return {
        "judge": _distribution(judge),
        "owners": _distribution(owners),
        "moderator": _distribution(moderator),
    }


def _agreement(proposals: Sequence[Proposal], snapshot: Snapshot) -> dict[str, object]:
    pairs = agree = owner_for_judge_against = owner_against_judge_for = 0
    for proposal in proposals:
        decisions = snapshot.decisions.get(proposal.id, ())
        judged = [(d, bar) for d in decisions if (bar := _judge_bar(d)) is not None]
        if not judged:
            continue
        last, bar = judged[-1]
        judge = float(last.score or 0.0) >= bar
        for d in decisions:
            if not _owner_review(d) or d.verdict not in ("approve", "revise", "reject"):
                continue
            owner = _owner_for(d, bar)
            pairs += 1
            agree += owner == judge
            owner_for_judge_against += owner and not judge
            owner_against_judge_for += judge and not owner
    return {
        "pairs": pairs,
        "agree": agree,
        "rate": round(agree / pairs, 4) if pairs else None,
        "owner_for_judge_against": owner_for_judge_against,
        "owner_against_judge_for": owner_against_judge_for,
    }


def _bucket(stamps: Sequence[str]) -> int:
    """The length of the time-stamp prefix that buckets the span sensibly (day, hour, minute, second)."""
    if not stamps:
        return 10
    span = _seconds(min(stamps), max(stamps))
    return 10 if span > 3 * 86400 else 13 if span > 3 * 3600 else 16 if span > 180 else 19


def _timeline(versions: Sequence[EdgeVersion], snapshot: Snapshot) -> dict[str, object]:
    closed = [v for v in versions if v.expired_at is not None]
    stamps = [v.recorded_at for v in versions] + [str(v.expired_at) for v in closed]
    width = _bucket(stamps)
    admitted = Counter(v.recorded_at[:width] for v in versions)
    invalidated = Counter(str(v.expired_at)[:width] for v in closed)
    reasons = []
    for v in sorted(closed, key=lambda v: (str(v.expired_at), v.version_id)):
        decision = snapshot.decision_by_id.get(str(v.invalidated_by))
        reasons.append(
            {
                "version_id": v.version_id,
                "src": v.src,
                "type": v.type,
                "dst": v.dst,
                "at": v.expired_at,
                "stage": decision.stage if decision else None,
                "reason": decision.rationale if decision else None,
            }
        )
    by_stage = Counter(
        d.stage for v in versions if (d := snapshot.decision_by_id.get(v.decision_id)) is not None
    )
    return {
        "bucket": {10: "day", 13: "hour", 16: "minute", 19: "second"}[width],
        "admissions": [{"at": at, "count": n} for at, n in sorted(admitted.items())],
        "admissions_by_stage": dict(sorted(by_stage.items())),
        "invalidations": [{"at": at, "count": n} for at, n in sorted(invalidated.items())],
        "invalidation_reasons": reasons,
        "invalidations_by_stage": dict(sorted(Counter(str(r["stage"]) for r in reasons).items())),
    }


@dataclass(frozen=True)
class Prices:
    """What the model's tokens cost, in US dollars per million prompt and completion tokens."""

    prompt: float
    completion: float

    def usd(self, prompt_tokens: int, completion_tokens: int) -> float:
        """The cost of the tokens.

        >>> Prices(0.28, 0.42).usd(1_000_000, 500_000)
        0.49
        """
        return round((prompt_tokens * self.prompt + completion_tokens * self.completion) / 1e6, 6)


def _cost(
    decisions: Iterable[Decision],
    admitted: int,
    usage: Sequence[Mapping[str, object]] | None,
    prices: Prices | None,
) -> dict[str, object]:
    if usage is not None:
        made = [row for row in usage if row.get("outcome") != _CAPPED]
        calls, capped = len(made), len(usage) - len(made)
        prompt = sum(int(_number(row.get("prompt_tokens")) or 0) for row in made)
        completion = sum(int(_number(row.get("completion_tokens")) or 0) for row in made)
    else:
        costs = [_mapping(d.detail.get("cost")) for d in decisions]
        calls = sum(int(_number(c.get("calls")) or 0) for c in costs)
        capped = sum(int(_number(c.get("capped")) or 0) for c in costs)
        prompt = sum(int(_number(c.get("prompt_tokens")) or 0) for c in costs)
        completion = sum(int(_number(c.get("completion_tokens")) or 0) for c in costs)
    per = (lambda n: round(n / admitted, 6)) if admitted else (lambda n: None)
    usd = prices.usd(prompt, completion) if prices is not None else None
    return {
        "calls": calls,
        "capped": capped,
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "admitted_edges": admitted,
        "calls_per_admitted_edge": per(calls),
        "tokens_per_admitted_edge": per(prompt + completion),
        "usd": usd,
        "usd_per_admitted_edge": per(usd) if usd is not None else None,
    }


def _quarantine(proposals: Sequence[Proposal], snapshot: Snapshot) -> dict[str, object]:
    held = []
    for proposal in proposals:
        if proposal.state != "quarantined":
            continue
        why = snapshot.decisions[proposal.id][-1]
        held.append((why.decided_at, proposal, why))
    held.sort(key=lambda item: (item[0], item[1].id))
    ages = [_seconds(at, snapshot.taken_at) for at, _, _ in held]
    kinds = Counter(reason_kind(why.rationale, p.src, p.dst) for _, p, why in held)
    return {
        "open": len(held),
        "age_seconds": {
            "min": round(min(ages), 3) if ages else None,
            "median": round(statistics.median(ages), 3) if ages else None,
            "max": round(max(ages), 3) if ages else None,
        },
        "by_reason": dict(kinds.most_common()),
        "oldest": [
            {
                "proposal_id": p.id,
                "src": p.src,
                "type": p.type,
                "dst": p.dst,
                "since": at,
                "age_seconds": round(age, 3),
                "reason": why.rationale,
            }
            for (at, p, why), age in list(zip(held, ages, strict=True))[:10]
        ],
    }


def _rejections(proposals: Sequence[Proposal], snapshot: Snapshot) -> dict[str, object]:
    by_rule: Counter[str] = Counter()
    by_concern: Counter[str] = Counter()
    by_stage: Counter[str] = Counter()
    for p in proposals:
        decisions = snapshot.decisions.get(p.id, ())
        for d in decisions:
            if d.stage == "rules" and d.verdict.startswith("fail:"):
                by_rule[d.verdict.removeprefix("fail:")] += 1
            elif _owner_review(d) and d.verdict == "reject":
                by_concern[reason_kind(d.rationale, p.src, p.dst)] += 1
        if _standing(p, decisions) == "rejected" and decisions:
            by_stage[decisions[-1].stage] += 1
    return {
        "by_stage": dict(by_stage.most_common()),
        "by_rule": dict(by_rule.most_common(10)),
        "by_owner_concern": dict(by_concern.most_common(10)),
    }


def _debates(decisions: Sequence[Decision]) -> dict[str, object]:
    debates = [d for d in decisions if d.stage == "debate"]
    invalid = sum(1 for d in debates if str(_mapping(d.detail.get("moderator")).get("problem") or ""))
    return {
        "count": len(debates),
        "outcomes": dict(Counter(d.verdict for d in debates).most_common()),
        "states_after": dict(Counter(d.state_after for d in debates).most_common()),
        "invalid_moderator": invalid,
    }


def _section(
    snapshot: Snapshot,
    card: DomainCard | None,
    usage: Sequence[Mapping[str, object]] | None,
    prices: Prices | None,
) -> dict[str, object]:
    inside = set(card.concepts) if card else None

    def touches(src: str, dst: str) -> bool:
        return inside is None or src in inside or dst in inside

    proposals = [p for p in snapshot.proposals if touches(p.src, p.dst)]
    decisions = [d for p in proposals for d in snapshot.decisions.get(p.id, ())]
    versions = [v for v in snapshot.edge_versions if touches(v.src, v.dst)]
    active = [e for e in snapshot.active if touches(e.src, e.dst)]
    # Decisions about an edge rather than a proposal (a re-check, the closing of a subsumed edge)
    # count where the edge they committed or closed does.
    about = {i for v in versions for i in (v.decision_id, v.invalidated_by) if i}
    edge_decisions = [
        d for i in sorted(about) if (d := snapshot.decision_by_id.get(i)) and d.proposal_id is None
    ]
    stages: dict[str, Counter[str]] = {}
    for d in (*decisions, *edge_decisions):
        stages.setdefault(d.stage, Counter())[d.verdict] += 1
    evidence: dict[str, Counter[str]] = {"proposals": Counter(), "active_edges": Counter()}
    for p in proposals:
        evidence["proposals"].update(span.kind for span in p.evidence)
    for e in active:
        evidence["active_edges"].update(span.kind for span in e.grounding.evidence)
    return {
        "scope": card.id if card else "all",
        "domain": None
        if card is None
        else {
            "id": card.id,
            "name": card.name,
            "owner": card.owner,
            "concepts": list(card.concepts),
            "bridges": list(card.bridges),
        },
        "concepts": len(inside) if inside is not None else len(snapshot.concepts),
        "active_edges": len(active),
        "proposals": len(proposals),
        "states": dict(
            sorted(Counter(_standing(p, snapshot.decisions.get(p.id, ())) for p in proposals).items())
        ),
        "decisions": {stage: dict(sorted(verdicts.items())) for stage, verdicts in sorted(stages.items())},
        "scores": _scores(decisions),
        "bars": _bars(decisions),
        "debates": _debates(decisions),
        "quarantine": _quarantine(proposals, snapshot),
        "rejections": _rejections(proposals, snapshot),
        "evidence_kinds": {
            key: {kind: counts[kind] for kind in ("explicit", "implicit", "inferred")}
            for key, counts in evidence.items()
        },
        "agreement": _agreement(proposals, snapshot),
        "cost": _cost(decisions, len(versions), usage, prices),
        "timeline": _timeline(versions, snapshot),
    }


def audit_report(
    snapshot: Snapshot, domain: str | None = None, prices: Prices | None = None
) -> dict[str, object]:
    """The report across domains and for each domain that owns concepts (only the one ``domain``
    names, if given: :meth:`~magg_kg.snapshot.Snapshot.domain`); the model's cost in dollars when
    ``prices`` are given.

    Raises :class:`~magg_kg.errors.UserError` for a domain that is unknown or retired.
    """
    # A domain left with no concept (its concepts moved to others) has nothing to report.
    cards = [snapshot.domain(domain)] if domain is not None else list(snapshot.current_domains)
    # What admission cost: a question `magg ask` answered (stage qa) admits nothing.
    usage = [dict(row) for row in snapshot.usage if row.get("stage") != "qa"]
    return {
        "schema": REPORT_SCHEMA,
        "as_of": snapshot.as_of,
        "taken_at": snapshot.taken_at,
        "lessons": snapshot.lessons,
        "first_ingested_at": snapshot.first_ingested_at,
        "domain_filter": cards[0].id if domain is not None else None,
        "overall": _section(snapshot, None, usage, prices),
        "domains": [_section(snapshot, card, None, prices) for card in cards],
    }
