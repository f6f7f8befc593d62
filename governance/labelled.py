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
from agents.offline.model import JudgmentModel, LinearModel
from agents.support import GraphView
from governance.claims import build_claim
from governance.training import COMMIT_AT, REJECT_BELOW, ClaimExample
from magg_kg.errors import InputError
from magg_kg.jsonlines import json_objects
from magg_kg.store import Store

__all__ = ["evaluate", "labelled_claims", "lesson_claims"]


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


def labelled_claims(claims: Path, labels: Path, out: Path) -> int:
    """Joins exported claims with a reader's labels (``id``, ``verdict`` ACCEPT or REJECT) into the
    training file :func:`governance.training.lesson_examples` reads; returns the number of labelled
    claims written. Both files are read whole first: a malformed line raises
    :class:`~magg_kg.errors.InputError` naming the file and line, and nothing is written."""
    verdicts: dict[str, int] = {}
    for row in _json_lines(labels, ("id",)):
        verdict = str(row.get("verdict", "")).upper()
        if verdict in ("ACCEPT", "REJECT"):
            verdicts[str(row["id"])] = int(verdict == "ACCEPT")
    records = [
        {"id": row["id"], "payload": row["payload"], "data": row["data"], "label": verdicts[str(row["id"])]}
        for row in _json_lines(claims, ("id", "payload", "data"))
        if str(row["id"]) in verdicts
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as handle:
        for record in records:
            handle.write(json.dumps(record, ensure_ascii=False, sort_keys=True) + "\n")
    return len(records)


def _json_lines(path: Path, required: Sequence[str]) -> list[dict[str, object]]:
    """The JSON objects of a JSON-lines file, each holding the ``required`` keys."""
    rows = []
    for where, row in json_objects(path):
        missing = [key for key in required if key not in row]
        if missing:
            raise InputError(f"{where}: no {', '.join(repr(k) for k in missing)}")
        rows.append(row)
    return rows


def evaluate(model: JudgmentModel | LinearModel, examples: Sequence[ClaimExample]) -> list[dict[str, float]]:
    """Precision and admitted share of labelled claims at the gate's thresholds, and the share of
    true claims overall (what flat admission would be accepted at)."""
    scored = [(model.probability(e.values), e.label) for e in examples]
    rows = [
        {"threshold": 0.0, "admitted": float(len(scored)), "precision": _share(label for _, label in scored)}
    ]
    for at in (REJECT_BELOW, 0.7, COMMIT_AT, 0.9):
        kept = [label for score, label in scored if score >= at]
        rows.append({"threshold": at, "admitted": float(len(kept)), "precision": _share(kept)})
    return rows


def _share(labels: Iterable[int]) -> float:
    found = list(labels)
    return round(sum(found) / len(found), 4) if found else 0.0
