"""Ingestion time against lesson size: one big lesson of 1, 2, 4 and 8 MB through ``magg ingest``.

Each lesson is prose-like Markdown built from the d2l sections (``../shared/data/d2l-lessons``, *Dive
into Deep Learning*, CC BY-SA 4.0, code removed; see its SOURCE.md), else from the bundled
curriculum: the sections in order, over and over, each pass with its headings numbered ("... (pass
2)") so that no two chunks of a lesson are the same text. Every size is ingested by ``magg ingest
FILE --max-bytes N --json`` (the offline provider) into a fresh database, in a subprocess, timed
from start to exit (wall clock, and the run's CPU time: on a shared machine the steadier figure); a
time per MB that stays flat as the size doubles is linear.

    .venv/bin/python -m benchmarks.lesson_size --sizes 1 2 4 8 --out lesson-size.json
    .venv/bin/python -m benchmarks.lesson_size --sizes 20 --timeout 1800

The table goes to stdout; the figures (and the machine) go to ``--out`` as JSON
(default ``benchmarks/results/lesson_size.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from benchmarks.command import positive, run_command
from magg_kg.lessons import read_parts

__all__ = ["build_lesson", "machine", "main", "measure", "sections"]

MB = 1_000_000
ROOT = Path(__file__).resolve().parent.parent
D2L = ROOT.parent / "shared" / "data" / "d2l-lessons" / "sections.jsonl"
CURRICULUM = ROOT / "magg_kg" / "curriculum"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "lesson_size.json"
ATTRIBUTION = (
    "---\n"
    "source: Dive into Deep Learning (d2l.ai, https://github.com/d2l-ai/d2l-en), sections repeated\n"
    "authors: Aston Zhang, Zachary C. Lipton, Mu Li and Alexander J. Smola\n"
    "license: CC BY-SA 4.0; adapted, code removed\n"
    "---\n\n"
)
_MARKUP = re.compile(r":(?:numref|cite|citet|citep|eqref|ref|label|eqlabel):`[^`]*`")
_HEADING = re.compile(r"^(#{1,6}\s+.+?)\s*$", re.MULTILINE)


def sections(d2l: Path = D2L) -> tuple[str, list[str]]:
    """(where the text comes from, the section texts): the d2l sections, else the curriculum."""
    if d2l.is_file():
        texts = []
        for line in d2l.read_text("utf-8").splitlines():
            if line.strip():
                texts.append(_MARKUP.sub("", str(json.loads(line)["text"])))
        return f"d2l sections ({d2l})", texts
    return "the bundled curriculum", [path.read_text("utf-8") for path in sorted(CURRICULUM.glob("*.md"))]


def _passes(texts: Sequence[str]) -> Iterator[str]:
    number = 0
    while True:
        number += 1
        for text in texts:
            yield text if number == 1 else _HEADING.sub(rf"\1 (pass {number})", text)


def build_lesson(size: int, texts: Sequence[str]) -> str:
    """A Markdown lesson of ``size`` bytes (UTF-8, cut at a paragraph end) from ``texts``, repeated.

    >>> lesson = build_lesson(600, ["# A\\n\\nAlpha is a letter.\\n", "# B\\n\\nBeta follows alpha.\\n"])
    >>> len(lesson.encode()) <= 600, "# A (pass 2)" in lesson
    (True, True)
    """
    if not any(text.strip() for text in texts):
        raise ValueError("no text to build a lesson from")
    parts, total = [ATTRIBUTION], len(ATTRIBUTION.encode())
    for text in _passes(texts):
        for paragraph in text.strip().split("\n\n"):
            piece = paragraph.strip() + "\n\n"
            cost = len(piece.encode())
            if total + cost > size:
                return "".join(parts)
            parts.append(piece)
            total += cost
    raise AssertionError("unreachable: the passes never end")


def measure(
    megabytes: float, texts: Sequence[str], timeout: float, keep: Path | None = None
) -> dict[str, object]:
    """Ingests one lesson of ``megabytes`` MB into a fresh database; its time and what it made.

    ``read_s`` is the document processing alone (:func:`magg_kg.lessons.read_parts`: normalization,
    prose view, parts, chunks), timed in this process; ``seconds`` is the whole ``magg ingest`` run.
    """
    size = int(megabytes * MB)
    lesson = build_lesson(size, texts)
    with tempfile.TemporaryDirectory() as folder:
        work = keep or Path(folder)
        path = work / f"lesson-{megabytes:g}mb.md"
        path.write_text(lesson, "utf-8")
        started = time.perf_counter()
        parts = read_parts(path, max_bytes=size + MB)
        chunks = sum(len(part.chunks) for part in parts)
        read_s = round(time.perf_counter() - started, 2)
        db = work / f"lesson-{megabytes:g}mb.sqlite"
        db.unlink(missing_ok=True)
        magg = Path(sys.executable).with_name("magg")
        command = [str(magg), "ingest", str(path), "--db", str(db), "--json", "--max-bytes", str(size + MB)]
        started, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:
            return {
                "megabytes": megabytes,
                "bytes": len(lesson.encode()),
                "chunks": chunks,
                "parts": len(parts),
                "read_s": read_s,
                "finished": False,
                "timeout_s": timeout,
            }
        seconds = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        row: dict[str, object] = {
            "megabytes": megabytes,
            "bytes": len(lesson.encode()),
            "chunks": chunks,
            "parts": len(parts),
            "read_s": read_s,
            "finished": done.returncode == 0,
            "exit_code": done.returncode,
            "seconds": round(seconds, 2),
            "seconds_per_mb": round(seconds / megabytes, 2),
            "cpu_s": round(cpu, 2),
            "cpu_s_per_mb": round(cpu / megabytes, 2),
        }
        if done.returncode != 0:
            row["stderr"] = done.stderr[-2000:]
            return row
        report = json.loads(done.stdout)
        row["report"] = {key: report[key] for key in sorted(report) if isinstance(report[key], int | float)}
        return row


def machine() -> dict[str, object]:
    """The machine a benchmark ran on, and how loaded it was when the run ended."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average": os.getloadavg(),
    }


def write_figures(path: Path, result: Mapping[str, object]) -> None:
    """Writes a benchmark's figures as JSON to ``path`` (its folder made if needed) and says where."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result, indent=2) + "\n", "utf-8")
    print(f"figures written to {path}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=positive(float), nargs="+", default=[1, 2, 4, 8], help="lesson sizes in MB"
    )
    parser.add_argument(
        "--timeout", type=positive(float), default=1200, help="seconds allowed for one ingestion"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    parser.add_argument("--keep", type=Path, help="keep the lessons and databases in this folder")
    parser.add_argument(
        "--d2l", type=Path, help="the d2l sections (JSON lines; default: ../shared's, else the curriculum)"
    )
    args = parser.parse_args(argv)
    if args.d2l is not None and not args.d2l.is_file():  # named, it is not replaced by the curriculum
        parser.error(f"--d2l {args.d2l}: no such file")
    source, texts = sections(args.d2l or D2L)
    if args.keep:
        args.keep.mkdir(parents=True, exist_ok=True)
    rows = []
    print(f"lessons from {source}; `magg ingest` (offline provider), one lesson per run")
    columns = [("MB", 6), ("bytes", 11), ("chunks", 7), ("read s", 7), ("ingest s", 9)]
    columns += [("cpu s", 8), ("cpu/MB", 7)]
    print(" ".join(f"{name:>{width}}" for name, width in columns) + "  outcome")
    for megabytes in args.sizes:
        row = measure(megabytes, texts, args.timeout, args.keep)
        rows.append(row)
        outcome = "ok" if row["finished"] else f"not finished (exit {row.get('exit_code', 'timeout')})"
        if "stderr" in row:
            lines = [x.strip() for x in str(row["stderr"]).splitlines() if "further information" not in x]
            outcome += ": " + ([x for x in lines if x] or ["(no message)"])[-1][:120]
        seconds = row.get("seconds", f">{args.timeout:g}")
        cpu, per_mb = row.get("cpu_s", "-"), row.get("cpu_s_per_mb", "-")
        print(
            f"{megabytes:>6g} {row['bytes']:>11,} {row['chunks']:>7} {row['read_s']:>7} "
            f"{seconds!s:>9} {cpu!s:>8} {per_mb!s:>7}  {outcome}"
        )
    result = {
        "benchmark": "lesson_size",
        "source": source,
        "machine": machine(),
        "runs": rows,
    }
    write_figures(args.out, result)


if __name__ == "__main__":
    run_command(main)
