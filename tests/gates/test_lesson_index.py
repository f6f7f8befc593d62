"""Lesson co-occurrence in the judge's view: the sentences naming both concepts and how the lessons
present the two, read in the lessons that link both, in their prose, each lesson read once and only
when needed; and what the learned judgment makes of it."""

from __future__ import annotations

import json
from pathlib import Path

from agents.lesson_index import Cooccurrence, LessonIndex, lesson_outline, lesson_sentences, sentences_naming
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


def test_the_index_counts_what_reading_every_sentence_counts() -> None:
    """The index tests only the sentences that hold each concept's first letters (found once per
    lesson and letters); names that overlap, plurals and initials count as in every sentence."""
    prose = (
        "Neural networks are networks. A network of NN layers. Deep neural network training. "
        "Networks and large language models. LLM training uses networks. Large language model tuning. "
        "The NNs and the LLMs. Dropout drops. Neural network dropout, network dropout."
    )
    names = {
        "network": ["network"],
        "neural-network": ["neural network"],
        "llm": ["large language model"],
        "dropout": ["dropout", "dropping out"],
    }
    index = LessonIndex({concept: {"l1"} for concept in names}, 1, {"l1": prose}.get)
    every = [lesson_sentences(prose)]
    for a in names:
        for b in names:
            counted = index.cooccurrence(a, b, names.__getitem__).sentences
            assert counted == sentences_naming(every, names[a], names[b]), (a, b)
    assert index.cooccurrence("network", "neural-network", names.__getitem__).sentences == 3
    assert index.cooccurrence("llm", "neural-network", names.__getitem__).sentences == 1


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
    assert index.cooccurrence("dropout", "neural-network", names).sentences == 2
    assert index.cooccurrence("neural-network", "dropout", names).sentences == 2
    assert reads == ["l1"]
    # A lesson not stored yet brings its prose: it is counted without a read.
    index.add("l4", ["dropout", "neural-network"], "Neural networks and dropout, again.")
    assert index.cooccurrence("dropout", "neural-network", names).sentences == 3 and reads == ["l1"]
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


def test_a_lesson_outline_holds_its_headings_and_what_it_emphasises() -> None:
    prose = (
        "# Regularization\n\n## Dropout and weight decay\n\nWe call this *dropout*. **Weight  Decay** "
        "shrinks weights, and __early stopping__ helps; max_len is a name, #1 is no heading.\n"
        "    # an indented line is code, not a heading\n"
    )
    outline = lesson_outline(prose)
    assert outline.headings == ("Regularization", "Dropout and weight decay")
    assert outline.marked == {"dropout", "weight decay", "early stopping"}


def test_the_lessons_linking_both_tell_whether_a_heading_names_both_and_whether_one_is_emphasised() -> None:
    texts = {
        "l1": "# Dropout\n\nDropout regularizes neural networks.\n",  # a heading names one only
        "l2": "# Training\n\n## Neural networks\n\n### Dropout in practice\n\nWe train them.\n",
        "l3": "# Notes\n\nNeural networks use *dropout*.\n",  # emphasised, in a lesson linking both
        "l4": "# Dropout for neural networks\n\nThe *neural network* again.\n",  # links dropout only
    }
    names = {"dropout": ["dropout"], "neural-network": ["neural network"]}.__getitem__
    for members, headed, marked in (
        ({"dropout": {"l1"}, "neural-network": {"l1"}}, False, False),
        ({"dropout": {"l1", "l2"}, "neural-network": {"l1", "l2"}}, True, False),  # two headings of l2
        ({"dropout": {"l3"}, "neural-network": {"l3"}}, False, True),
        ({"dropout": {"l1", "l4"}, "neural-network": {"l1"}}, False, False),  # l4 does not link both
    ):
        both = LessonIndex(members, 4, texts.get).cooccurrence("dropout", "neural-network", names)
        assert (both.headed, both.marked) == (headed, marked), members
    assert LessonIndex({}, 0, texts.get).cooccurrence("dropout", "neural-network", names) == Cooccurrence()


def test_the_judge_view_carries_the_presentation_and_the_lessons_model_believes_it() -> None:
    prose = "# Dropout and neural networks\n\nWe apply *dropout* to neural networks. Dropout helps.\n"
    state = GraphState(GraphView(concepts("dropout", "neural-network"), []))
    state.add_lesson("l1", ["dropout", "neural-network"], prose=prose)
    subgraph = state.view.support("dropout", "related", "neural-network").payload()
    assert subgraph["presented"] == [True, True]
    payload: dict[str, object] = {
        "proposal": {"src": "dropout", "type": "related", "dst": "neural-network", "origin": "ingest"},
        "evidence": [{"index": 0, "lesson_id": "l1", "kind": "implicit"}],
        "subgraph": subgraph,
    }
    data = json.dumps([{"index": 0, "quote": "We apply *dropout* to neural networks."}])
    values = claim_features(payload, data)
    assert (values["headed_together"], values["marked_in_lesson"]) == (1.0, 1.0)
    plain: dict[str, object] = {**payload, "subgraph": {**subgraph, "presented": [False, False]}}
    assert score_claim(payload, data)[0] > score_claim(plain, data)[0]


def test_a_name_that_holds_both_names_one_concept_not_both() -> None:
    """A heading or a sentence that writes another concept's name holding both names ("weight
    decay tuning" holds "weight decay" and "tuning") names that concept: it neither heads the two
    together nor counts as a sentence naming both. A name holding one of them only ("careful
    tuning") leaves the other mentions as they were."""
    prose = (
        "# Weight Decay Tuning\n\nWeight decay tuning is slow.\n\n"
        "## Tuning\n\nCareful tuning of weight decay helps."
    )
    ids = ("weight-decay", "tuning", "weight-decay-tuning", "careful-tuning")
    view = GraphView(concepts(*ids), [])
    view.add_lesson("l1", ids, prose)
    assert view.wider_names("weight-decay", "tuning") == ["weight decay tuning"]
    both = view.lessons.cooccurrence(
        "weight-decay", "tuning", view.names, view.wider_names("weight-decay", "tuning")
    )
    assert both.sentences == 1  # "Careful tuning of weight decay": "careful tuning" holds one name only
    assert not both.headed  # "Weight Decay Tuning" heads one concept; "Tuning" heads the other alone
    unaware = view.lessons.cooccurrence("weight-decay", "tuning", view.names)
    assert unaware.sentences == 2 and unaware.headed
