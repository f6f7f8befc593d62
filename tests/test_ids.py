"""Identifiers and the write records' builders (:mod:`magg_kg.ids`, :mod:`magg_kg.builders`)."""

from __future__ import annotations

from typing import get_args

from magg_kg.builders import commit_op, decision_op, invalidation_op, proposal_op, propose, queue_op
from magg_kg.ids import KINDS, IdKind, make_id
from magg_kg.operations import SpanData

T0 = "2026-01-01T00:00:00.000000Z"
T1 = "2026-01-01T00:00:01.000000Z"


def test_every_kind_has_its_own_prefix_and_none_starts_another() -> None:
    assert set(KINDS) == set(get_args(IdKind))  # the precondition: the table covers every kind
    prefixes = [style.prefix for style in KINDS.values()]
    assert len(set(prefixes)) == len(prefixes)
    clashes = [(a, b) for a in prefixes for b in prefixes if a != b and b.startswith(a)]
    assert not clashes, f"a prefix that starts another, so an id's kind is not read off it: {clashes}"
    assert all(prefix.isalpha() and prefix.islower() for prefix in prefixes)


def test_an_id_is_its_kind_s_prefix_and_a_stable_digest_of_its_parts() -> None:
    for kind, style in KINDS.items():
        made = make_id(kind, "a", "b")
        prefix, digest = made.split("-")
        assert prefix == style.prefix and len(digest) == style.length
        assert make_id(kind, "a", "b") == made != make_id(kind, "a", "c")
    assert make_id("proposal", "a", "b") != make_id("proposal", "ab")  # parts are separated


def decided(proposal_id: str | None, rationale: str, at: str = T0, subject: str = "") -> str:
    return decision_op(
        proposal_id,
        "judge",
        "commit",
        "committed",
        rationale,
        subject=subject,
        detail={},
        policy_version="policy-1",
        prompt_version="judge-1",
        model="offline",
        decided_at=at,
    ).id


def test_decisions_differ_by_proposal_subject_rationale_and_time() -> None:
    first = decided("p-1", "says so")
    assert first.startswith("dec-")
    others = {decided("p-2", "says so"), decided("p-1", "not so"), decided("p-1", "says so", T1)}
    assert len({first, *others}) == 4
    assert decided(None, "closed", subject="v-1") != decided(None, "closed", subject="v-2")


def test_an_edge_version_takes_its_stamps_from_the_decision_that_commits_it() -> None:
    proposal = propose(
        "a",
        "prerequisite",
        "b",
        context=("lesson-1",),
        origin="ingest",
        confidence=0.8,
        evidence=(),
        created_at=T0,
    )
    assert proposal.id == make_id("proposal", "lesson-1", "a", "prerequisite", "b")
    assert proposal_op(proposal).model_dump(exclude={"op"}) == proposal.model_dump(exclude={"state"}) | {
        "evidence": []
    }
    decision = decision_op(
        proposal.id,
        "judge",
        "commit",
        "committed",
        "  the lesson says so  ",
        detail={},
        policy_version="policy-1",
        prompt_version="judge-1",
        model="",
        decided_at=T1,
    )
    assert (decision.rationale, decision.model) == ("the lesson says so", "none")
    span = SpanData(lesson_id="lesson-1", start=0, end=1, quote="a", kind="explicit")
    edge = commit_op(
        decision, "a", "prerequisite", "b", confidence=0.9, reason="r", source="s", evidence=[span]
    )
    assert edge.version_id == make_id("version", edge.edge_id, decision.id)
    assert (edge.valid_at, edge.recorded_at, edge.decision_id) == (T1, T1, decision.id)
    assert (edge.policy_version, edge.prompt_version, edge.model) == ("policy-1", "judge-1", "none")
    closing = invalidation_op(edge.version_id, decision)
    assert (closing.invalid_at, closing.expired_at, closing.reason) == (T1, T1, decision.rationale)
    entry = queue_op(decision)
    assert entry.id.startswith("q-") and (entry.proposal_id, entry.enqueued_at) == (proposal.id, T1)
