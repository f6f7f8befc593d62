"""The replay ablation (``magg bench replay``), with its results written to ``benchmarks/results``.

The same options as the command, and ``--out`` defaults to ``benchmarks/results/replay.json``; it
calls what the command calls (:func:`magg_kg.cli.bench.replay.replay_report`).

    python -m benchmarks.replay                       # generated set, offline provider
    python -m benchmarks.replay --limit 200 -c flat -c rules
    python -m benchmarks.replay --candidates mine.jsonl --out mine.json
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from benchmarks.command import run_command
from governance.evaluation.ablation import CONFIGURATIONS
from magg_kg.cli.bench.replay import print_report, replay_report
from magg_kg.cli.context import emit_report, read_config, shared_data
from magg_kg.errors import UserError

__all__ = ["DEFAULT_OUT", "main"]

DEFAULT_OUT = Path(__file__).resolve().parent / "results" / "replay.json"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--data", type=Path, help="Metacademy, LectureBank (LB2) or AL-CPL folder")
    parser.add_argument("--candidates", type=Path, help="labelled candidates (JSON lines) to evaluate")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the results here")
    parser.add_argument("--seed", type=int, help="seed of the candidate set (default: 7)")
    parser.add_argument("--limit", type=int, help="evaluate the first N candidates")
    parser.add_argument(
        "--configuration", "-c", action="append", help=f"run only these ({', '.join(CONFIGURATIONS)})"
    )
    args = parser.parse_args(argv)
    try:
        report = replay_report(
            args.data or shared_data("metacademy"),
            read_config(),
            candidates=args.candidates,
            seed=args.seed,
            limit=args.limit,
            configurations=args.configuration or list(CONFIGURATIONS),
        )
    except UserError as error:
        parser.error(str(error))
    emit_report(report, args.out, args.json, print_report)


if __name__ == "__main__":
    run_command(main)
