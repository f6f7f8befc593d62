"""Human review: the queue of quarantined proposals, and a person's decision on one of them.

A review is a decision like any other (stage ``review``, model ``human``, the reviewer named in the
rationale, the detail and, for an approval, the edge's ``source``: ``review:<reviewer>``).
Approving runs the rule engine again against the graph as it is now, and the grounding checks: if
the graph changed and the edge now breaks a rule, the approval is refused with the rule's reason
and nothing is written. Approving or rejecting an id that is not quarantined is refused the same
way. An approved typed edge closes the agents' ``related`` edge between the same two concepts, as a
typed commit does (:mod:`governance.subsumption`).

A person may also invalidate a committed edge, and restore one they invalidated
(:mod:`governance.curation`); approving a proposal of an edge a person invalidated is refused
(rule ``not-retracted``: :mod:`governance.retraction`).

:func:`pending_for` is the re-evaluation hook: the abstained and quarantined proposals of one edge,
whose evidence a new proposal of the same edge joins (:class:`governance.judgment.Judgment` does
this by itself for the proposals it settles).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from governance.claims import ground
from governance.policy import policy_decision
from governance.retraction import retractions
from governance.rules import RuleEngine
from governance.subsumption import closed_for
from magg_kg.builders import commit_op, invalidation_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import UserError
from magg_kg.ids import edge_id, make_id
from magg_kg.lessons import normalize_text
from magg_kg.operations import Operation, RecordDecision, SpanData
from magg_kg.records import Decision, Proposal, ProposalState, Span
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = [
    "MAX_NAME",
    "MAX_NOTE",
    "REVIEW_PROMPT",
    "ReviewItem",
    "approve",
    "bounded_text",
    "case_of",
    "find_item",
    "grounded",
    "out_of_course",
    "pending",
    "pending_for",
    "reject",
    "reviewer_name",
    "reviewer_text",
    "twins_settled",
]

REVIEW_PROMPT = "review-1"
MAX_NAME = 200
"""The longest reviewer's name, in characters."""
MAX_NOTE = 4000
"""The longest note or reason of a review, in characters (a decision's rationale stays readable)."""


@dataclass(frozen=True)
class ReviewItem:
    id: str
    proposal: Proposal
    reason: str
    enqueued_at: str
    duplicates: str = ""
    """The id of the active edge this proposal's edge is, "" when none: an approval would be refused
    (rule ``no-duplicate``) for as long as that edge is active, so a person can only reject it."""

    def summary(self) -> dict[str, object]:
        p = self.proposal
        return {
            "id": self.id,
            "proposal_id": p.id,
            "src": p.src,
            "type": p.type,
            "dst": p.dst,
            "origin": p.origin,
            "lesson_id": p.lesson_id,
            "reason": self.reason,
            "enqueued_at": self.enqueued_at,
            "duplicates": self.duplicates or None,
        }


def pending(store: Store, schema: GraphSchema = CURRICULUM) -> list[ReviewItem]:
    """The open review items (their proposal is still quarantined), oldest first; one per proposal,
    each with the active edge it duplicates, if any (:attr:`ReviewItem.duplicates`)."""
    active = set(store.triples())
    items: dict[str, ReviewItem] = {}
    for row in store.review_queue():
        proposal = store.proposal(str(row["proposal_id"]))
        if proposal is not None:
            triple = schema.canonical(proposal.src, proposal.type, proposal.dst)
            items[proposal.id] = ReviewItem(
                str(row["id"]),
                proposal,
                str(row["reason"]),
                str(row["enqueued_at"]),
                edge_id(*triple) if triple in active else "",
            )
    return sorted(items.values(), key=lambda item: (item.enqueued_at, item.id))


def find_item(store: Store, ident: str) -> ReviewItem | None:
    """The open review item with this review id or proposal id."""
    return next((item for item in pending(store) if ident in (item.id, item.proposal.id)), None)


def pending_for(
    store: Store, src: str, type_: str, dst: str, schema: GraphSchema = CURRICULUM
) -> list[Proposal]:
    """The abstained and quarantined proposals of one edge (the symmetric types in either order)."""
    wanted = schema.canonical(src, type_, dst)
    return [
        p
        for p in store.proposals()
        if p.state in ("abstained", "quarantined") and schema.canonical(p.src, p.type, p.dst) == wanted
    ]


def case_of(store: Store, ident: str) -> dict[str, object]:
    """Everything a reviewer needs: the proposal, its evidence, the owners' votes, and every
    decision on it (judge and debate reasoning, the debate transcript)."""
    item = find_item(store, ident)
    proposal = item.proposal if item is not None else store.proposal(ident) or _queued(store, ident)
    if proposal is None:
        raise UserError(f"no review item or proposal with id {ident}; see `magg review list`")
    decisions = store.decisions(proposal.id)
    votes = [vote for decision in decisions for vote in _votes(decision)]
    edge = store.active_edge(*CURRICULUM.canonical(proposal.src, proposal.type, proposal.dst))
    return {
        "review_id": item.id if item else None,
        "edge_active": edge is not None,  # now: a committed proposal's edge may be closed since
        "reason": item.reason if item else None,
        "proposal": {
            "id": proposal.id,
            "src": proposal.src,
            "type": proposal.type,
            "dst": proposal.dst,
            "state": proposal.state,
            "origin": proposal.origin,
            "lesson_id": proposal.lesson_id,
            "confidence": proposal.confidence,
            "rationale": proposal.rationale,
        },
        "evidence": [span.model_dump() for span in proposal.evidence],
        "votes": votes,
        "decisions": [
            {
                "id": d.id,
                "stage": d.stage,
                "verdict": d.verdict,
                "state_after": d.state_after,
                "score": d.score,
                "rationale": d.rationale,
                "model": d.model,
                "decided_at": d.decided_at,
                **({"debate": _debate(d)} if d.stage == "debate" else {}),
            }
            for d in decisions
        ],
    }


def _votes(decision: Decision) -> list[dict[str, object]]:
    found = decision.detail.get("votes")
    return [dict(v) for v in found if isinstance(v, dict)] if isinstance(found, list) else []


def _debate(decision: Decision) -> dict[str, object]:
    return {key: decision.detail[key] for key in ("transcript", "moderator") if key in decision.detail}


def _open(store: Store, ident: str, action: str) -> ReviewItem:
    item = find_item(store, ident)
    if item is not None:
        return item
    proposal = store.proposal(ident) or _queued(store, ident)
    if proposal is not None:
        raise UserError(f"cannot {action} {ident}: {_settled(store, proposal)}; nothing written")
    raise UserError(
        f"cannot {action} {ident}: no quarantined proposal or review item has this id; see `magg review list`"
    )


def _queued(store: Store, ident: str) -> Proposal | None:
    """The proposal of a review item that is no longer open (``ident`` is its ``q-`` id): the
    item's id is made from its proposal and the decision that quarantined it."""
    if not ident.startswith("q-"):
        return None
    for decision in store.decisions():
        pid = decision.proposal_id
        if pid and decision.state_after == "quarantined":
            if make_id("queue_entry", pid, decision.id) == ident:
                return store.proposal(pid)
    return None


def _settled(store: Store, proposal: Proposal) -> str:
    """What became of a proposal that is not quarantined, and who decided it if a person did."""
    said = f"proposal {proposal.id} is {proposal.state}, not quarantined"
    decisions = store.decisions(proposal.id)
    last = decisions[-1] if decisions else None
    if last is None:
        return said
    reviewer = last.detail.get("reviewer")  # a person's review, withdrawal or restoring
    if reviewer:
        return f"{said} ({last.verdict} by {reviewer} at {last.decided_at})"
    return f"{said} ({last.stage}: {last.rationale[:160]})"  # closed by a new version of its lesson ...


def _latest_score(store: Store, proposal: Proposal) -> float:
    scores = [d.score for d in store.decisions(proposal.id) if d.score is not None]
    return scores[-1] if scores else proposal.confidence


def _decision(
    proposal: Proposal,
    verdict: str,
    state: ProposalState,
    score: float,
    rationale: str,
    reviewer: str,
    policy: Policy,
    now: str,
) -> RecordDecision:
    return policy_decision(
        policy,
        None,
        proposal.id,
        "review",
        verdict,
        state,
        rationale,
        score=score,
        detail={"reviewer": reviewer},
        prompt_version=REVIEW_PROMPT,
        model="human",
        decided_at=now,
    )


def approve(
    store: Store,
    clock: Clock,
    policy: Policy,
    ident: str,
    reviewer: str,
    note: str = "",
    schema: GraphSchema = CURRICULUM,
) -> list[Operation]:
    """A reviewer's approval: the decision and the commit, after the rules and grounding checks.
    A proposal quarantined for a conflict (:mod:`governance.conflict`) first closes the weaker
    active edge its quarantine named: that is what approving it decides.

    Raises :class:`UserError` (and nothing is to be written) if the id is not quarantined, or the
    edge now breaks a rule, or its evidence cannot ground it.
    """
    reviewer = reviewer_name(reviewer)
    item = _open(store, ident, "approve")
    proposal = item.proposal
    engine = RuleEngine(
        schema,
        {c.id: c.type for c in store.concepts()},
        [(e.src, e.type, e.dst) for e in store.edges()],
        retractions(store, schema),
    )
    verdict = engine.check(proposal.src, proposal.type, proposal.dst)
    now = clock.now()
    closing = _settle_conflict(store, engine, proposal, reviewer, policy, now)
    verdict = engine.check(proposal.src, proposal.type, proposal.dst) if closing else verdict
    if not verdict.passed:
        raise UserError(
            f"cannot approve {ident}: the graph changed since it was quarantined and {proposal.src} "
            f"{proposal.type} {proposal.dst} now breaks rule {verdict.rule}: {verdict.reason}; "
            f"reject it with `magg review reject {ident} --reviewer NAME --reason TEXT`"
        )
    spans, problem = grounded(store, proposal.evidence)
    problem = problem or out_of_course(store, proposal.evidence)
    if problem:
        raise UserError(f"cannot approve {ident}: {problem}; reject it instead")
    score = _latest_score(store, proposal)
    note = bounded_text(note, "the note", MAX_NOTE)
    why = f"approved by {reviewer}" + (f": {note}" if note else "")
    decision = _decision(proposal, "approve", "committed", score, why, reviewer, policy, now)
    commit = commit_op(
        decision, *verdict.triple, confidence=score, reason=why, source=f"review:{reviewer}", evidence=spans
    )
    subsumed = closed_for(store, schema, policy, verdict.triple, decision)
    twins = twins_settled(store, proposal, schema, reviewer, policy, now)
    return [*closing, *subsumed, decision, commit, *twins]


def grounded(store: Store, evidence: Sequence[Span]) -> tuple[list[SpanData], str]:
    """The evidence fit to ground a commit now, against the stored lessons, or why there is none
    (:func:`governance.claims.ground`)."""

    def lesson_text(lesson_id: str) -> str | None:
        lesson = store.lesson(lesson_id)
        return lesson.text if lesson else None

    return ground(evidence, lesson_text)


def out_of_course(store: Store, evidence: Sequence[Span], stale: set[str] | None = None) -> str:
    """Why ``evidence`` no longer grounds a commit, "" when it does: every lesson it quotes is a
    version a later one replaced, or withdrawn (:meth:`~magg_kg.store.Store.stale_lessons`; read
    once for many proposals), so the course no longer says it."""
    quoted = {span.lesson_id for span in evidence}
    if not quoted or quoted - (store.stale_lessons() if stale is None else stale):
        return ""
    return (
        f"the course no longer says it: {', '.join(sorted(quoted))} has a new version since, or was withdrawn"
    )


def twins_settled(
    store: Store,
    proposal: Proposal,
    schema: GraphSchema,
    reviewer: str,
    policy: Policy,
    now: str,
    how: str = "approved",
) -> list[RecordDecision]:
    """The other open (quarantined or abstained) proposals of the edge an approval commits, closed
    as superseded by it: the edge is in the graph, and a second approval of it would only be
    refused as a duplicate, so they would wait in the queue for ever."""
    return [
        policy_decision(
            policy,
            None,
            twin.id,
            "review",
            "superseded",
            "committed",
            f"the edge was {how} by {reviewer} as proposal {proposal.id}",
            score=_latest_score(store, twin),
            detail={"reviewer": reviewer, "superseded_by": proposal.id},
            prompt_version=REVIEW_PROMPT,
            model="human",
            decided_at=now,
        )
        for twin in pending_for(store, proposal.src, proposal.type, proposal.dst, schema)
        if twin.id != proposal.id
    ]


def _settle_conflict(
    store: Store, engine: RuleEngine, proposal: Proposal, reviewer: str, policy: Policy, now: str
) -> list[Operation]:
    """For a proposal quarantined for a conflict (:mod:`governance.conflict`), the closing of the
    weaker active edge it named, which approving the proposal settles (none if it is closed
    already, or the proposal was quarantined for another reason)."""
    held = [d for d in store.decisions(proposal.id) if d.stage == "conflict" and d.verdict == "quarantine"]
    edge = store.edge_version(str(held[-1].detail.get("weakest", ""))) if held else None
    if edge is None or edge.status != "active":
        return []
    engine.invalidate(edge.src, edge.type, edge.dst)
    why = (
        f"invalidated by {reviewer}, who approved {proposal.src} {proposal.type} {proposal.dst}, "
        "which conflicts with it"
    )
    decision = policy_decision(
        policy,
        None,
        None,
        "review",
        "invalidate",
        "invalidated",
        why,
        subject=edge.version_id,
        detail={"reviewer": reviewer, "for": proposal.id},
        prompt_version=REVIEW_PROMPT,
        model="human",
        decided_at=now,
    )
    return [decision, invalidation_op(edge.version_id, decision)]


def reject(
    store: Store, clock: Clock, policy: Policy, ident: str, reviewer: str, reason: str
) -> list[Operation]:
    """A reviewer's rejection: one decision. Raises :class:`UserError` if the id is not quarantined."""
    reviewer = reviewer_name(reviewer)
    reason = bounded_text(reason, "the reason", MAX_NOTE)
    if not reason:
        raise UserError("a rejection needs a reason: --reason TEXT")
    item = _open(store, ident, "reject")
    now = clock.now()
    score = _latest_score(store, item.proposal)
    why = f"rejected by {reviewer}: {reason}"
    return [_decision(item.proposal, "reject", "rejected", score, why, reviewer, policy, now)]


def reviewer_name(reviewer: str) -> str:
    """The reviewer's name as a decision records it; :class:`UserError` when there is none."""
    name = bounded_text(reviewer, "the reviewer's name", MAX_NAME)
    if not name:
        raise UserError("a review needs the reviewer's name: --reviewer NAME")
    return name


def reviewer_text(text: str) -> str:
    """A reviewer's text (a name, a note, a reason) as a decision records it and a terminal shows
    it: control characters removed (as from a lesson) and format characters (a bidirectional
    override, a zero-width joiner), whitespace collapsed.

    >>> reviewer_text(" Ada\x1b[2J  Love\u202elace\u202c ")
    'Ada[2J Lovelace'
    """
    return " ".join("".join(c for c in normalize_text(text) if unicodedata.category(c) != "Cf").split())


def bounded_text(text: str, what: str, most: int) -> str:
    """:func:`reviewer_text`, refused when longer than ``most`` characters."""
    bounded = reviewer_text(text)
    if len(bounded) > most:
        raise UserError(f"{what} is {len(bounded):,} characters long; at most {most:,}; nothing written")
    return bounded
