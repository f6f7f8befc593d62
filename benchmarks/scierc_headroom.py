"""How much can governance, as a filter of one extractor's proposals, add on SciERC?

Governance admits a subset of what the extractor proposes; it cannot add a triple. So on a split
its strict F1 is bounded by a *perfect filter* (every right proposal kept, every wrong one
dropped), and a verifier that ranks the proposals is bounded by its best threshold. This
benchmark trains the extractor and the verifier on ``train`` (as ``magg bench scierc`` does, in
memory, nothing written), proposes on each evaluated split sentence by sentence
(:func:`agents.schema_verifier.strict_proposals`: mentions and relations at the extractor's
bars, each strictly right or not) and prints, against the split's gold relations:

- flat: every proposal admitted;
- the verifier at its operating point (chosen on train, what governance uses);
- the verifier at its best threshold on the split itself (an oracle, for diagnosis only: it looks
  at the answers);
- a perfect filter;

with the ratio of each to flat, the verifier's and the extractor's AUC. It reads the sentence
annotations of the split (``{split}.jsonl``), not the document-level triple files, so its flat F1
differs a little from ``magg bench scierc``'s, which scores triples by document.

    .venv/bin/python -m benchmarks.scierc_headroom --data ../shared/data/scierc --out headroom.json
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

from agents.schema_extraction import SchemaRoles
from agents.schema_verifier import strict_proposals
from benchmarks.command import run_command
from benchmarks.lesson_size import machine, write_figures
from governance.evaluation.scierc import load_split
from governance.evaluation.triple_score import prf
from magg_kg.vocabulary import SCIERC

__all__ = ["Headroom", "headroom", "main"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "scierc"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "scierc_headroom.json"


def _f1(kept: np.ndarray, right: np.ndarray, gold: int) -> float:
    """Strict F1 of the proposals ``kept`` (0 where undefined: nothing kept, or no gold)."""
    f1 = prf(int(right[kept].sum()), int(kept.sum()), gold)["f1"]
    return f1 if isinstance(f1, float) else 0.0


def _auc(right: np.ndarray, scores: np.ndarray) -> float | None:
    return round(float(roc_auc_score(right, scores)), 4) if 0 < right.sum() < len(right) else None


@dataclass(frozen=True)
class Headroom:
    """One split's figures (see the module docstring)."""

    gold: int
    proposals: int
    right: int
    strict_f1: dict[str, float]
    auc: dict[str, float | None]
    operating_point: float

    def ratios(self) -> dict[str, float | None]:
        flat = self.strict_f1["flat"]
        return {name: round(value / flat, 3) if flat else None for name, value in self.strict_f1.items()}

    def as_dict(self) -> dict[str, object]:
        return {**asdict(self), "ratio_to_flat": self.ratios()}


def headroom(roles: SchemaRoles, data: Path, split: str) -> Headroom:
    """The figures of one split (see the module docstring)."""
    docs = load_split(data, split)
    gold = sum(len(sentence.relations) for doc in docs for sentence in doc.annotated)
    verifier, extractor, right = [], [], []
    for doc in docs:
        for sentence in doc.annotated:
            for features, correct, confidence in strict_proposals(
                roles.spans,
                roles.relations,
                sentence,
                mention_at=roles.mention_at,
                propose_at=roles.propose_at,
                types=roles.verifier.types,
            ):
                verifier.append(roles.verifier.probability(features))
                extractor.append(confidence)
                right.append(correct)
    scores, truth = np.array(verifier), np.array(right, dtype=bool)
    oracle = max((_f1(scores >= cut, truth, gold) for cut in np.unique(scores)), default=0.0)
    return Headroom(
        gold=gold,
        proposals=len(truth),
        right=int(truth.sum()),
        strict_f1={
            "flat": _f1(np.ones(len(truth), dtype=bool), truth, gold),
            "verifier_at_operating_point": _f1(scores >= roles.verifier.admit_at, truth, gold),
            "verifier_best_threshold_oracle": oracle,
            "perfect_filter": _f1(truth, truth, gold),
        },
        auc={"verifier": _auc(truth, scores), "extractor": _auc(truth, np.array(extractor))},
        operating_point=roles.verifier.admit_at,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a SciERC folder (DyGIE layout)")
    parser.add_argument(
        "--splits",
        nargs="+",
        choices=("train", "dev", "test"),
        default=["dev", "test"],
        help="the splits to evaluate",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    train = load_split(args.data, "train")
    roles = SchemaRoles.train([doc.annotated for doc in train], SCIERC)
    splits: dict[str, object] = {}
    print(f"{'split':6} {'setting':32} {'strict F1':>9} {'x flat':>7}")
    for split in args.splits:
        figures = headroom(roles, args.data, split)
        splits[split] = figures.as_dict()
        ratios = figures.ratios()
        for name, value in figures.strict_f1.items():
            print(f"{split:6} {name:32} {value:9.3f} {ratios[name]!s:>7}")
        print(f"{split:6} AUC verifier {figures.auc['verifier']}, extractor {figures.auc['extractor']}")
    seconds = round(time.perf_counter() - started, 1)
    write_figures(
        args.out, {"data": str(args.data), "machine": machine(), "splits": splits, "seconds": seconds}
    )


if __name__ == "__main__":
    run_command(main)
