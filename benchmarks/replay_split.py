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
candidate set; the table prints each run.

One cut's figure is noisy (a part of a few dozen concepts holds a dozen gold candidates per seed),
so the benchmark takes several cuts in one run: each ``--parts`` count with each ``--salt`` (the
hash reads the salt before the tag). For each model it prints every cut's figures pooled over its
runs, and the median of those over the cuts, the figure to quote:

    .venv/bin/python -m benchmarks.replay_split --data ../shared/data/metacademy --parts 2 4 5 \
        --salt "" x y z --out replay_split.json
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
from typing import Any, cast

from agents.offline.handlers import offline_handlers
from agents.offline.model import JudgmentModel, judgment_model
from benchmarks.command import run_command
from benchmarks.lesson_size import machine, write_figures
from governance.claim_examples import ClaimExample, concept_part
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

__all__ = ["MODELS", "main", "replay_cut", "replay_part", "split_folder"]

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA = ROOT.parent / "shared" / "data" / "metacademy"
DEFAULT_OUT = ROOT / "benchmarks" / "results" / "replay_split.json"
MODELS = ("out of sample", "in sample")
"""The two judgments of each part: trained without its concepts, and the shipped one."""


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


def replay_cut(
    data: Path, parts: int, salt: str, seeds: Sequence[int], labelled: Sequence[ClaimExample], scratch: Path
) -> list[dict[str, object]]:
    """One cut of the concepts into ``parts`` parts (hashed with ``salt``), its folders written in
    ``scratch``: each part replayed by the model trained on the others (out of sample) and by the
    shipped one (in sample), for each seed; one row per run, printed as it comes."""
    config, shipped = Config(), judgment_model()  # the offline provider: its judgment is measured
    runs: list[dict[str, object]] = []
    for part in range(parts):
        test, rest = scratch / f"test{part}", scratch / f"train{part}"
        tested = split_folder(data, test, {part}, parts, salt)
        split_folder(data, rest, set(range(parts)) - {part}, parts, salt)
        try:
            trained, _ = train(rest, labelled)
            load_dataset(test)
        except InputError as error:
            raise SystemExit(f"part {part} of {parts} (salt {salt!r}): {error}") from None
        for seed in seeds:
            for name, model in zip(MODELS, (trained, shipped), strict=True):
                row = {"parts": parts, "salt": salt, "part": part, "concepts": tested, "seed": seed}
                row |= {"model": name} | replay_part(test, model, seed, config)
                runs.append(row)
                print(
                    f"{parts:>5} {salt!r:>6} {part:>4} {tested:>8} {seed:>5} {name:14} {row['admitted']:>8} "
                    f"{row['precision']!s:>9} {row['recall']!s:>7}"
                )
    return runs


def _summary(runs: list[dict[str, object]], cuts: list[tuple[int, str]]) -> dict[str, object]:
    """For each model: the median run, the runs pooled, each cut pooled, and the median over cuts
    of the cuts' pooled figures (a cut's figure is noisy: the figure to quote is that median)."""
    summary: dict[str, object] = {}
    for name in MODELS:
        chosen = [row for row in runs if row["model"] == name]
        by_cut = [
            {"parts": parts, "salt": salt}
            | _pooled([row for row in chosen if (row["parts"], row["salt"]) == (parts, salt)])
            for parts, salt in cuts
        ]
        summary[name] = {
            "median_run": {key: _median(chosen, key) for key in ("precision", "recall")},
            "pooled": _pooled(chosen),
            "cuts": by_cut,
            "median_over_cuts": {key: _median(by_cut, key) for key in ("precision", "recall")},
        }
    return summary


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="a Metacademy-layout folder")
    parser.add_argument(
        "--parts", type=int, nargs="+", default=[2], help="how many parts to cut the concepts into"
    )
    parser.add_argument(
        "--salt",
        nargs="+",
        default=[""],
        help="cut the concepts other ways (the hash reads the salt before the tag); a cut per salt and parts",
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 101, 202], help="candidate-set seeds")
    parser.add_argument(
        "--labels", type=Path, nargs="*", help="labelled lesson claims (default: the shipped)"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    if min(args.parts) < 2:
        parser.error("--parts: at least 2 (a part is replayed by a model trained on the others)")
    started = time.perf_counter()
    labels = args.labels if args.labels is not None else default_labels()
    load_dataset(args.data)  # a folder that is not a data set is refused before any cut
    labelled = lesson_labels(labels)
    cuts = list(dict.fromkeys((parts, salt) for parts in args.parts for salt in args.salt))
    print(
        f"{'parts':>5} {'salt':>6} {'part':>4} {'concepts':>8} {'seed':>5} {'model':14} {'admitted':>8} "
        f"{'precision':>9} {'recall':>7}"
    )
    runs: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory() as scratch:
        for number, (parts, salt) in enumerate(cuts):
            runs += replay_cut(args.data, parts, salt, args.seeds, labelled, Path(scratch, f"cut{number}"))
    summary = _summary(runs, cuts)
    for name in MODELS:
        figures = cast(dict[str, Any], summary[name])
        print(f"{name}, pooled by cut (parts, salt: precision / recall):")
        for cut in figures["cuts"]:
            print(f"  {cut['parts']}, {cut['salt']!r}: {cut['precision']} / {cut['recall']}")
        print(
            f"{name}: over {len(cuts)} cut(s), median precision {figures['median_over_cuts']['precision']}, "
            f"recall {figures['median_over_cuts']['recall']}; every run pooled: precision "
            f"{figures['pooled']['precision']}, recall {figures['pooled']['recall']}"
        )
    seconds = round(time.perf_counter() - started, 1)
    write_figures(
        args.out,
        {
            "data": str(args.data),
            "cuts": [{"parts": parts, "salt": salt} for parts, salt in cuts],
            "seeds": args.seeds,
            "machine": machine(),
            "runs": runs,
            "summary": summary,
            "seconds": seconds,
        },
    )


if __name__ == "__main__":
    run_command(main)
