"""Labelled lesson claims: exporting an ingested database's proposals for a reader to label,
joining the reader's labels into the training file of the judgment's lessons model, and the
shipped model's precision on labelled claims it was never trained on (``magg model evaluate``).

``magg model claims`` writes, for a seeded sample of proposals, the judge prompt each one gets
(what the model is trained on) and a blind file of what a reader labels by
``REVIEW-RUBRIC.md``: the two names, the type and the first quote, nothing of any decision.
``magg model label`` joins the reader's verdicts with the prompts; :mod:`governance.training`
reads the result (``benchmarks/data/*.labelled.jsonl``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from agents.judge import judge_prompt
from agents.offline.model import JudgmentModel, LinearModel, is_implicit_lesson_claim, is_stated_lesson_claim
from agents.support import GraphView
from governance.claim_examples import COMMIT_AT, REJECT_BELOW, ClaimExample, lesson_examples
from governance.claims import build_claim
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.store import Store

__all__ = ["evaluate", "labelled_claims", "lesson_claims", "lesson_labels", "statement_labels"]


def lesson_claims(store: Store, count: int, seed: int) -> list[dict[str, object]]:
    """A seeded sample of an ingested database's proposals that passed the rules, each as the judge
    prompt it gets against the database's graph (the claim itself excluded), for labelling.

    Each row: ``id`` (the proposal id), ``payload`` and ``data`` (the judge prompt), and ``shown``:
    what a reader labels (the two names, the type and the first quote), nothing of any decision.
    """
    view = GraphView.of_store(store)
    failed = {
        d.proposal_id
        for d in store.decisions()
        if d.stage == "verification" or (d.stage == "rules" and d.verdict != "pass")
    }
    revised = {d.proposal_id for d in store.decisions() if d.verdict == "revise"}
    pool = [
        p
        for p in store.proposals()
        if p.origin == "ingest" and p.id not in failed and p.id not in revised and p.evidence
    ]
    pool.sort(key=lambda p: p.id)
    chosen = random.Random(seed).sample(pool, min(count, len(pool)))
    rows: list[dict[str, object]] = []
    for proposal in chosen:
        claim = build_claim(view, proposal, proposal.evidence, confidence=proposal.confidence)
        prompt = judge_prompt(claim, COMMIT_AT, REJECT_BELOW)
        rows.append(
            {
                "id": proposal.id,
                "payload": prompt.payload,
                "data": prompt.data,
                "shown": {
                    "src": claim.src_names[0] if claim.src_names else proposal.src,
                    "type": proposal.type,
                    "dst": claim.dst_names[0] if claim.dst_names else proposal.dst,
                    "quote": " ".join(proposal.evidence[0].quote.split())[:400],
                },
            }
        )
    return rows


def labelled_claims(claims: Path, labels: Path) -> tuple[str, int, int]:
    """Joins exported claims with a reader's labels (``id``, ``verdict`` ACCEPT or REJECT) into the
    training file :func:`governance.claim_examples.lesson_examples` reads; returns its text (JSON
    lines), the number of labelled claims in it, and the number of claims left without a label (a
    partial labelling).

    Both files are read whole first. Every label row must be used: a malformed line, a row that
    cannot be (no verdict, a verdict that is neither, an id that is no string or not among the
    claims, a claim labelled twice), or a file of no label row, raise
    :class:`~magg_kg.errors.InputError` naming the file and the first lines (a label meant for
    another export, or a misspelt verdict, is a reader's mistake to fix, not a claim to leave out
    unsaid); claims with no label row are the partial labelling a reader may well have meant."""
    rows = {str(row["id"]): row for _, row in _json_lines(claims, ("id", "payload", "data"))}
    if not rows:  # every label row would be blamed for the claims file's emptiness
        raise InputError(
            f"{claims}: holds no claim; export claims with `magg model claims --db DB --out PREFIX`"
        )
    verdicts: dict[str, int] = {}
    unused: list[str] = []
    for where, row in _json_lines(labels, ("id",)):
        id_, verdict = row["id"], row.get("verdict")
        if not isinstance(id_, str):
            unused.append(f"{where}: id {id_!r} is not a string")
        elif verdict is None:
            unused.append(f"{where}: no verdict")
        elif not isinstance(verdict, str) or verdict.upper() not in ("ACCEPT", "REJECT"):
            unused.append(f"{where}: verdict {verdict!r} is neither ACCEPT nor REJECT")
        elif id_ not in rows:
            unused.append(f"{where}: id {id_!r} is not among the claims of {claims}")
        elif id_ in verdicts:  # two verdicts for one claim: which one the reader meant is unknown
            raise InputError(f"{where}: id {id_!r} is labelled twice; keep one verdict a claim")
        else:
            verdicts[id_] = int(verdict.upper() == "ACCEPT")
    if unused:
        more = f"; and {len(unused) - 3} more" if len(unused) > 3 else ""
        raise InputError(
            f"{labels}: {len(unused)} of {len(unused) + len(verdicts)} label rows cannot be used "
            f"(nothing written): {'; '.join(unused[:3])}{more}"
        )
    if not verdicts:
        raise InputError(f"{labels}: the file holds no label")
    records = [
        {"id": row["id"], "payload": row["payload"], "data": row["data"], "label": verdicts[id_]}
        for id_, row in rows.items()
        if id_ in verdicts
    ]
    text = "".join(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n" for record in records)
    return text, len(records), len(rows) - len(records)


def lesson_labels(paths: Sequence[Path]) -> list[ClaimExample]:
    """The implicit lesson claims of labelled claims files, the lessons model's training data (none
    when no file is given). :class:`~magg_kg.errors.InputError` when they cannot train it: it needs
    claims of both labels, acceptable and rejected, to learn to tell them apart."""
    labelled = [
        example
        for path in paths
        for example in lesson_examples(path)
        if is_implicit_lesson_claim(example.values)
    ]
    accepted = sum(example.label for example in labelled)
    if paths and (not accepted or accepted == len(labelled)):
        raise InputError(
            f"{', '.join(map(str, paths))}: the lessons model needs both acceptable and rejected "
            f"implicit lesson claims: {accepted} acceptable, {len(labelled) - accepted} rejected; "
            "label more with `magg model claims` and `magg model label`"
        )
    return labelled


def statement_labels(paths: Sequence[Path]) -> list[ClaimExample]:
    """The lesson statements of labelled statement files (claims whose quote the extractor read as
    stating them), the statements model's training data (none when no file is given).
    :class:`~magg_kg.errors.InputError` when a file holds another claim, or when the statements
    are not of both labels."""
    stated: list[ClaimExample] = []
    for path in paths:
        for number, example in enumerate(lesson_examples(path), start=1):
            if not is_stated_lesson_claim(example.values):
                raise InputError(
                    f"{path}: claim {number} ({example.src} - {example.dst}) is not a relation a lesson "
                    "states (no explicit quote): a statements file holds lesson statements only"
                )
            stated.append(example)
    accepted = sum(example.label for example in stated)
    if paths and (not accepted or accepted == len(stated)):
        raise InputError(
            f"{', '.join(map(str, paths))}: the statements model needs both acceptable and rejected "
            f"lesson statements: {accepted} acceptable, {len(stated) - accepted} rejected"
        )
    return stated


def _json_lines(path: Path, required: Sequence[str]) -> list[tuple[str, dict[str, object]]]:
    """The JSON objects of a JSON-lines file, each holding the ``required`` keys, with where it is."""
    rows = []
    for where, row in json_objects(path):
        missing = [key for key in required if key not in row]
        if missing:
            raise InputError(f"{where}: no {', '.join(repr(k) for k in missing)}")
        rows.append((where, row))
    return rows


def evaluate(
    model: JudgmentModel | LinearModel, examples: Sequence[ClaimExample]
) -> list[dict[str, float | None]]:
    """Precision and admitted share of labelled claims at the gate's thresholds, and the share of
    true claims overall (what flat admission would be accepted at); precision is None at a
    threshold no claim reaches."""
    scored = [(model.probability(e.values), e.label) for e in examples]
    rows: list[dict[str, float | None]] = [
        {"threshold": 0.0, "admitted": float(len(scored)), "precision": _share(label for _, label in scored)}
    ]
    for at in (REJECT_BELOW, 0.7, COMMIT_AT, 0.9):
        kept = [label for score, label in scored if score >= at]
        rows.append({"threshold": at, "admitted": float(len(kept)), "precision": _share(kept)})
    return rows


def _share(labels: Iterable[int]) -> float | None:
    found = list(labels)
    return round(sum(found) / len(found), 4) if found else None
