"""A writer whose clock is behind the recorded history (another machine's clock ran ahead, or this
one's was set back) still writes: its clock moves past what the store recorded, so time stays in
order (the time-order triggers) without refusing the writer."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from governance.ingestion import ingest
from magg_kg.cli.app import app
from magg_kg.clock import StepClock, SystemClock
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from tests.ingestion.test_ingest import CountingLLM, context, lessons

AHEAD = "2099-01-01T00:00:00.000000Z"
BEHIND = "2026-01-01T00:00:00.000000Z"


def _latest(store: SQLiteStore) -> str:
    return str(store.latest_time())


def _ingest_ahead(store: SQLiteStore, tmp_path: Path) -> str:
    """Ingests one lesson with a clock far ahead; returns the latest time it recorded."""
    folder = lessons(tmp_path, "01-math-linear-algebra.md")
    ingest([folder], context(store, StepClock(AHEAD), CountingLLM()))
    return _latest(store)


def test_a_writer_behind_the_recorded_history_moves_past_it(tmp_path: Path) -> None:
    store = SQLiteStore.open(str(tmp_path / "g.sqlite"))
    try:
        ingest(
            [lessons(tmp_path, "01-math-linear-algebra.md")], context(store, StepClock(AHEAD), CountingLLM())
        )
        ahead = _latest(store)
        assert ahead >= AHEAD
        folder = lessons(tmp_path, "02-math-calculus-gradients.md", "03-math-probability.md")
        report = ingest([folder], context(store, StepClock(BEHIND), CountingLLM()))
        assert report.count("new") == 2 and not report.conflicts  # lesson 01 is in, and skipped
        assert _latest(store) > ahead
        assert not verify_store(store)
    finally:
        store.close()


def test_the_command_line_writes_after_a_history_recorded_in_the_future(tmp_path: Path) -> None:
    db = tmp_path / "g.sqlite"
    store = SQLiteStore.open(str(db))
    try:
        ingest(
            [lessons(tmp_path, "01-math-linear-algebra.md")], context(store, StepClock(AHEAD), CountingLLM())
        )
        ahead = _latest(store)
    finally:
        store.close()
    folder = lessons(tmp_path, "02-math-calculus-gradients.md")
    result = CliRunner().invoke(app, ["ingest", str(folder), "--db", str(db)])
    assert result.exit_code == 0, result.output
    reopened = SQLiteStore.open(str(db))
    try:
        assert _latest(reopened) > ahead
        assert reopened.lesson_count() == 2
    finally:
        reopened.close()


def test_the_system_clock_never_reads_before_a_time_it_observed() -> None:
    clock = SystemClock()
    clock.observe(AHEAD)
    first, second = clock.now(), clock.now()
    assert AHEAD < first < second
    clock.observe(None)
    clock.observe(BEHIND)  # an earlier time changes nothing
    assert clock.now() > second


def test_a_stored_time_no_clock_can_follow_is_not_observed() -> None:
    # A hostile or broken writer's time at the end of the calendar would leave no time to step on
    # to (an overflow on every command), and one that is no time stamp nothing to observe.
    clock = SystemClock()
    for stamp in ("9999-12-31T23:59:59.999999Z", "not a time", ""):
        clock.observe(stamp)
    assert clock.now() < AHEAD


def test_two_clocks_that_observe_one_time_ahead_read_apart() -> None:
    # Two processes on a store whose history runs ahead of both: without an offset of their own,
    # both would read the observed time plus one microsecond, and write batches of one id (the
    # benchmark of `magg serve` against one-shot `magg ask` met it). They collide once in 10^6.
    first, second = SystemClock(), SystemClock()
    first.observe(AHEAD)
    second.observe(AHEAD)
    assert first.now() != second.now()
