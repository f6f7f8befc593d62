"""Withdrawing a lesson (``magg review withdraw``), and editing one: what only it grounded is
invalidated, what another lesson states too is grounded again on that lesson's words, its open
proposals are closed, answers no longer quote it, a refusal writes nothing, and nothing is ever
deleted."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from agents.support import GraphView
from governance.withdrawal import STANDING
from magg_kg.clock import StepClock
from magg_kg.records import EdgeVersion, Lesson
from magg_kg.sqlite import SQLiteStore
from tests.cli import magg
from tests.gates.world import seeded_edge, write

LESSONS = {
    "calculus.md": "# Gradient descent\n\nGradient descent is an optimization algorithm that follows the "
    "negative gradient of a loss function. Calculus is a prerequisite for gradient descent, because the "
    "gradient is a vector of partial derivatives. Stochastic gradient descent is a variant of gradient "
    "descent that uses mini-batches.\n",
    "backprop.md": "# Backpropagation\n\nBackpropagation is an algorithm that computes the gradient of a "
    "loss with respect to every weight of a neural network. Backpropagation builds on the chain rule of "
    "calculus. Backpropagation is closely related to *automatic differentiation*. Calculus is a "
    "prerequisite for gradient descent, and gradient descent uses the gradients "
    "that backpropagation computes.\n",
}
DEFINED = "computes the gradient of a loss"
"""What only the backpropagation lesson says."""


@pytest.fixture
def db(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    course = tmp_path / "course"
    course.mkdir()
    for name, text in LESSONS.items():
        (course / name).write_text(text, encoding="utf-8")
    path = tmp_path / "magg.sqlite"
    assert magg(["ingest", str(course), "--db", str(path)], capsys)[0] == 0
    return path


def _withdraw(db: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    return magg(["review", "withdraw", *args, "--db", str(db)], capsys)


def _ask(db: Path, capsys: pytest.CaptureFixture[str]) -> str:
    code, out, _ = magg(["ask", "What is backpropagation?", "--db", str(db)], capsys)
    assert code == 0
    return out


def _only_from(edge: EdgeVersion, lesson_id: str) -> bool:
    return all(span.lesson_id == lesson_id for span in edge.grounding.evidence)


def test_a_withdrawn_lesson_leaves_the_graph_and_the_answers(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore.open(db)
    (gone,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "backprop"]
    (kept,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "calculus"]
    before = store.edges()
    versions = {v.version_id for v in store.edge_versions()}
    stated = {(p.src, p.type, p.dst) for p in store.proposals() if p.lesson_id == kept}
    resting = [e for e in before if _only_from(e, gone)]
    again = [e for e in resting if (e.src, e.type, e.dst) in stated]
    assert again and len(again) < len(resting)  # the course exercises both outcomes
    assert [p for p in store.proposals_in(STANDING) if p.lesson_id == gone]
    store.close()
    assert DEFINED in _ask(db, capsys)

    code, out, _ = _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged into calculus")
    assert code == 0 and f"{len(resting) - len(again)} edge(s) only it grounded invalidated" in out
    assert f"{len(again)} grounded again" in out

    store = SQLiteStore.open(db)
    after = {e.edge_id: e for e in store.edges()}
    for edge in resting:
        if edge in again:  # a new version, grounded on what the other lesson says
            assert after[edge.edge_id].version_id != edge.version_id and _only_from(after[edge.edge_id], kept)
        else:
            assert edge.edge_id not in after
    assert {e.edge_id for e in before if e not in resting} <= set(after)  # the others are untouched
    assert versions <= {v.version_id for v in store.edge_versions()}  # closed, never deleted
    assert not [p for p in store.proposals_in(STANDING) if p.lesson_id == gone]
    assert [lesson.id for lesson in store.current_lessons()] == [kept]
    assert {lesson.id for lesson in store.lessons()} == {gone, kept}
    assert GraphView.of_store(store).lessons.count == 1  # the course's lessons, as the judge counts them
    store.close()
    code, out, _ = magg(["coverage", "--json", "--db", str(db)], capsys)
    assert code == 0 and json.loads(out)["overall"]["lessons"] == 1
    code, out, _ = magg(["export", "--db", str(db)], capsys)
    assert code == 0 and {(x["id"], x["current"]) for x in json.loads(out)["lessons"]} == {
        (gone, False),
        (kept, True),
    }
    assert DEFINED not in _ask(db, capsys)
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0


def test_a_withdrawal_that_cannot_be_done_writes_nothing(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def decisions() -> int:
        store = SQLiteStore.open(db)
        try:
            return len(store.decisions())
        finally:
            store.close()

    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    written = decisions()
    refusals = {
        "no such lesson": (["nope", "--reviewer", "Ann", "--reason", "x"], "no stored lesson"),
        "withdrawn already": (["backprop", "--reviewer", "Bo", "--reason", "x"], "withdrawn from the course"),
        "no reason": (["calculus", "--reviewer", "Ann", "--reason", " "], "needs a reason"),
        "no reviewer": (["calculus", "--reviewer", "", "--reason", "x"], "reviewer's name"),
    }
    for name, (args, said) in refusals.items():
        code, _, err = _withdraw(db, capsys, *args)
        assert code == 2 and said in err and "Traceback" not in err, name
    assert decisions() == written


def test_a_withdrawn_lesson_comes_back_as_a_new_version(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    lesson = tmp_path / "course" / "backprop.md"
    # The same text is not taken again, and the run says why.
    code, _, err = magg(["ingest", str(lesson), "--db", str(db)], capsys)
    assert code == 0 and "was withdrawn from the course" in err
    store = SQLiteStore.open(db)
    assert [lesson.lesson_key for lesson in store.current_lessons()] == ["calculus"]
    store.close()
    # The command the note names works as written (it lacked the --reviewer and --reason it needs).
    named = re.search(r"`magg (review reinstate [^`]*)` brings it back", err)
    assert named is not None, err
    filled = named.group(1).replace("NAME", "Bo").replace("TEXT", "back")
    assert magg([*shlex.split(filled), "--db", str(db)], capsys)[0] == 0
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    # Edited, it is a new version: in the course again, its claims admitted as any lesson's.
    lesson.write_text(LESSONS["backprop.md"] + "\nBackpropagation needs a loss function.\n", encoding="utf-8")
    assert magg(["ingest", str(lesson), "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    current = {lesson.lesson_key: lesson.id for lesson in store.current_lessons()}
    assert set(current) == {"calculus", "backprop"}
    assert [p for p in store.proposals() if p.lesson_id == current["backprop"]]
    store.close()
    assert DEFINED in _ask(db, capsys)


def test_the_text_of_a_replaced_version_is_not_taken_in_silence(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Reverting an edit was reported as "unchanged": the edited version stayed current, unsaid; then
    # a note, with exit 0, which a scheduled run's log hid (found by a hostile run): it is refused.
    lesson = tmp_path / "course" / "calculus.md"
    edited = LESSONS["calculus.md"] + "\nMomentum is a variant of gradient descent.\n"
    lesson.write_text(edited, encoding="utf-8")
    assert magg(["ingest", str(lesson), "--db", str(db)], capsys)[0] == 0
    lesson.write_text(LESSONS["calculus.md"], encoding="utf-8")
    code, _, err = magg(["ingest", str(lesson), "--db", str(db)], capsys)
    assert code == 1 and f"refused: {lesson}: not ingested: its text is that of version calculus@" in err
    store = SQLiteStore.open(db)
    (current,) = [lesson for lesson in store.current_lessons() if lesson.lesson_key == "calculus"]
    assert "Momentum" in current.text
    store.close()


def test_an_edit_that_drops_a_claim_another_lesson_states_grounds_it_on_that_lesson(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An edit closed an edge for good when the lesson that committed it stopped saying it, though
    # another lesson said it too (its proposal was refused as a duplicate while the edge was in).
    store = SQLiteStore.open(db)
    (first,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "backprop"]
    (kept,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "calculus"]
    stated = {(p.src, p.type, p.dst) for p in store.proposals() if p.lesson_id == kept}
    shared = [e for e in store.edges() if _only_from(e, first) and (e.src, e.type, e.dst) in stated]
    assert shared  # the course has such an edge
    store.close()
    dropped = "Calculus is a prerequisite for gradient descent, and gradient descent uses"
    lesson = tmp_path / "course" / "backprop.md"
    lesson.write_text(LESSONS["backprop.md"].replace(dropped, "Gradient descent uses"), encoding="utf-8")
    assert magg(["ingest", str(lesson), "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    after = {e.edge_id: e for e in store.edges()}
    for edge in shared:
        assert after[edge.edge_id].version_id != edge.version_id and _only_from(after[edge.edge_id], kept)
    store.close()
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0


def test_a_lesson_gone_from_its_folder_is_noted_until_withdrawn(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "course"
    (course / "backprop.md").unlink()
    code, _, err = magg(["ingest", str(course), "--db", str(db)], capsys)
    assert code == 0 and "lesson 'backprop' was read from" in err and "magg review withdraw backprop" in err
    assert "'calculus'" not in err
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "dropped")[0] == 0
    code, _, err = magg(["ingest", str(course), "--db", str(db)], capsys)
    assert code == 0 and "magg review withdraw" not in err


def test_a_lesson_a_folder_walk_now_leaves_out_stays_and_is_noted_until_withdrawn(
    db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # An earlier version walked into hidden folders: a clone's .github/ISSUE_TEMPLATE/*.md became
    # lessons. Left out of the walk now, such a lesson is neither withdrawn behind the user's back
    # nor kept unsaid: each run over the folder names it, with the command that withdraws it.
    course = tmp_path / "course"
    (course / ".github").mkdir()
    template = course / ".github" / "bug.md"
    template.write_text("# Bug report\n\nDropout is a regularization technique for neural networks.\n")
    assert magg(["ingest", str(template), "--db", str(db)], capsys)[0] == 0  # named itself: read
    (bug,) = [lesson.id for lesson in _current(db) if lesson.lesson_key == "bug"]
    code, out, err = magg(["ingest", str(course), "--db", str(db), "--json"], capsys)
    assert code == 0 and sorted(Path(entry["path"]).name for entry in json.loads(out)["files"]) == sorted(
        LESSONS
    )
    assert json.loads(out)["left_out"] == [
        {
            "lesson_key": "bug",
            "lesson_id": bug,
            "source_path": str(template),
            "why": "in the hidden folder .github",
        }
    ]
    assert "it stays in the graph" in err and "`magg review withdraw bug --reviewer NAME" in err
    assert bug in {lesson.id for lesson in _current(db)}
    # A --skip pattern that leaves out a lesson read before says so the same way.
    code, _, err = magg(["ingest", str(course), "--skip", "calculus.md", "--db", str(db)], capsys)
    assert code == 0 and "which this run left out (matched by --skip calculus.md)" in err
    assert _withdraw(db, capsys, "bug", "--reviewer", "Ann", "--reason", "an issue template")[0] == 0
    code, _, err = magg(["ingest", str(course), "--db", str(db)], capsys)
    assert code == 0 and "'bug'" not in err


def _current(db: Path) -> list[Lesson]:
    store = SQLiteStore.open(db)
    try:
        return store.current_lessons()
    finally:
        store.close()


def test_reinstating_a_lesson_undoes_its_withdrawal_where_the_rules_still_pass(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SQLiteStore.open(db)
    (gone,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "backprop"]
    before = {e.edge_id: e for e in store.edges()}
    states = {p.id: p.state for p in store.proposals() if p.lesson_id == gone}
    store.close()
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    store = SQLiteStore.open(db)
    closed = [e for edge_id, e in before.items() if edge_id not in {a.edge_id for a in store.edges()}]
    assert closed  # the withdrawal closed an edge only the lesson grounded
    # Meanwhile the graph learns the opposite order of the first one: the rules now refuse it.
    refused = closed[0]
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    clock.observe(store.latest_time())  # after the withdrawal
    opposite = seeded_edge(
        refused.dst, refused.type, refused.src, "Transformers build on attention.", clock.now()
    )
    write(store, clock, opposite)
    store.close()

    reinstate = ["review", "reinstate", "backprop", "--reviewer", "Bo", "--db", str(db)]
    code, out, _ = magg([*reinstate, "--reason", "by mistake"], capsys)
    assert code == 0 and f"{len(closed) - 1} edge(s) committed again" in out
    assert f"1 edge(s) stay closed, as the rules refuse them now: {refused.edge_id}" in out
    store = SQLiteStore.open(db)
    active = {e.edge_id for e in store.edges()}
    assert set(before) - {refused.edge_id} <= active and refused.edge_id not in active
    assert {p.id: p.state for p in store.proposals() if p.lesson_id == gone} == states
    assert {lesson.lesson_key for lesson in store.current_lessons()} == {"backprop", "calculus"}
    store.close()
    assert DEFINED in _ask(db, capsys)
    code, _, err = magg([*reinstate, "--reason", "again"], capsys)
    assert code == 2 and "is not withdrawn" in err


def _quotes(store: SQLiteStore) -> dict[str, set[tuple[str, int, int]]]:
    """Each active edge's evidence: the lesson, start and end of every quote."""
    return {e.edge_id: {(s.lesson_id, s.start, s.end) for s in e.grounding.evidence} for e in store.edges()}


def test_a_lesson_withdrawn_by_mistake_comes_back_whole(db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = SQLiteStore.open(db)
    before = {e.edge_id for e in store.edges()}
    quotes = _quotes(store)
    store.close()
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    store = SQLiteStore.open(db)
    closed = before - {e.edge_id for e in store.edges()}
    requoted = [edge_id for edge_id, spans in _quotes(store).items() if spans != quotes[edge_id]]
    store.close()
    assert requoted  # the course exercises an edge grounded again on the other lesson alone
    reinstate = ["review", "reinstate", "backprop", "--reviewer", "Bo", "--reason", "by mistake"]
    code, out, _ = magg([*reinstate, "--db", str(db)], capsys)
    assert code == 0 and f"{len(closed)} edge(s) committed again" in out and "stay closed" not in out
    assert f"{len(requoted)} edge(s) another lesson grounds quote it again" in out
    store = SQLiteStore.open(db)
    assert {e.edge_id for e in store.edges()} == before
    # An edge the withdrawal grounded again on the other lesson alone quotes the lesson again too.
    assert _quotes(store) == quotes
    store.close()
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0


def test_a_lesson_is_named_by_its_file_s_name_from_any_folder(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # "magg review withdraw backprop.md" from outside the course folder found no lesson: the key
    # drops the suffix (found by a hostile run).
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, _, err = _withdraw(db, capsys, "backprop.md", "--reviewer", "Ann", "--reason", "merged")
    assert code == 0, err
    code, _, err = _withdraw(db, capsys, "other/calculus.md", "--reviewer", "Ann", "--reason", "merged")
    assert code == 0, err


def test_restoring_an_edge_no_person_invalidated_says_what_it_is(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Both were "no edge a person invalidated has this id", for an active edge and for one a
    # withdrawal closed alike (found by a hostile run).
    store = SQLiteStore.open(db)
    active = store.edges()[0].edge_id
    store.close()
    restore = ["review", "restore", "--reviewer", "Ann", "--reason", "back", "--db", str(db)]
    code, _, err = magg([*restore[:2], active, *restore[2:]], capsys)
    assert code == 2 and "the edge is active" in err
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    store = SQLiteStore.open(db)
    still = {e.edge_id for e in store.edges()}
    closed = [v.edge_id for v in store.edge_versions() if v.edge_id not in still]
    store.close()
    assert closed, "the withdrawal closed no edge: the test shows nothing"
    code, _, err = magg([*restore[:2], closed[0], *restore[2:]], capsys)
    assert code == 2 and "it was closed at stage withdrawal" in err, err
    store = SQLiteStore.open(db)
    (backprop,) = [lesson.id for lesson in store.lessons() if lesson.lesson_key == "backprop"]
    gone = [p.id for p in store.proposals() if p.lesson_id == backprop and p.state == "rejected"]
    store.close()
    code, _, err = magg(["review", "approve", gone[-1], "--reviewer", "Bo", "--db", str(db)], capsys)
    assert code == 2 and "not quarantined (" in err, err  # who or what closed it is said
    store = SQLiteStore.open(db)
    committed = [p.id for p in store.proposals() if p.state == "committed" and p.lesson_id == backprop]
    in_graph = {(e.src, e.type, e.dst) for e in store.edges()}
    gone_edge = [p for p in store.proposals() if p.id in committed and (p.src, p.type, p.dst) not in in_graph]
    store.close()
    assert gone_edge, "no committed proposal whose edge was closed: the test shows nothing"
    code, out, _ = magg(["review", "show", gone_edge[0].id, "--db", str(db)], capsys)
    assert code == 0 and "[committed]" in out and "no longer in the graph" in out


def test_a_person_s_invalidation_of_an_edge_grounded_anew_holds_and_can_be_restored(
    db: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # An edge a withdrawal grounded anew has no proposal of its own: its invalidation was recorded
    # on none, so the rules never refused it, `restore` said no person had invalidated it, and the
    # next lesson to state it committed it again (found by a hostile run).
    store = SQLiteStore.open(db)
    before = {e.edge_id: e.version_id for e in store.edges()}
    store.close()
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    store = SQLiteStore.open(db)
    anew = [e for e in store.edges() if e.edge_id in before and e.version_id != before[e.edge_id]]
    store.close()
    assert anew, "the withdrawal grounded no edge anew: the test shows nothing"
    edge = anew[0]
    person = ["--reviewer", "Cy", "--db", str(db)]
    assert magg(["review", "invalidate", edge.edge_id, *person, "--reason", "wrong"], capsys)[0] == 0
    code, _, err = magg(["review", "restore", edge.edge_id, *person, "--reason", "undo"], capsys)
    assert code == 0, err
    store = SQLiteStore.open(db)
    assert edge.edge_id in {e.edge_id for e in store.edges()}
    store.close()
    assert magg(["review", "invalidate", edge.edge_id, *person, "--reason", "wrong again"], capsys)[0] == 0
    # The lesson that states it, edited, is admitted again: the rules refuse the edge.
    course = tmp_path / "course"
    with (course / "calculus.md").open("a", encoding="utf-8") as lesson:
        lesson.write("\nGradient descent is used to train neural networks.\n")
    assert magg(["ingest", str(course), "--db", str(db)], capsys)[0] == 0
    store = SQLiteStore.open(db)
    assert edge.edge_id not in {e.edge_id for e in store.edges()}
    store.close()
    assert magg(["audit", "verify", "--db", str(db)], capsys)[0] == 0


def test_the_domains_memory_cards_are_the_graph_as_it_stands_after_a_withdrawal(
    db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The cards were as of the last ingest: after a withdrawal they still listed its closed edges
    # as facts and its closed proposals as open questions (found by a hostile run).
    assert _withdraw(db, capsys, "backprop", "--reviewer", "Ann", "--reason", "merged")[0] == 0
    code, out, _ = magg(["domains", "--json", "--db", str(db)], capsys)
    assert code == 0
    store = SQLiteStore.open(db)
    active = {f"{e.src} {e.type} {e.dst}" for e in store.edges()}
    waiting = {p.id for p in store.proposals_in(("abstained", "quarantined"))}
    closed = {f"{v.src} {v.type} {v.dst}" for v in store.edge_versions()} - active
    store.close()
    assert closed, "the withdrawal closed no edge: the test shows nothing"
    cards = [domain["card"] for domain in json.loads(out)]
    facts = {fact for card in cards for fact in card["facts"]}
    asked = {question.split(":")[0] for card in cards for question in card["open_questions"]}
    assert facts and facts <= active and not facts & closed
    assert asked <= waiting
