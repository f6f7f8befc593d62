"""The scorecard of a replay ablation: admission measured against the candidates' labels.

Admitted means committed. Per configuration: precision, recall and F1 of admission against the
labels (a configuration that admits nothing has no precision: ``None``); per kind of candidate,
the share admitted (and how many ended in each ``stage:state``), read as recall for a kind whose
candidates are all labelled 1 and as the rejection rate (the share kept out) for a kind whose
candidates are all labelled 0; LLM calls, tokens and attempts per candidate, by stage, from the
configuration's usage log; wall time.

>>> from governance.evaluation.replay import Candidate
>>> from governance.evaluation.ablation_bench import Outcome, RunResult
>>> good, bad = Candidate("a", "prerequisite", "b", ("t",), 1, "gold"), Candidate(
...     "b", "prerequisite", "a", ("t",), 0, "reversed")
>>> run = RunResult("flat", (Outcome("committed", "flat", True),) * 2, (), 0.1, 0.0, "none")
>>> card = score_run([good, bad], run)
>>> card["precision"], card["recall"], card["by_kind"]["reversed"]["rejection_rate"]
(0.5, 1.0, 0.0)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from governance.evaluation.ablation_bench import Outcome, RunResult
from governance.evaluation.replay import Candidate, CandidateSet
from magg_kg.config import Policy

__all__ = ["ablation_report", "bundling_agreement", "score_run"]

Json = dict[str, object]


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _outcomes(outcomes: Iterable[Outcome]) -> dict[str, int]:
    """How many candidates ended in each ``stage:state``."""
    return dict(sorted(Counter(f"{o.stage}:{o.state}" for o in outcomes).items()))


def _kinds(candidates: Sequence[Candidate], outcomes: Sequence[Outcome]) -> Json:
    by_kind: dict[str, list[tuple[int, Outcome]]] = {}
    for candidate, outcome in zip(candidates, outcomes, strict=True):
        by_kind.setdefault(candidate.kind, []).append((candidate.label, outcome))
    report: Json = {}
    for kind, rows in sorted(by_kind.items()):
        positives = [o.admitted for label, o in rows if label == 1]
        negatives = [o.admitted for label, o in rows if label == 0]
        entry: Json = {
            "n": len(rows),
            "admitted": sum(o.admitted for _, o in rows),
            "outcomes": _outcomes(o for _, o in rows),
        }
        if positives:
            entry["recall"] = _ratio(sum(positives), len(positives))
        if negatives:
            entry["rejection_rate"] = _ratio(len(negatives) - sum(negatives), len(negatives))
        report[kind] = entry
    return report


def _usage(rows: Sequence[Mapping[str, object]], candidates: int) -> Json:
    by_stage: Json = {}
    total = Counter[str]()
    for row in rows:
        counts = {
            key: int(str(row.get(key) or 0))
            for key in ("calls", "attempts", "prompt_tokens", "completion_tokens")
        }
        total.update(counts)
        by_stage[str(row["stage"])] = {
            "calls": counts["calls"],
            "calls_per_candidate": _ratio(counts["calls"], candidates),
            "tokens_per_candidate": _ratio(counts["prompt_tokens"] + counts["completion_tokens"], candidates),
            "attempts": counts["attempts"],
        }
    return {
        "calls": total["calls"],
        "calls_per_candidate": _ratio(total["calls"], candidates) if candidates else None,
        "tokens": total["prompt_tokens"] + total["completion_tokens"],
        "attempts": total["attempts"],
        "by_stage": by_stage,
    }


def score_run(candidates: Sequence[Candidate], run: RunResult) -> Json:
    """One configuration's scores against the labels (see the module docstring)."""
    admitted = [outcome.admitted for outcome in run.outcomes]
    true_pos = sum(a and c.label == 1 for c, a in zip(candidates, admitted, strict=True))
    false_pos = sum(a and c.label == 0 for c, a in zip(candidates, admitted, strict=True))
    positives = sum(c.label == 1 for c in candidates)
    precision = _ratio(true_pos, true_pos + false_pos)
    recall = _ratio(true_pos, positives)
    f1 = (
        round(2 * precision * recall / (precision + recall), 4)
        if precision is not None and recall is not None and precision + recall > 0
        else None
    )
    return {
        "admitted": sum(admitted),
        "true_positives": true_pos,
        "false_positives": false_pos,
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "by_kind": _kinds(candidates, run.outcomes),
        "outcomes": _outcomes(run.outcomes),
        "llm": _usage(run.usage, len(candidates)),
        "model": run.model,
        "wall_s": round(run.wall_s, 3),
        "seed_s": round(run.seed_s, 3),
    }


def ablation_report(
    candidate_set: CandidateSet, results: Sequence[RunResult], *, data: str, policy: Policy
) -> Json:
    """The whole ablation as JSON-ready data: the candidate set, the policy and every configuration."""
    candidates = candidate_set.candidates
    return {
        "data": data,
        "candidates_source": candidate_set.source,
        "seed": candidate_set.seed,
        "established_edges": len(candidate_set.established),
        "candidates": len(candidates),
        "positives": sum(c.label == 1 for c in candidates),
        "counts": dict(candidate_set.counts),
        "policy": policy.model_dump(mode="json"),
        "configurations": {run.name: score_run(candidates, run) for run in results},
        "bundling_agreement": bundling_agreement(results),
    }


def bundling_agreement(results: Sequence[RunResult]) -> Json | None:
    """How often ``full-bundled`` ends a candidate where ``full`` does (same state, same stage and
    verdict); None unless both ran."""
    runs = {run.name: run for run in results}
    if "full" not in runs or "full-bundled" not in runs:
        return None
    pairs = list(zip(runs["full"].outcomes, runs["full-bundled"].outcomes, strict=True))
    same_state = sum(a.state == b.state for a, b in pairs)
    same_verdict = sum((a.state, a.stage, a.reason) == (b.state, b.stage, b.reason) for a, b in pairs)
    return {
        "candidates": len(pairs),
        "same_state": _ratio(same_state, len(pairs)),
        "same_verdict": _ratio(same_verdict, len(pairs)),
    }
