"""Shared fixtures: an in-memory store and a deterministic clock."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from magg_kg.clock import StepClock
from magg_kg.sqlite import SQLiteStore

T0 = "2026-01-01T00:00:00.000000Z"


@pytest.fixture
def clock() -> StepClock:
    return StepClock(T0, step_seconds=0.001)


@pytest.fixture
def store() -> Iterator[SQLiteStore]:
    opened = SQLiteStore.open(":memory:")
    yield opened
    opened.close()


from tests.conftest_worker import worker  # noqa: E402, F401  (the wrangler dev fixture)
