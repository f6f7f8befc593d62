"""Concept extraction over a folder of lessons, for eyeballing: how many concepts, which ones.

Runs extraction only (concepts, relations, evidence through the offline provider; no governance,
no store) lesson by lesson with one shared :class:`agents.extraction.Registry`, as ingestion does,
and prints the number of distinct concepts, the most frequent ones (by lessons naming them), a
seeded random sample of the concepts, and the same for the concepts that end up on candidate
edges. Label the random samples by the blind-review rubric (genuine, self-standing concepts) to get the
genuine-concept rate.

Usage::

    .venv/bin/python -m benchmarks.concept_sample /tmp/d2l [--seed 7] [--sample 60] [--top 60]
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from agents.extraction import extract_lesson
from agents.offline.handlers import offline_handlers
from agents.registry import Registry
from benchmarks.command import positive, run_command
from magg_kg.lesson_files import find_lessons
from magg_kg.lessons import read_lesson
from magg_kg.llm.offline import OfflineLLM
from magg_kg.vocabulary import CURRICULUM


def measure(folders: list[Path], seed: int, sample: int, top: int) -> None:
    """Prints the concept counts, the most frequent concepts and seeded random samples."""
    llm = OfflineLLM(offline_handlers())
    registry = Registry([], {})
    lessons_naming: Counter[str] = Counter()
    on_edges: Counter[str] = Counter()
    started = time.perf_counter()
    files = find_lessons(folders)
    for path, key in files:
        lesson = read_lesson(path, key)
        result = extract_lesson(lesson, llm, registry, CURRICULUM)
        for link_id in {link.concept_id for link in result.links}:
            lessons_naming[link_id] += 1
        for candidate in result.candidates:
            on_edges[candidate.src] += 1
            on_edges[candidate.dst] += 1
    elapsed = time.perf_counter() - started
    names = {concept_id: info.name for concept_id, info in registry.concepts.items()}
    print(
        f"{len(files)} lessons in {elapsed:.1f} s: {len(names)} distinct concepts, {len(on_edges)} on edges"
    )
    _show(
        f"{top} most frequent (lessons naming them)", [names[c] for c, _ in lessons_naming.most_common(top)]
    )
    rng = random.Random(seed)
    everything = sorted(names)
    _show(
        f"{sample} at random (seed {seed})",
        [names[c] for c in rng.sample(everything, min(sample, len(everything)))],
    )
    edged = sorted(on_edges)
    _show(
        f"{sample} on edges at random (seed {seed})",
        [names[c] for c in random.Random(seed).sample(edged, min(sample, len(edged)))],
    )


def _show(title: str, items: list[str]) -> None:
    print(f"\n## {title}")
    for index, item in enumerate(items, 1):
        print(f"{index:3d}. {item}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", type=Path, nargs="+")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--sample", type=positive(int), default=60)
    parser.add_argument("--top", type=positive(int), default=60)
    args = parser.parse_args(argv)
    measure(args.folders, args.seed, args.sample, args.top)


if __name__ == "__main__":
    run_command(main)
