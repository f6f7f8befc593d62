"""What the audit report counts, on a snapshot made by hand: each proposal's end, the owners'
agreement with the judge, and the owners' concerns (found by a hostile run on the genai and d2l
graphs: "invalidated 29" where no edge was invalidated, agreement 100% where owners approved what
they scored 0.006)."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

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


def test_agreement_reads_an_owners_score_against_the_judges_bar() -> None:
    # An owner that approved at 0.2 counted "for", against a judge at 0.3: a disagreement, though
    # both were below the bar of 0.5; and the owner approving at 0.9 a judge scored 0.3 for.
    report = audit_report(
        snapshot(
            {
                "p-low": [
                    decided("p-low", "review", "approve", "proposed", 0.2),
                    decided("p-low", "judge", "reject", "rejected", 0.3),
                ],
                "p-high": [
                    decided("p-high", "review", "approve", "proposed", 0.9),
                    decided("p-high", "judge", "reject", "rejected", 0.3),
                ],
                "p-against": [
                    decided(
                        "p-against", "review", "reject", "rejected", 0.1, "owner:d: belief below the bar"
                    ),
                    decided("p-against", "judge", "commit", "committed", 0.85),
                ],
            }
        )
    )
    overall = report["overall"]
    assert isinstance(overall, dict)
    assert overall["agreement"] == {
        "pairs": 3,
        "agree": 1,
        "rate": 0.3333,
        "owner_for_judge_against": 1,
        "owner_against_judge_for": 1,
    }


def test_owners_of_the_bundled_course_say_when_they_doubt_what_they_approve(demo_db: Path) -> None:
    # Every owner review below the bar was an approval reasoned "the evidence supports ...", and the
    # report found no owner against the judge. The approval stays (the gate reads it) and its
    # reasoning says the belief; the report's agreement reads the score (the test above).
    with sqlite3.connect(demo_db) as db:
        reviews = db.execute(
            "SELECT verdict, score, rationale FROM decisions WHERE stage = 'review' AND model != 'human'"
        ).fetchall()
    low = [
        why for verdict, score, why in reviews if verdict == "approve" and score is not None and score < 0.5
    ]
    assert low and all("belief below the reject bar" in why for why in low)
