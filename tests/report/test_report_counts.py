"""What the audit report counts, on a snapshot made by hand: what became of each proposal (found
by a hostile run on the genai graph: "invalidated 29" where no edge was invalidated)."""

from __future__ import annotations

from collections.abc import Sequence

from governance.report import audit_report
from magg_kg.records import Decision, Proposal, ProposalState
from magg_kg.snapshot import Snapshot

AT = "2026-01-01T00:00:00.000000Z"
POLICY = {"policy": {"reject_below": 0.5, "commit_at": 0.8}}


def proposal(ident: str, state: ProposalState) -> Proposal:
    return Proposal(
        id=ident,
        src=f"{ident}-a",
        type="related",
        dst=f"{ident}-b",
        confidence=0.5,
        evidence=(),
        origin="ingest",
        created_at=AT,
        state=state,
    )


def decided(
    proposal_id: str,
    stage: str,
    verdict: str,
    state: ProposalState,
    score: float | None = None,
    rationale: str = "why",
    model: str = "offline",
) -> Decision:
    return Decision(
        id=f"dec-{proposal_id}-{stage}-{verdict}",
        proposal_id=proposal_id,
        stage=stage,
        verdict=verdict,
        state_after=state,
        score=score,
        rationale=rationale,
        detail=dict(POLICY) if stage == "judge" else {},
        policy_version="p",
        prompt_version="v",
        model=model,
        decided_at=AT,
    )


def snapshot(cases: dict[str, Sequence[Decision]]) -> Snapshot:
    proposals = tuple(proposal(ident, found[-1].state_after) for ident, found in cases.items())
    return Snapshot(
        as_of=None,
        taken_at=AT,
        concepts=(),
        domains=(),
        owners={},
        proposals=proposals,
        decisions={ident: tuple(found) for ident, found in cases.items()},
        edge_versions=(),
        active=(),
        usage=(),
        lessons=1,
        first_ingested_at=AT,
    )


def test_proposals_closed_for_a_later_one_or_revised_by_an_owner_are_counted_apart() -> None:
    # A proposal closed by re-evaluation recorded the later proposal's outcome as its own state:
    # "invalidated" (no edge was), or "committed" (one edge, two committed proposals); an owner's
    # revision closed the original "rejected", and it counted as a rejection at review.
    report = audit_report(
        snapshot(
            {
                "p-won": [decided("p-won", "judge", "commit", "committed", 0.9)],
                "p-open": [decided("p-open", "reevaluation", "superseded", "invalidated")],
                "p-twin": [decided("p-twin", "reevaluation", "superseded", "committed")],
                "p-lost": [decided("p-lost", "reevaluation", "superseded", "rejected")],
                "p-fixed": [decided("p-fixed", "review", "revise", "rejected", 0.3)],
                "p-no": [decided("p-no", "deliberation", "reject-without-vote", "rejected", 0.2)],
            }
        )
    )
    overall = report["overall"]
    assert isinstance(overall, dict)
    assert overall["states"] == {"committed": 1, "rejected": 1, "revised": 1, "superseded": 3}
    assert overall["rejections"]["by_stage"] == {"deliberation": 1}
