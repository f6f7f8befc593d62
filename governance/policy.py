"""The decision table: what happens to a proposal after the judge has scored it.

The table is data (:data:`TABLE`): rows checked in order, the first that matches decides. The
thresholds come from :class:`magg_kg.policy.Policy` (the seeds' defaults); both are recorded in
every decision's ``detail`` (:func:`policy_detail`), with a digest of the table, so a decision can
always be read against the rules it was made under.

=============  ==========================================================  ========
row            when                                                        action
=============  ==========================================================  ========
commit         score >= commit_at                                          commit
reject         score < reject_below                                        reject
discovery      contested and the proposal comes from discovery             debate
low-stakes     contested and the type is low-stakes (related, applies_to)  abstain
structural     contested new prerequisite chain (see below)                review
peripheral     contested, and an endpoint is not a core concept            abstain
contested      any other contested edge (between core concepts)            debate
=============  ==========================================================  ========

Core concepts. A debate costs seven model calls; it is spent only on a contested edge between
core concepts, those the curriculum already stands on: a concept with an active edge, or one a
lesson teaches (this lesson included). A contested edge that touches a concept the graph has not
taken up yet abstains instead: it stays open, and its evidence joins the next proposal of the same
edge (the re-evaluation), which is judged again once the graph has taken up its endpoints.
``policy.debate_scope = "any"`` debates every contested edge, as before policy-2.

Structural claims. A contested edge of a structural type (``prerequisite``) is structural when it
reshapes the curriculum: no learning-order path already leads from its src to its dst (a new
chain, or a link that joins two chains). A prerequisite that only restates an order the graph
already implies is an ordinary contested edge and goes to debate.

Pre-screen. A structural claim goes to a person after an agent pre-screen. By default
(``policy.prescreen = "judge"``) the pre-screen is the owners' review and the judge's score it has
already passed: the claim is quarantined for review with the judge's reason, at no further model
call. With ``prescreen = "debate"`` a debate runs first: the agents narrow, a person decides; a
moderator scoring below ``reject_below`` (with a valid, cited verdict) rejects the claim, and
anything else quarantines it with the debate in the record. Measured on the replay, the debate
pre-screen rejected none of the structural claims it saw with the offline provider (every one went
to a person all the same) and cost seven calls each. The pre-screen never commits a structural
claim on its own.

Unanchored claims (:data:`UNANCHORED`). After the table, the gate holds back one more kind of
claim: one that would be committed (by the judge or after a debate) although an endpoint appears
from nowhere (no active edge, no lesson teaches or defines it, no other description names it, no content word
shared with another concept's name) and the claim rests on a single quote. It passes the grounding
checks first, then is quarantined for a person instead of committed.

Co-mentions of a hub (:data:`HUB`, policy-3). Nor is a claim committed when an endpoint is a hub of
the course (named by a large share of its lessons: "AI", "LLM", "neural network") and no quote
states a relation between the two, each only names them together: the review rubric's trivial
relation between over-generic nodes ("Artificial Intelligence related Large Language Models").
It stays open (abstained), as a contested low-stakes edge does; a quote that states the relation
("Generative AI is a field of artificial intelligence") or a name that says it ("convolutional
neural network", a kind of "neural network") lets it through (:func:`governance.claims.hub_comention`).

A ``related`` edge beside a typed one (:data:`SUBSUMED`). Nor is a ``related`` claim committed
between two concepts that an edge of another type joins (it stays open), and committing a typed
edge closes the ``related`` one between the same two: one edge a pair, the one that says more
(:mod:`governance.subsumption`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from magg_kg.builders import decision_op
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.operations import RecordDecision
from magg_kg.records import ProposalState, canonical_json

__all__ = [
    "HUB",
    "SUBSUMED",
    "TABLE",
    "UNANCHORED",
    "Action",
    "Case",
    "Row",
    "policy_decision",
    "policy_detail",
    "route",
    "table_digest",
]

Action = Literal["commit", "reject", "abstain", "review", "debate"]


@dataclass(frozen=True)
class Row:
    name: str
    when: str
    action: Action


TABLE: tuple[Row, ...] = (
    Row("commit", "score >= commit_at", "commit"),
    Row("reject", "score < reject_below", "reject"),
    Row("discovery", "contested and origin is discover", "debate"),
    Row("low-stakes", "contested and type in low_stakes_types", "abstain"),
    Row("structural", "contested, type in structural_types, no learning-order path src -> dst", "review"),
    Row("peripheral", "contested, debate_scope is core, an endpoint is not a core concept", "abstain"),
    Row("contested", "any other contested edge", "debate"),
)
"""The decision table, in checking order."""

UNANCHORED = Row(
    "unanchored",
    "a concept with no lexical or graph relation to the curriculum, on one bare assertion",
    "review",
)
"""The gate's row for a claim that would commit on one quote to a concept from nowhere."""

HUB = Row(
    "hub",
    "an endpoint is a hub of the course and no quote states a relation: the two are only named together",
    "abstain",
)
"""The gate's row for a claim that would commit on the co-mention of a hub of the course."""

SUBSUMED = Row(
    "subsumed",
    "a related claim or edge between two concepts that an edge of another type joins",
    "abstain",
)
"""The gate's row for a ``related`` claim beside a typed edge, and for the closing of a ``related``
edge by a typed one (:mod:`governance.subsumption`)."""


@dataclass(frozen=True)
class Case:
    """What the table looks at: the judge's score and the proposal's kind."""

    score: float
    type: str
    origin: str
    ordered_already: bool
    """Whether a learning-order path src -> ... -> dst is already active."""
    core: bool = True
    """Whether both endpoints are core concepts (an active edge, or taught by a lesson)."""


def _row(name: str) -> Row:
    return next(row for row in TABLE if row.name == name)


def route(policy: Policy, case: Case) -> Row:
    """The first row of the table that matches the case.

    >>> from magg_kg.config import Policy
    >>> route(Policy(), Case(0.9, "related", "ingest", False)).action
    'commit'
    >>> route(Policy(), Case(0.6, "related", "ingest", False)).action
    'abstain'
    >>> route(Policy(), Case(0.6, "prerequisite", "ingest", False)).action
    'review'
    >>> route(Policy(), Case(0.6, "prerequisite", "ingest", True)).action
    'debate'
    >>> route(Policy(), Case(0.6, "builds_on", "ingest", False, core=False)).action
    'abstain'
    """
    if case.score >= policy.commit_at:
        return _row("commit")
    if case.score < policy.reject_below:
        return _row("reject")
    if case.origin == "discover":
        return _row("discovery")
    if case.type in policy.low_stakes_types:
        return _row("low-stakes")
    if case.type in policy.structural_types and not case.ordered_already:
        return _row("structural")
    if policy.debate_scope == "core" and not case.core:
        return _row("peripheral")
    return _row("contested")


def table_digest() -> str:
    """A stable id of the table's content."""
    return make_id("decision_table", canonical_json([[r.name, r.when, r.action] for r in TABLE]))


def policy_detail(policy: Policy, row: Row | None = None) -> dict[str, object]:
    """The policy values and the table row, as recorded in a decision's detail."""
    detail: dict[str, object] = {
        "policy": {
            "version": policy.version,
            "commit_at": policy.commit_at,
            "reject_below": policy.reject_below,
            "debate_commit_at": policy.debate_commit_at,
            "debate_rounds": policy.debate_rounds,
            "contested": policy.contested,
            "debate_scope": policy.debate_scope,
            "prescreen": policy.prescreen,
            "low_stakes_types": list(policy.low_stakes_types),
            "structural_types": list(policy.structural_types),
            "table": table_digest(),
        }
    }
    if row is not None:
        detail["route"] = {"row": row.name, "when": row.when, "action": row.action}
    return detail


def policy_decision(
    policy: Policy,
    row: Row | None,
    proposal_id: str | None,
    stage: str,
    verdict: str,
    state: ProposalState,
    rationale: str,
    *,
    detail: Mapping[str, object],
    prompt_version: str,
    model: str,
    decided_at: str,
    score: float | None = None,
    subject: str = "",
) -> RecordDecision:
    """A decision taken under ``policy`` (and its table ``row``): its version and values recorded."""
    return decision_op(
        proposal_id,
        stage,
        verdict,
        state,
        rationale,
        subject=subject,
        score=score,
        detail={**detail, **policy_detail(policy, row)},
        policy_version=policy.version,
        prompt_version=prompt_version,
        model=model,
        decided_at=decided_at,
    )
