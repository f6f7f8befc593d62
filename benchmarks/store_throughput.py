"""Store throughput: edge-version writes through the store vs raw ``sqlite3.executemany``.

Both sides write the same rows into a fresh file with the same schema (the migrations), after the
same untimed setup (the concepts and one decision per batch). The store side applies batches of
``commit_edge`` operations with :meth:`SQLiteStore.apply`, one transaction (and one commit to disk)
per batch, digest and bindings included (building and validating the batch objects is timed
separately: it is the client's work); the raw side inserts every row with one ``executemany`` in
one transaction, from rows made ready before the clock starts. A third side, ``store_all``, applies
the same batches with :meth:`SQLiteStore.apply_all` (one transaction, a savepoint per batch): the
bulk path. Sides alternate, each repeated; medians of the wall clock are reported, with the CPU
time beside them (the steadier figure on a shared machine; the wall clock also counts the waits
for the disk).

    python -m benchmarks.store_throughput --rows 100000 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.command import run_command
from magg_kg.migrations import migrations
from magg_kg.operations import AddConcept, Batch, CommitEdge, Operation, RecordDecision, SpanData
from magg_kg.records import canonical_json, edge_id
from magg_kg.sqlite import SQLiteStore

__all__ = ["main", "measure"]

AT = "2026-01-01T00:00:00.000000Z"
TYPES = ("prerequisite", "builds_on", "part_of", "contrasts_with", "related", "applies_to")
QUOTE = "Linear algebra is a prerequisite for neural networks."
EDGE_COLUMNS = (
    "version_id", "edge_id", "src", "type", "dst", "status", "confidence", "reason", "source", "evidence",
    "valid_at", "recorded_at", "decision_id", "policy_version", "prompt_version", "model",
)  # fmt: skip


def concept_count(rows: int) -> int:
    """Enough concepts for ``rows`` distinct (src, type, dst) triples."""
    count = 2
    while count * (count - 1) * len(TYPES) < rows:
        count += 1
    return count


def triples(rows: int) -> list[tuple[str, str, str]]:
    count = concept_count(rows)
    out = []
    for src in range(count):
        for dst in range(count):
            for type_ in TYPES:
                if src != dst:
                    out.append((f"c{src}", type_, f"c{dst}"))
                    if len(out) == rows:
                        return out
    return out


def setup_ops(rows: int, batch_size: int) -> list[Operation]:
    concepts: list[Operation] = [
        AddConcept(id=f"c{i}", name=f"Concept {i}", type="concept", recorded_at=AT)
        for i in range(concept_count(rows))
    ]
    decisions: list[Operation] = [
        RecordDecision(
            id=f"d{n}", proposal_id=None, stage="bench", verdict="accept", state_after="committed", score=0.9,
            rationale="benchmark", detail={}, policy_version="p1", prompt_version="none", model="none",
            decided_at=AT,
        )
        for n in range((rows + batch_size - 1) // batch_size)
    ]  # fmt: skip
    return concepts + decisions


def commit_ops(rows: int, batch_size: int) -> list[CommitEdge]:
    span = SpanData(lesson_id="external:bench", start=0, end=len(QUOTE), quote=QUOTE, kind="explicit")
    return [
        CommitEdge(
            version_id=f"v{i}", edge_id=edge_id(src, type_, dst), src=src, type=type_, dst=dst,
            confidence=0.9, reason="the lesson says so", source="bench", evidence=[span], valid_at=AT,
            recorded_at=AT,
            decision_id=f"d{i // batch_size}", policy_version="p1", prompt_version="none", model="none",
        )
        for i, (src, type_, dst) in enumerate(triples(rows))
    ]  # fmt: skip


def run_store(
    folder: Path, setup: list[Operation], batches: Sequence[Batch], *, together: bool = False
) -> tuple[float, float]:
    """Wall and CPU seconds of applying ``batches`` one by one (or all with ``apply_all``), and
    closing the store."""
    store = SQLiteStore.open(folder / "store.sqlite")
    store.write(Batch.of("setup", AT, setup))
    started, cpu = time.perf_counter(), time.process_time()
    results = store.apply_all(batches) if together else [store.write(batch) for batch in batches]
    store.close()  # timed: it copies what the WAL still holds into the database
    elapsed, used = time.perf_counter() - started, time.process_time() - cpu
    if any(result.status != "applied" for result in results):
        raise SystemExit(f"the store did not apply every batch: {results[0]}")
    return elapsed, used


def run_raw(folder: Path, setup: list[Operation], commits: Sequence[CommitEdge]) -> tuple[float, float]:
    """Wall and CPU seconds of one ``executemany`` of the rows, in one transaction."""
    db = sqlite3.connect(folder / "raw.sqlite", isolation_level=None)
    db.execute("PRAGMA foreign_keys = ON")
    for _, _, sql in migrations():
        db.executescript(sql)
    store = SQLiteStore(db, "raw")  # the same setup rows, written by the store's own statements
    store.write(Batch.of("setup", AT, setup))
    rows = [
        tuple(
            canonical_json(fields["evidence"]) if column == "evidence" else "active" if column == "status"
            else fields[column]
            for column in EDGE_COLUMNS
        )
        for fields in (op.model_dump(mode="json") for op in commits)
    ]  # fmt: skip
    marks = ", ".join("?" * len(EDGE_COLUMNS))
    sql = f"INSERT INTO concept_edges ({', '.join(EDGE_COLUMNS)}) VALUES ({marks})"
    started, cpu = time.perf_counter(), time.process_time()
    db.execute("BEGIN")
    db.executemany(sql, rows)
    db.execute("COMMIT")
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    db.close()
    return elapsed, cpu


SIDES = ("store", "raw", "store_all")


def measure(rows: int, repeats: int, batch_size: int) -> dict[str, object]:
    """Times both sides ``repeats`` times, alternating which goes first."""
    setup = setup_ops(rows, batch_size)
    started = time.perf_counter()
    commits = commit_ops(rows, batch_size)
    ops: list[Operation] = list(commits)
    batches = [Batch.of(f"b{n}", AT, ops[n : n + batch_size]) for n in range(0, rows, batch_size)]
    build = time.perf_counter() - started
    times: dict[str, list[tuple[float, float]]] = {side: [] for side in SIDES}
    for repeat in range(repeats):
        for side in SIDES if repeat % 2 == 0 else SIDES[::-1]:
            with tempfile.TemporaryDirectory() as folder:
                if side == "raw":
                    times[side].append(run_raw(Path(folder), setup, commits))
                else:
                    times[side].append(run_store(Path(folder), setup, batches, together=side == "store_all"))
    medians = {side: statistics.median(wall for wall, _ in runs) for side, runs in times.items()}
    cpu = {side: statistics.median(used for _, used in runs) for side, runs in times.items()}
    sides = {
        side: {
            "median_s": round(medians[side], 4),
            "median_cpu_s": round(cpu[side], 4),
            "rows_per_s": round(rows / medians[side]),
            "runs": [round(wall, 4) for wall, _ in runs],
            "runs_cpu": [round(used, 4) for _, used in runs],
        }
        for side, runs in times.items()
    }
    return {
        "rows": rows,
        "repeats": repeats,
        "batch_size": batch_size,
        "batches": len(batches),
        "build_batches_s": round(build, 4),
        **sides,
        "ratio_store_over_raw": round(medians["store"] / medians["raw"], 3),
        "ratio_store_over_raw_cpu": round(cpu["store"] / cpu["raw"], 3),
        "ratio_store_all_over_raw": round(medians["store_all"] / medians["raw"], 3),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        "machine": platform.machine(),
    }


def table(result: dict[str, object]) -> str:
    lines = [f"{'side':<10}{'median s':>12}{'median cpu s':>14}{'rows/s':>14}", "-" * 50]
    for side in SIDES:
        entry = result[side]
        assert isinstance(entry, dict)
        lines.append(
            f"{side:<10}{entry['median_s']:>12.3f}{entry['median_cpu_s']:>14.3f}{entry['rows_per_s']:>14,}"
        )
    lines.append(
        f"ratio store/raw: {result['ratio_store_over_raw']}x wall, "
        f"{result['ratio_store_over_raw_cpu']}x CPU; store_all/raw: {result['ratio_store_all_over_raw']}x "
        f"wall  ({result['rows']:,} edge versions, "
        f"{result['batches']} batches, {result['repeats']} repeats; building the batches: "
        f"{result['build_batches_s']} s, not timed)"
    )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rows", type=int, default=100_000, help="edge versions to write (default 100000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs per side (default 5)")
    parser.add_argument(
        "--batch-size", type=int, default=1_000, help="commit_edge ops per batch (default 1000)"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("benchmarks/results/store_throughput.json"), help="JSON result file"
    )
    args = parser.parse_args(argv)
    if args.rows < 1 or args.repeats < 1 or args.batch_size < 1:
        parser.error("--rows, --repeats and --batch-size must be positive")
    result = measure(args.rows, args.repeats, args.batch_size)
    print(table(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    run_command(main)
