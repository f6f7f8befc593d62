"""The replay ablation (``magg bench replay``), with its results written to ``benchmarks/results``.

A thin runner around the command: the same options, and ``--out`` defaults to
``benchmarks/results/replay.json``.

    python -m benchmarks.replay                       # generated set, offline provider
    python -m benchmarks.replay --limit 200 -c flat -c rules
    python -m benchmarks.replay --candidates mine.jsonl --out mine.json
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from magg_kg.cli import main as magg

__all__ = ["DEFAULT_OUT", "main"]

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "replay.json"


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if "--out" not in args and not any(arg.startswith("--out=") for arg in args):
        args += ["--out", str(DEFAULT_OUT)]
    sys.argv = ["magg", "bench", "replay", *args]
    magg()


if __name__ == "__main__":
    main()
