"""The session's ``wrangler dev --local`` Worker, for tests that talk to D1 through it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from benchmarks.local_worker import RunningWorker, running_worker, worker_missing


@pytest.fixture(scope="session")
def worker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningWorker]:
    """A migrated local Worker for the whole session; skipped only without ts-apply/node_modules."""
    missing = worker_missing()
    if missing:
        pytest.skip(missing)
    with running_worker(tmp_path_factory.mktemp("worker")) as running:
        yield running
