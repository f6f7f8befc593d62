"""The replay out of sample: the judgment trained on one part of Metacademy's concepts, replayed on the other.

``magg bench replay`` on ``../shared/data/metacademy`` builds its candidates from the concepts and
edges the shipped reference model was fitted on, so its figures are in sample. This benchmark
measures what concepts the model never saw give. The concepts are cut into ``--parts`` parts by a
hash of their tag; each part keeps its concepts, the edges between two of them and its links to
tags that are no concept, and drops the edges across the cut. For each part, the judgment is
trained as ``magg model build`` trains it (:func:`governance.training.train`: the other parts'
Metacademy claims and the same labelled lesson claims), and full governance replays the part's
candidates twice, side by side on the same candidates: with that model (out of sample) and with
the shipped one, which saw every concept (in sample). A part is a smaller graph than the whole,
with fewer established edges to read paths from, so both figures are lower than the whole
replay's; the gap between them is what the concepts being unseen costs. Several seeds of the
candidate set; the table prints each run, the medians and the figures pooled over the runs.

    .venv/bin/python -m benchmarks.replay_split --data ../shared/data/metacademy --out replay_split.json
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from agents.offline.handlers import offline_handlers
from agents.offline.model import JudgmentModel, judgment_model
from benchmarks.lesson_size import machine, write_figures
from governance.claim_examples import concept_part
from governance.evaluation.ablation import run_configuration
from governance.evaluation.replay import build_candidates, load_dataset
from governance.evaluation.scorecard import score_run
from governance.labelled import lesson_labels
from governance.training import train
from magg_kg.cli.bench.figures import CLOCK_START
from magg_kg.cli.model import default_labels
from magg_kg.clock import StepClock
from magg_kg.config import Config
from magg_kg.errors import InputError

__all__ = ["main", "replay_part", "split_folder"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "metacademy"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "replay_split.json"


def split_folder(source: Path, out: Path, keep: set[int], parts: int, salt: str = "") -> int:
    """Writes into ``out`` the Metacademy-layout folder of the concepts in the parts ``keep``: their
    lines of ``concepts.jsonl``, the rows of ``edges.csv`` between two of them or from one of them
    to a tag that is no concept, and the resource catalogue; returns how many concepts it holds."""
    out.mkdir(parents=True, exist_ok=True)
    lines = [line for line in (source / "concepts.jsonl").read_text("utf-8").splitlines() if line.strip()]
    tagged = [(str(json.loads(line)["tag"]).strip(), line) for line in lines]
    kept = [(tag, line) for tag, line in tagged if concept_part(tag, parts, salt) in keep]
    (out / "concepts.jsonl").write_text("".join(f"{line}\n" for _, line in kept), "utf-8")
    tags = {tag for tag, _ in kept}
    with (source / "edges.csv").open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        rows = [
            row
            for row in reader
            if row["source"].strip() in tags
            and (row["target"].strip() in tags or row.get("both_ends_are_concepts", "1") == "0")
        ]
        fields = list(reader.fieldnames or ())
    with (out / "edges.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    catalog = source / "resource_catalog.jsonl"
    if catalog.is_file():
        shutil.copy(catalog, out / catalog.name)
    return len(tags)


def replay_part(folder: Path, model: JudgmentModel, seed: int, config: Config) -> dict[str, object]:
    """Full governance's precision and recall on the candidates of ``folder``, judged by ``model``."""
    dataset = load_dataset(folder)
    candidates = build_candidates(dataset, seed)
    run = run_configuration(
        "full",
        candidates,
        dataset,
        llm_config=config.llm.checked(),
        policy=config.policy,
        clock_factory=lambda: StepClock(CLOCK_START),
        handlers=offline_handlers(judgment=model),
    )
    scored = score_run(candidates.candidates, run)
    kept = ("admitted", "true_positives", "false_positives", "precision", "recall", "f1")
    return {key: scored[key] for key in kept} | {
        "positives": sum(c.label == 1 for c in candidates.candidates)
    }


def _median(rows: list[dict[str, object]], key: str) -> float | None:
    values = [value for row in rows if isinstance(value := row[key], int | float)]
    return round(statistics.median(values), 4) if values else None


def _pooled(rows: list[dict[str, object]]) -> dict[str, float | None]:
    """Precision and recall over every run's candidates together: a part of a few dozen concepts
    has a dozen gold candidates, too few for its own rates to mean much."""

    def total(key: str) -> int:
        return sum(int(value) for row in rows if isinstance(value := row[key], int))

    hits, admitted, positives = total("true_positives"), total("admitted"), total("positives")
    return {
        "precision": round(hits / admitted, 4) if admitted else None,
        "recall": round(hits / positives, 4) if positives else None,
    }


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a Metacademy-layout folder")
    parser.add_argument("--parts", type=int, default=2, help="how many parts to cut the concepts into")
    parser.add_argument(
        "--salt", default="", help="cut the concepts another way: the hash reads this text before the tag"
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 101, 202], help="candidate-set seeds")
    parser.add_argument(
        "--labels", type=Path, nargs="*", help="labelled lesson claims (default: the shipped)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    labels = args.labels if args.labels is not None else default_labels()
    labelled = lesson_labels(labels)
    config, shipped = Config(), judgment_model()  # the offline provider: its judgment is measured
    runs: list[dict[str, object]] = []
    print(
        f"{'part':>4} {'concepts':>8} {'seed':>5} {'model':14} {'admitted':>8} {'precision':>9} {'recall':>7}"
    )
    with tempfile.TemporaryDirectory() as scratch:
        for part in range(args.parts):
            others = set(range(args.parts)) - {part}
            tested = split_folder(args.data, Path(scratch, f"test{part}"), {part}, args.parts, args.salt)
            split_folder(args.data, Path(scratch, f"train{part}"), others, args.parts, args.salt)
            try:
                trained, _ = train(Path(scratch, f"train{part}"), labelled)
                load_dataset(Path(scratch, f"test{part}"))
            except InputError as error:
                raise SystemExit(f"part {part} of {args.parts}: {error}") from None
            for seed in args.seeds:
                for name, model in (("out of sample", trained), ("in sample", shipped)):
                    row = {"part": part, "concepts": tested, "seed": seed, "model": name}
                    row |= replay_part(Path(scratch, f"test{part}"), model, seed, config)
                    runs.append(row)
                    print(
                        f"{part:>4} {tested:>8} {seed:>5} {name:14} {row['admitted']:>8} "
                        f"{row['precision']!s:>9} {row['recall']!s:>7}"
                    )
    medians, pooled = {}, {}
    for name in ("out of sample", "in sample"):
        chosen = [row for row in runs if row["model"] == name]
        medians[name] = {key: _median(chosen, key) for key in ("precision", "recall")}
        pooled[name] = _pooled(chosen)
        print(
            f"{name}: median precision {medians[name]['precision']}, recall {medians[name]['recall']}; "
            f"pooled precision {pooled[name]['precision']}, recall {pooled[name]['recall']}"
        )
    seconds = round(time.perf_counter() - started, 1)
    write_figures(
        args.out,
        {
            "data": str(args.data),
            "parts": args.parts,
            "salt": args.salt,
            "machine": machine(),
            "runs": runs,
            "medians": medians,
            "pooled": pooled,
            "seconds": seconds,
        },
    )


if __name__ == "__main__":
    main()
