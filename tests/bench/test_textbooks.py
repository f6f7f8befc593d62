"""The textbooks a Metacademy-layout data set cites: courses whose order the judge reads."""

from __future__ import annotations

import json
from pathlib import Path

from agents import judge
from agents.offline.features import claim_features
from agents.offline.handlers import offline_handlers
from agents.support import GraphView
from agents.teaching import TeachingOrder
from governance.claim_examples import metacademy_examples
from governance.evaluation.ablation import run_configuration
from governance.evaluation.replay import Candidate, CandidateSet, build_candidates, load_dataset
from governance.evaluation.textbooks import course_orders
from magg_kg.clock import StepClock
from magg_kg.config import LLMConfig, Policy
from magg_kg.llm.port import Prompt
from magg_kg.records import Concept
from tests.bench.conftest import write_dataset

T0 = "2026-01-01T00:00:00.000000Z"
# A linear-algebra book teaches three of the fixture's concepts in this order; a probability book
# places one concept only (no course); other resources have no section number or no usable shape.
RESOURCES = {
    "vectors": [{"source": "strang", "location": ["Section 1.1, pages 1-9"]}],
    "matrices": [{"source": "strang", "location": ["Chapter 2", 'Section 2.4, "Matrix operations"']}],
    "eigenvalues": [{"source": "strang", "location": ["Section 6.1"]}, {"source": "web", "location": "x"}],
    "probability": [{"source": "ross", "location": ["Section 1.3"]}, "a string, not a resource"],
    "expectation": [{"source": "videos", "location": ['Lecture "Means" [12]']}],
    "variance": {"source": "ross"},
}


def _with_resources(folder: Path) -> Path:
    write_dataset(folder)
    path = folder / "concepts.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        if row["tag"] in RESOURCES:
            row["resources"] = RESOURCES[row["tag"]]
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return folder


def test_each_numbered_textbook_is_a_course_and_odd_resources_are_skipped(tmp_path: Path) -> None:
    dataset = load_dataset(_with_resources(tmp_path / "m"))
    assert dataset.courses == ({"eigenvalues": 2, "matrices": 1, "vectors": 0},)
    assert course_orders({"a": "not a list", "b": [{"source": 3, "location": ["Section 1"]}]}) == ()


def test_the_curriculum_order_wins_and_courses_vote_only_where_it_is_silent() -> None:
    order = TeachingOrder({"a": 5, "b": 1})
    order.add_course({"a": 0, "b": 9, "c": 4})
    assert order.positions("a", "b") == (5, 1)  # the lessons teach both: their order
    assert order.positions("a", "c") == (0, 4)  # only the course teaches c
    order.add_course({"a": 7, "c": 2})
    assert order.positions("a", "c") == (5, None)  # one course each way: a tie says nothing


def test_the_judge_reads_a_course_order_for_a_claim_and_its_reverse() -> None:
    concepts = [Concept(id=c, name=c, type="concept", recorded_at=T0) for c in ("a", "b")]
    view = GraphView(concepts, [])
    view.teaching.add_course({"a": 0, "b": 3})
    forward, backward = (
        claim_features(
            {
                "proposal": {"src": s, "type": "prerequisite", "dst": d},
                "subgraph": view.support(s, "prerequisite", d).payload(),
            },
            "[]",
        )
        for s, d in (("a", "b"), ("b", "a"))
    )
    assert forward.get("taught_in_order") == 1.0 and not forward.get("taught_reversed")
    assert backward.get("taught_reversed") == 1.0 and not backward.get("taught_in_order")


def test_training_and_the_replay_judge_both_see_the_textbook_order(tmp_path: Path) -> None:
    folder = _with_resources(tmp_path / "m")
    book = {"vectors", "matrices", "eigenvalues"}
    examples = [e for e in metacademy_examples(folder, seeds=(1, 2, 3)) if {e.src, e.dst} <= book]
    gold = [e for e in examples if e.kind == "gold"]
    reversed_ = [e for e in examples if e.kind == "reversed"]
    assert gold and all(e.values.get("taught_in_order") == 1.0 for e in gold)
    assert all(e.values.get("taught_reversed") == 1.0 for e in reversed_)

    dataset = load_dataset(folder)
    generated = build_candidates(dataset, 7)
    seen: list[object] = []
    answer = offline_handlers()[judge.TASK]

    def recording(prompt: Prompt) -> dict[str, object]:
        proposal = prompt.payload["proposal"]
        assert isinstance(proposal, dict) and isinstance(prompt.payload["subgraph"], dict)
        if {proposal["src"], proposal["dst"]} == {"vectors", "eigenvalues"}:
            seen.append(prompt.payload["subgraph"]["first_taught"])
        return answer(prompt)

    claim = Candidate(
        "vectors", "prerequisite", "eigenvalues", dataset.evidence("vectors", "eigenvalues"), 1, "gold"
    )
    only = CandidateSet(generated.established, (claim,), generated.seed, generated.source)
    run_configuration(
        "judge",
        only,
        dataset,
        llm_config=LLMConfig(),
        policy=Policy(),
        clock_factory=lambda: StepClock(T0),
        handlers={judge.TASK: recording},
    )
    assert seen and all(sorted(taught) == [0, 2] for taught in seen)
