"""The SciERC benchmark: each abstract ingested as a lesson into a fresh graph, flat and governed.

The extractor's models (:class:`agents.schema_extraction.SchemaRoles`) are trained on the
``train`` split at the start of the run and kept in memory only. Then, for each abstract of the
evaluated split, and for each configuration, a fresh in-memory store receives the lesson (the
abstract, one sentence a line), one extraction call (``schema-extract``), the mentions of the
extracted relations as concepts (a concept per distinct text, typed by its first mention), and one
proposal per relation, with its sentence as the evidence quote at its offsets:

``flat``
    :func:`governance.admission.admit` in flat mode: every proposal that passes the schema checks
    is committed;
``flat-best``
    the same, with the extractor at the bars best for flat admission on train (:data:`FLAT_BARS`):
    ``flat`` is the ablation of governance for the same proposals, and the extractor's bars are
    chosen for governance (many candidates, most of them wrong), so ``flat-best`` is what a user
    who admits without governance would run;
``governed``
    :func:`governance.admission.admit` as ingestion runs it, over the SciERC schema: the rule
    engine (endpoint types, acyclic ``Hyponym-of`` and ``Part-of``, no duplicate, symmetric labels
    stored canonically), the owners of the abstract's domains, deliberation and the judge gate.
    Offline, the owners and the judge score a claim with the verifier's calibrated probability
    (:mod:`agents.schema_verifier`), and the governed policy (:func:`schema_policy`) puts every
    band's edge at the verifier's operating point, chosen on train by cross-validation.

The admitted graph (the committed edges, by concept text; the store's tables hold the
curriculum's edge types only, so the commits are read from the admission's operations and not
written) is scored against the gold triples
(:mod:`governance.evaluation.triple_score`); LLM calls and tokens come from each store's usage log.
Extraction is the same in ``flat`` and ``governed`` (one call per abstract), so the difference is
governance alone.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from agents.schema_extraction import (
    MENTION_AT,
    PROPOSE_AT,
    Found,
    SchemaExtraction,
    SchemaRoles,
    extraction_prompt,
)
from agents.schema_verifier import Verifier
from governance.admission import AdmissionContext, admit
from governance.domains import card, compute_layout, layout_ops, weighted_graph
from governance.evaluation.scierc import Document
from governance.evaluation.triple_score import TextTriple, score_triples
from governance.graph_state import GraphState
from governance.judgment import Judgment
from governance.taint import Quarantine
from magg_kg.builders import propose
from magg_kg.clock import Clock
from magg_kg.config import LLMConfig, Policy
from magg_kg.ids import lesson_id, make_id
from magg_kg.journal import journaled
from magg_kg.llm.offline import Handler
from magg_kg.llm.port import Failure
from magg_kg.llm.provider import open_llm
from magg_kg.operations import AddConcept, AddLesson, Batch, CommitEdge, Operation
from magg_kg.records import Proposal, Span
from magg_kg.sqlite import SQLiteStore
from magg_kg.vocabulary import SCIERC

__all__ = [
    "CONFIGURATIONS",
    "FLAT",
    "FLAT_BARS",
    "DocumentRun",
    "run_document",
    "run_split",
    "schema_policy",
    "scierc_report",
]

CONFIGURATIONS = ("flat", "flat-best", "governed")
FLAT = frozenset({"flat", "flat-best"})
"""The configurations that admit without governance."""
FLAT_BARS = (0.2, 0.3)
"""The extractor's mention and relation bars for ``flat-best``: the pair whose out-of-fold F1 of
admitting every proposal is best on ``train`` (``python -m benchmarks.scierc_bars``)."""


def schema_policy(policy: Policy, admit_at: float) -> Policy:
    """The governed policy over a calibrated verifier: the deliberation bands and the judge's
    bands meet at ``admit_at`` (the verifier's operating point, chosen on train), so a claim at or
    above it passes the owners and is committed by the judge, and one below is rejected. The
    policy's own thresholds are written for an uncalibrated judge's confidence; a calibrated
    probability of a strict SciERC triple rarely reaches 0.8 even when right.

    >>> p = schema_policy(Policy(), 0.25)
    >>> (p.commit_at, p.reject_below, p.deliberate_from, p.deliberate_below, p.version)
    (0.25, 0.25, 0.25, 0.25, 'policy-3+verifier-0.25')
    """
    return policy.model_copy(
        update={
            "version": f"{policy.version}+verifier-{admit_at:g}",
            "commit_at": admit_at,
            "reject_below": admit_at,
            "deliberate_from": admit_at,
            "deliberate_below": admit_at,
        }
    )


@dataclass(frozen=True)
class DocumentRun:
    """One configuration on one abstract: the admitted triples and the usage by stage."""

    key: str
    admitted: tuple[TextTriple, ...]
    proposals: int
    usage: tuple[Mapping[str, object], ...]


def _write(store: SQLiteStore, clock: Clock, name: str, ops: Sequence[Operation]) -> None:
    now = clock.now()
    store.write(Batch.of(make_id("batch", name, now), now, journaled(list(ops), now)))


def _proposals(
    doc: Document, found: Sequence[Found], lesson: str, at: str
) -> tuple[dict[str, tuple[str, str]], list[Proposal]]:
    """The concepts (text -> type, first description) and the proposals of an extraction."""
    offsets = doc.sentence_offsets()
    concepts: dict[str, tuple[str, str]] = {}
    proposals = []
    for number, rel in enumerate(found):
        if rel.sentence >= len(doc.sentences):
            continue
        tokens = doc.sentences[rel.sentence]
        head = " ".join(tokens[rel.head_start : rel.head_end])
        tail = " ".join(tokens[rel.tail_start : rel.tail_end])
        if not head or not tail or rel.label not in SCIERC.edge_types:
            continue
        quote = " ".join(tokens)
        for text, kind in ((head, rel.head_type), (tail, rel.tail_type)):
            typed = kind if kind in SCIERC.node_types else "OtherScientificTerm"
            concepts.setdefault(text, (typed, f"{typed} in {doc.key}: {quote}"[:2000]))
        start, end = offsets[rel.sentence]
        proposals.append(
            propose(
                head,
                rel.label,
                tail,
                context=(doc.key, str(number)),
                confidence=rel.confidence,
                evidence=(Span(lesson_id=lesson, start=start, end=end, quote=quote, kind="explicit"),),
                origin="ingest",
                lesson_id=lesson,
                rationale="schema extractor",
                created_at=at,
            )
        )
    proposals.sort(key=lambda p: (-p.confidence, p.id))
    return concepts, proposals


def run_document(
    doc: Document,
    configuration: str,
    *,
    llm_config: LLMConfig,
    policy: Policy,
    clock: Clock,
    handlers: Mapping[str, Handler],
    seed: int,
) -> DocumentRun:
    """One abstract through one configuration, on a fresh in-memory store."""
    store = SQLiteStore.open(":memory:")
    try:
        with open_llm(llm_config, store, clock, handlers) as (llm, usage):
            now = clock.now()
            text = doc.text
            digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
            lesson = AddLesson(
                id=lesson_id(f"scierc/{doc.key}", digest),
                lesson_key=f"scierc/{doc.key}",
                title=doc.key,
                sha256=digest,
                source_path=f"scierc/{doc.key}",
                text=text,
                ingested_at=now,
            )
            reply = llm.ask(extraction_prompt(doc.sentences, SCIERC, domain=doc.key), SchemaExtraction)
            found = [] if isinstance(reply, Failure) else reply.value.relations
            concepts, proposals = _proposals(doc, found, lesson.id, now)
            ops: list[Operation] = [lesson]
            ops += [
                AddConcept(id=name, name=name, type=kind, description=about, recorded_at=now)
                for name, (kind, about) in sorted(concepts.items())
            ]
            names = {name: name for name in concepts}
            layout = compute_layout(weighted_graph(sorted(concepts), [], [sorted(concepts)]), {}, names, seed)
            ops += layout_ops(layout, {d.id: card(d, [], []) for d in layout.domains}, [], {}, now)
            _write(store, clock, f"seed-{doc.key}", ops)
            graph = GraphState.of_store(store, SCIERC)
            gate = Judgment(llm, policy, clock, store, graph=graph)
            context = AdmissionContext(
                llm=llm,
                graph=graph,
                layout=layout,
                policy=policy,
                clock=clock,
                names=graph.view.names,
                gate=Quarantine(gate, policy, clock, lambda _: None),
                flat=configuration in FLAT,
            )
            result = admit(proposals, context, f"scierc-{doc.key}-{configuration}")
            # The store's tables hold the curriculum's edge types only: the admitted graph is read from
            # the admission's commit operations, and only the usage log is written.
            _write(store, clock, f"usage-{doc.key}", usage.drain())
            usage.flush(store, clock)
            admitted = tuple(
                sorted({(op.src, op.type, op.dst) for op in result.ops if isinstance(op, CommitEdge)})
            )
            return DocumentRun(
                doc.key, admitted, len(proposals), tuple(dict(r) for r in store.usage_by_stage())
            )
    finally:
        store.close()


def run_split(
    docs: Sequence[Document],
    roles: SchemaRoles,
    *,
    llm_config: LLMConfig,
    policy: Policy,
    clock_factory: Callable[[], Clock],
    handlers: Mapping[str, Handler],
    seed: int,
    configurations: Sequence[str] = CONFIGURATIONS,
    progress: Callable[[str], None] = lambda text: None,
) -> dict[str, list[DocumentRun]]:
    """Every abstract through every configuration; the offline roles of the schema override
    ``handlers``' judge, owners and extractor (``flat-best``'s extracts at :data:`FLAT_BARS`), and
    ``governed`` runs under :func:`schema_policy`."""
    runs: dict[str, list[DocumentRun]] = {}
    for name in configurations:
        runs[name] = []
        extracting = roles.with_bars(*FLAT_BARS) if name == "flat-best" else roles
        chosen = {**handlers, **extracting.handlers()}
        used = policy if name in FLAT else schema_policy(policy, roles.verifier.admit_at)
        for number, doc in enumerate(docs, start=1):
            progress(f"scierc: {name} {number}/{len(docs)}")
            runs[name].append(
                run_document(
                    doc,
                    name,
                    llm_config=llm_config,
                    policy=used,
                    clock=clock_factory(),
                    handlers=chosen,
                    seed=seed,
                )
            )
    return runs


def _usage(runs: Sequence[DocumentRun]) -> dict[str, object]:
    by_stage: dict[str, Counter[str]] = {}
    for run in runs:
        for row in run.usage:
            counts = by_stage.setdefault(str(row["stage"]), Counter())
            for key in ("calls", "prompt_tokens", "completion_tokens"):
                counts[key] += int(str(row.get(key) or 0))
    calls = sum(c["calls"] for c in by_stage.values())
    tokens = sum(c["prompt_tokens"] + c["completion_tokens"] for c in by_stage.values())
    return {
        "calls": calls,
        "tokens": tokens,
        "calls_per_document": round(calls / len(runs), 3) if runs else None,
        "by_stage": {stage: dict(c) for stage, c in sorted(by_stage.items())},
    }


def scierc_report(
    docs: Sequence[Document],
    runs: Mapping[str, Sequence[DocumentRun]],
    *,
    split: str,
    data: str,
    policy: Policy,
    train_s: float,
    started: float | None = None,
    verifier: Verifier | None = None,
) -> dict[str, object]:
    """The benchmark as JSON-ready data: per configuration, the scores, proposals and usage."""
    symmetric = SCIERC.symmetric_types()
    gold = {d.key: [(g.head, g.label, g.tail) for g in d.gold] for d in docs}
    configurations: dict[str, object] = {}
    for name, chosen in runs.items():
        predicted = {run.key: list(run.admitted) for run in chosen}
        configurations[name] = {
            **score_triples(predicted, gold, symmetric),
            "admitted": sum(len(run.admitted) for run in chosen),
            "proposals": sum(run.proposals for run in chosen),
            "llm": _usage(chosen),
        }
    return {
        "data": data,
        "split": split,
        "documents": len(docs),
        "gold_triples": sum(len(set(v)) for v in gold.values()),
        "mention_at": MENTION_AT,
        "propose_at": PROPOSE_AT,
        "flat_best_bars": list(FLAT_BARS),
        "train_s": round(train_s, 2),
        "wall_s": round(time.perf_counter() - started, 2) if started is not None else None,
        "policy": policy.model_dump(mode="json"),
        "verifier": None
        if verifier is None
        else {
            "admit_at": verifier.admit_at,
            "governed_policy": schema_policy(policy, verifier.admit_at).version,
            "train_out_of_fold": dict(verifier.report),
        },
        "paper": {"flat_strict_f1": 0.106, "governed_strict_f1": 0.156, "governed_mapped_f1": 0.290},
        "configurations": configurations,
    }
