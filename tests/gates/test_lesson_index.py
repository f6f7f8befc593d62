"""Sentence co-occurrence in the judge's view: counted in the lessons that link both concepts, in
their prose, each lesson read once and only when needed; and what the learned judgment makes of it."""

from __future__ import annotations

import json
from pathlib import Path

from agents.lesson_index import LessonIndex, sentences_naming
from agents.offline.features import claim_features
from agents.offline.judging import score_claim
from agents.support import GraphView
from governance.graph_state import GraphState
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"


def concepts(*ids: str) -> list[Concept]:
    return [Concept(id=c, name=c.replace("-", " "), type="concept", recorded_at=AT) for c in ids]


def test_a_sentence_counts_when_it_names_both_each_as_a_mention_of_its_own() -> None:
    groups = [
        (
            "Dropout regularizes neural networks.",  # both, the plural matched
            "Dropout and weight decay help.",  # one
            "We train the neural network with dropout.",  # both
            "Dropouts are droplets.",  # a plural of the name: a mention, but no network
        ),
        ("Neural networks use dropout.",),
    ]
    assert sentences_naming(groups, ["dropout"], ["neural network", "NN"]) == 3
    assert sentences_naming(groups, ["dropout"], ["dropout"]) == 0  # one concept is no pair
    acronym = [("Networks are everywhere in NN papers.",)]  # "NN": the initials of "neural network"
    assert sentences_naming(acronym, ["network"], ["neural network"]) == 1


def test_only_the_lessons_linking_both_are_read_each_once() -> None:
    texts = {
        "l1": "Dropout regularizes neural networks. Neural networks overfit without dropout.",
        "l2": "Dropout helps neural networks.",  # does not link neural-network: not read
        "l3": "Attention is all you need.",
    }
    reads: list[str] = []

    def prose_of(lesson_id: str) -> str | None:
        reads.append(lesson_id)
        return texts.get(lesson_id)

    index = LessonIndex({"dropout": {"l1", "l2"}, "neural-network": {"l1"}}, 3, prose_of)
    names = {"dropout": ["dropout"], "neural-network": ["neural network"]}.__getitem__
    assert index.sentences("dropout", "neural-network", names) == 2
    assert index.sentences("neural-network", "dropout", names) == 2
    assert reads == ["l1"]
    # A lesson not stored yet brings its prose: it is counted without a read.
    index.add("l4", ["dropout", "neural-network"], "Neural networks and dropout, again.")
    assert index.sentences("dropout", "neural-network", names) == 3 and reads == ["l1"]
    assert index.together("dropout", "neural-network") == (3, 2, 2) and index.count == 4


def test_the_judge_view_carries_the_count_and_the_features_read_it() -> None:
    prose = "Dropout regularizes neural networks. Neural networks overfit without dropout. Dropout, again."
    state = GraphState(GraphView(concepts("dropout", "neural-network"), []))
    state.add_lesson("l1", ["dropout", "neural-network"], prose=prose)
    support = state.view.support("dropout", "related", "neural-network")
    assert support.sentences == 2 and support.payload()["sentences"] == 2
    payload = {"proposal": {"src": "dropout", "type": "related", "dst": "neural-network"}, "subgraph": {}}
    assert claim_features(payload, "[]")["sentences_together"] == 0.0
    payload["subgraph"] = {"sentences": 5}
    assert round(claim_features(payload, "[]")["sentences_together"], 4) == 1.6094  # log(1 + 5 - 1)


def test_the_shipped_judgment_believes_a_pair_named_together_often_more() -> None:
    # A labelled lesson claim, as recorded: the same claim named in one sentence and in eight.
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "data" / "d2l-eval.heldout.jsonl"
    row = json.loads(path.read_text("utf-8").splitlines()[0])
    once = json.loads(json.dumps(row["payload"]))
    once["subgraph"]["sentences"] = 1
    often = json.loads(json.dumps(row["payload"]))
    often["subgraph"]["sentences"] = 8
    assert score_claim(often, row["data"])[0] > score_claim(once, row["data"])[0]
