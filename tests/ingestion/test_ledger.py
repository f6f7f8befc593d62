"""The ledger (``magg_kg.ledger``) reads as the store reads: after each lesson, a new version of one
(its earlier proposals judged again), and reconsideration, every proposal in its state now."""

from __future__ import annotations

import shutil
from pathlib import Path

from agents.offline.handlers import offline_handlers
from governance.ingestion import IngestContext, ingest
from governance.judgment import Judgment
from governance.reconsider import reconsider
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.journal import journaled
from magg_kg.ledger import ProposalLedger
from magg_kg.llm.offline import OfflineLLM
from magg_kg.operations import Batch
from magg_kg.sqlite import SQLiteStore

CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
NAMES = ("01-math-linear-algebra.md", "02-math-calculus-gradients.md", "06-classical-ml-linear-regression.md")


def test_the_ledger_holds_what_the_store_reads_after_every_write(
    tmp_path: Path, store: SQLiteStore, clock: StepClock
) -> None:
    llm = OfflineLLM(offline_handlers())
    ledger = ProposalLedger(store)
    context = IngestContext(
        store=store,
        llm=llm,
        clock=clock,
        policy=Policy(),
        gate=Judgment(llm, Policy(), clock, store),
        ledger=ledger,
    )
    assert ledger.current() == store.proposals() == []
    for name in NAMES:
        folder = tmp_path / name.removesuffix(".md")
        folder.mkdir()
        shutil.copy(CURRICULUM / name, folder / name)
        ingest([folder], context)
        assert ledger.current() == store.proposals() and store.proposals()
    # A new version of the first lesson: its earlier proposals are judged again, some superseded.
    folder = tmp_path / "again"
    folder.mkdir()
    text = (CURRICULUM / NAMES[0]).read_text("utf-8")
    (folder / NAMES[0]).write_text(
        text + "\nThe determinant is a prerequisite for the matrix inverse.\n", "utf-8"
    )
    before = {p.id: p.state for p in store.proposals()}
    ingest([folder], context)
    assert ledger.current() == store.proposals()
    # A lower bar than the default, so that reconsideration surely moves some abstained claims
    # whatever the shipped model scores them (the ledger, not the bar, is under test).
    for found in reconsider(store, llm, Policy(commit_at=0.7), clock):
        if found.ops:
            at = clock.now()
            store.apply(Batch.of(f"reconsider-{found.settled[-1]}", at, journaled(list(found.ops), at)))
    after = store.proposals()
    assert ledger.current() == after
    # Earlier proposals changed state, and the ledger read them again.
    assert any(p.id in before and before[p.id] != p.state for p in after)
