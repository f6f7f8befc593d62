"""Shared fixtures: an in-memory store and a deterministic clock; every test leaves the process's
Ctrl-C and SIGTERM handling as it found it."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from magg_kg.clock import StepClock
from magg_kg.sqlite import SQLiteStore

T0 = "2026-01-01T00:00:00.000000Z"


@pytest.fixture(autouse=True)
def _signals_kept() -> Iterator[None]:
    """``magg``'s ``main`` run in this process ignores SIGINT and SIGTERM as it ends (a signal then
    would only turn its exit into a traceback): put back what the test process had, so that it can
    still be stopped and the commands it starts later do not inherit the ignoring."""
    kept = {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    yield
    for number, handler in kept.items():
        signal.signal(number, handler)


@pytest.fixture
def clock() -> StepClock:
    return StepClock(T0, step_seconds=0.001)


@pytest.fixture
def store() -> Iterator[SQLiteStore]:
    opened = SQLiteStore.open(":memory:")
    yield opened
    opened.close()


from tests.conftest_worker import worker  # noqa: E402, F401  (the wrangler dev fixture)
