"""The replay ablation: one labelled candidate set through four configurations of admission.

Each configuration gets a fresh in-memory store seeded identically (:func:`seed_store`: every
concept of the data set, typed ``concept``, with its summary as description; the established graph
committed with its grounding) and its own LLM stack from :func:`~magg_kg.llm.provider.open_llm`
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
``full-bundled``
    full governance with bundled roles (:mod:`magg_kg.llm.bundle`): the candidates are admitted
    :data:`GROUP` at a time, as the proposals of one lesson, so that each owner reviews and votes
    on a group in one call and the judge takes them in bundles. Set beside ``full``, the share of
    candidates that get the same outcome measures what bundling changes.

A candidate's label and kind never reach the configurations: the proposal carries its triple,
its evidence and its confidence only (:mod:`governance.evaluation.ablation_bench`: the world of one
configuration, its seeding and the proposal a candidate becomes).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence

from agents.roles import BUNDLED
from governance.evaluation.ablation_bench import (
    CONCEPT_TYPE,
    Bench,
    Outcome,
    RunResult,
    commit_ops,
    reject_op,
    replay_proposal,
    seed_store,
    write,
)
from governance.evaluation.ablation_gates import run_full, run_judge
from governance.evaluation.replay import Candidate, CandidateSet, Dataset
from governance.rules import RuleEngine
from magg_kg.builders import proposal_op
from magg_kg.clock import Clock
from magg_kg.config import LLMConfig, Policy
from magg_kg.llm.offline import Handler
from magg_kg.llm.provider import open_llm
from magg_kg.operations import AddConcept, Operation
from magg_kg.records import Proposal, Triple
from magg_kg.sqlite import SQLiteStore
from magg_kg.vocabulary import CURRICULUM

__all__ = ["CONFIGURATIONS", "run_ablation", "run_configuration", "run_flat", "run_rules"]

CONFIGURATIONS = ("flat", "rules", "judge", "full", "full-sc", "full-bundled")
GROUP = 32
"""Candidates admitted together by ``full-bundled`` (about one lesson's proposals)."""


Runner = Callable[[Bench, Sequence[Candidate]], list[Outcome]]


def _admitted(
    proposal: Proposal, triple: Triple, stage: str, verdict: str, rationale: str, bench: Bench
) -> list[Operation]:
    """The decision and the edge version of a proposal admitted with no model call (flat, rules)."""
    return commit_ops(
        proposal.id,
        triple,
        proposal.evidence,
        stage=stage,
        verdict=verdict,
        rationale=rationale,
        confidence=proposal.confidence,
        bench=bench,
        model="none",
    )


def run_flat(bench: Bench, candidates: Sequence[Candidate]) -> list[Outcome]:
    outcomes = []
    known = {concept.id for concept in bench.store.concepts()}
    active = {(e.src, e.type, e.dst) for e in bench.store.edges()}
    for index, candidate in enumerate(candidates):
        proposal = replay_proposal(candidate, index, bench)
        ops: list[Operation] = [proposal_op(proposal)]
        triple = bench.schema.canonical(candidate.src, candidate.type, candidate.dst)
        for tag in (candidate.src, candidate.dst):
            if tag not in known:
                known.add(tag)
                ops.append(AddConcept(id=tag, name=tag, type=CONCEPT_TYPE, recorded_at=bench.clock.now()))
        if triple[0] != triple[2] and triple not in active:
            active.add(triple)
            ops += _admitted(
                proposal, triple, "flat", "admit", "flat admission: every proposal is admitted", bench
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
        proposal = replay_proposal(candidate, index, bench)
        verdict = engine.check(candidate.src, candidate.type, candidate.dst)
        ops: list[Operation] = [proposal_op(proposal)]
        if verdict.passed:
            engine.admit(*verdict.triple)
            ops += _admitted(proposal, verdict.triple, "rules", "pass", "passed every rule", bench)
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
    if name == "full-bundled":
        return lambda bench, candidates: run_full(bench, candidates, GROUP)
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
        bundled = BUNDLED if name == "full-bundled" else ()
        with open_llm(llm_config, store, clock, handlers, bundled=bundled, timer=timer) as (llm, usage):
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
