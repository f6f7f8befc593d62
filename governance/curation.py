"""Curation: a person's changes to committed edges.

:func:`invalidate` (``magg review invalidate``) closes an active edge a person finds wrong: a
decision at stage ``retraction`` (:mod:`governance.retraction`) on the proposal that committed it,
and the edge version closed, never deleted. The rule engine then refuses the edge, with the
person's reason (rule ``not-retracted``), whichever lesson proposes it again.

:func:`restore` (``magg review restore``) undoes the latest invalidation of an edge: a decision
with verdict ``restore`` on its proposal, and a new version of the edge, grounded on what the
current versions of its lessons say (checked against them), once the rules, without the
retraction, pass on the graph as it is now. A typed edge restored closes the agents' ``related``
edge between the same two concepts, as a typed commit does (:mod:`governance.subsumption`).

Each raises :class:`UserError`, with nothing to be written, for an id that names no edge it can
act on, or without a reviewer and a reason.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from governance.policy import policy_decision
from governance.retraction import RETRACTION, in_force, latest_retractions
from governance.review import MAX_NOTE, REVIEW_PROMPT, bounded_text, grounded, reviewer_name, twins_settled
from governance.rules import RuleEngine
from governance.subsumption import closed_for
from magg_kg.builders import commit_op, invalidation_op
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import UserError
from magg_kg.ids import edge_id
from magg_kg.operations import CommitEdge, Operation, RecordDecision, SpanData
from magg_kg.records import EdgeVersion, Span, Triple
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = [
    "current_grounding",
    "invalidate",
    "reason_given",
    "recommitted",
    "regrounded",
    "restore",
    "rules_now",
    "stated_now",
]


def reason_given(reason: str, what: str) -> str:
    """The reason a person gave, bounded; :class:`UserError` when there is none."""
    said = bounded_text(reason, "the reason", MAX_NOTE)
    if not said:
        raise UserError(f"{what} needs a reason: --reason TEXT")
    return said


def invalidate(
    store: Store, clock: Clock, policy: Policy, ident: str, reviewer: str, reason: str
) -> list[Operation]:
    """A person's invalidation of an active edge (``ident``: its edge id or its version's id): a
    decision on the proposal that committed it, and the version closed."""
    reviewer = reviewer_name(reviewer)
    reason = reason_given(reason, "an invalidation")
    active = store.edges()
    edge = next((e for e in active if ident in (e.edge_id, e.version_id)), None)
    if edge is None:
        raise UserError(_not_active(store, active, ident))
    committed = next(
        (
            p
            for p in store.proposals_in(("committed",))
            if (p.src, p.type, p.dst) == (edge.src, edge.type, edge.dst)
            and any(d.id == edge.decision_id for d in store.decisions(p.id))
        ),
        None,
    )
    decision = policy_decision(
        policy,
        None,
        committed.id if committed else None,
        RETRACTION,
        "invalidate",
        "invalidated",
        f"invalidated by {reviewer}: {reason}",
        subject=edge.version_id,
        score=edge.grounding.confidence,
        detail={"reviewer": reviewer, "version_id": edge.version_id},
        prompt_version=REVIEW_PROMPT,
        model="human",
        decided_at=clock.now(),
    )
    return [decision, invalidation_op(edge.version_id, decision)]


def _not_active(store: Store, active: Sequence[EdgeVersion], ident: str) -> str:
    """Why ``ident`` names no active edge to invalidate: no edge at all, an edge closed already,
    or an earlier version of an edge that is active under another version (restored, regrounded)."""
    known = next((v for v in store.edge_versions() if ident in (v.edge_id, v.version_id)), None)
    current = next((e for e in active if known is not None and e.edge_id == known.edge_id), None)
    if current is not None:
        return (
            f"{ident}: an earlier version of edge {current.edge_id}, which is active as version "
            f"{current.version_id}: `magg review invalidate {current.edge_id}` closes it"
        )
    why = "not an active edge (invalidated already)" if known is not None else "no such edge"
    return f"{ident}: {why}; `magg export` lists the active edges with their ids"


def restore(
    store: Store,
    clock: Clock,
    policy: Policy,
    ident: str,
    reviewer: str,
    reason: str,
    schema: GraphSchema = CURRICULUM,
) -> list[Operation]:
    """A person's undoing of an invalidation (``ident``: the edge's id, or the id of a version a
    person invalidated): a decision on the proposal of the latest invalidation, and the edge
    committed again on the evidence its lessons' current versions give it."""
    reviewer = reviewer_name(reviewer)
    reason = reason_given(reason, "a restoring")
    latest = latest_retractions(store, schema)
    matched = [
        (triple, proposal, decisions)
        for triple, (proposal, decisions) in latest.items()
        if ident == edge_id(*triple) or any(ident == d.detail.get("version_id") for d in decisions)
    ]
    if not matched:
        versions = [v for v in store.edge_versions() if ident in (v.edge_id, v.version_id)]
        if versions and any(v.status == "active" for v in versions):
            raise UserError(f"{ident}: the edge is active: there is nothing to restore")
        closing = versions[-1].invalidated_by if versions else None
        closed = next((d for d in store.decisions() if d.id == closing), None) if closing else None
        why = (
            f"; it was closed at stage {closed.stage}: {closed.rationale[:160]}" if closed is not None else ""
        )
        raise UserError(
            f"{ident}: no edge a person invalidated has this id (an edge id, or a version id as "
            f"`magg review invalidate` closed it){why}"
        )
    triple, proposal, decisions = matched[0]
    if decisions[-1].verdict != "invalidate":
        raise UserError(
            f"{ident}: {decisions[-1].rationale} already; `magg review invalidate` closes it again"
        )
    others = {t: why for t, why in in_force(latest).items() if t != triple}
    verdict = rules_now(store, schema, store.edges(), others).check(*triple)
    if not verdict.passed:
        raise UserError(f"cannot restore {ident}: it now breaks rule {verdict.rule}: {verdict.reason}")
    spans, problem = current_grounding(store, schema, triple)
    if problem:
        raise UserError(f"cannot restore {ident}: {problem}")
    why = f"restored by {reviewer}: {reason}"
    if proposal is None:  # invalidated as a version grounded anew: the proposal that first committed it
        proposal = next(
            (
                p
                for p in store.proposals_in(("committed",))
                if schema.canonical(p.src, p.type, p.dst) == triple
            ),
            None,
        )
    score = (
        decisions[-1].score if decisions[-1].score is not None else proposal.confidence if proposal else 1.0
    )
    decision = policy_decision(
        policy,
        None,
        proposal.id if proposal is not None else None,
        RETRACTION,
        "restore",
        "committed",
        why,
        score=score,
        detail={
            "reviewer": reviewer,
            "undoes": decisions[-1].id,
            "version_id": decisions[-1].detail.get("version_id"),
        },
        prompt_version=REVIEW_PROMPT,
        model="human",
        decided_at=clock.now(),
    )
    commit = commit_op(
        decision, *verdict.triple, confidence=score, reason=why, source=f"review:{reviewer}", evidence=spans
    )
    settled = (
        twins_settled(store, proposal, schema, reviewer, policy, decision.decided_at, "restored")
        if proposal
        else []
    )
    return [*closed_for(store, schema, policy, verdict.triple, decision), decision, commit, *settled]


def stated_now(
    store: Store, schema: GraphSchema, leaving: frozenset[str] = frozenset()
) -> dict[Triple, list[Span]]:
    """Each edge (canonical) the current lessons state, with the evidence spans their proposals
    give it: not a version a later one replaced, nor a withdrawn lesson, nor the lessons
    ``leaving`` (those a withdrawal is taking out). Read once for any number of edges."""
    now = set(store.current_lesson_ids()) - leaving
    found: dict[Triple, dict[tuple[str, int, int], Span]] = {}
    for proposal in store.proposals():
        triple = schema.canonical(proposal.src, proposal.type, proposal.dst)
        for span in proposal.evidence:
            if span.lesson_id in now:
                found.setdefault(triple, {})[(span.lesson_id, span.start, span.end)] = span
    return {triple: list(spans.values()) for triple, spans in found.items()}


def current_grounding(
    store: Store, schema: GraphSchema, triple: Triple, stated: Mapping[Triple, list[Span]] | None = None
) -> tuple[list[SpanData], str]:
    """The evidence the current version of each lesson gives the edge (any of its proposals'), fit
    to ground it now; or why there is none (``stated``: :func:`stated_now`, read once for many
    edges). A lesson replaced by a new version since no longer grounds it: its claim is the new
    version's to make."""
    spans = (stated_now(store, schema) if stated is None else stated).get(triple)
    if not spans:
        return [], (
            "no current version of a lesson states it (its lessons have new versions since, or were "
            "withdrawn: `magg review reinstate LESSON --reviewer NAME --reason TEXT` brings a withdrawn "
            "one back)"
        )
    return grounded(store, spans)


def rules_now(
    store: Store, schema: GraphSchema, edges: Sequence[EdgeVersion], retracted: Mapping[Triple, str]
) -> RuleEngine:
    """The rule engine over the graph as it is now (``edges``, the active ones), with the edges a
    person's retraction keeps out (``retracted``, :func:`governance.retraction.in_force`)."""
    concepts = {c.id: c.type for c in store.concepts()}
    return RuleEngine(schema, concepts, [(e.src, e.type, e.dst) for e in edges], retracted)


def recommitted(edge: EdgeVersion, spans: Sequence[SpanData], decision: RecordDecision) -> CommitEdge:
    """A new version of ``edge``, committed by ``decision`` (its rationale the reason) on ``spans``,
    its confidence and source kept."""
    return commit_op(
        decision,
        edge.src,
        edge.type,
        edge.dst,
        confidence=edge.grounding.confidence,
        reason=decision.rationale,
        source=edge.grounding.source,
        evidence=spans,
    )


def regrounded(
    edge: EdgeVersion, spans: Sequence[SpanData], closing: RecordDecision, again: RecordDecision
) -> list[Operation]:
    """An edge whose own lessons no longer ground it, while another lesson states it
    (:func:`current_grounding` gave ``spans``): the version closed by ``closing``, never deleted,
    and a new version committed by ``again`` on those spans (:func:`recommitted`)."""
    return [closing, invalidation_op(edge.version_id, closing), again, recommitted(edge, spans, again)]
