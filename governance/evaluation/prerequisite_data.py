"""Prerequisite data beyond Metacademy for the replay: LectureBank (LB2) and AL-CPL folders.

Layouts (see each folder's ``SOURCE.md``; neither data set may be copied into the project):

LectureBank
    ``lb2_topics.csv`` (``topic_id,topic``) and ``lb2_prerequisite_edges.csv``
    (``source_id,source,target_id,target``: source is a prerequisite of target). Positives only:
    every other pair is a negative (closed world).
AL-CPL
    ``<domain>_concepts.csv`` (``concept_wikipedia_title``) and ``<domain>_pairs.csv``
    (``source_prerequisite,target,is_prerequisite``), one pair per domain. Labelled negatives.

Concepts have names and no summaries, so a candidate's evidence is the two names.

The split (:func:`concept_split`). AL-CPL's positives were closed under transitivity, so a split
by pair leaks: ``A -> B`` and ``B -> C`` established make ``A -> C`` a free guess. Concepts are
split instead: a seeded half of them is *established* and the gold edges among established
concepts are committed first; every candidate touches at least one held-out concept, and no
candidate's two ends are both established. Label-0 candidates are AL-CPL's labelled negatives
that touch a held-out concept (kind ``reversed`` where the other direction is a positive, else
``negative``); for LectureBank, the reverse of each gold candidate (``reversed``) and as many
pairs with no prerequisite path either way (``unrelated``), drawn with the seed.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import networkx as nx

from governance.evaluation.replay import Candidate, CandidateSet, Dataset, GoldEdge, Link, MetaConcept
from magg_kg.errors import InputError

__all__ = ["ESTABLISHED_CONCEPTS", "concept_split", "layout_of", "load_alcpl", "load_lecturebank"]

ESTABLISHED_CONCEPTS = 0.5
"""The share of concepts whose edges among themselves form the established graph."""


def layout_of(folder: Path) -> str:
    """``lecturebank``, ``al-cpl`` or ``metacademy``, by the files the folder holds."""
    if (folder / "lb2_topics.csv").is_file() or (folder / "lb2_prerequisite_edges.csv").is_file():
        return "lecturebank"
    if any(folder.glob("*_pairs.csv")) or any(folder.glob("*_concepts.csv")):
        return "al-cpl"
    return "metacademy"


def _rows(path: Path, columns: Sequence[str]) -> list[tuple[int, dict[str, str]]]:
    """Each row of a CSV file with its line number; a UTF-8 BOM (Excel's "CSV UTF-8") is accepted,
    text that is not UTF-8 is refused naming the file and the first bad byte."""
    if not path.is_file():
        raise InputError(f"{path} not found")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"{path} is not UTF-8 text (byte {error.start}): save it as UTF-8") from None
    reader = csv.DictReader(io.StringIO(text, newline=""))
    missing = set(columns) - set(reader.fieldnames or ())
    if missing:
        raise InputError(f"{path}: missing columns {', '.join(sorted(missing))}")
    return [(reader.line_num, {k: (v or "").strip() for k, v in row.items() if k}) for row in reader]


def _titles(path: Path) -> set[str]:
    """An AL-CPL concepts file's titles; an empty title is refused naming its line."""
    titles = set()
    for number, row in _rows(path, ("concept_wikipedia_title",)):
        if not row["concept_wikipedia_title"]:
            raise InputError(f"{path}:{number}: empty concept_wikipedia_title")
        titles.add(row["concept_wikipedia_title"])
    return titles


def _concept(tag: str) -> MetaConcept:
    return MetaConcept(tag, tag.replace("_", " "), "")


def _dataset(
    folder: Path, tags: set[str], pairs: list[tuple[str, str, int]]
) -> tuple[Dataset, list[tuple[str, str, int]]]:
    if not tags:
        raise InputError(f"{folder}: no concepts")
    gold = sorted({(a, b) for a, b, label in pairs if label == 1})
    if not gold:
        raise InputError(f"{folder}: no prerequisite edges")
    edges = tuple(GoldEdge(a, b, "") for a, b in gold)
    links = tuple(Link(a, b, "prerequisite", "", True) for a, b in gold)
    return Dataset(folder, {t: _concept(t) for t in sorted(tags)}, edges, links), pairs


def load_lecturebank(folder: Path) -> tuple[Dataset, list[tuple[str, str, int]]]:
    """LB2's topics and positive edges (closed world: no labelled negatives). A topic id written
    twice, an empty topic name, and an edge whose topic name is not its id's are refused."""
    names = _topics(folder / "lb2_topics.csv")
    path = folder / "lb2_prerequisite_edges.csv"
    pairs = []
    for number, row in _rows(path, ("source_id", "target_id")):
        for side in ("source_id", "target_id"):
            if row[side] not in names:
                raise InputError(f"{path}:{number}: {side} {row[side]!r} is not a topic of lb2_topics.csv")
        for side in ("source", "target"):
            written, named = row.get(side, ""), names[row[f"{side}_id"]]
            if written and written.replace(" ", "_") != named:
                raise InputError(
                    f"{path}:{number}: {side} {written!r} is not topic {row[f'{side}_id']} "
                    f"({named.replace('_', ' ')!r} in lb2_topics.csv)"
                )
        if row["source_id"] != row["target_id"]:
            pairs.append((names[row["source_id"]], names[row["target_id"]], 1))
    return _dataset(folder, set(names.values()), pairs)


def _topics(path: Path) -> dict[str, str]:
    """LB2's topic names by id (spaces made underscores), each id once and each name non-empty."""
    names: dict[str, str] = {}
    lines: dict[str, int] = {}
    for number, row in _rows(path, ("topic_id", "topic")):
        if not row["topic"]:
            raise InputError(f"{path}:{number}: topic {row['topic_id']!r} has an empty name")
        if row["topic_id"] in lines:
            raise InputError(
                f"{path}:{number}: topic_id {row['topic_id']!r} already on line {lines[row['topic_id']]}"
            )
        names[row["topic_id"]], lines[row["topic_id"]] = row["topic"].replace(" ", "_"), number
    return names


def load_alcpl(folder: Path) -> tuple[Dataset, list[tuple[str, str, int]]]:
    """Every domain's concepts and labelled pairs; a pair naming an unknown concept, or labelled
    both 1 and 0, is refused."""
    if not any(folder.glob("*_pairs.csv")):
        raise InputError(
            f"{folder}: no <domain>_pairs.csv: AL-CPL needs one beside each <domain>_concepts.csv"
        )
    tags: set[str] = set()
    pairs = []
    for path in sorted(folder.glob("*_pairs.csv")):
        domain = path.name.removesuffix("_pairs.csv")
        known = _titles(folder / f"{domain}_concepts.csv")
        tags |= known
        # pair -> (label, line), per domain: AL-CPL's domains label a few shared pairs differently
        labelled: dict[tuple[str, str], tuple[str, int]] = {}
        for number, row in _rows(path, ("source_prerequisite", "target", "is_prerequisite")):
            a, b, label = row["source_prerequisite"], row["target"], row["is_prerequisite"]
            for name in (a, b):
                if name not in known:
                    raise InputError(f"{path}:{number}: {name!r} is not a concept of {domain}_concepts.csv")
            if label not in ("0", "1"):
                raise InputError(f"{path}:{number}: is_prerequisite must be 0 or 1, got {label!r}")
            _check_label(labelled, (a, b), path, (label, number))
            if a != b:
                pairs.append((a, b, int(label)))
    return _dataset(folder, tags, pairs)


def _check_label(
    labelled: dict[tuple[str, str], tuple[str, int]], pair: tuple[str, str], path: Path, at: tuple[str, int]
) -> None:
    """Refuses a pair labelled 1 on one line of a file and 0 on another, naming both lines."""
    label, number = at
    first, first_number = labelled.setdefault(pair, at)
    if first != label:
        raise InputError(
            f"{path}:{number}: pair {pair[0]} -> {pair[1]} labelled {first} on line {first_number} "
            f"and {label} here"
        )


def concept_split(dataset: Dataset, pairs: Sequence[tuple[str, str, int]], seed: int) -> CandidateSet:
    """The concept-disjoint candidate set (module docstring)."""
    rng = random.Random(seed)
    tags = sorted(dataset.concepts)
    rng.shuffle(tags)
    established_tags = set(tags[: round(len(tags) * ESTABLISHED_CONCEPTS)])
    established = tuple(e for e in dataset.gold if e.src in established_tags and e.dst in established_tags)
    fresh = [e for e in dataset.gold if not (e.src in established_tags and e.dst in established_tags)]
    positive = {(e.src, e.dst) for e in dataset.gold}

    def candidate(a: str, b: str, label: int, kind: str) -> Candidate:
        return Candidate(a, "prerequisite", b, dataset.evidence(a, b), label, kind)

    out = [candidate(e.src, e.dst, 1, "gold") for e in fresh]
    labelled = [(a, b) for a, b, label in pairs if label == 0]
    if labelled:
        seen = set()
        for a, b in sorted(set(labelled)):
            if (a in established_tags and b in established_tags) or (a, b) in seen:
                continue
            seen.add((a, b))
            out.append(candidate(a, b, 0, "reversed" if (b, a) in positive else "negative"))
    else:
        out += [candidate(e.dst, e.src, 0, "reversed") for e in fresh if (e.dst, e.src) not in positive]
        graph = nx.DiGraph(list(positive))
        held = sorted(set(tags) - established_tags)
        wanted, tries = len(fresh), 0
        drawn: set[tuple[str, str]] = set()
        while len(drawn) < wanted and tries < 200 * max(1, wanted):
            tries += 1
            a, b = rng.choice(held), rng.choice(tags)
            if a == b or (a, b) in drawn:
                continue
            if a in graph and b in graph and (nx.has_path(graph, a, b) or nx.has_path(graph, b, a)):
                continue
            drawn.add((a, b) if rng.random() < 0.5 else (b, a))
        out += [candidate(a, b, 0, "unrelated") for a, b in sorted(drawn)]
    rng.shuffle(out)
    counts = dict(sorted(Counter(c.kind for c in out).items()))
    return CandidateSet(established, tuple(out), seed, f"{dataset.folder} (concept split)", counts)
