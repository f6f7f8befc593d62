"""Governed ingestion end to end: idempotence, versions, duplicates, bad files, injection, demo."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from agents import lesson_index
from agents.lesson_index import stored_prose
from agents.offline.handlers import offline_handlers
from governance.ingestion import IngestContext, ingest
from governance.judgment import Judgment
from magg_kg.cli.app import app
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import Answer, Failure, Prompt
from magg_kg.records import Lesson, Span
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store

T = TypeVar("T", bound=BaseModel)
CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
TABLES = (
    "lessons",
    "chunks",
    "concepts",
    "concept_aliases",
    "lesson_concepts",
    "proposals",
    "decisions",
    "concept_edges",
    "audit_log",
    "batches",
)


class CountingLLM:
    def __init__(self) -> None:
        self.inner = OfflineLLM(offline_handlers())
        self.calls = 0

    @property
    def model(self) -> str:
        return self.inner.model

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        self.calls += 1
        return self.inner.ask(prompt, schema)


def context(store: SQLiteStore, clock: StepClock, llm: CountingLLM) -> IngestContext:
    return IngestContext(store=store, llm=llm, clock=clock, policy=Policy())


def rows(store: SQLiteStore) -> dict[str, int]:
    return {t: store._db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in TABLES}


def lessons(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(CURRICULUM / name, folder / name)
    return folder


def test_a_second_run_writes_nothing_and_asks_no_model(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    folder = lessons(tmp_path, "01-math-linear-algebra.md", "02-math-calculus-gradients.md")
    llm = CountingLLM()
    first = ingest([folder], context(store, clock, llm))
    assert first.count("new") == 2 and first.concepts > 0 and first.proposals > 0
    assert ("rules", "pass") in first.outcomes and any(stage == "review" for stage, _ in first.outcomes)
    before, calls = rows(store), llm.calls
    assert calls > 0
    second = ingest([folder], context(store, clock, llm))
    assert second.count("skipped") == 2 and llm.calls == calls and rows(store) == before
    assert not verify_store(store)
    for proposal in store.proposals():
        stages = [d.stage for d in store.decisions(proposal.id)]
        assert stages and stages[0] in ("rules", "verification")
        if proposal.state == "proposed":  # no gate: survivors stay proposed, with every stage recorded
            assert {"rules", "review", "deliberation"} <= set(stages)


def test_a_changed_lesson_is_a_new_version_and_rejudges_the_old(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    path = tmp_path / "topic.md"
    path.write_text(
        "# Topic\n\nCalculus is a prerequisite for backpropagation. Dropout is part of regularization.\n",
        encoding="utf-8",
    )
    llm = CountingLLM()
    ingest([path], context(store, clock, llm))
    old = store.lessons()[0]
    path.write_text("# Topic\n\nCalculus is a prerequisite for backpropagation.\n", encoding="utf-8")
    report = ingest([path], context(store, clock, llm))
    assert report.count("new-version") == 1
    new = next(lesson for lesson in store.lessons() if lesson.id != old.id)
    assert new.supersedes == old.id and new.lesson_key == old.lesson_key
    verdicts = {(d.stage, d.verdict) for d in store.decisions()}
    assert ("rejudge", "unsupported") in verdicts and ("rejudge", "superseded") in verdicts
    dropout = [p for p in store.proposals() if p.src == "dropout" and p.lesson_id == old.id]
    assert dropout and all(p.state == "rejected" for p in dropout)
    assert len(store.lessons()) == 2  # nothing deleted


def test_bad_files_are_refused_while_good_ones_are_ingested(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    folder = lessons(tmp_path, "01-math-linear-algebra.md")
    shutil.copy(CURRICULUM / "01-math-linear-algebra.md", folder / "99-copy.md")
    (folder / "empty.md").write_bytes(b"")
    (folder / "latin.md").write_bytes("# Caf\u00e9".encode("latin-1"))
    (folder / "other-language.md").write_text(
        "# Álgebra lineal\n\nEl álgebra lineal es un requisito para las redes neuronales.\n", encoding="utf-8"
    )
    report = ingest([folder], context(store, clock, CountingLLM()))
    status = {Path(lesson.path).name: lesson.status for lesson in report.lessons}
    assert status["01-math-linear-algebra.md"] == "new" and status["99-copy.md"] == "duplicate"
    assert status["empty.md"] == "refused" and status["latin.md"] == "refused"
    assert status["other-language.md"] == "new"  # handled: registered, nothing English-cued proposed from it
    other = next(lesson for lesson in store.lessons() if lesson.lesson_key == "other-language")
    assert not [p for p in store.proposals() if p.lesson_id == other.id and p.state != "rejected"]
    assert not verify_store(store)


def _gated(store: SQLiteStore, clock: StepClock) -> IngestContext:
    llm = CountingLLM()
    return IngestContext(
        store=store, llm=llm, clock=clock, policy=Policy(), gate=Judgment(llm, Policy(), clock, store)
    )


def test_the_injected_instruction_never_backs_a_surviving_proposal(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    name = "28-llm-apps-agents-tool-use.md"
    ingest([lessons(tmp_path, name)], _gated(store, clock))
    text = (CURRICULUM / name).read_text("utf-8")
    section = (text.index("## Prompt injection"), text.index("## Multi-agent systems"))
    forum = text.index('"Great summary'), text.index("useful part for me.") + len('useful part for me."')
    assert section[0] < forum[0] and "ignore all previous instructions" in text[forum[0] : forum[1]]

    def in_section(spans: Sequence[Span]) -> bool:
        return any(section[0] <= span.start < section[1] for span in spans)

    held = [p for p in store.proposals() if in_section(p.evidence)]
    assert held  # the section beside the instruction yields proposals
    for proposal in held:
        last = store.decisions(proposal.id)[-1]
        assert proposal.state == "quarantined" and last.stage == "taint", (proposal, last)
        assert "ignore all previous instructions" in last.rationale
    assert not [edge for edge in store.edges() if in_section(edge.grounding.evidence)]
    # The control that makes this mean something: without the forum paragraph, the same lesson
    # proposes the same relations and the taint rule holds none of them (whatever the judge says).
    clean = tmp_path / "clean"
    clean.mkdir()
    (clean / name).write_text(text[: forum[0]] + text[forum[1] :], "utf-8")
    control = SQLiteStore.open(":memory:")
    ingest([clean], _gated(control, clock))
    triples = {(p.src, p.type, p.dst) for p in held}
    again = [p for p in control.proposals() if (p.src, p.type, p.dst) in triples]
    assert {(p.src, p.type, p.dst) for p in again} == triples
    assert all(d.stage != "taint" for p in again for d in control.decisions(p.id))
    control.close()


def test_the_summary_counts_the_decisions_the_run_recorded_by_their_stored_stage_and_verdict(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    # The summary showed a stage `gate` (the state the judge left, no stored stage) and left out the
    # judge's, the debate's, the taint rule's and the re-evaluation's decisions.
    folder = lessons(tmp_path, "02-math-calculus-gradients.md", "28-llm-apps-agents-tool-use.md")
    report = ingest([folder], _gated(store, clock))
    stored = Counter((d.stage, d.verdict) for d in store.decisions())
    assert {"judge", "taint"} <= {stage for stage, _ in stored}
    assert report.outcomes == stored
    path = folder / "02-math-calculus-gradients.md"  # a new version: its earlier proposals re-judged
    path.write_text(path.read_text("utf-8").split("\n## ")[0] + "\n", encoding="utf-8")
    again = ingest([folder], _gated(store, clock))
    assert again.count("new-version") == 1
    assert again.outcomes == Counter((d.stage, d.verdict) for d in store.decisions()) - stored
    assert "rejudge" in {stage for stage, _ in again.outcomes}


def test_magg_demo_end_to_end(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    db = str(tmp_path / "demo.sqlite")
    first = runner.invoke(app, ["demo", "--db", db])
    assert first.exit_code == 0, first.output
    assert "database:" in first.output and "domains" in first.output
    again = runner.invoke(app, ["demo", "--db", db])
    assert again.exit_code == 0 and "nothing to do" in again.output
    coverage = json.loads(runner.invoke(app, ["coverage", "--db", db, "--json"]).output)
    assert coverage["overall"]["concepts"] > 100 and coverage["overall"]["prerequisite_cycles"] == []
    listing = json.loads(runner.invoke(app, ["domains", "--db", db, "--json"]).output)
    assert len(listing) >= 2 and all(d["owner"] == f"owner:{d['id']}" and d["concepts"] for d in listing)
    assert runner.invoke(app, ["audit", "verify", "--db", db]).exit_code == 0
    refused = runner.invoke(app, ["ingest", str(tmp_path / "nowhere"), "--db", db])
    assert refused.exit_code != 0


def test_the_judge_knows_the_names_the_lesson_gives_its_new_concepts(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    context = _gated(store, clock)
    ingest([lessons(tmp_path, "16-deep-learning-rnn-lstm.md")], context)
    assert isinstance(context.gate, Judgment)
    view = context.gate.graph.view
    written = store.aliases()
    new = {alias: cid for alias, cid in written.items() if view.has_concept(cid)}
    assert new  # the lesson named some concept by another name
    assert all(alias in view.names(cid) for alias, cid in new.items())


FILLER = " ".join(
    f"Training step {n} moves the weights a little, and the loss goes down slowly." for n in range(20)
)


def test_two_concepts_a_lesson_names_as_one_get_no_edge_and_the_lesson_is_admitted(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    # DenseNet and "dense convolutional network" are separate concepts after the first two lessons;
    # the third says they are one, in two sections (two chunks) that each name both. Their
    # co-occurrence is dropped once (one record for the triple, not one per chunk) and the lesson
    # is admitted.
    folder = tmp_path / "named"
    folder.mkdir()
    texts = {
        "a.md": "# Nets\n\n**DenseNet** is a network. DenseNet uses dense blocks.\n",
        "b.md": "# More\n\nA **dense convolutional network** is deep. Each dense convolutional "
        "network is wide.\n",
        "c.md": "# Same\n\n*DenseNet* (dense convolutional network) extends the **residual network**. "
        + FILLER
        + "\n\n## Again\n\nDenseNet and the dense convolutional network both concatenate features. "
        + FILLER
        + "\n",
    }
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    report = ingest([folder], context(store, clock, CountingLLM()))
    assert [outcome.status for outcome in report.lessons] == ["new", "new", "new"]
    assert len(store.chunks(report.lessons[2].lesson_id)) >= 2
    ends = {c.id for c in store.concepts() if c.name in ("DenseNet", "dense convolutional network")}
    assert len(ends) == 2
    assert not [e for e in store.edges() if {e.src, e.dst} == ends]
    dropped = [
        d for d in store.decisions() if d.stage == "verification" and "names the two as one" in d.rationale
    ]
    assert len(dropped) == 1


def test_a_run_reads_each_stored_lesson_once_for_the_judges_sentence_counts(
    tmp_path: Path, store: SQLiteStore, clock: StepClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[str] = []

    def counted(lesson: Lesson | None) -> str | None:
        reads.append(lesson.id if lesson is not None else "")
        return stored_prose(lesson)

    monkeypatch.setattr(lesson_index, "stored_prose", counted)
    names = sorted(path.name for path in CURRICULUM.glob("0*.md"))[:6]
    ingest([lessons(tmp_path, *names)], _gated(store, clock))
    assert reads, "the judge counted sentences in stored lessons"
    assert len(reads) == len(set(reads))  # each read once in the run, not once per lesson judged
