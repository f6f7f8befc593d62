"""Reconsideration: open proposals judged again against the graph as it stands; only a change is
written, the open proposals it settles are closed (never deleted), and a case that now breaks a
rule is rejected with the rule."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from rich.console import Console

from agents.judge import score_band
from governance.ingest_report import IngestReport
from governance.judgment import Judgment
from governance.reconsider import Reconsidered, reconsider
from governance.review import out_of_course, pending
from magg_kg.builders import decision_op, proposal_op, queue_op
from magg_kg.cli import review
from magg_kg.cli.ingest import print_ingest_summary
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.llm.port import Prompt
from magg_kg.operations import AddConcept, AddLesson, Batch
from magg_kg.records import Proposal
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

from .world import CHAIN, ScriptedLLM, on_disk, proposal, run_magg, seed, seeded_edge, span, write

POLICY = Policy()
RELATED = proposal("attention", "related", "transformer", [span("Attention is related to transformers.")])
BUILDS = proposal("transformer", "builds_on", "attention", [span("Transformers build on attention.")])
WEAK = proposal(
    "k-means",
    "related",
    "gradient-descent",
    [span("Some practitioners argue that k-means is a prerequisite for gradient descent.")],
)
# Would close a cycle with the chain: the rules refuse it now, whatever the judge says.
CYCLE = proposal(
    "transformer",
    "prerequisite",
    "linear-algebra",
    [span("Backpropagation is a prerequisite for linear algebra.", "implicit")],
)


def by_src(scores: Mapping[str, float]) -> Callable[[Prompt], dict[str, object]]:
    """A judge whose score depends on the claim's source concept (or its destination, for a
    symmetric claim whose canonical source is not in ``scores``)."""

    def reply(prompt: Prompt) -> dict[str, object]:
        claim = prompt.payload["proposal"]
        assert isinstance(claim, dict)
        score = scores.get(str(claim["src"])) or scores[str(claim["dst"])]
        return {"reasoning": f"scripted {score}", "score": score, "verdict": score_band(score, 0.8, 0.5)}

    return reply


MIDDLE = {"attention": 0.6, "transformer": 0.6, "k-means": 0.6}


@pytest.fixture
def world(store: SQLiteStore, clock: StepClock) -> SQLiteStore:
    """The chain, and four proposals left open by a judge that scored each in the middle band."""
    seed(store, clock, CHAIN)
    gate = Judgment(ScriptedLLM({"judge": by_src(MIDDLE)}), POLICY, clock, store, escalate=False)
    for p in (RELATED, BUILDS, WEAK, CYCLE):
        write(store, clock, [proposal_op(p), *gate.settle(p).ops])
    assert {store.proposal(p.id).state for p in (RELATED, BUILDS, WEAK, CYCLE)} == {"abstained"}  # type: ignore[union-attr]
    return store


def run(store: SQLiteStore, clock: StepClock, scores: Mapping[str, float]) -> dict[str, str]:
    """Reconsiders every open edge with the scripted judge; writes each change; edge -> state."""
    states = {}
    for found in reconsider(store, ScriptedLLM({"judge": by_src(scores)}), POLICY, clock):
        if found.ops:
            now = clock.now()
            ops = journaled(list(found.ops), now)
            store.write(Batch.of(make_id("batch", "reconsider", *found.triple), now, ops))
        states[" ".join(found.triple)] = found.state
    assert verify_store(store) == []
    return states


def state(store: SQLiteStore, p: Proposal) -> str:
    found = store.proposal(p.id)
    assert found is not None
    return found.state


def test_each_open_edge_is_committed_rejected_or_left_as_it_was(world: SQLiteStore, clock: StepClock) -> None:
    before = len(world.proposals())
    states = run(world, clock, {"attention": 0.9, "transformer": 0.6, "k-means": 0.3})
    assert states == {
        "attention related transformer": "committed",
        "transformer builds_on attention": "open",
        "gradient-descent related k-means": "rejected",
        "transformer prerequisite linear-algebra": "rejected",
    }
    assert ("attention", "related", "transformer") in {(e.src, e.type, e.dst) for e in world.edges()}
    # The open proposals settled are closed by supersession; the one left open is untouched.
    settled = (state(world, RELATED), state(world, WEAK), state(world, BUILDS))
    assert settled == ("committed", "rejected", "abstained")
    closing = [d for d in world.decisions(RELATED.id) if d.stage == "reevaluation"]
    assert [(d.verdict, d.state_after) for d in closing] == [("superseded", "committed")]
    # One new proposal per changed edge judged, of origin recheck; none for the edge left open or
    # for the one the rules refused.
    fresh = [p for p in world.proposals() if p.origin == "recheck"]
    assert len(world.proposals()) == before + 2 and len(fresh) == 2
    committed = next(p for p in fresh if p.src == "attention")
    assert committed.evidence == RELATED.evidence and committed.lesson_id == RELATED.lesson_id
    assert [d.stage for d in world.decisions(committed.id)][:2] == ["reconsider", "judge"]
    # The cycle is refused by the rules, on the open proposal itself, whatever the judge would say.
    (refused,) = [d for d in world.decisions(CYCLE.id) if d.stage == "rules"]
    assert refused.state_after == "rejected" and refused.rationale.startswith("reconsidered: rule ")
    assert state(world, CYCLE) == "rejected"


def test_an_unchanged_graph_changes_nothing_the_second_time(world: SQLiteStore, clock: StepClock) -> None:
    run(world, clock, {"attention": 0.9, "transformer": 0.6, "k-means": 0.6})
    written = (len(world.proposals()), len(world.decisions()), len(world.edge_versions()))
    again = run(world, clock, {"attention": 0.9, "transformer": 0.6, "k-means": 0.6})
    # Only the edges still open are judged again, and neither changes.
    assert again == {"transformer builds_on attention": "open", "gradient-descent related k-means": "open"}
    assert (len(world.proposals()), len(world.decisions()), len(world.edge_versions())) == written


def test_an_unusable_judge_reply_leaves_the_edge_open(world: SQLiteStore, clock: StepClock) -> None:
    found = list(reconsider(world, ScriptedLLM({"judge": "not json"}), POLICY, clock))
    judged = [f for f in found if f.triple[1] != "prerequisite"]
    assert judged and all(f.state == "open" and not f.ops for f in judged)


def test_a_limit_takes_the_oldest_edges_first(world: SQLiteStore, clock: StepClock) -> None:
    found = list(reconsider(world, ScriptedLLM({"judge": by_src(MIDDLE)}), POLICY, clock, limit=2))
    assert [f.triple for f in found] == [
        ("attention", "related", "transformer"),
        ("transformer", "builds_on", "attention"),
    ]


def test_the_command(world: SQLiteStore, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run_magg(["reconsider", "--db", on_disk(world, tmp_path / "r.sqlite"), "--json"])
    report = json.loads(capsys.readouterr().out)
    # The offline judge decides; whatever it decides, the rules refuse the cycle and all is written.
    assert report["reconsidered"] == 4 and sum(report["states"].values()) == 4
    cycle = next(r for r in report["results"] if r["edge"][1] == "prerequisite")
    assert cycle["state"] == "rejected" and cycle["written"] is True


@pytest.mark.parametrize("open_ones", [0, 3])
def test_the_ingest_summary_points_to_reconsideration_when_proposals_stay_open(open_ones: int) -> None:
    report = IngestReport(
        outcomes=Counter({("judge", "commit"): 2, ("judge", "abstain"): open_ones}),
        states=Counter({"committed": 2, "abstained": open_ones}),
    )
    console = Console(record=True, width=200)
    print_ingest_summary(report, console)
    assert ("`magg reconsider`" in console.export_text()) == bool(open_ones)


def _rounds(*states: tuple[tuple[str, str], ...]) -> Callable[..., list[Reconsidered]]:
    """A reconsideration whose n-th run ends each named edge in the given state, writing nothing
    (each edge's proposal one the world has open, as an edge left open is counted only if it is)."""
    runs = iter(states)

    def run(*_: object, **__: object) -> list[Reconsidered]:
        return [
            Reconsidered((e, "related", "x"), (RELATED.id,), state, 0.5, "scripted", ())
            for e, state in next(runs)
        ]

    return run


@pytest.mark.parametrize(
    ("rounds", "states", "ran", "final", "hint"),
    [
        # A round that commits and leaves edges open is followed by another, until one commits nothing.
        (
            3,
            ((("a", "committed"), ("b", "open")), (("b", "committed"), ("c", "open")), (("c", "open"),)),
            3,
            3,
            False,
        ),
        (3, ((("a", "committed"), ("b", "open")), (("b", "open"),)), 2, 2, False),
        (3, ((("a", "rejected"), ("b", "open")),), 1, 2, False),
        # The last round allowed still committed and left some open: the hint says to run again.
        (1, ((("a", "committed"), ("b", "open")),), 1, 2, True),
    ],
)
def test_the_command_runs_rounds_while_one_commits_and_leaves_edges_open(
    world: SQLiteStore,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rounds: int,
    states: tuple[tuple[tuple[str, str], ...], ...],
    ran: int,
    final: int,
    hint: bool,
) -> None:
    db = on_disk(world, tmp_path / "r.sqlite")
    monkeypatch.setattr(review, "run_reconsider", _rounds(*states))
    run_magg(["reconsider", "--db", db, "--json", "--rounds", str(rounds)])
    report = json.loads(capsys.readouterr().out)
    assert report["rounds"] == ran and report["reconsidered"] == final
    last = {str(r["edge"][0]): r["state"] for r in report["results"]}
    assert last == dict(pair for run in states[:ran] for pair in run)  # each edge as it last ended
    monkeypatch.setattr(review, "run_reconsider", _rounds(*states))
    run_magg(["reconsider", "--db", db, "--rounds", str(rounds)])
    assert ("run `magg reconsider` again" in capsys.readouterr().out) == hint


CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"


def test_what_a_replaced_lesson_version_says_is_neither_reconsidered_nor_approved(
    tmp_path: Path, clock: StepClock, capsys: pytest.CaptureFixture[str]
) -> None:
    # Open proposals of a version a new one replaced stayed open: reconsider committed them on
    # sentences the course no longer has, a person could approve them from the queue, and their
    # evidence joined the new version's proposals (found by a hostile run).
    folder = tmp_path / "course"
    folder.mkdir()
    for lesson in sorted(CURRICULUM.glob("0[1-4]-*.md")):
        (folder / lesson.name).write_text(lesson.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "g.sqlite"
    run_magg(["ingest", str(folder), "--db", str(db)])
    store = SQLiteStore.open(str(db))
    opened = {p.id for p in store.proposals_in(("abstained", "quarantined"))}
    store.close()
    assert opened, "no open proposal: the test shows nothing"
    for lesson in folder.iterdir():  # every lesson edited: each gets a new version
        text = lesson.read_text(encoding="utf-8")
        lesson.write_text(text.replace(" is a prerequisite for ", " is unlike "), encoding="utf-8")
    run_magg(["ingest", str(folder), "--db", str(db)])
    capsys.readouterr()
    store = SQLiteStore.open(str(db))
    try:
        stale = store.stale_lessons()
        assert stale and not [
            p for p in store.proposals_in(("abstained", "quarantined")) if p.lesson_id in stale
        ]
        for edge in store.edges():
            assert not {span.lesson_id for span in edge.grounding.evidence} & stale, edge
        closed = store.proposal(sorted(opened)[0])
        assert closed is not None and "the course no longer says it" in out_of_course(store, closed.evidence)
        always = ScriptedLLM({"judge": lambda _: {"reasoning": "sure", "score": 0.95, "verdict": "commit"}})
        for found in reconsider(store, always, POLICY, clock):
            for ident in found.settled:
                settled = store.proposal(ident)
                assert settled is not None and settled.lesson_id not in stale
    finally:
        store.close()


FROM_NOWHERE = "lesson-z"
FROM_NOWHERE_TEXT = "The zorblax unit is related to attention. The glimmer cache is related to attention. "


def _held(store: SQLiteStore, clock: StepClock, src: str, quote: str) -> Proposal:
    """A claim between ``src`` (a concept of the lesson above alone, with no description) and
    attention, committed by a sure judge, written as the gate settles it."""
    held = proposal(src, "related", "attention", [span(quote, "implicit", FROM_NOWHERE, FROM_NOWHERE_TEXT)])
    sure = ScriptedLLM({"judge": by_src({src: 0.95, "attention": 0.95})})
    write(
        store,
        clock,
        [proposal_op(held), *Judgment(sure, POLICY, clock, store, escalate=False).settle(held).ops],
    )
    return held


def test_a_claim_held_as_from_nowhere_is_judged_again_once_its_concept_relates_to_the_curriculum(
    store: SQLiteStore, clock: StepClock
) -> None:
    seed(store, clock, CHAIN)
    now = clock.now()
    write(
        store,
        clock,
        [
            AddLesson(
                id=FROM_NOWHERE,
                lesson_key="z",
                title="Z",
                sha256=hashlib.sha256(FROM_NOWHERE_TEXT.encode("utf-8")).hexdigest(),
                source_path="z.md",
                text=FROM_NOWHERE_TEXT,
                ingested_at=now,
            ),
            AddConcept(id="zorblax", name="zorblax unit", type="concept", recorded_at=now),
            AddConcept(id="glimmer", name="glimmer cache", type="concept", recorded_at=now),
        ],
    )
    zorblax = _held(store, clock, "zorblax", "The zorblax unit is related to attention.")
    glimmer = _held(store, clock, "glimmer", "The glimmer cache is related to attention.")
    for held in (zorblax, glimmer):
        assert state(store, held) == "quarantined"
        assert store.decisions(held.id)[-1].verdict == "unanchored"
    # Still from nowhere: neither is judged again, and nothing is written.
    written = len(store.decisions())
    assert run(store, clock, {"zorblax": 0.95, "glimmer": 0.95, "attention": 0.95}) == {}
    assert len(store.decisions()) == written
    # The course relates the zorblax unit to itself now (an edge of its own): its hold has lapsed.
    write(
        store,
        clock,
        seeded_edge("zorblax", "related", "transformer", "Attention is related to transformers.", now),
    )
    states = run(store, clock, {"zorblax": 0.95, "glimmer": 0.95, "attention": 0.95})
    assert states == {"attention related zorblax": "committed"}
    assert state(store, zorblax) == "committed" and state(store, glimmer) == "quarantined"
    (again,) = [p for p in store.proposals() if p.origin == "recheck"]
    assert f"{zorblax.id} held as unanchored" in store.decisions(again.id)[0].rationale
    assert {item.proposal.id for item in pending(store)} == {glimmer.id}
    # A hold for any other reason (here a debate's) is a person's to settle, related or not.
    debated = proposal("calculus", "related", "attention", [span("Attention is related to transformers.")])
    decision = decision_op(
        debated.id,
        "debate",
        "quarantine",
        "quarantined",
        "moderator below 0.80",
        detail={},
        policy_version=POLICY.version,
        prompt_version="test",
        model="test",
        decided_at=clock.now(),
    )
    write(store, clock, [proposal_op(debated), decision, queue_op(decision)])
    assert run(store, clock, {"calculus": 0.95, "attention": 0.95}) == {}
    assert state(store, debated) == "quarantined"
