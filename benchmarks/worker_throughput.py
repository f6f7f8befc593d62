"""Batch throughput: the same write batches applied to SQLite (a file) and to D1 through the Worker.

Run from the repository root (needs ``npm ci`` in ts-apply)::

    .venv/bin/python -m benchmarks.worker_throughput --batches 200 --ops 50 --out worker-throughput.json

Two ways of writing the same batches, each on both backends:

- ``one by one``: ``store.apply(batch)`` per batch (SQLite: one transaction each; D1: one request
  each, ``POST /v1/batches``);
- ``apply_all``: ``store.apply_all(batches)`` (SQLite: one transaction, a savepoint per batch;
  D1: as many batches per request as the Worker's bounds allow, ``POST /v1/groups``, each request
  one D1 transaction).

Each figure is the median of ``--repeats`` runs (fresh batch ids each run; sides alternate). The
Worker runs under ``wrangler dev --local`` on this machine (workerd with a local SQLite-backed D1),
so the figures measure the HTTP hop, JSON validation and the D1 binding, not Cloudflare's network.

A batch holds five operation types: ``--layout interleaved`` (the default) cycles through them
operation by operation, ``--layout grouped`` writes each type's operations together (concepts,
then decisions, edges, the rest), as a lesson's concepts and links come: consecutive operations of
one type are one statement on both backends.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import SecretStr

from benchmarks.command import run_command
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


LAYOUTS = ("interleaved", "grouped")
_GROUP_ORDER = {"add_concept": 0, "record_decision": 1, "commit_edge": 2}


def batches(count: int, ops_per_batch: int, run: str = "", layout: str = "interleaved") -> list[Batch]:
    """``count`` batches of ``ops_per_batch`` operations, cycling through five operation types (or,
    ``grouped``, each type's together, in an order their references allow); ids carry ``run``, so
    that each run writes new rows."""
    span = SpanData(lesson_id="l", start=0, end=4, quote="uses", kind="explicit")
    out = []
    for b in range(count):
        ops: list[Operation] = []
        for i in range(ops_per_batch):
            key = f"{run}b{b}-{i // 5}"
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
        if layout == "grouped":
            ops.sort(key=lambda op: _GROUP_ORDER.get(op.op, 3))  # stable: each type keeps its order
        out.append(Batch.of(f"bench-{run}{b}", T, ops))
    return out


MODES = ("one_by_one", "apply_all")
BACKENDS = ("sqlite", "d1_worker_local")


def timed(store: Store, work: list[Batch], mode: str) -> tuple[float, list[float]]:
    """Seconds to write ``work`` and each call's latency; refuses anything but applied."""
    latencies = []
    started = time.perf_counter()
    calls: Sequence[list[Batch]] = [[batch] for batch in work] if mode == "one_by_one" else [work]
    for call in calls:
        before = time.perf_counter()
        results = store.apply_all(call) if mode == "apply_all" else [store.apply(call[0])]
        latencies.append(time.perf_counter() - before)
        for result in results:
            if result.status != "applied":
                raise SystemExit(
                    f"batch {result.batch_id} was {result.status}: {result.code} {result.reason}"
                )
    return time.perf_counter() - started, latencies


def figures(runs: list[tuple[float, list[float]]], count: int, ops_per_batch: int) -> dict[str, object]:
    seconds = statistics.median(elapsed for elapsed, _ in runs)
    latencies = sorted(latency for _, run in runs for latency in run)
    return {
        "seconds": round(seconds, 3),
        "batches_per_s": round(count / seconds, 1),
        "ops_per_s": round(count * ops_per_batch / seconds, 1),
        "median_call_ms": round(statistics.median(latencies) * 1000, 2),
        "p95_call_ms": round(latencies[math.ceil(0.95 * len(latencies)) - 1] * 1000, 2),  # nearest rank
        "runs_s": [round(elapsed, 3) for elapsed, _ in runs],
    }


def run(
    count: int,
    ops_per_batch: int,
    repeats: int,
    folder: Path,
    log: Callable[[str], None],
    layout: str = "interleaved",
) -> dict[str, object]:
    times: dict[tuple[str, str], list[tuple[float, list[float]]]] = {}
    sent_to_d1: list[Batch] = []
    log("starting wrangler dev --local ...")
    with running_worker(folder / "worker") as worker:
        d1_store = D1Store(D1Config(url=worker.url, token=SecretStr(worker.token)))
        try:
            for repeat in range(repeats):
                for mode in MODES:
                    for backend in BACKENDS if repeat % 2 == 0 else BACKENDS[::-1]:
                        work = batches(count, ops_per_batch, f"r{repeat}{mode[0]}{backend[0]}-", layout)
                        if backend == "sqlite":
                            store: Store = SQLiteStore.open(folder / f"bench-{repeat}-{mode}.sqlite")
                            times.setdefault((backend, mode), []).append(timed(store, work, mode))
                            store.close()
                        else:
                            times.setdefault((backend, mode), []).append(timed(d1_store, work, mode))
                            sent_to_d1.extend(work)
                log(f"run {repeat + 1} of {repeats} done")
            applied = len(d1_store.query("edge_versions"))
        finally:
            d1_store.close()
    expected = sum(1 for batch in sent_to_d1 for op in batch.ops if op.op == "commit_edge")
    if applied != expected:
        raise SystemExit(f"D1 holds {applied} edge versions, expected {expected}")
    result: dict[str, object] = {
        "batches": count, "ops_per_batch": ops_per_batch, "repeats": repeats, "layout": layout
    }  # fmt: skip
    for mode in MODES:
        runs = {backend: times[(backend, mode)] for backend in BACKENDS}
        seconds = {
            backend: statistics.median(elapsed for elapsed, _ in runs[backend]) for backend in BACKENDS
        }
        result[mode] = {
            **{backend: figures(runs[backend], count, ops_per_batch) for backend in BACKENDS},
            "ratio_sqlite_over_d1_ops_per_s": round(seconds["d1_worker_local"] / seconds["sqlite"], 2),
        }
    return result


def table(result: dict[str, object]) -> str:
    header = ("mode", "backend", "ops/s", "batches/s", "median call ms", "p95 call ms", "median s")
    rows: list[tuple[str, ...]] = [header]
    notes = []
    for mode in MODES:
        entry = result[mode]
        assert isinstance(entry, dict)
        for backend in BACKENDS:
            figures_ = entry[backend]
            keys = ("ops_per_s", "batches_per_s", "median_call_ms", "p95_call_ms", "seconds")
            rows.append((mode, backend, *(str(figures_[key]) for key in keys)))
        notes.append(f"{mode}: SQLite/D1 ops/s ratio {entry['ratio_sqlite_over_d1_ops_per_s']}x")
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(width) for cell, width in zip(row, widths, strict=True)) for row in rows]
    lines.append(
        f"{result['batches']} batches x {result['ops_per_batch']} ops ({result['layout']}), "
        f"medians of {result['repeats']} runs; " + "; ".join(notes)
    )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", type=int, default=200)
    parser.add_argument("--ops", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3, help="runs per backend and mode (default 3)")
    parser.add_argument("--layout", choices=LAYOUTS, default="interleaved", help="operation order in a batch")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    if min(args.batches, args.ops, args.repeats) < 1:
        parser.error("--batches, --ops and --repeats must be positive")
    with tempfile.TemporaryDirectory(prefix="magg-bench-") as folder:
        result = run(
            args.batches,
            args.ops,
            args.repeats,
            Path(folder),
            log=lambda line: print(line, flush=True),
            layout=args.layout,
        )
    print(table(result))
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    run_command(main)
