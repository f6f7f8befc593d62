"""A full disk while a batch is written: one clear StoreError, the transaction rolled back whole,
never a traceback from the rollback of a transaction SQLite already ended."""

from __future__ import annotations

from pathlib import Path

import pytest

from magg_kg.clock import StepClock
from magg_kg.errors import StoreError
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.operations import AddConcept, Batch
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import file_damage, verify_store


def _batch(clock: StepClock, first: int, count: int) -> Batch:
    now = clock.now()
    ops = [
        AddConcept(id=f"c{n}", name=f"concept {n}", type="concept", description="x" * 3000, recorded_at=now)
        for n in range(first, first + count)
    ]
    return Batch.of(make_id("batch", str(first), now), now, journaled(list(ops), now))


def _full(path: Path) -> SQLiteStore:
    """The store at ``path``, with no room to grow: SQLite answers "database or disk is full"."""
    store = SQLiteStore.open(path)
    pages = store._db.execute("PRAGMA page_count").fetchone()[0]
    store._db.execute(f"PRAGMA max_page_count = {pages}")
    return store


@pytest.mark.parametrize("together", [False, True], ids=["one batch", "batches in one transaction"])
def test_a_full_disk_is_one_store_error_and_nothing_half_written(tmp_path: Path, together: bool) -> None:
    path = tmp_path / "g.sqlite"
    clock = StepClock("2026-01-01T00:00:00.000000Z")
    store = SQLiteStore.open(path)
    store.write(_batch(clock, 0, 2))
    store.close()
    store = _full(path)
    with pytest.raises(StoreError, match="full"):
        if together:
            store.apply_all([_batch(clock, 10, 1), _batch(clock, 20, 200)])
        else:
            store.apply(_batch(clock, 20, 200))
    assert not store._db.in_transaction
    assert {c.id for c in store.concepts()} == {"c0", "c1"}
    store.close()
    reopened = SQLiteStore.open(path)
    assert verify_store(reopened) == [] and file_damage(path) == []
    reopened.close()
