"""Blind review of admitted (or proposed) edges: the sample a reviewer labels, and its files.

A sample draws N active edges at random from each database (seeded; all of them where a database
has fewer), mixes and shuffles them, and numbers them ``r-0001``, ``r-0002``... in shuffled order,
so that a review id says nothing about the database it came from. Three files share one prefix:

- ``PREFIX.blind.jsonl``: what the reviewer sees, one review a line (review id, src name, type,
  dst name, the first evidence quote with its whitespace collapsed, at most 400 characters);
- ``PREFIX.labels.jsonl``: the template the reviewer fills, one label a line;
- ``PREFIX.key.json``: review id -> database, edge id and edge version, kept from the reviewer.

A sample of proposals (``magg bench sample --proposals``) draws instead N distinct proposed
edges of each database, whatever became of them, and its key keeps each one's outcome (admitted,
open, rejected): scored, it tells what share of the acceptable edges the extractor proposed was
admitted, the recall of admission on the lessons, beside the acceptance of what was admitted.

Every blind row, every label of the template and the key carry the sample's fingerprint
(``sample``: the first 12 hex digits of the SHA-256 of the key's other fields), since review ids
are ``r-0001``... in every sample: scoring refuses labels whose fingerprint is not the key's. Files
written before the fingerprint (no ``sample``) are still read, with no such check.

The labels are scored by :mod:`magg_kg.blind_scores`.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from magg_kg.errors import StoreError, UserError
from magg_kg.ids import digest, edge_id, numbered_id
from magg_kg.jsonlines import text_of
from magg_kg.records import Proposal
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

__all__ = [
    "OUTCOMES",
    "QUOTE_LIMIT",
    "BlindRow",
    "DatabaseDraw",
    "KeyEntry",
    "Label",
    "Outcome",
    "Sample",
    "SampleKey",
    "active_edges",
    "draw_sample",
    "open_read_only",
    "proposed_edges",
    "read_key",
    "read_labels",
    "refuse_overwrite",
    "sample_paths",
    "shorten_quote",
    "write_sample",
]

QUOTE_LIMIT = 400
"""The longest quote a reviewer is shown, in characters (an ellipsis marks a cut)."""


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
    ``verdict`` is ``"ACCEPT"`` or ``"REJECT"`` (in any case, as ``magg model label`` reads it; held in
    capitals). The three are filled in together or not at all, and ACCEPT needs both endpoints genuine.

    >>> Label(review_id="r-1", src_ok=True, dst_ok=True, verdict="accept").verdict
    'ACCEPT'
    """

    review_id: str
    src_ok: bool | None = None
    dst_ok: bool | None = None
    verdict: Literal["ACCEPT", "REJECT"] | None = None
    why: str = ""
    sample: str | None = None

    @field_validator("verdict", mode="before")
    @classmethod
    def _in_capitals(cls, verdict: object) -> object:
        said = verdict.upper() if isinstance(verdict, str) else verdict
        return said if said in ("ACCEPT", "REJECT") else verdict  # anything else is refused as written

    @model_validator(mode="after")
    def _filled_in_whole(self) -> Label:
        if (self.src_ok, self.dst_ok, self.verdict).count(None) in (1, 2):
            raise ValueError("partly filled: fill src_ok, dst_ok and verdict, or leave all three null")
        if self.verdict == "ACCEPT" and not (self.src_ok and self.dst_ok):
            raise ValueError("ACCEPT needs src_ok and dst_ok true (both endpoints genuine concepts)")
        return self


Outcome = Literal["admitted", "open", "rejected"]
OUTCOMES: tuple[Outcome, ...] = ("admitted", "open", "rejected")
_OPEN = frozenset({"proposed", "abstained", "quarantined"})


class KeyEntry(_Shape):
    """Where one review came from; for a proposed edge, also its first proposal and its outcome
    (:func:`proposed_edges`), and its version only when it is active."""

    db: str
    edge_id: str
    version_id: str
    type: str
    proposal_id: str | None = None
    outcome: Outcome | None = None


class DatabaseDraw(_Shape):
    """How many edges one database had (active; and proposed, in a sample of proposals), and how
    many were drawn from it."""

    db: str
    active_edges: int
    drawn: int
    proposed_edges: int | None = None


class SampleKey(_Shape):
    """``PREFIX.key.json``: the seed, N, the databases in the order given, every review's origin,
    and the sample's fingerprint (None in a key written before samples had one)."""

    seed: int
    n: int
    unit: Literal["edges", "proposals"] = "edges"
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


def open_read_only(path: Path) -> Store:
    """An existing magg database, opened for reading only (a mistyped path creates nothing)."""
    if not path.is_file():
        raise UserError(f"no database at {path}: pass the SQLite files that `magg ingest` wrote")
    if path.stat().st_size == 0:
        raise UserError(
            f"{path} is empty, not a magg database: pass the SQLite files that `magg ingest` wrote"
        )
    try:
        return SQLiteStore.open(path, read_only=True)
    except StoreError as error:  # its advice names --db; the databases here are arguments
        advice = "pass the SQLite files that `magg ingest` wrote"
        raise StoreError(str(error).replace("pass another --db", advice)) from None


def _row(names: dict[str, str], src: str, type_: str, dst: str, quote: str) -> BlindRow:
    return BlindRow(
        review_id="", src=names.get(src, src), type=type_, dst=names.get(dst, dst), quote=shorten_quote(quote)
    )


def active_edges(db: str, store: Store) -> list[tuple[BlindRow, KeyEntry]]:
    """Each active edge of ``store``, with the first quote of its grounding."""
    names = {concept.id: concept.name for concept in store.concepts()}
    return [
        (
            _row(names, edge.src, edge.type, edge.dst, edge.grounding.evidence[0].quote),
            KeyEntry(db=db, edge_id=edge.edge_id, version_id=edge.version_id, type=edge.type),
        )
        for edge in sorted(store.edges(), key=lambda edge: edge.version_id)
    ]


def proposed_edges(db: str, store: Store) -> list[tuple[BlindRow, KeyEntry]]:
    """Each edge proposed in ``store``, once, with what became of it: ``admitted`` (it is active),
    ``open`` (a proposal of it waits: abstained, quarantined, not judged yet) or ``rejected``
    (every proposal of it rejected, or its edge invalidated). The reviewer sees the first quote of
    its first proposal, whatever became of it, so that the quote tells nothing of the outcome."""
    names = {concept.id: concept.name for concept in store.concepts()}
    active = {(edge.src, edge.type, edge.dst): edge for edge in store.edges()}
    first: dict[tuple[str, str, str], Proposal] = {}
    states: dict[tuple[str, str, str], set[str]] = {}
    for proposal in sorted(store.proposals(), key=lambda p: (p.created_at, p.id)):
        triple = (proposal.src, proposal.type, proposal.dst)
        first.setdefault(triple, proposal)
        states.setdefault(triple, set()).add(proposal.state)
    drawn = []
    for (src, type_, dst), proposal in sorted(first.items()):
        edge = active.get((src, type_, dst))
        outcome: Outcome = "admitted" if edge else "open" if states[src, type_, dst] & _OPEN else "rejected"
        quote = proposal.evidence[0].quote if proposal.evidence else ""
        entry = KeyEntry(
            db=db,
            edge_id=edge_id(src, type_, dst),
            version_id=edge.version_id if edge else "",
            type=type_,
            proposal_id=proposal.id,
            outcome=outcome,
        )
        drawn.append((_row(names, src, type_, dst, quote), entry))
    return drawn


def draw_sample(stores: Sequence[tuple[str, Store]], n: int, seed: int, *, proposals: bool = False) -> Sample:
    """N active edges (or, with ``proposals``, N proposed edges: :func:`proposed_edges`) drawn
    from each (name, store), mixed, shuffled and numbered.

    The same stores, N and seed give the same sample.
    """
    rng = random.Random(seed)
    drawn: list[tuple[BlindRow, KeyEntry]] = []
    draws = []
    for db, store in stores:
        pool = proposed_edges(db, store) if proposals else active_edges(db, store)
        chosen = rng.sample(pool, n) if len(pool) > n else pool
        active = len(pool) if not proposals else len(store.edges())
        draws.append(
            DatabaseDraw(
                db=db, active_edges=active, drawn=len(chosen), proposed_edges=len(pool) if proposals else None
            )
        )
        drawn += chosen
    rng.shuffle(drawn)
    # Numbered after the shuffle, so that an id tells nothing of its database.
    width = len(str(len(drawn)))  # at least the kind's four digits
    ids = [numbered_id("blind_review", number, width) for number in range(1, len(drawn) + 1)]
    key = SampleKey(
        seed=seed,
        n=n,
        unit="proposals" if proposals else "edges",
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
    """Writes the blind rows, the labels template and the key, all three or none (each to a new file
    beside it, renamed once all are written); refuses to overwrite unless ``force``."""
    blind, labels, key = paths = refuse_overwrite(prefix, force=force)
    blind.parent.mkdir(parents=True, exist_ok=True)
    template = [Label(review_id=row.review_id, sample=row.sample) for row in sample.rows]
    # A field a sample of active edges leaves empty (a proposal's outcome) is not written at all.
    key_text = (
        json.dumps(sample.key.model_dump(mode="json", exclude_none=True), indent=2, ensure_ascii=False) + "\n"
    )
    _write_together({key: key_text, blind: _jsonl(sample.rows), labels: _jsonl(template)})
    return paths


def _write_together(texts: Mapping[Path, str]) -> None:
    """Writes every file or, when one cannot be written, leaves none of the new ones behind."""
    parts = {path: path.with_name(f".{path.name}.{os.getpid()}.part") for path in texts}
    renamed: list[Path] = []
    try:
        for path, text in texts.items():
            parts[path].write_text(text, encoding="utf-8")
        for path, part in parts.items():
            os.replace(part, path)
            renamed.append(path)
    except BaseException:
        for path in renamed:
            path.unlink(missing_ok=True)
        raise
    finally:
        for part in parts.values():
            part.unlink(missing_ok=True)


def _problem(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']} (got {first['input']!r})" if where else first["msg"]


def read_key(path: Path) -> SampleKey:
    """The key that `magg bench sample` wrote; one edited since (its fields no longer hash to its
    fingerprint) is refused."""
    if not path.is_file():
        raise UserError(f"no key at {path}: pass the --out prefix given to `magg bench sample`")
    text = text_of(path)
    try:
        key = SampleKey.model_validate_json(text, strict=False)
    except ValidationError as error:
        raise UserError(f"{path} is not a sample key: {_problem(error)}") from None
    hashed = key.fingerprinted().sample
    if key.sample is not None and hashed != key.sample:
        raise UserError(
            f"{path} was edited after sampling (fingerprint {key.sample}, its fields hash to "
            f"{hashed}): score with the key `magg bench sample` wrote"
        )
    return key


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
