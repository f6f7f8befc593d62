"""A run interrupted at any batch boundary and run again gives the graph an uninterrupted run gives,
and a batch refused because another writer moved the graph is built again, not a failed run."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TypeVar

import pytest
from pydantic import BaseModel

from agents.offline.handlers import offline_handlers
from governance.ingest_report import IngestReport
from governance.ingestion import IngestContext, ingest
from governance.judgment import Judgment
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.llm.offline import OfflineLLM
from magg_kg.llm.port import LLM, Answer, Failure, FailureKind, Prompt
from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import BatchResult, Row, Store
from magg_kg.verification import verify_store

T = TypeVar("T", bound=BaseModel)
CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
LESSONS = (
    "13-deep-learning-neural-networks-perceptron.md",
    "14-deep-learning-backpropagation.md",
    "02-math-calculus-gradients.md",
    "21-nlp-attention.md",
    "22-nlp-transformer-architecture.md",
)


class Interrupted(Exception):
    """The process died here."""


def _is_lesson(batch: Batch) -> bool:
    """Whether the batch is a lesson's (the one that registers it)."""
    return any(op.op == "add_lesson" for op in batch.ops)


class Relay(Store):
    """A store that passes everything to another; subclasses step in before a batch is applied."""

    def __init__(self, inner: SQLiteStore) -> None:
        self.inner = inner

    def apply(self, batch: Batch) -> BatchResult:
        return self.inner.apply(batch)

    def query(self, name: str, params: dict[str, str | int | float | None] | None = None) -> list[Row]:
        return self.inner.query(name, params)

    def exclusive(self) -> AbstractContextManager[None]:
        return self.inner.exclusive()


class Dying(Relay):
    """Dies before the batch after the first ``after`` (nothing of that batch is written)."""

    def __init__(self, inner: SQLiteStore, after: int) -> None:
        super().__init__(inner)
        self.left = after

    def apply(self, batch: Batch) -> BatchResult:
        if self.left == 0:
            raise Interrupted(batch.batch_id)
        self.left -= 1
        return self.inner.apply(batch)


def run(
    store: Store, folder: Path, start: str = "2026-01-01T00:00:00.000000Z", llm: LLM | None = None
) -> IngestReport:
    clock = StepClock(start, step_seconds=0.001)
    llm = llm or OfflineLLM(offline_handlers())
    gate = Judgment(llm, Policy(), clock, store)
    report = ingest([folder], IngestContext(store=store, llm=llm, clock=clock, policy=Policy(), gate=gate))
    assert isinstance(llm, OutOfReach) or not report.count("refused")
    return report


class OutOfReach:
    """The offline model for its first ``calls`` calls, then out of reach (or refusing, or giving
    replies that do not validate: ``kind``): every call fails."""

    def __init__(self, calls: int, kind: FailureKind = "unavailable") -> None:
        self.inner = OfflineLLM(offline_handlers())
        self.left = calls
        self.kind: FailureKind = kind

    @property
    def model(self) -> str:
        return self.inner.model

    def ask(self, prompt: Prompt, schema: type[T]) -> Answer[T] | Failure:
        if self.left <= 0:
            return Failure(self.kind, f"the model failed ({self.kind})")
        self.left -= 1
        return self.inner.ask(prompt, schema)


def graph(store: Store) -> dict[str, object]:
    """What a run decided, without its time stamps (and ids made from them)."""
    return {
        "active": sorted((e.src, e.type, e.dst, e.grounding.confidence) for e in store.edges()),
        "decisions": sorted(
            (d.proposal_id or "", d.stage, d.verdict, d.state_after, -1.0 if d.score is None else d.score)
            for d in store.decisions()
        ),
        "proposals": sorted((p.id, p.state) for p in store.proposals()),
        "concepts": sorted(c.id for c in store.concepts()),
        "owners": sorted(store.concept_domains().items()),
        "lessons": [lesson.id for lesson in store.lessons()],
    }


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    for name in LESSONS:
        shutil.copy(CURRICULUM / name, folder / name)
    return folder


@pytest.fixture
def uninterrupted(folder: Path) -> Iterator[dict[str, object]]:
    store = SQLiteStore.open(":memory:")
    run(store, folder)
    yield graph(store)
    store.close()


@pytest.mark.parametrize("after", range(len(LESSONS)))
def test_a_run_interrupted_at_any_boundary_resumes_to_the_same_graph(
    folder: Path, uninterrupted: dict[str, object], after: int
) -> None:
    store = SQLiteStore.open(":memory:")
    with pytest.raises(Interrupted):
        run(Dying(store, after), folder)
    assert len(store.lessons()) == after and verify_store(store) == []  # whole lessons only
    run(store, folder, "2026-01-02T00:00:00.000000Z")  # run again, later
    assert graph(store) == uninterrupted
    assert verify_store(store) == []
    store.close()


@pytest.mark.parametrize("kind", ["unavailable", "over_budget", "refused", "invalid"])
def test_a_model_out_of_reach_leaves_the_lessons_it_could_not_read_whole_to_the_next_run(
    folder: Path, uninterrupted: dict[str, object], kind: FailureKind
) -> None:
    # The calls the first lesson (a folder is read in name order) takes from an empty graph.
    counting = OutOfReach(10**9)
    run(SQLiteStore.open(":memory:"), min(folder.iterdir()), llm=counting)
    first = 10**9 - counting.left
    store = SQLiteStore.open(":memory:")
    report = run(store, folder, llm=OutOfReach(first, kind))
    refused = [lesson for lesson in report.lessons if lesson.status == "refused"]
    assert report.count("new") == 1 and len(refused) == len(LESSONS) - 1
    assert all("nothing of it written" in r.detail and kind in r.detail for r in refused)
    assert len(store.lessons()) == 1 and verify_store(store) == []  # not recorded as ingested
    run(store, folder, "2026-01-02T00:00:00.000000Z")  # the model back: the next run reads them
    assert graph(store) == uninterrupted
    store.close()


def test_a_folder_is_ingested_as_its_lessons_one_by_one(
    folder: Path, uninterrupted: dict[str, object]
) -> None:
    store = SQLiteStore.open(":memory:")
    for day, name in enumerate(sorted(LESSONS), start=1):
        run(store, folder / name, f"2026-01-{day:02d}T00:00:00.000000Z")
    assert graph(store) == uninterrupted
    store.close()


class Racing(Relay):
    """Another writer (no lock between them, as through D1) ingests ``theirs`` just before this
    writer's first lesson batch is applied."""

    def __init__(self, inner: SQLiteStore, theirs: Path) -> None:
        super().__init__(inner)
        self.theirs: Path | None = theirs

    def exclusive(self) -> AbstractContextManager[None]:
        return super(Relay, self).exclusive()  # no lock: conflicts must be caught when applied

    def apply(self, batch: Batch) -> BatchResult:
        if self.theirs is not None and _is_lesson(batch):
            theirs, self.theirs = self.theirs, None
            run(self.inner, theirs)
        return self.inner.apply(batch)


def test_the_same_lesson_from_another_writer_first_is_reported_skipped(folder: Path) -> None:
    store = SQLiteStore.open(":memory:")
    racing = Racing(store, folder / LESSONS[0])
    clock = StepClock("2026-02-01T00:00:00.000000Z", step_seconds=0.001)
    llm = OfflineLLM(offline_handlers())
    context = IngestContext(store=racing, llm=llm, clock=clock, policy=Policy(), sleep=lambda _: None)
    report = ingest([folder / LESSONS[0]], context)
    assert [(lesson.status, lesson.attempts) for lesson in report.lessons] == [("skipped", 2)]
    assert "another run" in report.lessons[0].detail and len(report.conflicts) == 1
    assert len(store.lessons()) == 1 and verify_store(store) == []
    store.close()


def test_the_same_text_stored_between_two_reads_is_skipped_not_taken_for_a_moved_course(
    folder: Path, tmp_path: Path
) -> None:
    """Through D1 no lock holds across reads: another writer may store the same lesson, read from
    its own copy, after this writer found no lesson of its text and before it reads the lessons."""

    class Between(Relay):
        def __init__(self, inner: SQLiteStore, theirs: Path) -> None:
            super().__init__(inner)
            self.theirs, self.lookups = theirs, 0

        def exclusive(self) -> AbstractContextManager[None]:
            return super(Relay, self).exclusive()

        def query(self, name: str, params: dict[str, str | int | float | None] | None = None) -> list[Row]:
            rows = self.inner.query(name, params)
            if name == "lesson_by_sha256":
                self.lookups += 1
                if self.lookups == 1:  # the run's lookup; the build reads the lessons after it
                    run(self.inner, self.theirs)
            return rows

    theirs = tmp_path / "theirs"
    theirs.mkdir()
    shutil.copy(folder / LESSONS[0], theirs / LESSONS[0])
    store = SQLiteStore.open(":memory:")
    context = IngestContext(
        store=Between(store, theirs / LESSONS[0]),
        llm=OfflineLLM(offline_handlers()),
        clock=StepClock("2026-02-01T00:00:00.000000Z", step_seconds=0.001),
        policy=Policy(),
        sleep=lambda _: None,
    )
    report = ingest([folder / LESSONS[0]], context)
    assert [lesson.status for lesson in report.lessons] == ["skipped"], report.lessons
    assert "another run" in report.lessons[0].detail
    assert [Path(lesson.source_path).parent for lesson in store.lessons()] == [theirs]
    store.close()


def test_a_lesson_refused_because_the_graph_moved_is_read_again_and_admitted(folder: Path) -> None:
    store = SQLiteStore.open(":memory:")
    run(store, folder / LESSONS[0])
    racing = Racing(store, folder / LESSONS[1])
    clock = StepClock("2026-02-01T00:00:00.000000Z", step_seconds=0.001)
    llm = OfflineLLM(offline_handlers())
    gate = Judgment(llm, Policy(), clock, racing)
    context = IngestContext(
        store=racing, llm=llm, clock=clock, policy=Policy(), gate=gate, sleep=lambda _: None
    )
    report = ingest([folder / LESSONS[4]], context)
    # Both built on the graph of lesson 0: they change the same domains, so the later is refused.
    assert report.conflicts and "domains.id, domains.version" in report.conflicts[0]
    assert [(lesson.status, lesson.attempts) for lesson in report.lessons] == [("new", 2)]
    retried = [d for d in store.decisions() if d.stage == "ingest"]
    assert [(d.verdict, d.detail["attempts"]) for d in retried] == [("retried", 2)]
    assert len(store.lessons()) == 3 and verify_store(store) == []  # nobody lost a concept's domain
    store.close()


def test_a_lesson_that_keeps_conflicting_is_reported_and_the_run_goes_on(folder: Path) -> None:
    class Always(Relay):
        def exclusive(self) -> AbstractContextManager[None]:
            return super(Relay, self).exclusive()

        def apply(self, batch: Batch) -> BatchResult:
            if _is_lesson(batch):
                return BatchResult(batch.batch_id, "refused", "conflict", "the graph moved")
            return self.inner.apply(batch)

    store = SQLiteStore.open(":memory:")
    waits: list[float] = []
    context = IngestContext(
        store=Always(store),
        llm=OfflineLLM(offline_handlers()),
        clock=StepClock("2026-01-01T00:00:00.000000Z"),
        policy=Policy(),
        attempts=3,
        sleep=waits.append,
    )
    report = ingest([folder / LESSONS[1]], context)
    assert [lesson.status for lesson in report.lessons] == ["refused"] and len(waits) == 3
    assert (
        "not ingested" in report.lessons[0].detail and "run `magg ingest` again" in report.lessons[0].detail
    )
    assert store.lessons() == [] and verify_store(store) == []
    store.close()
