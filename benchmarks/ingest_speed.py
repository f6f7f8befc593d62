"""Governed against flat ingestion of real lessons, side by side: time, CPU and model calls.

The lessons are the d2l sections (``../shared/data/d2l-lessons``, *Dive into Deep Learning*, CC BY-SA
4.0, converted by :mod:`benchmarks.d2l_lessons`), or any folder given with ``--lessons``. Each
repeat runs ``magg ingest`` (offline provider) governed, then ``magg ingest --flat``, each into a
fresh database, in a subprocess timed from start to exit: wall clock and the subprocess's CPU time
(on a shared machine the steadier figure). The two alternate, so that both see the same load; the
table gives the medians and the ratio governed / flat of the medians, with the model calls per
proposal read from each database.

    .venv/bin/python -m benchmarks.ingest_speed --repeats 3 --out ingest-speed.json
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.command import positive, run_command
from benchmarks.d2l_lessons import convert
from benchmarks.lesson_size import machine, write_figures

__all__ = ["main", "run_once"]

ROOT = Path(__file__).resolve().parent.parent
D2L = ROOT.parent / "shared" / "data" / "d2l-lessons" / "sections.jsonl"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "ingest_speed.json"
MODES = ("governed", "flat")


def run_once(lessons: Path, db: Path, mode: str, timeout: float) -> dict[str, object]:
    """One ``magg ingest`` of ``lessons`` into a fresh ``db``: seconds, CPU seconds, calls."""
    db.unlink(missing_ok=True)
    magg = Path(sys.executable).with_name("magg")
    command = [str(magg), "ingest", str(lessons), "--db", str(db), "--json"]
    if mode == "flat":
        command.append("--flat")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"magg ingest ({mode}) failed with exit {done.returncode}: {done.stderr[-800:]}")
    with sqlite3.connect(db) as connection:
        calls = int(connection.execute("SELECT COUNT(*) FROM llm_usage").fetchone()[0])
        proposals = int(connection.execute("SELECT COUNT(*) FROM proposals").fetchone()[0])
        active = connection.execute("SELECT COUNT(*) FROM concept_edges WHERE status = 'active'")
        edges = int(active.fetchone()[0])
    return {
        "mode": mode,
        "seconds": round(seconds, 2),
        "cpu_s": round((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), 2),
        "calls": calls,
        "proposals": proposals,
        "calls_per_proposal": round(calls / proposals, 3) if proposals else 0.0,
        "active_edges": edges,
    }


def _median(runs: Sequence[dict[str, object]], key: str) -> float:
    return float(statistics.median(float(str(run[key])) for run in runs))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lessons", type=Path, help="a folder of lessons (default: the d2l sections)")
    parser.add_argument("--d2l", type=Path, default=D2L, help="the d2l sections (JSON lines)")
    parser.add_argument(
        "--repeats", type=positive(int), default=3, help="governed and flat runs, alternating"
    )
    parser.add_argument(
        "--timeout", type=positive(float), default=1800, help="seconds allowed for one ingestion"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        lessons = args.lessons
        if lessons is None:
            if not args.d2l.is_file():
                raise SystemExit(f"no d2l sections at {args.d2l}: pass --lessons DIR or --d2l FILE")
            lessons = work / "lessons"
            convert(args.d2l, lessons)
        runs: list[dict[str, object]] = []
        for repeat in range(1, max(1, args.repeats) + 1):
            for mode in MODES:
                run = run_once(lessons, work / f"{mode}.sqlite", mode, args.timeout)
                run["repeat"] = repeat
                runs.append(run)
                print(f"repeat {repeat} {mode:>8}: {run['seconds']} s, {run['cpu_s']} CPU s", file=sys.stderr)
    medians = {
        mode: {key: _median([r for r in runs if r["mode"] == mode], key) for key in ("seconds", "cpu_s")}
        for mode in MODES
    }
    last = {mode: next(r for r in reversed(runs) if r["mode"] == mode) for mode in MODES}
    source = str(args.lessons or args.d2l)
    print(f"lessons: {source}; {args.repeats} repeat(s), governed and flat alternating; medians")
    header = ("mode", 9), ("wall s", 8), ("CPU s", 8), ("calls", 6), ("proposals", 9), ("calls/prop", 10)
    print(" ".join(f"{name:>{width}}" for name, width in (*header, ("edges", 6))))
    for mode in MODES:
        row = last[mode]
        print(
            f"{mode:>9} {medians[mode]['seconds']:>8.1f} {medians[mode]['cpu_s']:>8.1f} {row['calls']!s:>6} "
            f"{row['proposals']!s:>9} {row['calls_per_proposal']!s:>10} {row['active_edges']!s:>6}"
        )
    ratio = {key: round(medians["governed"][key] / medians["flat"][key], 2) for key in ("seconds", "cpu_s")}
    print(f"governed / flat: {ratio['seconds']}x wall, {ratio['cpu_s']}x CPU")
    result = {
        "benchmark": "ingest_speed",
        "lessons": source,
        "machine": machine(),
        "medians": medians,
        "ratio": ratio,
        "runs": runs,
    }
    write_figures(args.out, result)


if __name__ == "__main__":
    run_command(main)
