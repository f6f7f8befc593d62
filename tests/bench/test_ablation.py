"""The replay ablation: configurations on fresh stores, scored against the labels."""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from governance.evaluation.ablation import run_configuration
from governance.evaluation.ablation_bench import Bench, Outcome, replay_proposal, seed_store
from governance.evaluation.ablation_gates import run_full, run_judge
from governance.evaluation.replay import Candidate, CandidateSet, build_candidates, load_dataset
from governance.evaluation.scorecard import ablation_report, score_run
from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig, Policy
from magg_kg.llm.provider import build_llm
from magg_kg.sqlite import SQLiteStore
from magg_kg.verification import verify_store
from magg_kg.vocabulary import CURRICULUM

T0 = "2026-01-01T00:00:00.000000Z"


def _run(name: str, candidate_set: CandidateSet, data_dir: Path) -> dict[str, object]:
    result = run_configuration(
        name,
        candidate_set,
        load_dataset(data_dir),
        llm_config=LLMConfig(),
        policy=Policy(),
        clock_factory=lambda: StepClock(T0),
        handlers={},
    )
    assert len(result.outcomes) == len(candidate_set.candidates)
    return score_run(candidate_set.candidates, result)


def test_flat_admits_everything(data_dir: Path) -> None:
    generated = build_candidates(load_dataset(data_dir), 7)
    card = _run("flat", generated, data_dir)
    positives = sum(c.label for c in generated.candidates)
    assert card["admitted"] == len(generated.candidates)
    assert card["precision"] == round(positives / len(generated.candidates), 4)
    assert card["recall"] == 1.0


def test_rules_keep_out_unknown_concepts_and_contradictions(data_dir: Path) -> None:
    generated = build_candidates(load_dataset(data_dir), 7)
    by_kind = _run("rules", generated, data_dir)["by_kind"]
    assert isinstance(by_kind, dict)
    assert by_kind["unknown_concept"]["rejection_rate"] == 1.0
    assert by_kind["contradiction"]["rejection_rate"] == 1.0


def test_rules_keep_out_a_cycle_through_the_established_graph(data_dir: Path) -> None:
    dataset = load_dataset(data_dir)
    established = build_candidates(dataset, 7).established
    after = {edge.src: edge.dst for edge in established}
    chains = [(a, b, after[b]) for a, b in after.items() if b in after]
    assert chains, "the fixture's established half has a two-edge chain"
    a, _, c = chains[0]
    cycle = Candidate(c, "prerequisite", a, ("closes a cycle",), 0, "cycle")
    fine = Candidate("sorting", "related", "compilers", ("both are computing topics",), 1, "gold")
    candidate_set = CandidateSet(established, (cycle, fine), 7, "test", {"cycle": 1, "gold": 1})
    card = _run("rules", candidate_set, data_dir)
    assert card["by_kind"] == {
        "cycle": {"n": 1, "admitted": 0, "rejection_rate": 1.0, "outcomes": {"rules:rejected": 1}},
        "gold": {"n": 1, "admitted": 1, "recall": 1.0, "outcomes": {"rules:committed": 1}},
    }


def test_every_configuration_sees_the_same_seeded_store(data_dir: Path) -> None:
    dataset = load_dataset(data_dir)
    generated = build_candidates(dataset, 7).limited(4)
    assert len(generated.candidates) == 4 and sum(generated.counts.values()) == 4
    runs = [
        run_configuration(
            name,
            generated,
            dataset,
            llm_config=LLMConfig(),
            policy=Policy(),
            clock_factory=lambda: StepClock(T0),
            handlers={},
        )
        for name in ("flat", "rules")
    ]
    report = ablation_report(generated, runs, data=str(data_dir), policy=Policy())
    assert report["candidates"] == 4 and report["established_edges"] == len(generated.established)
    configurations = report["configurations"]
    assert isinstance(configurations, dict) and set(configurations) == {"flat", "rules"}


def _bench(data_dir: Path) -> tuple[Bench, CandidateSet]:
    dataset = load_dataset(data_dir)
    generated = build_candidates(dataset, 7)
    store = SQLiteStore.open(":memory:")
    clock = StepClock(T0)
    llm, usage = build_llm(LLMConfig(), store, clock, offline_handlers())
    bench = Bench(store, clock, llm, usage, Policy(), CURRICULUM, dataset, generated.seed)
    seed_store(bench, generated)
    return bench, generated


def test_the_gated_configurations_leave_a_sound_database(data_dir: Path) -> None:
    for runner in (run_judge, run_full):
        bench, generated = _bench(data_dir)
        outcomes = runner(bench, generated.candidates)
        assert len(outcomes) == len(generated.candidates)
        states = {"committed", "rejected", "abstained", "quarantined", "proposed"}
        assert {outcome.state for outcome in outcomes} <= states
        assert all(outcome.admitted == (outcome.state == "committed") for outcome in outcomes)
        assert verify_store(bench.store) == []
        committed = {(e.src, e.type, e.dst) for e in bench.store.edges()}
        for candidate, outcome in zip(generated.candidates, outcomes, strict=True):
            if outcome.admitted and outcome.stage != "already-active":
                assert CURRICULUM.canonical(candidate.src, candidate.type, candidate.dst) in committed
        bench.store.close()


def test_judge_only_keeps_out_a_malformed_candidate_without_a_model_call(data_dir: Path) -> None:
    bench, generated = _bench(data_dir)
    unknown = [c for c in generated.candidates if c.kind == "unknown_concept"]
    assert run_judge(bench, unknown) == [
        Outcome(
            "rejected",
            "malformed",
            False,
            f"unknown concept {c.dst if c.src in bench.dataset.concepts else c.src}",
        )
        for c in unknown
    ]
    assert bench.usage.drain() == []


def test_a_proposal_carries_nothing_of_its_label(data_dir: Path) -> None:
    bench, generated = _bench(data_dir)
    proposals = [replay_proposal(c, i, bench) for i, c in enumerate(generated.candidates)]
    assert {p.rationale for p in proposals} == {"replay candidate"}
    for candidate, proposal in zip(generated.candidates, proposals, strict=True):
        assert (proposal.src, proposal.type, proposal.dst) == (candidate.src, candidate.type, candidate.dst)
        assert proposal.confidence == candidate.confidence
        assert [span.quote for span in proposal.evidence] == list(candidate.evidence)
