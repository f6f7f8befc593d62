"""Human review through the CLI: list, show, approve, reject, invalidate, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from agents.judge import score_band
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.review import pending_for
from magg_kg.builders import proposal_op
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import edge_id
from magg_kg.records import EdgeVersion, Proposal, ProposalState
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.report.conftest import serving

from .world import ScriptedLLM, closing_decision, proposal, seed, seeded_edge, span, write

POLICY = Policy(debate_scope="any")  # a contested edge debates, and quarantines, whatever its endpoints


def quarantine(store: SQLiteStore, clock: StepClock, p: Proposal) -> None:
    settled = Judgment(_contested(p), POLICY, clock, store).settle(p)
    assert settled.state == "quarantined"
    write(store, clock, [proposal_op(p), *settled.ops])


def _contested(p: Proposal) -> ScriptedLLM:
    """A judge that finds ``p`` contested, and a moderator that cannot settle it."""
    return ScriptedLLM(
        {
            "judge": lambda _p: {"reasoning": "contested", "score": 0.7, "verdict": "uncertain"},
            "debate-moderator": lambda _p: {
                "reasoning": "not sure",
                "score": 0.6,
                "verdict": score_band(0.6, 0.8, 0.5),
                "cited_concepts": [p.src, p.dst],
            },
        }
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "review.sqlite"
    store = SQLiteStore.open(path)
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    quarantine(
        store,
        clock,
        proposal("transformer", "builds_on", "attention", [span("Transformers build on attention.")]),
    )
    quarantine(
        store,
        clock,
        proposal(
            "calculus",
            "builds_on",
            "backpropagation",
            [span("Calculus is a prerequisite for backpropagation.", "implicit")],
        ),
    )
    store.close()
    return path


def test_list_show_approve_reject(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    listed = json.loads(out)
    assert code == 0 and listed["count"] == 2
    first, second = listed["items"]
    assert (first["src"], first["type"], first["dst"]) == ("transformer", "builds_on", "attention")

    code, out, _ = magg(["review", "show", first["id"], "--db", str(db), "--json"], capsys)
    case = json.loads(out)
    assert code == 0 and case["evidence"][0]["quote"] == "Transformers build on attention."
    stages = [d["stage"] for d in case["decisions"]]
    assert stages == ["judge", "debate"]
    assert len(case["decisions"][1]["debate"]["transcript"]) == 6
    code, out, _ = magg(["review", "show", first["proposal_id"], "--db", str(db)], capsys)
    assert code == 0 and "round 3 critic" in out and "judge: debate (0.70)" in out

    code, out, _ = magg(
        ["review", "approve", first["proposal_id"], "--reviewer", "Ann", "--db", str(db)], capsys
    )
    assert code == 0 and "approved" in out
    store = SQLiteStore.open(db)
    edge = next(e for e in store.edges() if e.src == "transformer")
    assert edge.grounding.source == "review:Ann" and edge.model == "human"
    review = store.decisions(first["proposal_id"])[-1]
    assert (review.stage, review.verdict, review.state_after) == ("review", "approve", "committed")
    store.close()

    code, _, _ = magg(
        ["review", "reject", second["id"], "--reviewer", "Bo", "--reason", "wrong type", "--db", str(db)],
        capsys,
    )
    assert code == 0
    store = SQLiteStore.open(db)
    assert store.proposal(second["proposal_id"]).state == "rejected"  # type: ignore[union-attr]
    assert "rejected by Bo: wrong type" in store.decisions(second["proposal_id"])[-1].rationale
    assert store.review_queue() == []
    store.close()
    code, out, _ = magg(["audit", "verify", "--db", str(db)], capsys)
    assert code == 0


def test_settling_twice_or_an_unknown_id_is_refused_and_writes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    item = json.loads(out)["items"][0]
    assert (
        magg(
            ["review", "reject", item["id"], "--reviewer", "Ann", "--reason", "no", "--db", str(db)], capsys
        )[0]
        == 0
    )
    store = SQLiteStore.open(db)
    before = len(store.audit_events())
    store.close()
    for args in (
        ["review", "approve", item["proposal_id"], "--reviewer", "Ann"],
        ["review", "reject", item["proposal_id"], "--reviewer", "Ann", "--reason", "again"],
        ["review", "approve", "p-nothing", "--reviewer", "Ann"],
    ):
        code, out, err = magg([*args, "--db", str(db)], capsys)
        assert code == 2 and out == ""
        assert len(err.strip().splitlines()) == 1 and err.startswith("error: cannot ")
    assert (
        "is rejected, not quarantined"
        in magg(["review", "approve", item["proposal_id"], "--reviewer", "A", "--db", str(db)], capsys)[2]
    )
    store = SQLiteStore.open(db)
    assert len(store.audit_events()) == before
    store.close()


def test_approval_reruns_the_rules_on_the_graph_as_it_is_now(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore.open(db)
    clock = StepClock("2026-02-01T00:00:00.000000Z")
    seed_edge = ("attention", "builds_on", "transformer", "Transformers build on attention.")
    write(store, clock, seeded_edge(*seed_edge, clock.now()))  # a later, contradicting fact
    store.close()
    code, _, err = magg(["review", "approve", pending_id(db), "--reviewer", "Ann", "--db", str(db)], capsys)
    assert code == 2 and "now breaks rule no-contradiction" in err and "magg review reject" in err


def pending_id(db: Path) -> str:
    store = SQLiteStore.open(db)
    try:
        return pending_for(store, "transformer", "builds_on", "attention")[0].id
    finally:
        store.close()


def test_a_queued_proposal_of_an_edge_already_active_is_listed_as_one_no_one_can_approve(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # It was listed as any other, and approving it failed with "now breaks rule no-duplicate".
    store = SQLiteStore.open(db)
    clock = StepClock("2026-02-01T00:00:00.000000Z")
    write(
        store,
        clock,
        seeded_edge("transformer", "builds_on", "attention", "Transformers build on attention.", clock.now()),
    )
    store.close()
    duplicate = edge_id("transformer", "builds_on", "attention")
    code, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    listed = {item["src"]: item for item in json.loads(out)["items"]}
    assert code == 0 and listed["transformer"]["duplicates"] == duplicate
    assert listed["calculus"]["duplicates"] is None
    monkeypatch.setenv("COLUMNS", "300")  # each row on one line
    code, out, _ = magg(["review", "list", "--db", str(db)], capsys)
    rows = [line for line in out.splitlines() if "cannot be approved" in line]
    assert code == 0 and len(rows) == 1 and "transformer" in rows[0]
    assert f"cannot be approved (duplicates active edge {duplicate}): reject it" in rows[0]
    with serving(db) as url:
        page = httpx.get(f"{url}/queue", timeout=60).text
    assert page.count("cannot be approved") == 1 and f"duplicates active edge {duplicate}" in page
    code, _, err = magg(
        ["review", "approve", listed["transformer"]["id"], "--reviewer", "Ann", "--db", str(db)], capsys
    )
    assert code == 2 and "no-duplicate" in err  # what the list said up front


def test_two_reviewers_settling_one_proposal_at_once_leave_one_decision(db: Path) -> None:
    import subprocess
    import sys

    ident = pending_id(db)
    rounds = [
        ["review", "approve", ident, "--reviewer", "Ann"],
        ["review", "reject", ident, "--reviewer", "Bob", "--reason", "wrong"],
        ["review", "approve", ident, "--reviewer", "Cy"],
    ]
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "magg_kg.cli", *args, "--db", str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in rounds
    ]
    codes = [run.wait(timeout=120) for run in runs]
    assert sorted(codes) == [0, 2, 2]
    store = SQLiteStore.open(db)
    try:
        human = [r for r in store.query("decisions") if r["model"] == "human"]
        assert len(human) == 1
        assert len(store.edges()) in (0, 1)
    finally:
        store.close()


def test_a_settled_review_id_says_who_settled_it(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Two reviewers race on one item: the loser must learn it was settled, not that the id is unknown.
    _, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    item = json.loads(out)["items"][0]
    code, _, _ = magg(["review", "approve", item["id"], "--reviewer", "alice", "--db", str(db)], capsys)
    assert code == 0
    for ident in (item["id"], item["proposal_id"]):
        code, _, err = magg(
            ["review", "reject", ident, "--reviewer", "bob", "--reason", "no", "--db", str(db)], capsys
        )
        assert code == 2 and "committed" in err and "alice" in err and "nothing written" in err
        code, out, _ = magg(["review", "show", ident, "--db", str(db), "--json"], capsys)
        assert code == 0 and json.loads(out)["proposal"]["state"] == "committed"


def test_control_characters_never_reach_a_decision_and_a_reason_has_a_bound(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    first, second = json.loads(out)["items"]
    code, _, err = magg(
        ["review", "reject", first["id"], "--reviewer", "bob", "--reason", "x" * 5000, "--db", str(db)],
        capsys,
    )
    assert code == 2 and "reason" in err
    code, _, _ = magg(
        [
            "review",
            "reject",
            first["id"],
            "--reviewer",
            "bob\x1b[2J",
            "--reason",
            "bad\x1b]0;pwned\x07",
            "--db",
            str(db),
        ],
        capsys,
    )
    assert code == 0
    code, _, _ = magg(
        ["review", "approve", second["id"], "--reviewer", "ev\x1b[2Jil", "--note", "ok\x07", "--db", str(db)],
        capsys,
    )
    assert code == 0
    store = SQLiteStore.open(db)
    said = [d.rationale for d in store.decisions() if d.stage == "review"]
    sources = [e.grounding.source for e in store.edges()]
    store.close()
    assert said and not any(ch in text for text in said + sources for ch in "\x1b\x07")
    assert "rejected by bob[2J: bad]0;pwned" in said


@pytest.mark.parametrize("command", ["recheck", "reconsider", "discover"])
def test_a_limit_beyond_any_graph_is_a_usage_error(
    db: Path, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # 2**63 does not fit SQLite's integer: it was a traceback from deep in the store.
    code, _, err = magg([command, "--limit", str(2**63), "--db", str(db)], capsys)
    assert code == 2 and "Traceback" not in err and "--limit" in err


def test_approving_an_edge_settles_its_twins_in_the_queue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two quarantined proposals of one edge (two quotes): approving one commits the edge, and the
    # other can no longer be approved (no duplicate) - it must not wait in the queue for ever.
    path = tmp_path / "twins.sqlite"
    store = SQLiteStore.open(path)
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    # Settled side by side, as two proposals of one lesson's batch are: neither pools the other.
    twins = [
        proposal("transformer", "builds_on", "attention", [span(quote)])
        for quote in ("Transformers build on attention.", "Transformers build on attention")
    ]
    settled = [(p, Judgment(_contested(p), POLICY, clock, store).settle(p)) for p in twins]
    for p, outcome in settled:
        assert outcome.state == "quarantined"
        write(store, clock, [proposal_op(p), *outcome.ops])
    store.close()
    _, out, _ = magg(["review", "list", "--db", str(path), "--json"], capsys)
    items = json.loads(out)["items"]
    assert len(items) == 2
    code, _, _ = magg(["review", "approve", items[1]["id"], "--reviewer", "alice", "--db", str(path)], capsys)
    assert code == 0
    _, out, _ = magg(["review", "list", "--db", str(path), "--json"], capsys)
    assert json.loads(out)["count"] == 0
    store = SQLiteStore.open(path)
    twin = store.proposal(items[0]["proposal_id"])
    last = store.decisions(items[0]["proposal_id"])[-1]
    store.close()
    assert twin is not None and twin.state == "committed"
    assert (last.stage, last.verdict) == ("review", "superseded") and "alice" in last.rationale
    code, out, _ = magg(["audit", "verify", "--json", "--db", str(path)], capsys)
    assert code == 0 and json.loads(out)["ok"] is True


def approved(db: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, str], EdgeVersion]:
    """The first quarantined proposal approved by Ann, and the edge it committed."""
    _, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    first = json.loads(out)["items"][0]
    assert magg(["review", "approve", first["id"], "--reviewer", "Ann", "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    edge = next(e for e in store.edges() if e.src == "transformer")
    store.close()
    return first, edge


def test_a_person_invalidates_a_committed_edge_and_no_proposal_commits_it_again(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, edge = approved(db, capsys)
    store = SQLiteStore.open(db)
    before = len(store.audit_events())
    store.close()
    for args, said in (
        (["--reason", ""], "needs a reason"),
        (["--reason", "\u202e\u202c"], "needs a reason"),  # nothing a reader could see
        (["--reason", "x", "--reviewer", ""], "reviewer"),
    ):
        code, _, err = magg(
            ["review", "invalidate", edge.edge_id, "--reviewer", "Bo", *args, "--db", str(db)], capsys
        )
        assert code == 2 and said in err
    code, _, err = magg(
        ["review", "invalidate", "e-nothing", "--reviewer", "Bo", "--reason", "x", "--db", str(db)], capsys
    )
    assert code == 2 and "no such edge" in err
    hostile = "e-1\n\x1b[31m" + "x" * 100_000  # an id is echoed as one line of plain text, cut short
    code, _, err = magg(
        ["review", "invalidate", hostile, "--reviewer", "Bo", "--reason", "x", "--db", str(db)], capsys
    )
    assert code == 2 and len(err.strip().splitlines()) == 1 and "\x1b" not in err and len(err) < 3000
    store = SQLiteStore.open(db)
    assert len(store.audit_events()) == before  # nothing written by a refusal
    store.close()

    code, out, _ = magg(
        [
            "review",
            "invalidate",
            edge.edge_id,
            "--reviewer",
            "Bo",
            "--reason",
            "attention came first",
            "--db",
            str(db),
        ],
        capsys,
    )
    assert code == 0 and f"invalidated {edge.edge_id}" in out
    store = SQLiteStore.open(db)
    assert not [e for e in store.edges() if e.edge_id == edge.edge_id]
    closed = store.edge_version(edge.version_id)
    assert closed is not None and closed.status == "invalidated"  # closed, never deleted
    assert store.proposal(first["proposal_id"]).state == "invalidated"  # type: ignore[union-attr]
    store.close()
    code, _, err = magg(
        ["review", "invalidate", edge.version_id, "--reviewer", "Bo", "--reason", "x", "--db", str(db)],
        capsys,
    )
    assert code == 2 and "invalidated already" in err

    # The edge is proposed again: the rules refuse it with the person's reason, and so does an approval.
    store = SQLiteStore.open(db)
    clock = StepClock("2026-03-01T00:00:00.000000Z")
    again = proposal(
        "transformer",
        "builds_on",
        "attention",
        [span("Transformers build on attention.")],
        created_at="2026-03-01T00:00:00.000000Z",
    )
    verdict = GraphState.of_store(store).rules.check(again.src, again.type, again.dst)
    assert (verdict.rule, verdict.reason) == (
        "not-retracted",
        "transformer builds_on attention was invalidated by Bo: attention came first",
    )
    quarantine(store, clock, again)  # quarantined before anyone looked
    store.close()
    code, _, err = magg(["review", "approve", pending_id(db), "--reviewer", "Ann", "--db", str(db)], capsys)
    assert code == 2 and "not-retracted" in err
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0

    # Undone: the edge is committed again (a new version), the retraction lifted, the twin settled.
    restore = [
        "review",
        "restore",
        edge.edge_id,
        "--reviewer",
        "Cy",
        "--reason",
        "it was right",
        "--db",
        str(db),
    ]
    code, out, _ = magg(restore, capsys)
    assert code == 0 and f"restored {edge.edge_id}" in out
    store = SQLiteStore.open(db)
    back = next(e for e in store.edges() if e.edge_id == edge.edge_id)
    assert back.version_id != edge.version_id and back.grounding.source == "review:Cy"
    assert store.proposal(first["proposal_id"]).state == "committed"  # type: ignore[union-attr]
    assert store.proposal(again.id).state == "committed"  # type: ignore[union-attr]  # superseded by it
    assert GraphState.of_store(store).rules.check(again.src, again.type, again.dst).rule == "no-duplicate"
    store.close()
    code, _, err = magg(restore, capsys)
    assert code == 2 and "restored by Cy: it was right already" in err
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0


def test_invalidating_an_earlier_version_of_a_restored_edge_names_the_active_one(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It said "not an active edge (invalidated already)" of an edge active under a newer version.
    _, edge = approved(db, capsys)
    for action, who in (("invalidate", "Bo"), ("restore", "Cy")):
        args = ["review", action, edge.edge_id, "--reviewer", who, "--reason", "x", "--db", str(db)]
        assert magg(args, capsys)[0] == 0
    store = SQLiteStore.open(db)
    back = next(e for e in store.edges() if e.edge_id == edge.edge_id)
    before = len(store.audit_events())
    store.close()
    assert back.version_id != edge.version_id
    code, _, err = magg(
        ["review", "invalidate", edge.version_id, "--reviewer", "Bo", "--reason", "x", "--db", str(db)],
        capsys,
    )
    assert code == 2 and "invalidated already" not in err
    assert f"{edge.version_id}: an earlier version of edge {edge.edge_id}, which is active" in err
    assert f"as version {back.version_id}" in err
    store = SQLiteStore.open(db)
    assert len(store.audit_events()) == before  # nothing written by the refusal
    store.close()


def invalidated_then_seeded(db: Path, capsys: pytest.CaptureFixture[str], type_: str) -> EdgeVersion:
    """The approved edge (transformer builds_on attention), invalidated by Bo; then, with it out,
    an agents' edge of ``type_`` from attention to transformer committed."""
    _, edge = approved(db, capsys)
    invalidate = ["review", "invalidate", edge.edge_id, "--reviewer", "Bo", "--reason", "unsure"]
    assert magg([*invalidate, "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    clock = StepClock("2026-02-01T00:00:00.000000Z")
    write(
        store,
        clock,
        seeded_edge("attention", type_, "transformer", "Transformers build on attention.", clock.now()),
    )
    store.close()
    return edge


def test_restoring_an_edge_the_graph_now_contradicts_is_refused(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edge = invalidated_then_seeded(db, capsys, "builds_on")
    store = SQLiteStore.open(db)
    before = len(store.audit_events())
    store.close()
    code, _, err = magg(
        ["review", "restore", edge.version_id, "--reviewer", "Cy", "--reason", "no", "--db", str(db)], capsys
    )
    assert code == 2 and "cannot restore" in err and "no-contradiction" in err
    store = SQLiteStore.open(db)
    assert len(store.audit_events()) == before  # nothing written
    store.close()


def test_of_an_edges_retraction_decisions_on_any_of_its_proposals_the_latest_holds(tmp_path: Path) -> None:
    # Two people invalidated one edge through two of its proposals; a restore undid the older of the
    # two and left the newer in force (found by a hostile run).
    from governance.retraction import RETRACTION, retractions
    from magg_kg.builders import decision_op

    store = SQLiteStore.open(tmp_path / "r.sqlite")
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    seed(store, clock)
    older, newer = (
        proposal(
            "attention", "related", "transformer", [span("Transformers build on attention.")], created_at=at
        )
        for at in ("2026-01-02T00:00:00.000000Z", "2026-01-03T00:00:00.000000Z")
    )
    write(store, clock, [proposal_op(older), proposal_op(newer)])

    def decided(p: Proposal, verdict: str, why: str) -> None:
        state: ProposalState = "invalidated" if verdict == "invalidate" else "committed"
        op = decision_op(p.id, RETRACTION, verdict, state, why, detail={}, policy_version="p",
                         prompt_version="r", model="human", decided_at=clock.now())  # fmt: skip
        write(store, clock, [op])

    last, first = sorted((older, newer), key=lambda p: p.id, reverse=True)
    decided(last, "invalidate", "invalidated by Ann: a")  # the proposal whose id sorts last, first
    decided(first, "invalidate", "invalidated by Bo: b")
    assert retractions(store) == {("attention", "related", "transformer"): "invalidated by Bo: b"}
    decided(first, "restore", "restored by Cy: c")
    assert retractions(store) == {}  # the latest decision of the edge holds, whichever proposal
    decided(last, "invalidate", "invalidated by Di: d")
    assert retractions(store) == {("attention", "related", "transformer"): "invalidated by Di: d"}
    store.close()


@pytest.mark.parametrize("action", ["approve", "reject"])
def test_a_decision_another_reviewer_made_first_is_said_not_a_store_error(
    db: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, action: str
) -> None:
    # On D1, whose writers hold no lock, the second of two reviewers saw "UNIQUE constraint failed:
    # concept_edges..." (found by a hostile run). Here the other reviewer's decision lands just
    # before this one's batch, which the store then refuses.
    import magg_kg.cli.curation as curation
    import magg_kg.cli.review as review

    code, out, _ = magg(["review", "list", "--db", str(db), "--json"], capsys)
    first = json.loads(out)["items"][0]["id"]
    writers = {"approve": (review, "_write"), "reject": (curation, "write_batch")}
    module, name = writers[action]
    write = getattr(module, name)

    def beaten(*args: object) -> str:
        write(*args)  # the other reviewer's, identical but for the name
        return "UNIQUE constraint failed: concept_edges.src, concept_edges.type, concept_edges.dst"

    monkeypatch.setattr(module, name, beaten)
    more = ["--reason", "wrong"] if action == "reject" else []
    code, _, err = magg(["review", action, first, "--reviewer", "Bo", *more, "--db", str(db)], capsys)
    assert code == 2 and "not quarantined" in err and "UNIQUE" not in err, err


def test_approve_takes_its_note_as_reason_as_every_other_review_command_does(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = magg(["review", "list", "--db", str(db), "--json"], capsys)[1]
    first = json.loads(out)["items"][0]["id"]
    approve = ["review", "approve", first, "--reviewer", "Ann", "--reason", "checked the lesson"]
    assert magg([*approve, "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    assert any(d.rationale == "approved by Ann: checked the lesson" for d in store.decisions())
    store.close()


def test_a_typed_edge_a_person_restores_closes_the_related_edge_beside_it(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edge = invalidated_then_seeded(db, capsys, "related")  # the weaker edge between the two
    store = SQLiteStore.open(db)
    related = store.active_edge("attention", "related", "transformer")
    store.close()
    assert related is not None
    restore = ["review", "restore", edge.edge_id, "--reviewer", "Cy", "--reason", "it holds"]
    assert magg([*restore, "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    assert store.active_edge("transformer", "builds_on", "attention") is not None
    assert store.active_edge("attention", "related", "transformer") is None
    closing = closing_decision(store, related.version_id)
    assert closing.stage == "subsume" and closing.model == "human"
    store.close()
