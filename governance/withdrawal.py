"""Withdrawal: a person takes a lesson out of the course (``magg review withdraw``).

A course drops a lesson; what only that lesson said should no longer stand. Withdrawing it writes,
in one batch:

- one decision that withdraws the lesson's current version (stage
  :data:`~magg_kg.store.WITHDRAWAL`, verdict ``withdraw``, no proposal; the detail names the
  lesson, its key and the reviewer), after which :meth:`~magg_kg.store.Store.current_lessons`
  leaves it out: `magg ask` no longer quotes it, and a restored edge is not grounded on it;
- for each active edge whose every evidence span came from a version of the lesson, a decision
  (verdict ``withdrawn``, state ``invalidated``) and the edge version closed, never deleted; an
  edge another lesson's span grounds too is closed and committed again on the other lessons'
  spans alone (verdict ``regrounded``: no edge quotes a lesson the course no longer has), and one
  that only another lesson's proposal
  states (a twin refused as a duplicate when the edge was in) is closed (verdict ``regrounded``)
  and committed again as a new version, grounded on that lesson's words
  (:func:`governance.curation.current_grounding`);
- for each standing proposal of a version of the lesson (open, abstained, or quarantined for a
  person), a decision that rejects it (verdict ``withdrawn``), which takes it off the review queue.

A withdrawal is undone by :func:`reinstate` (``magg review reinstate``): a decision (verdict
``reinstate``) after which the lesson is current again; each edge its withdrawal closed, and no
writer committed again since, is committed again as a new version on the evidence it had (checked
against the lesson), when the rules, run on the graph as it is now, still pass (those they refuse
stay closed, and the command says why); each edge it grounded again on other lessons alone, and
no writer committed again since, quotes the lesson again as it did (verdict ``regrounded``); each
proposal it closed, and nothing decided since, is
back in the state it was in (open, abstained, or quarantined: in the review queue again). An
edited version of the lesson, ingested later, is a new version: it is admitted as any lesson is.
The same text is not taken again by `magg ingest` (it says the lesson was withdrawn).
:class:`UserError`, with nothing written, for a lesson no key, id or path names, one withdrawn
already (or, to reinstate, one not withdrawn), or a missing reviewer or reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from governance.curation import (
    current_grounding,
    reason_given,
    recommitted,
    regrounded,
    rules_now,
    stated_now,
)
from governance.policy import policy_decision
from governance.retraction import in_force, latest_retractions
from governance.review import REVIEW_PROMPT, grounded, reviewer_name
from magg_kg.builders import invalidation_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import UserError
from magg_kg.lesson_files import lesson_key, same_file
from magg_kg.operations import Operation, RecordDecision, span_data
from magg_kg.records import Decision, EdgeVersion, Lesson, ProposalState
from magg_kg.store import WITHDRAWAL, Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = ["STANDING", "reinstate", "withdraw", "withdrawn_note"]

STANDING: tuple[ProposalState, ...] = ("proposed", "abstained", "quarantined")
"""The states of a proposal still waiting for a decision."""


def _named(store: Store, ident: str) -> tuple[Lesson, frozenset[str]]:
    """The current version of the lesson ``ident`` names (its key, a version's id, or its file),
    and the ids of all its versions."""
    lessons = store.lessons()
    current = {lesson.lesson_key: lesson for lesson in lessons}
    keys = {lesson.lesson_key for lesson in lessons if ident in (lesson.lesson_key, lesson.id)}
    if not keys and ident.strip():
        keys = {lesson.lesson_key for lesson in lessons if same_file(lesson.source_path, ident)}
    if not keys and ident.strip():  # a file's name as the key it gives: "21-nlp-attention.md"
        keys = {
            key for key in current if key in (lesson_key(ident.strip()), lesson_key(Path(ident.strip()).name))
        }
    if not keys:
        raise UserError(
            f"{ident}: no stored lesson has this key, id or file; `magg export` lists the lessons"
        )
    if len(keys) > 1:
        raise UserError(f"{ident}: names {len(keys)} lessons ({', '.join(sorted(keys))}); give a key")
    key = keys.pop()
    return current[key], frozenset(lesson.id for lesson in lessons if lesson.lesson_key == key)


@dataclass
class _Person:
    """A person's decision on a lesson: the lesson, why (who, what, the reason), and the decisions
    it writes, all at one time under the policy."""

    lesson: Lesson
    versions: frozenset[str]
    """The ids of every version of the lesson."""
    why: str
    detail: dict[str, object]
    policy: Policy
    at: str

    @classmethod
    def of(
        cls, store: Store, clock: Clock, policy: Policy, ident: str, reviewer: str, reason: str, done: str
    ) -> _Person:
        name = reviewer_name(reviewer)
        said = reason_given(reason, "a withdrawal" if done == "withdrawn" else "a reinstatement")
        lesson, versions = _named(store, ident)
        why = f"lesson {lesson.lesson_key!r} ({lesson.id}) {done} by {name}: {said}"
        detail: dict[str, object] = {"lesson_id": lesson.id, "lesson_key": lesson.lesson_key}
        detail.update(reviewer=name, reason=said)
        return cls(lesson, versions, why, detail, policy, clock.now())

    def decided(
        self,
        proposal_id: str | None,
        verdict: str,
        state: ProposalState,
        subject: str,
        rationale: str = "",
        **more: object,
    ) -> RecordDecision:
        """A decision of this person's, at stage :data:`~magg_kg.store.WITHDRAWAL`."""
        return policy_decision(
            self.policy,
            None,
            proposal_id,
            WITHDRAWAL,
            verdict,
            state,
            rationale or self.why,
            subject=subject,
            detail={**self.detail, **more},
            prompt_version=REVIEW_PROMPT,
            model="human",
            decided_at=self.at,
        )


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
    person = _Person.of(store, clock, policy, ident, reviewer, reason, "withdrawn")
    lesson, decided = person.lesson, person.decided
    if (earlier := store.withdrawals().get(lesson.id)) is not None:
        raise UserError(f"{ident}: {withdrawn_note(earlier)}; nothing written")
    versions, why = person.versions, person.why
    ops: list[Operation] = [decided(None, "withdraw", "invalidated", lesson.id)]
    stated = stated_now(store, schema, versions)
    for edge in store.edges():
        sources = {span.lesson_id for span in edge.grounding.evidence}
        if not sources & versions:
            continue
        triple = (edge.src, edge.type, edge.dst)
        if sources <= versions:
            spans, _ = current_grounding(store, schema, triple, stated)
        else:  # another lesson's quotes ground it too: they stay, the withdrawn lesson's go
            spans = span_data(span for span in edge.grounding.evidence if span.lesson_id not in versions)
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
            ops.append(decided(proposal.id, "withdrawn", "rejected", proposal.id, was=proposal.state))
    return ops


def reinstate(
    store: Store,
    clock: Clock,
    policy: Policy,
    ident: str,
    reviewer: str,
    reason: str,
    schema: GraphSchema = CURRICULUM,
) -> tuple[list[Operation], list[str]]:
    """The writes that undo the withdrawal of the lesson ``ident`` names, and why each edge it
    closed that the rules now refuse stays closed (module docstring)."""
    person = _Person.of(store, clock, policy, ident, reviewer, reason, "reinstated")
    lesson, decided = person.lesson, person.decided
    withdrawal = store.withdrawals().get(lesson.id)
    if withdrawal is None:
        raise UserError(f"{ident}: lesson {lesson.id} is not withdrawn; nothing written")
    person.detail["undoes"] = withdrawal.id
    taken = [
        d
        for d in store.decisions_at(WITHDRAWAL)
        if d.detail.get("lesson_id") == lesson.id and d.decided_at == withdrawal.decided_at
    ]
    ops: list[Operation] = [decided(None, "reinstate", "committed", lesson.id)]
    edges = store.edges()
    active = {edge.edge_id for edge in edges}
    engine = rules_now(store, schema, edges, in_force(latest_retractions(store, schema)))
    refused: list[str] = []
    for closed in (d for d in taken if d.verdict == "withdrawn" and d.state_after == "invalidated"):
        version = store.edge_version(str(closed.detail.get("version_id")))
        if version is None or version.edge_id in active:
            continue  # committed again since (a new version, a restoring)
        verdict = engine.check(version.src, version.type, version.dst)
        spans, problem = grounded(store, version.grounding.evidence)
        if not verdict.passed or problem:
            refused.append(f"{version.edge_id}: {verdict.reason if not verdict.passed else problem}")
            continue
        again = decided(None, "reinstated", "committed", version.version_id)
        ops += [again, recommitted(version, spans, again)]
    ops += _quoted_again(store, person, taken, {edge.edge_id: edge for edge in edges})
    for closed in (d for d in taken if d.verdict == "withdrawn"):
        was = next((state for state in STANDING if state == closed.detail.get("was")), None)
        if closed.proposal_id is None or was is None:
            continue
        latest = store.decisions(closed.proposal_id)
        if latest and latest[-1].id == closed.id:  # nothing decided it since
            ops.append(decided(closed.proposal_id, "reinstated", was, closed.proposal_id))
    return ops, refused


def _quoted_again(
    store: Store, person: _Person, taken: list[Decision], active: dict[str, EdgeVersion]
) -> list[Operation]:
    """Each edge the withdrawal grounded again on other lessons alone, and no writer committed again
    since, committed again on the evidence it had before (the lesson's quotes with the others'
    still in the course), when that evidence still matches the lessons."""
    ops: list[Operation] = []
    regrounded_by = {d.id for d in taken if d.verdict == "regrounded" and d.state_after == "committed"}
    stale = store.stale_lessons() - {person.lesson.id}
    for closed in (d for d in taken if d.verdict == "regrounded" and d.state_after == "invalidated"):
        before = store.edge_version(str(closed.detail.get("version_id")))
        now = active.get(before.edge_id) if before is not None else None
        if before is None or now is None or now.decision_id not in regrounded_by:
            continue  # closed, or committed again, since
        spans, problem = grounded(store, [s for s in before.grounding.evidence if s.lesson_id not in stale])
        if problem or {(s.lesson_id, s.start, s.end) for s in spans} == {
            (s.lesson_id, s.start, s.end) for s in now.grounding.evidence
        }:
            continue
        closing = person.decided(None, "regrounded", "invalidated", now.version_id, version_id=now.version_id)
        again = person.decided(None, "regrounded", "committed", before.version_id)
        ops += [closing, invalidation_op(now.version_id, closing), again, recommitted(before, spans, again)]
    return ops


def withdrawn_note(decision: Decision) -> str:
    """How a withdrawal decision reads in a message: when, by whom, why."""
    who, said = decision.detail.get("reviewer", "?"), decision.detail.get("reason", decision.rationale)
    return f"withdrawn from the course on {decision.decided_at} by {who}: {said}"
