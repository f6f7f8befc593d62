"""The reference model's training claims drawn inside halves of a data set's concepts."""

from __future__ import annotations

import csv
import itertools
import json
from pathlib import Path

from governance.claim_examples import (
    HALVES,
    SEEDS,
    _dataset_examples,
    _halves,
    metacademy_examples,
    names_examples,
    names_only,
)
from governance.evaluation.replay import (
    Dataset,
    GoldEdge,
    Link,
    MetaConcept,
    build_candidates,
    load_dataset,
)


def _dataset(size: int = 40) -> Dataset:
    """A chain of prerequisites with a see-also link beside each edge, a link to a tag that is no
    concept, and one textbook teaching every concept in order."""
    tags = [f"c{n:02d}" for n in range(size)]
    concepts = {tag: MetaConcept(tag, f"concept {tag}", f"The summary of concept {tag}.") for tag in tags}
    gold = tuple(GoldEdge(a, b, f"{a} comes first.") for a, b in itertools.pairwise(tags))
    links = (
        *(Link(e.src, e.dst, "prerequisite", e.context, True) for e in gold),
        *(Link(b, a, "see_also", "", True) for a, b in zip(tags, tags[2:], strict=False)),
        Link(tags[0], "nowhere", "see_also", "", False),
    )
    return Dataset(Path("memory"), concepts, gold, links, ({tag: 3 * n for n, tag in enumerate(tags)},))


def test_each_way_of_halving_partitions_the_concepts_into_closed_graphs() -> None:
    dataset = _dataset()
    halves = _halves(dataset)
    assert len(halves) == 2 * len(HALVES)
    for first, second in zip(halves[::2], halves[1::2], strict=True):
        assert set(first.concepts).isdisjoint(second.concepts)
        assert set(first.concepts) | set(second.concepts) == set(dataset.concepts)
    for half in halves:
        tags = set(half.concepts)
        assert half.gold and all(e.src in tags and e.dst in tags for e in half.gold)
        assert set(half.gold) == {e for e in dataset.gold if e.src in tags and e.dst in tags}
        assert all(link.src in tags and (link.dst in tags or not link.both_concepts) for link in half.links)
        # The textbook's order, ranked again within the half: the same order, no gaps.
        (order,) = half.courses
        assert set(order) == tags
        assert sorted(order.values()) == list(range(len(tags)))
        assert sorted(order, key=order.__getitem__) == sorted(tags)


def test_a_half_with_fewer_than_two_prerequisites_is_left_out() -> None:
    assert _halves(_dataset(2)) == []  # one prerequisite in all
    assert all(len(half.gold) >= 2 for half in _halves(_dataset(4)))


def test_the_reference_model_learns_from_the_halves_and_the_names_model_does_not(tmp_path: Path) -> None:
    dataset = _dataset()
    _write(dataset, tmp_path)
    read = load_dataset(tmp_path)
    whole = _dataset_examples(read, SEEDS)
    drawn = [_dataset_examples(half, (min(SEEDS),)) for half in _halves(read)]
    assert drawn and all(build_candidates(half, min(SEEDS)).candidates for half in _halves(read))
    reference = metacademy_examples(tmp_path)
    assert len(reference) == len(whole) + sum(map(len, drawn))
    assert len(names_examples(tmp_path)) == len(_dataset_examples(names_only(read), SEEDS))


def _write(dataset: Dataset, folder: Path) -> None:
    with (folder / "concepts.jsonl").open("w", encoding="utf-8") as handle:
        for c in dataset.concepts.values():
            handle.write(json.dumps({"tag": c.tag, "title": c.title, "summary": c.summary}) + "\n")
    with (folder / "edges.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["source", "target", "relation", "context", "shortcut", "both_ends_are_concepts"])
        for link in dataset.links:
            writer.writerow([link.src, link.dst, link.relation, link.context, "0", int(link.both_concepts)])
