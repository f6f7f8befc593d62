"""One configuration's world in the replay ablation (:mod:`governance.evaluation.ablation`): its store, clock,
model stack and policy (:class:`Bench`), the store seeded identically for every configuration
(:func:`seed_store`), the proposal a candidate becomes and the decisions that settle it.

Evidence texts are not lesson text, so each becomes a span of the source ``external:metacademy``
quoting the whole text (offsets 0..len), labelled explicit, implicit or inferred by the evidence
linker's rule (:func:`agents.evidence.evidence_kind`, with a concept's title and its tag in words
as its names).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from agents.evidence import evidence_kind
from governance.domains import Layout, card, compute_layout, layout_ops, weighted_graph
from governance.evaluation.replay import Candidate, CandidateSet, Dataset
from magg_kg.builders import commit_op, decision_op, propose
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.ids import edge_id, make_id
from magg_kg.journal import journaled
from magg_kg.llm.port import LLM
from magg_kg.llm.usage import UsageLog
from magg_kg.operations import AddConcept, Batch, Operation, RecordDecision, span_data
from magg_kg.records import EvidenceKind, Proposal, Span
from magg_kg.store import Store
from magg_kg.vocabulary import GraphSchema

__all__ = [
    "CONCEPT_TYPE",
    "EVIDENCE_SOURCE",
    "Bench",
    "Outcome",
    "RunResult",
    "commit_ops",
    "reject_op",
    "replay_proposal",
    "seed_store",
    "spans_of",
    "write",
]

EVIDENCE_SOURCE = "external:metacademy"
"""The source (lesson id) of every evidence span of the replay."""
CONCEPT_TYPE = "concept"
"""Metacademy concepts are untyped; all of them get the curriculum's general node type."""
PROMPT_VERSION = "replay-1"
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


_KINDS: Mapping[str, EvidenceKind] = {"explicit": "explicit", "implicit": "implicit", "inferred": "inferred"}


def _forms(tag: str, dataset: Dataset) -> list[str]:
    words = tag.replace("_", " ")
    concept = dataset.concepts.get(tag)
    return [concept.title, words] if concept is not None and concept.title != words else [words]


def spans_of(candidate: Candidate, dataset: Dataset) -> tuple[Span, ...]:
    """The candidate's evidence as spans of :data:`EVIDENCE_SOURCE` (see the module docstring)."""
    src, dst = _forms(candidate.src, dataset), _forms(candidate.dst, dataset)
    return tuple(
        Span(
            lesson_id=EVIDENCE_SOURCE,
            start=0,
            end=len(text),
            quote=text,
            kind=_KINDS[evidence_kind(text, candidate.type, src, dst)],
        )
        for text in candidate.evidence
    )


def replay_proposal(candidate: Candidate, index: int, bench: Bench) -> Proposal:
    """The proposal a candidate becomes: its triple, evidence and confidence, nothing of its label."""
    return propose(
        candidate.src,
        candidate.type,
        candidate.dst,
        context=("replay", str(index)),
        confidence=candidate.confidence,
        evidence=spans_of(candidate, bench.dataset),
        origin="replay",
        rationale="replay candidate",
        created_at=bench.clock.now(),
    )


def commit_ops(
    proposal_id: str | None,
    triple: tuple[str, str, str],
    evidence: Sequence[Span],
    *,
    stage: str,
    verdict: str,
    rationale: str,
    confidence: float,
    bench: Bench,
    model: str,
) -> list[Operation]:
    """A decision that commits ``triple`` and the edge version it grounds, in that order."""
    decision = decision_op(
        proposal_id,
        stage,
        verdict,
        "committed",
        rationale,
        subject=edge_id(*triple),
        score=confidence,
        detail={"configuration": stage},
        policy_version=bench.policy.version,
        prompt_version=PROMPT_VERSION,
        model=model,
        decided_at=bench.clock.now(),
    )
    commit = commit_op(
        decision,
        *triple,
        confidence=confidence,
        reason=rationale,
        source=EVIDENCE_SOURCE,
        evidence=span_data(evidence),
    )
    return [decision, commit]


def reject_op(proposal_id: str, stage: str, verdict: str, rationale: str, bench: Bench) -> RecordDecision:
    return decision_op(
        proposal_id,
        stage,
        verdict,
        "rejected",
        rationale or verdict,
        detail={},
        policy_version=bench.policy.version,
        prompt_version=PROMPT_VERSION,
        model=bench.llm.model if stage == "judge" else "none",
        decided_at=bench.clock.now(),
    )


def write(bench: Bench, name: str, ops: Sequence[Operation]) -> None:
    now = bench.clock.now()
    bench.store.write(Batch.of(make_id("batch", name, now), now, journaled(list(ops), now)))


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
