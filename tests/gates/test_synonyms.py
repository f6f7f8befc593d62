"""Two names of one concept: a lesson sentence that says so keeps every edge between them out,
whichever lesson made them two concepts and whichever quotes a claim between them cites."""

from __future__ import annotations

import json

import pytest

from agents.lesson_index import LessonIndex
from agents.offline.judging import ONE_CONCEPT, score_claim
from agents.support import GraphView
from agents.synonyms import names_one_concept, stating_one
from agents.text import MentionFinder, lexicon
from governance.graph_state import GraphState
from magg_kg.records import Concept

AT = "2026-01-01T00:00:00.000000Z"
SPEECH = [("sr", ["speech recognition"]), ("asr", ["automatic speech recognition", "ASR"])]


def finder(names: list[tuple[str, list[str]]]) -> MentionFinder:
    return MentionFinder(lexicon(names))


@pytest.mark.parametrize(
    "sentence",
    [
        "Speech recognition, also known as automatic speech recognition (ASR), is a task.",
        "Automatic speech recognition (ASR), also called speech recognition, transcribes audio.",
        "We study *speech recognition* (also referred to as *automatic speech recognition*).",
        "Speech recognition, a.k.a. the automatic speech recognition, is hard.",
        "Speech recognition, otherwise known as automatic speech recognition, is hard.",
        "ASR, or simply speech recognition, maps audio to text.",
    ],
)
def test_an_apposition_behind_a_synonym_marker_gives_two_names_of_one_concept(sentence: str) -> None:
    assert names_one_concept(sentence, finder(SPEECH))


@pytest.mark.parametrize(
    "sentence",
    [
        "Speech recognition and automatic speech recognition are studied here.",
        "Speech recognition is known as automatic speech recognition by some.",  # no apposition
        "Speech recognition, which uses automatic speech recognition models, is hard.",
        "Speech recognition, also known as a hard task, needs automatic speech recognition data.",
        "Automatic speech recognition, also known as ASR, is a task.",  # one concept named twice
    ],
)
def test_a_sentence_naming_both_otherwise_gives_no_synonym(sentence: str) -> None:
    assert not names_one_concept(sentence, finder(SPEECH))


def test_the_names_an_apposition_joins_by_or_are_all_names_of_the_first() -> None:
    names = [
        ("sr", ["speech recognition"]),
        ("asr", ["automatic speech recognition", "ASR"]),
        ("stt", ["speech-to-text", "STT"]),
    ]
    sentence = (
        "Speech recognition, also known as automatic speech recognition (ASR) or speech-to-text (STT), "
        "is a task."
    )
    assert names_one_concept(sentence, finder([names[0], names[2]]))
    assert names_one_concept(sentence, finder([names[1], names[2]]))  # two other names of one thing
    assert not names_one_concept(
        "Speech-to-text or speech recognition are both tasks.", finder([names[0], names[2]])
    )


def test_a_bare_or_and_a_bare_known_as_name_two_things() -> None:
    chips = finder([("cpu", ["CPU"]), ("gpu", ["GPU"])])
    assert not names_one_concept("We cannot move matrices quickly enough to the CPU (or GPU).", chips)
    metrics = finder([("metric", ["metric"]), ("mos", ["mean opinion score", "MOS"])])
    assert not names_one_concept("They are judged by a metric known as MOS or mean opinion score.", metrics)


def test_the_first_stating_sentence_is_kept() -> None:
    texts = ["Speech recognition is hard.", "Speech recognition, also called ASR, is a task.", "ASR."]
    assert stating_one(texts, finder(SPEECH)) == texts[1]
    assert stating_one(texts[:1], finder(SPEECH)) == ""


def test_the_lessons_linking_both_carry_the_statement_into_the_judge_view() -> None:
    concepts = [
        Concept(id="sr", name="speech recognition", type="concept", recorded_at=AT),
        Concept(id="asr", name="automatic speech recognition", type="concept", recorded_at=AT),
    ]
    earlier = "We fine-tune an automatic speech recognition model for speech recognition on Dhivehi."
    later = "Speech recognition, also known as automatic speech recognition, is popular."
    state = GraphState(GraphView(concepts, []))
    state.add_lesson("l1", ["sr", "asr"], prose=earlier)
    assert "named_as_one" not in state.view.support("sr", "related", "asr").payload()
    state.add_lesson("l2", ["sr", "asr"], prose=later)
    assert state.view.support("asr", "prerequisite", "sr").payload()["named_as_one"] == later
    names = {"sr": ["speech recognition"], "asr": ["automatic speech recognition"]}.__getitem__
    assert (
        LessonIndex({"sr": {"l1"}, "asr": {"l1"}}, 1, {"l1": earlier}.get)
        .cooccurrence("sr", "asr", names)
        .one
        == ""
    )


def test_the_judge_scores_a_claim_between_two_names_of_one_concept_below_the_reject_bar() -> None:
    subgraph: dict[str, object] = {"sentences": 6, "presented": [True, True], "together": [3, 3, 3]}
    payload: dict[str, object] = {
        "proposal": {"src": "sr", "type": "related", "dst": "asr", "origin": "ingest"},
        "evidence": [{"index": 0, "lesson_id": "l1", "kind": "implicit"}],
        "subgraph": subgraph,
    }
    data = json.dumps([{"index": 0, "quote": "We fine-tune an ASR model for speech recognition."}])
    plain, _ = score_claim(payload, data)
    stated = "Speech recognition, also known as automatic speech recognition, is popular."
    score, why = score_claim({**payload, "subgraph": {**subgraph, "named_as_one": stated}}, data)
    assert score == min(plain, ONE_CONCEPT) < 0.5
    assert "names of one concept" in why and "also known as" in why


def test_a_name_that_abbreviates_the_other_before_the_same_head_makes_them_one_concept() -> None:
    def claim(src: list[str], dst: list[str]) -> dict[str, object]:
        return {
            "proposal": {"src": "a", "type": "related", "dst": "b", "src_names": src, "dst_names": dst},
            "evidence": [{"index": 0, "lesson_id": "l1", "kind": "implicit"}],
            "subgraph": {"sentences": 4, "presented": [True, True]},
        }

    data = json.dumps(
        [{"index": 0, "quote": "Most parameters sit in the FC layer, a fully-connected layer."}]
    )
    score, why = score_claim(claim(["FC layer"], ["fully-connected layer", "dense layer"]), data)
    assert score <= ONE_CONCEPT and "'FC layer' abbreviates 'fully-connected layer'" in why
    score, why = score_claim(claim(["convolutional layer"], ["Conv layer"]), data)
    assert score <= ONE_CONCEPT and "'Conv layer' abbreviates 'convolutional layer'" in why
    score, why = score_claim(claim(["FC layer"], ["convolutional layer"]), data)
    assert "abbreviates" not in why
