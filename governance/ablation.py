"""The replay ablation: one labelled candidate set through four configurations of admission.

Each configuration gets a fresh in-memory store seeded identically (:func:`seed_store`: every
concept of the data set, typed ``concept``, with its summary as description; the established graph
committed with its grounding) and its own LLM stack from :func:`~magg_kg.llm.provider.build_llm`
(offline by default; whatever ``MAGG_LLM`` configures otherwise). It then sees the candidates one
by one, in the candidate set's order, and what it admits is committed, so later candidates are
judged against the graph as it has grown:

``flat``
    every candidate is admitted (an unknown endpoint becomes a new concept, as an ungoverned
    extractor would create it); only what the store itself cannot hold (a self-loop, an edge that
    is already active) is left unwritten, and still counts as admitted;
``rules``
    the rule engine alone (:mod:`governance.rules`): passed commits, anything else is rejected;
``judge``
    the judge alone on every well-formed candidate (known edge type, two distinct known concepts):
    a score at or above the policy's commit bar commits, anything else is rejected;
``full``
    governed admission (:mod:`governance.admission`): rules, owner review, deliberation, then the
    judge gate with debate and human review; quarantined, abstained or queued for review count as
    not admitted;
``full-sc``
    full governance with self-consistency instead of the debate for the contested band
    (:mod:`governance.consistency`: the judge sampled as many times as the debate calls a model).

A candidate's label and kind never reach the configurations: the proposal carries its triple,
its evidence and its confidence only. Evidence texts are not lesson text, so each becomes a span
of the source ``external:metacademy`` quoting the whole text (offsets 0..len), labelled explicit,
implicit or inferred by the evidence linker's rule (:func:`agents.evidence.evidence_kind`, with a
concept's title and its tag in words as its names).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from agents.evidence import evidence_kind
from governance.domains import Layout, card, compute_layout, layout_ops, weighted_graph
from governance.replay import Candidate, CandidateSet, Dataset
from governance.rules import RuleEngine
from magg_kg.clock import Clock
from magg_kg.config import LLMConfig, Policy
from magg_kg.journal import journaled
from magg_kg.llm.offline import Handler
from magg_kg.llm.port import LLM
from magg_kg.llm.provider import build_llm
from magg_kg.llm.usage import UsageLog
from magg_kg.operations import (
    AddConcept,
    AddProposal,
    Batch,
    CommitEdge,
    Operation,
    RecordDecision,
    SpanData,
)
from magg_kg.records import EvidenceKind, edge_id, stable_id
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = [
    "CONFIGURATIONS",
    "EVIDENCE_SOURCE",
    "Bench",
    "Outcome",
    "RunResult",
    "commit_ops",
    "proposal_of",
    "reject_op",
    "run_ablation",
    "run_configuration",
    "seed_store",
    "spans_of",
    "write",
]

EVIDENCE_SOURCE = "external:metacademy"
"""The source (lesson id) of every evidence span of the replay."""
CONCEPT_TYPE = "concept"
"""Metacademy concepts are untyped; all of them get the curriculum's general node type."""
PROMPT_VERSION = "replay-1"
CONFIGURATIONS = ("flat", "rules", "judge", "full", "full-sc")
_SEED_OPS = 4_000


@dataclass(frozen=True)
class Outcome:
    """What one configuration did with one candidate: the proposal's final state and who set it."""

    state: str
    stage: str
    admitted: bool
    reason: str = ""


@dataclass
class Bench:
    """One configuration's world: its store, clock, model stack, policy and schema."""

    store: Store
    clock: Clock
    llm: LLM
    usage: UsageLog
    policy: Policy
    schema: GraphSchema
    dataset: Dataset
    seed: int
    layout: Layout = field(default_factory=lambda: Layout(()))


@dataclass(frozen=True)
class RunResult:
    """One configuration's outcomes (in candidate order), LLM usage by stage and wall time."""

    name: str
    outcomes: tuple[Outcome, ...]
    usage: tuple[Mapping[str, object], ...]
    wall_s: float
    seed_s: float
    model: str


Runner = Callable[[Bench, Sequence[Candidate]], list[Outcome]]


_KINDS: Mapping[str, EvidenceKind] = {"explicit": "explicit", "implicit": "implicit", "inferred": "inferred"}


def _forms(tag: str, dataset: Dataset) -> list[str]:
    words = tag.replace("_", " ")
    concept = dataset.concepts.get(tag)
    return [concept.title, words] if concept is not None and concept.title != words else [words]


def spans_of(candidate: Candidate, dataset: Dataset) -> list[SpanData]:
    """The candidate's evidence as spans of :data:`EVIDENCE_SOURCE` (see the module docstring)."""
    src, dst = _forms(candidate.src, dataset), _forms(candidate.dst, dataset)
    return [
        SpanData(
            lesson_id=EVIDENCE_SOURCE,
            start=0,
            end=len(text),
            quote=text,
            kind=_KINDS[evidence_kind(text, candidate.type, src, dst)],
        )
        for text in candidate.evidence
    ]


def proposal_of(candidate: Candidate, index: int, bench: Bench) -> AddProposal:
    """The proposal a candidate becomes: its triple, evidence and confidence, nothing of its label."""
    return AddProposal(
        id=stable_id("p", "replay", str(index), candidate.src, candidate.type, candidate.dst),
        src=candidate.src,
        type=candidate.type,
        dst=candidate.dst,
        confidence=candidate.confidence,
        evidence=spans_of(candidate, bench.dataset),
        origin="replay",
        rationale="replay candidate",
        created_at=bench.clock.now(),
    )


def commit_ops(
    proposal_id: str | None,
    triple: tuple[str, str, str],
    evidence: Sequence[SpanData],
    *,
    stage: str,
    verdict: str,
    rationale: str,
    confidence: float,
    bench: Bench,
    model: str,
) -> list[Operation]:
    """A decision that commits ``triple`` and the edge version it grounds, in that order."""
    now = bench.clock.now()
    decision_id = stable_id("d", stage, proposal_id or "", *triple)
    src, type_, dst = triple
    return [
        RecordDecision(
            id=decision_id,
            proposal_id=proposal_id,
            stage=stage,
            verdict=verdict,
            state_after="committed",
            score=confidence,
            rationale=rationale,
            detail={"configuration": stage},
            policy_version=bench.policy.version,
            prompt_version=PROMPT_VERSION,
            model=model,
            decided_at=now,
        ),
        CommitEdge(
            version_id=stable_id("v", decision_id, *triple),
            edge_id=edge_id(src, type_, dst),
            src=src,
            type=type_,
            dst=dst,
            confidence=confidence,
            reason=rationale,
            source=EVIDENCE_SOURCE,
            evidence=list(evidence),
            valid_at=now,
            recorded_at=now,
            decision_id=decision_id,
            policy_version=bench.policy.version,
            prompt_version=PROMPT_VERSION,
            model=model,
        ),
    ]


def reject_op(proposal_id: str, stage: str, verdict: str, rationale: str, bench: Bench) -> RecordDecision:
    return RecordDecision(
        id=stable_id("d", stage, proposal_id),
        proposal_id=proposal_id,
        stage=stage,
        verdict=verdict,
        state_after="rejected",
        rationale=rationale or verdict,
        detail={},
        policy_version=bench.policy.version,
        prompt_version=PROMPT_VERSION,
        model=bench.llm.model if stage == "judge" else "none",
        decided_at=bench.clock.now(),
    )


def write(bench: Bench, name: str, ops: Sequence[Operation]) -> None:
    now = bench.clock.now()
    bench.store.write(Batch.of(stable_id("b", name, now), now, journaled(list(ops), now)))


def seed_store(bench: Bench, candidate_set: CandidateSet) -> None:
    """Every concept, the established graph and the domains, identical for every configuration.

    The domains are the communities of the established graph (no lessons, so no co-occurrence),
    computed with the candidate set's seed; a concept outside the established graph joins the
    general domain.
    """
    now = bench.clock.now()
    ops: list[Operation] = [
        AddConcept(
            id=concept.tag,
            name=concept.title,
            type=CONCEPT_TYPE,
            description=concept.summary[:20_000],
            recorded_at=now,
        )
        for concept in sorted(bench.dataset.concepts.values(), key=lambda c: c.tag)
    ]
    for edge in candidate_set.established:
        evidence = bench.dataset.evidence(edge.src, edge.dst, context=edge.context)
        seed = Candidate(edge.src, "prerequisite", edge.dst, evidence, 1, "established")
        ops += commit_ops(
            None,
            (edge.src, "prerequisite", edge.dst),
            spans_of(seed, bench.dataset),
            stage="seed",
            verdict="established",
            rationale="a Metacademy prerequisite, committed as the established graph of the replay",
            confidence=1.0,
            bench=bench,
            model="none",
        )
    facts = [(edge.src, "prerequisite", edge.dst) for edge in candidate_set.established]
    graph = weighted_graph(sorted(bench.dataset.concepts), [(src, dst, 1.0) for src, _, dst in facts], [])
    names = {tag: concept.title for tag, concept in bench.dataset.concepts.items()}
    bench.layout = compute_layout(graph, {}, names, bench.seed)
    cards = {domain.id: card(domain, facts, []) for domain in bench.layout.domains}
    ops += layout_ops(bench.layout, cards, [], {}, bench.clock.now())
    # In order, in batches well under the batch size limit (a decision precedes its commit).
    for start in range(0, len(ops), _SEED_OPS):
        write(bench, f"seed-{start}", ops[start : start + _SEED_OPS])


def run_flat(bench: Bench, candidates: Sequence[Candidate]) -> list[Outcome]:
    outcomes = []
    known = {concept.id for concept in bench.store.concepts()}
    active = {(e.src, e.type, e.dst) for e in bench.store.edges()}
    for index, candidate in enumerate(candidates):
        proposal = proposal_of(candidate, index, bench)
        ops: list[Operation] = [proposal]
        triple = bench.schema.canonical(candidate.src, candidate.type, candidate.dst)
        for tag in (candidate.src, candidate.dst):
            if tag not in known:
                known.add(tag)
                ops.append(AddConcept(id=tag, name=tag, type=CONCEPT_TYPE, recorded_at=bench.clock.now()))
        if triple[0] != triple[2] and triple not in active:
            active.add(triple)
            ops += commit_ops(
                proposal.id,
                triple,
                proposal.evidence,
                stage="flat",
                verdict="admit",
                rationale="flat admission: every proposal is admitted",
                confidence=proposal.confidence,
                bench=bench,
                model="none",
            )
        write(bench, f"flat-{index}", ops)
        outcomes.append(Outcome("committed", "flat", True))
    return outcomes


def run_rules(bench: Bench, candidates: Sequence[Candidate]) -> list[Outcome]:
    engine = RuleEngine(
        bench.schema,
        {concept.id: concept.type for concept in bench.store.concepts()},
        [(e.src, e.type, e.dst) for e in bench.store.edges()],
    )
    outcomes = []
    for index, candidate in enumerate(candidates):
        proposal = proposal_of(candidate, index, bench)
        verdict = engine.check(candidate.src, candidate.type, candidate.dst)
        ops: list[Operation] = [proposal]
        if verdict.passed:
            engine.admit(*verdict.triple)
            ops += commit_ops(
                proposal.id,
                verdict.triple,
                proposal.evidence,
                stage="rules",
                verdict="pass",
                rationale="passed every rule",
                confidence=proposal.confidence,
                bench=bench,
                model="none",
            )
            outcomes.append(Outcome("committed", "rules", True))
        else:
            ops.append(reject_op(proposal.id, "rules", verdict.rule, verdict.reason, bench))
            outcomes.append(Outcome("rejected", "rules", False, f"{verdict.rule}: {verdict.reason}"))
        write(bench, f"rules-{index}", ops)
    return outcomes


def _runner(name: str) -> Runner:
    if name == "flat":
        return run_flat
    if name == "rules":
        return run_rules
    # The gated configurations import the whole pipeline: only when they run.
    from governance.ablation_gates import run_full, run_judge

    return run_judge if name == "judge" else run_full


def _policy(name: str, policy: Policy) -> Policy:
    return policy.model_copy(update={"contested": "self-consistency"}) if name == "full-sc" else policy


def run_configuration(
    name: str,
    candidate_set: CandidateSet,
    dataset: Dataset,
    *,
    llm_config: LLMConfig,
    policy: Policy,
    clock_factory: Callable[[], Clock],
    handlers: Mapping[str, Handler],
    timer: Callable[[], float] = time.perf_counter,
) -> RunResult:
    """Runs one configuration on a fresh in-memory store."""
    store = SQLiteStore.open(":memory:")
    clock = clock_factory()
    try:
        llm, usage = build_llm(llm_config, store, clock, handlers, timer=timer)
        chosen = _policy(name, policy)
        bench = Bench(store, clock, llm, usage, chosen, CURRICULUM, dataset, candidate_set.seed)
        started = timer()
        seed_store(bench, candidate_set)
        seeded = timer()
        outcomes = _runner(name)(bench, candidate_set.candidates)
        finished = timer()
        usage.flush(store, clock)
        rows = tuple(dict(row) for row in store.usage_by_stage())
        return RunResult(name, tuple(outcomes), rows, finished - seeded, seeded - started, llm.model)
    finally:
        store.close()


def run_ablation(
    candidate_set: CandidateSet,
    dataset: Dataset,
    *,
    llm_config: LLMConfig,
    policy: Policy,
    clock_factory: Callable[[], Clock],
    handlers: Mapping[str, Handler],
    configurations: Sequence[str] = CONFIGURATIONS,
    progress: Callable[[str], None] = lambda name: None,
) -> list[RunResult]:
    """Every configuration on the same candidates, each on its own fresh store."""
    results = []
    for name in configurations:
        progress(name)
        results.append(
            run_configuration(
                name,
                candidate_set,
                dataset,
                llm_config=llm_config,
                policy=policy,
                clock_factory=clock_factory,
                handlers=handlers,
            )
        )
    return results
