"""How well the offline classifier reads question types, on questions written apart from it.

Each file is JSON lines ``{"question", "type", "concepts", "full"}``: a question, the type it asks
(:data:`agents.question_types.QUESTION_TYPES`), the concepts it names in the order the type reads
them, and for ``prerequisites`` whether it asks for all of them. The concepts named in a file are
the lexicon; a question is read exactly when its type, its concepts in order and (for
prerequisites) its ``full`` flag are right. Prints a table by type and file and writes JSON.

The ``benchmarks/data/questions-*.heldout.jsonl`` files were written by agents that never saw the
classifier and are never trained on (``agents/offline/data/questions_train.jsonl`` is).

    python -m benchmarks.question_types benchmarks/data/questions-*.heldout.jsonl --out FILE
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from agents.question_types import classify
from agents.text import lexicon, normalize_name
from benchmarks.command import run_command

__all__ = ["main", "score_file"]


def score_file(path: Path) -> dict[str, dict[str, float]]:
    """Type -> {n, type, exact} (shares) for one file, and ``all``."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]
    names = sorted({name for row in rows for name in row["concepts"]})
    keys = lexicon([(name, [name]) for name in names])
    counts: dict[str, list[int]] = {}
    for row in rows:
        read = classify(row["question"], keys)
        typed = read.type == row["type"]
        # A name written in two forms in one file ("LSTM", "LSTMs") is one concept: the one the
        # lexicon keeps for it.
        labelled = [keys.get(normalize_name(name), name) for name in row["concepts"]]
        exact = (
            typed
            and read.concepts == labelled
            and (row["type"] != "prerequisites" or read.full == bool(row.get("full", False)))
        )
        for kind in (row["type"], "all"):
            tally = counts.setdefault(kind, [0, 0, 0])
            tally[0] += 1
            tally[1] += typed
            tally[2] += exact
    return {
        kind: {"n": n, "type": round(typed / n, 4), "exact": round(exact / n, 4)}
        for kind, (n, typed, exact) in sorted(counts.items())
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    results = {str(path): score_file(path) for path in args.files}
    table = Table(title="question types read")
    for column in ("file", "type asked", "n", "type right", "exact"):
        table.add_column(column, justify="left" if column in ("file", "type asked") else "right")
    for name, scores in results.items():
        for kind, row in scores.items():
            table.add_row(Path(name).name, kind, str(row["n"]), f"{row['type']:.3f}", f"{row['exact']:.3f}")
    Console().print(table)
    if args.out is not None:
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    run_command(main)
