"""Batch throughput: the same write batches applied to SQLite (a file) and to D1 through the Worker.

Run from the repository root (needs ``npm ci`` in ts-apply)::

    .venv/bin/python -m benchmarks.worker_throughput --batches 200 --ops 50 --out worker-throughput.json

The Worker runs under ``wrangler dev --local`` on this machine (workerd with a local SQLite-backed
D1), so the figure measures the HTTP hop, JSON validation and the D1 binding, not Cloudflare's
network.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import SecretStr

from benchmarks.local_worker import running_worker
from magg_kg.config import D1Config
from magg_kg.d1 import D1Store
from magg_kg.operations import (
    AddAlias,
    AddConcept,
    AppendAudit,
    Batch,
    CommitEdge,
    Operation,
    RecordDecision,
    SpanData,
)
from magg_kg.records import edge_id
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

T = "2026-03-01T00:00:00.000000Z"


def batches(count: int, ops_per_batch: int) -> list[Batch]:
    """``count`` batches of ``ops_per_batch`` operations, cycling through five operation types."""
    span = SpanData(lesson_id="l", start=0, end=4, quote="uses", kind="explicit")
    out = []
    for b in range(count):
        ops: list[Operation] = []
        for i in range(ops_per_batch):
            key = f"b{b}-{i // 5}"
            match i % 5:
                case 0:
                    ops.append(AddConcept(id=f"{key}-src", name=key, type="bench", recorded_at=T))
                case 1:
                    ops.append(AddConcept(id=f"{key}-dst", name=key, type="bench", recorded_at=T))
                case 2:
                    ops.append(
                        RecordDecision(
                            id=f"{key}-dec",
                            proposal_id=None,
                            stage="bench",
                            verdict="accept",
                            state_after="committed",
                            score=0.9,
                            rationale="bench",
                            detail={"i": i},
                            policy_version="p",
                            prompt_version="p",
                            model="m",
                            decided_at=T,
                        )
                    )
                case 3:
                    ops.append(
                        CommitEdge(
                            version_id=f"{key}-ver",
                            edge_id=edge_id(f"{key}-src", "related", f"{key}-dst"),
                            src=f"{key}-src",
                            type="related",
                            dst=f"{key}-dst",
                            confidence=0.9,
                            reason="bench",
                            source="bench",
                            evidence=[span],
                            valid_at=T,
                            recorded_at=T,
                            decision_id=f"{key}-dec",
                            policy_version="p",
                            prompt_version="p",
                            model="m",
                        )
                    )
                case _:
                    ops.append(
                        AddAlias(alias=f"{key}-alias", concept_id=f"{key}-src", recorded_at=T)
                        if b % 2
                        else AppendAudit(
                            event_id=f"{key}-ev",
                            kind="bench",
                            subject=key,
                            payload='{"bench":true}',
                            recorded_at=T,
                        )
                    )
        out.append(Batch.of(f"bench-{b}", T, ops))
    return out


def measure(store: Store, work: list[Batch]) -> dict[str, float]:
    latencies = []
    started = time.perf_counter()
    for batch in work:
        before = time.perf_counter()
        result = store.apply(batch)
        latencies.append(time.perf_counter() - before)
        if result.status != "applied":
            raise SystemExit(f"batch {batch.batch_id} was {result.status}: {result.code} {result.reason}")
    elapsed = time.perf_counter() - started
    ops = sum(len(batch.ops) for batch in work)
    return {
        "seconds": round(elapsed, 3),
        "batches_per_s": round(len(work) / elapsed, 1),
        "ops_per_s": round(ops / elapsed, 1),
        "median_batch_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_batch_ms": round(sorted(latencies)[int(0.95 * (len(latencies) - 1))] * 1000, 2),
    }


def run(count: int, ops_per_batch: int, folder: Path, log: Callable[[str], None]) -> dict[str, object]:
    work = batches(count, ops_per_batch)
    sqlite_store = SQLiteStore.open(folder / "bench.sqlite")
    try:
        sqlite_result = measure(sqlite_store, work)
    finally:
        sqlite_store.close()
    log("sqlite done; starting wrangler dev --local ...")
    with running_worker(folder / "worker") as worker:
        d1_store = D1Store(D1Config(url=worker.url, token=SecretStr(worker.token)))
        try:
            d1_result = measure(d1_store, work)
            applied = len(d1_store.query("edge_versions"))
        finally:
            d1_store.close()
    expected_edges = sum(1 for batch in work for op in batch.ops if op.op == "commit_edge")
    if applied != expected_edges:
        raise SystemExit(f"D1 holds {applied} edge versions, expected {expected_edges}")
    return {
        "batches": count,
        "ops_per_batch": ops_per_batch,
        "sqlite": sqlite_result,
        "d1_worker_local": d1_result,
        "ratio_sqlite_over_d1_ops_per_s": round(
            float(sqlite_result["ops_per_s"]) / float(d1_result["ops_per_s"]), 1
        ),
    }


def table(result: dict[str, object]) -> str:
    rows = [("backend", "ops/s", "batches/s", "median ms", "p95 ms", "total s")]
    for name in ("sqlite", "d1_worker_local"):
        figures = result[name]
        assert isinstance(figures, dict)
        rows.append(
            (
                name,
                *(
                    str(figures[key])
                    for key in ("ops_per_s", "batches_per_s", "median_batch_ms", "p95_batch_ms", "seconds")
                ),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]
    lines.append(
        f"{result['batches']} batches x {result['ops_per_batch']} ops; SQLite/D1 ops/s ratio: "
        f"{result['ratio_sqlite_over_d1_ops_per_s']}x"
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--ops", type=int, default=50)
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="magg-bench-") as folder:
        result = run(args.batches, args.ops, Path(folder), log=lambda line: print(line, flush=True))
    print(table(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
