"""The SciERC extractor's two bars, chosen on ``train`` alone.

The offline extractor of the SciERC schema has two bars: a span is a mention when the span model
gives it at least ``mention_at``, and a pair of mentions is proposed when its best label reaches
``propose_at``. Governance admits a subset of what is proposed, so the bars decide what it can
choose from: high bars give it few candidates, low bars many candidates, most of them wrong, which
only a good verifier can sort. This benchmark measures, for each pair of bars on a grid, what
governance would reach on the ``train`` split by itself: the verifier trained on the extractor's
out-of-fold proposals (:meth:`agents.schema_verifier.Verifier.train`), its out-of-fold AUC and the
F1 of admitting what it scores at or above its operating point, beside the F1 of admitting every
proposal (flat). The pair with the best out-of-fold governed F1 is the one the extractor uses
(:data:`agents.schema_extraction.MENTION_AT` and ``PROPOSE_AT``);
the pair with the best flat F1 is the one ``magg bench scierc``'s ``flat-best`` uses
(:data:`governance.evaluation.scierc_bench.FLAT_BARS`). Neither ``dev`` nor ``test`` is read.

    .venv/bin/python -m benchmarks.scierc_bars --data ../shared/data/scierc --out scierc_bars.json
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from pathlib import Path

from agents.schema_models import Annotated
from agents.schema_verifier import Verifier
from benchmarks.command import run_command
from benchmarks.lesson_size import machine, write_figures
from governance.evaluation.scierc import load_split
from magg_kg.vocabulary import SCIERC

__all__ = ["main", "measure"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "scierc"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "scierc_bars.json"
MENTION_BARS = (0.6, 0.5, 0.4, 0.3, 0.2, 0.1)
PROPOSE_BARS = (0.3, 0.2, 0.15, 0.1, 0.05, 0.02)
COLUMNS = (
    "mention_at",
    "propose_at",
    "proposals",
    "right",
    "f1_every_proposal",
    "auc_verifier",
    "f1_at_admit_at",
)
"""The table's columns: the bars, the out-of-fold proposals and the right ones among them, flat F1
(admitting every proposal), the verifier's AUC and governed F1 (admitting at its operating point)."""


def measure(
    documents: Sequence[Sequence[Annotated]], mention_at: float, propose_at: float
) -> dict[str, object]:
    """The out-of-fold figures of one pair of bars on ``documents`` (the ``train`` split's)."""
    symmetric = SCIERC.symmetric_types()
    verifier = Verifier.train(
        documents, symmetric, sorted(SCIERC.node_types), mention_at=mention_at, propose_at=propose_at
    )
    bars = {"mention_at": mention_at, "propose_at": propose_at}
    return {**bars, "admit_at": verifier.admit_at, **verifier.report}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a SciERC folder (DyGIE layout)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    parser.add_argument("--mention-bars", type=float, nargs="+", default=MENTION_BARS)
    parser.add_argument("--propose-bars", type=float, nargs="+", default=PROPOSE_BARS)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    documents = [doc.annotated for doc in load_split(args.data, "train")]
    rows = []
    print(" ".join(f"{name:>17}" for name in COLUMNS))
    for mention_at in args.mention_bars:
        for propose_at in args.propose_bars:
            rows.append(measure(documents, mention_at, propose_at))
            print(" ".join(f"{rows[-1].get(name)!s:>17}" for name in COLUMNS), flush=True)
    best = {
        name: max(rows, key=lambda row: float(str(row.get(column) or 0.0)))
        for name, column in (("governed", "f1_at_admit_at"), ("flat", "f1_every_proposal"))
    }
    for name, row in best.items():
        print(f"best {name} F1 out of fold: mention_at {row['mention_at']}, propose_at {row['propose_at']}")
    write_figures(
        args.out,
        {
            "data": str(args.data),
            "machine": machine(),
            "grid": rows,
            "best": {
                name: {"mention_at": row["mention_at"], "propose_at": row["propose_at"]}
                for name, row in best.items()
            },
            "seconds": round(time.perf_counter() - started, 1),
        },
    )


if __name__ == "__main__":
    run_command(main)
