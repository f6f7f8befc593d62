"""Blind review of admitted edges: the sample a reviewer labels, and the scores of the labels.

A sample draws N active edges at random from each database (seeded; all of them where a database
has fewer), mixes and shuffles them, and numbers them ``r-0001``, ``r-0002``... in shuffled order,
so that a review id says nothing about the database it came from. Three files share one prefix:

- ``PREFIX.blind.jsonl``: what the reviewer sees, one review a line (review id, src name, type,
  dst name, the first evidence quote with its whitespace collapsed, at most 400 characters);
- ``PREFIX.labels.jsonl``: the template the reviewer fills, one label a line;
- ``PREFIX.key.json``: review id -> database, edge id and edge version, kept from the reviewer.

Every blind row, every label of the template and the key carry the sample's fingerprint
(``sample``: the first 12 hex digits of the SHA-256 of the key's other fields), since review ids
are ``r-0001``... in every sample: scoring refuses labels whose fingerprint is not the key's. Files
written before the fingerprint (no ``sample``) are still read, with no such check.

Scoring reads the key and the filled labels. Per database, and per edge type within it:

- acceptance rate = labels with verdict ``ACCEPT`` / labelled reviews;
- genuine-endpoint rate = labels with both ``src_ok`` and ``dst_ok`` true / labelled reviews;

each with its 95% Wilson score interval. A review whose label is missing or left empty (all of
``src_ok``, ``dst_ok``, ``verdict`` null) is unlabelled: it is reported and left out.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from magg_kg.errors import UserError
from magg_kg.ids import digest, numbered_id
from magg_kg.jsonlines import text_of
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

__all__ = [
    "QUOTE_LIMIT",
    "BlindRow",
    "DatabaseDraw",
    "DatabaseScore",
    "KeyEntry",
    "Label",
    "LabelCounts",
    "Rate",
    "Sample",
    "SampleKey",
    "Scores",
    "draw_sample",
    "open_read_only",
    "read_key",
    "read_labels",
    "refuse_overwrite",
    "sample_paths",
    "score_labels",
    "shorten_quote",
    "wilson_interval",
    "write_sample",
]

QUOTE_LIMIT = 400
"""The longest quote a reviewer is shown, in characters (an ellipsis marks a cut)."""

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


class _Shape(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class BlindRow(_Shape):
    """One line of ``PREFIX.blind.jsonl``: what the reviewer sees, and nothing of where it came from."""

    review_id: str
    src: str
    type: str
    dst: str
    quote: str
    sample: str | None = None


class Label(_Shape):
    """One line of ``PREFIX.labels.jsonl``; with ``src_ok``, ``dst_ok`` and ``verdict`` null, a blank.

    Strict: ``src_ok`` and ``dst_ok`` are JSON ``true``/``false`` (not ``"yes"`` or ``1``), and
    ``verdict`` is ``"ACCEPT"`` or ``"REJECT"``, in capitals. The three are filled in together or not
    at all, and ACCEPT needs both endpoints genuine.
    """

    review_id: str
    src_ok: bool | None = None
    dst_ok: bool | None = None
    verdict: Literal["ACCEPT", "REJECT"] | None = None
    why: str = ""
    sample: str | None = None

    @model_validator(mode="after")
    def _filled_in_whole(self) -> Label:
        if (self.src_ok, self.dst_ok, self.verdict).count(None) in (1, 2):
            raise ValueError("partly filled: fill src_ok, dst_ok and verdict, or leave all three null")
        if self.verdict == "ACCEPT" and not (self.src_ok and self.dst_ok):
            raise ValueError("ACCEPT needs src_ok and dst_ok true (both endpoints genuine concepts)")
        return self


class KeyEntry(_Shape):
    """Where one review came from."""

    db: str
    edge_id: str
    version_id: str
    type: str


class DatabaseDraw(_Shape):
    """How many edges one database had, and how many were drawn from it."""

    db: str
    active_edges: int
    drawn: int


class SampleKey(_Shape):
    """``PREFIX.key.json``: the seed, N, the databases in the order given, every review's origin,
    and the sample's fingerprint (None in a key written before samples had one)."""

    seed: int
    n: int
    databases: tuple[DatabaseDraw, ...]
    reviews: dict[str, KeyEntry]
    sample: str | None = None

    def fingerprinted(self) -> SampleKey:
        """This key with its fingerprint: a hash of every other field, so that it names the sample."""
        fields = self.model_dump(mode="json", exclude={"sample"})
        return self.model_copy(update={"sample": digest(json.dumps(fields, sort_keys=True), length=12)})


@dataclass(frozen=True)
class Sample:
    """The blind rows in review order and the key that unblinds them."""

    rows: tuple[BlindRow, ...]
    key: SampleKey


def shorten_quote(text: str, limit: int = QUOTE_LIMIT) -> str:
    """The quote on one line, whitespace collapsed, cut to ``limit`` characters.

    >>> shorten_quote("  residual\\n connections   help ")
    'residual connections help'
    >>> shorten_quote("abcdefgh", limit=5)
    'abcd…'
    """
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def wilson_interval(count: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``count`` successes in ``n`` trials ((0, 1) when n is 0).

    >>> [round(x, 4) for x in wilson_interval(17, 20)]
    [0.6396, 0.9476]
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if n == 0:
        return (0.0, 1.0)
    p = count / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def open_read_only(path: Path) -> Store:
    """An existing magg database, opened for reading only (a mistyped path creates nothing)."""
    if not path.is_file():
        raise UserError(f"no database at {path}: pass the SQLite files that `magg ingest` wrote")
    if path.stat().st_size == 0:
        raise UserError(
            f"{path} is empty, not a magg database: pass the SQLite files that `magg ingest` wrote"
        )
    return SQLiteStore.open(path, read_only=True)


def draw_sample(stores: Sequence[tuple[str, Store]], n: int, seed: int) -> Sample:
    """N active edges drawn from each (name, store), mixed, shuffled and numbered.

    The same stores, N and seed give the same sample.
    """
    rng = random.Random(seed)
    drawn: list[tuple[BlindRow, KeyEntry]] = []
    draws = []
    for db, store in stores:
        names = {concept.id: concept.name for concept in store.concepts()}
        edges = sorted(store.edges(), key=lambda edge: edge.version_id)
        chosen = rng.sample(edges, n) if len(edges) > n else edges
        draws.append(DatabaseDraw(db=db, active_edges=len(edges), drawn=len(chosen)))
        drawn += [
            (
                BlindRow(
                    review_id="",
                    src=names.get(edge.src, edge.src),
                    type=edge.type,
                    dst=names.get(edge.dst, edge.dst),
                    quote=shorten_quote(edge.grounding.evidence[0].quote),
                ),
                KeyEntry(db=db, edge_id=edge.edge_id, version_id=edge.version_id, type=edge.type),
            )
            for edge in chosen
        ]
    rng.shuffle(drawn)
    # Numbered after the shuffle, so that an id tells nothing of its database.
    width = len(str(len(drawn)))  # at least the kind's four digits
    ids = [numbered_id("blind_review", number, width) for number in range(1, len(drawn) + 1)]
    key = SampleKey(
        seed=seed,
        n=n,
        databases=tuple(draws),
        reviews={id_: entry for id_, (_, entry) in zip(ids, drawn, strict=True)},
    ).fingerprinted()
    return Sample(
        rows=tuple(
            row.model_copy(update={"review_id": id_, "sample": key.sample})
            for id_, (row, _) in zip(ids, drawn, strict=True)
        ),
        key=key,
    )


def sample_paths(prefix: Path) -> tuple[Path, Path, Path]:
    """The blind rows, the labels template and the key that share ``prefix``.

    >>> [path.name for path in sample_paths(Path("out/run1"))]
    ['run1.blind.jsonl', 'run1.labels.jsonl', 'run1.key.json']
    """
    name = prefix.name
    return (
        prefix.with_name(f"{name}.blind.jsonl"),
        prefix.with_name(f"{name}.labels.jsonl"),
        prefix.with_name(f"{name}.key.json"),
    )


def _jsonl(models: Sequence[BaseModel]) -> str:
    return "".join(json.dumps(model.model_dump(mode="json"), ensure_ascii=False) + "\n" for model in models)


def refuse_overwrite(prefix: Path, *, force: bool = False) -> tuple[Path, Path, Path]:
    """The three paths of ``prefix``, once it is clear that writing them overwrites nothing unasked."""
    if prefix.is_dir():
        raise UserError(f"--out {prefix} is a folder: pass a file prefix such as {prefix / 'review'}")
    paths = sample_paths(prefix)
    existing = [str(path) for path in paths if path.exists()]
    if existing and not force:
        raise UserError(
            f"{', '.join(existing)} already exist: pass --force to overwrite them, or another --out"
        )
    return paths


def write_sample(sample: Sample, prefix: Path, *, force: bool = False) -> tuple[Path, Path, Path]:
    """Writes the blind rows, the labels template and the key; refuses to overwrite unless ``force``."""
    blind, labels, key = paths = refuse_overwrite(prefix, force=force)
    blind.parent.mkdir(parents=True, exist_ok=True)
    blind.write_text(_jsonl(sample.rows), encoding="utf-8")
    template = [Label(review_id=row.review_id, sample=row.sample) for row in sample.rows]
    labels.write_text(_jsonl(template), encoding="utf-8")
    key_text = json.dumps(sample.key.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
    key.write_text(key_text, encoding="utf-8")
    return paths


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']} (got {first['input']!r})" if where else first["msg"]


def read_key(path: Path) -> SampleKey:
    """The key that `magg bench sample` wrote."""
    if not path.is_file():
        raise UserError(f"no key at {path}: pass the --out prefix given to `magg bench sample`")
    text = text_of(path)
    try:
        return SampleKey.model_validate_json(text, strict=False)
    except ValidationError as error:
        raise UserError(f"{path} is not a sample key: {_problem(error)}") from None


def read_labels(path: Path) -> tuple[Label, ...]:
    """The labels, one JSON object a line (blank lines skipped), validated strictly."""
    if not path.is_file():
        raise UserError(f"no labels at {path}: pass the PREFIX.labels.jsonl file the reviewer filled")
    labels = []
    for number, line in enumerate(text_of(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            raise UserError(f"{path} line {number} is not JSON ({error.msg})") from None
        try:
            labels.append(Label.model_validate(value))
        except ValidationError as error:
            review = f" ({value['review_id']})" if isinstance(value, dict) and "review_id" in value else ""
            raise UserError(f"{path} line {number}{review}: {_problem(error)}") from None
    return tuple(labels)


@dataclass(frozen=True)
class Rate:
    """``count`` of ``n``, with its share and 95% Wilson interval."""

    count: int
    n: int

    def as_json(self) -> dict[str, float | int | None]:
        low, high = wilson_interval(self.count, self.n)
        share = self.count / self.n if self.n else None
        return {
            "count": self.count,
            "n": self.n,
            "rate": None if share is None else round(share, 4),
            "low": round(low, 4),
            "high": round(high, 4),
        }


@dataclass(frozen=True)
class LabelCounts:
    """Labelled reviews, accepted ones, and ones with both endpoints genuine."""

    labelled: int
    accepted: int
    genuine: int

    @property
    def acceptance(self) -> Rate:
        return Rate(self.accepted, self.labelled)

    @property
    def genuine_endpoints(self) -> Rate:
        return Rate(self.genuine, self.labelled)

    @classmethod
    def of(cls, labels: Sequence[Label]) -> LabelCounts:
        """The counts of filled-in labels."""
        return cls(
            labelled=len(labels),
            accepted=sum(label.verdict == "ACCEPT" for label in labels),
            genuine=sum(bool(label.src_ok and label.dst_ok) for label in labels),
        )

    def as_json(self) -> dict[str, object]:
        return {
            "labelled": self.labelled,
            "acceptance": self.acceptance.as_json(),
            "genuine_endpoints": self.genuine_endpoints.as_json(),
        }


@dataclass(frozen=True)
class DatabaseScore:
    """One database's label counts, overall and per edge type (types sorted)."""

    db: str
    overall: LabelCounts
    by_type: tuple[tuple[str, LabelCounts], ...]


@dataclass(frozen=True)
class Scores:
    """Every database's score, in the order the sample was drawn, and the unlabelled review ids."""

    reviews: int
    unlabelled: tuple[str, ...]
    databases: tuple[DatabaseScore, ...]

    def as_json(self) -> dict[str, object]:
        return {
            "reviews": self.reviews,
            "labelled": self.reviews - len(self.unlabelled),
            "unlabelled": list(self.unlabelled),
            "confidence": 0.95,
            "databases": {
                score.db: {
                    **score.overall.as_json(),
                    "by_type": {type_: counts.as_json() for type_, counts in score.by_type},
                }
                for score in self.databases
            },
        }


def _named(ids: Sequence[str]) -> str:
    return ", ".join(ids[:20]) + (f" and {len(ids) - 20} more" if len(ids) > 20 else "")


def score_labels(key: SampleKey, labels: Sequence[Label]) -> Scores:
    """Scores the filled labels against the key; refuses labels that do not fit the sample: of
    review ids not in the key, or with another sample's fingerprint (labels without one pass)."""
    others = sorted({label.sample for label in labels if label.sample not in (None, key.sample)})
    if others:
        raise UserError(
            f"the labels are of sample {', '.join(map(str, others))}, the key of sample "
            f"{key.sample or '(none: written before samples had a fingerprint)'}: "
            "pass the labels filled from this key's PREFIX.labels.jsonl"
        )
    unknown = sorted({label.review_id for label in labels if label.review_id not in key.reviews})
    if unknown:
        raise UserError(
            f"labels for review ids not in the key: {_named(unknown)}; were they made for another sample?"
        )
    twice = sorted(id_ for id_, count in Counter(label.review_id for label in labels).items() if count > 1)
    if twice:
        raise UserError(f"more than one label for review ids {_named(twice)}: keep one line per review")
    filled = {label.review_id: label for label in labels if label.verdict is not None}
    if not filled:
        raise UserError(
            f"no review is labelled yet ({len(key.reviews)} in the key): fill in the labels file first"
        )
    databases = []
    for draw in key.databases:
        mine = [
            (key.reviews[id_].type, label) for id_, label in filled.items() if key.reviews[id_].db == draw.db
        ]
        by_type = {type_: LabelCounts.of([label for t, label in mine if t == type_]) for type_, _ in mine}
        overall = LabelCounts.of([label for _, label in mine])
        databases.append(DatabaseScore(db=draw.db, overall=overall, by_type=tuple(sorted(by_type.items()))))
    unlabelled = tuple(sorted(id_ for id_ in key.reviews if id_ not in filled))
    return Scores(reviews=len(key.reviews), unlabelled=unlabelled, databases=tuple(databases))
