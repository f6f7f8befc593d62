"""Withdrawal: a person takes a lesson out of the course (``magg review withdraw``).

A course drops a lesson; what only that lesson said should no longer stand. Withdrawing it writes,
in one batch:

- one decision that withdraws the lesson's current version (stage
  :data:`~magg_kg.store.WITHDRAWAL`, verdict ``withdraw``, no proposal; the detail names the
  lesson, its key and the reviewer), after which :meth:`~magg_kg.store.Store.current_lessons`
  leaves it out: `magg ask` no longer quotes it, and a restored edge is not grounded on it;
- for each active edge whose every evidence span came from a version of the lesson, a decision
  (verdict ``withdrawn``, state ``invalidated``) and the edge version closed, never deleted; an
  edge another lesson's span grounds stays as it is, and one that only another lesson's proposal
  states (a twin refused as a duplicate when the edge was in) is closed (verdict ``regrounded``)
  and committed again as a new version, grounded on that lesson's words
  (:func:`governance.curation.current_grounding`);
- for each standing proposal of a version of the lesson (open, abstained, or quarantined for a
  person), a decision that rejects it (verdict ``withdrawn``), which takes it off the review queue.

An edited version of the lesson, ingested later, is a new version: it is admitted as any lesson
is, and the lesson is in the course again. The same text is not taken again (`magg ingest` says
the lesson was withdrawn). :class:`UserError`, with nothing written, for a lesson no key, id or
path names, one withdrawn already, or a missing reviewer or reason.
"""

from __future__ import annotations

from governance.curation import current_grounding, reason_given, regrounded
from governance.policy import policy_decision
from governance.review import REVIEW_PROMPT, reviewer_name
from magg_kg.builders import invalidation_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import UserError
from magg_kg.lessons import same_file
from magg_kg.operations import Operation, RecordDecision
from magg_kg.records import Decision, Lesson, ProposalState
from magg_kg.store import WITHDRAWAL, Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["STANDING", "withdraw", "withdrawn_note"]

STANDING = ("proposed", "abstained", "quarantined")
"""The states of a proposal still waiting for a decision."""


def _named(store: Store, ident: str) -> Lesson:
    """The current version of the lesson ``ident`` names: its key, a version's id, or its file."""
    lessons = store.lessons()
    current = {lesson.lesson_key: lesson for lesson in lessons}
    keys = {lesson.lesson_key for lesson in lessons if ident in (lesson.lesson_key, lesson.id)}
    if not keys and ident.strip():
        keys = {lesson.lesson_key for lesson in lessons if same_file(lesson.source_path, ident)}
    if not keys:
        raise UserError(
            f"{ident}: no stored lesson has this key, id or file; `magg export` lists the lessons"
        )
    if len(keys) > 1:
        raise UserError(f"{ident}: names {len(keys)} lessons ({', '.join(sorted(keys))}); give a key")
    return current[keys.pop()]


def withdraw(
    store: Store,
    clock: Clock,
    policy: Policy,
    ident: str,
    reviewer: str,
    reason: str,
    schema: GraphSchema = CURRICULUM,
) -> list[Operation]:
    """The writes that withdraw the lesson ``ident`` names (module docstring)."""
    reviewer = reviewer_name(reviewer)
    said = reason_given(reason, "a withdrawal")
    lesson = _named(store, ident)
    if (earlier := store.withdrawals().get(lesson.id)) is not None:
        raise UserError(f"{ident}: {withdrawn_note(earlier)}; nothing written")
    at = clock.now()
    versions = {stored.id for stored in store.lessons() if stored.lesson_key == lesson.lesson_key}
    why = f"lesson {lesson.lesson_key!r} ({lesson.id}) withdrawn by {reviewer}: {said}"
    detail: dict[str, object] = {"lesson_id": lesson.id, "lesson_key": lesson.lesson_key}
    detail.update(reviewer=reviewer, reason=said)

    def decided(
        proposal_id: str | None,
        verdict: str,
        state: ProposalState,
        subject: str,
        rationale: str = "",
        **more: object,
    ) -> RecordDecision:
        return policy_decision(
            policy,
            None,
            proposal_id,
            WITHDRAWAL,
            verdict,
            state,
            rationale or why,
            subject=subject,
            detail={**detail, **more},
            prompt_version=REVIEW_PROMPT,
            model="human",
            decided_at=at,
        )

    ops: list[Operation] = [decided(None, "withdraw", "invalidated", lesson.id)]
    for edge in store.edges():
        sources = {span.lesson_id for span in edge.grounding.evidence}
        if not sources or not sources <= versions:
            continue
        triple = (edge.src, edge.type, edge.dst)
        spans, _ = current_grounding(store, schema, triple, frozenset(versions))
        verdict = "regrounded" if spans else "withdrawn"
        closing = decided(None, verdict, "invalidated", edge.version_id, version_id=edge.version_id)
        if not spans:
            ops += [closing, invalidation_op(edge.version_id, closing)]
            continue
        lessons = sorted({span.lesson_id for span in spans})  # another lesson states it too
        grounded = f"grounded on {', '.join(lessons)}: {why}"
        again = decided(None, "regrounded", "committed", f"{edge.version_id}+", grounded, lessons=lessons)
        ops += regrounded(edge, spans, closing, again)
    for proposal in store.proposals_in(STANDING):
        if proposal.lesson_id in versions:
            ops.append(decided(proposal.id, "withdrawn", "rejected", proposal.id))
    return ops


def withdrawn_note(decision: Decision) -> str:
    """How a withdrawal decision reads in a message: when, by whom, why."""
    who, said = decision.detail.get("reviewer", "?"), decision.detail.get("reason", decision.rationale)
    return f"withdrawn from the course on {decision.decided_at} by {who}: {said}"
