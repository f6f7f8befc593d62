"""Two names of one concept: a lesson sentence that says so keeps every edge between them out,
whichever lesson made them two concepts and whichever quotes a claim between them cites."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agents.lesson_index import LessonIndex, short_name
from agents.offline.judging import ONE_CONCEPT, score_claim
from agents.support import GraphView
from agents.synonyms import names_one_concept, stating_one
from agents.text import MentionFinder, lexicon
from governance.graph_state import GraphState
from magg_kg.records import Concept
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import run_magg

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


def test_a_name_and_the_same_name_with_a_generic_head_noun_are_one_concept() -> None:
    def claim(src: str, dst: str) -> dict[str, object]:
        return {
            "proposal": {"src": "a", "type": "related", "dst": "b", "src_names": [src], "dst_names": [dst]},
            "evidence": [{"index": 0, "lesson_id": "l1", "kind": "implicit"}],
            "subgraph": {"sentences": 4, "presented": [True, True]},
        }

    data = json.dumps(
        [{"index": 0, "quote": "Reflexion prompting extends Reflexion with memory, as Toolformer does."}]
    )
    score, why = score_claim(claim("Reflexion", "Reflexion prompting"), data)
    assert score <= ONE_CONCEPT and "generic head noun" in why
    score, why = score_claim(claim("Toolformer architecture", "Reflexion"), data)
    assert "generic head noun" not in why
    # A network or a layer named after a thing is built for it, not the thing itself.
    score, why = score_claim(claim("region proposal", "region proposal network"), data)
    assert "generic head noun" not in why


SCHEDULES = """# Learning rate schedules

A *learning rate schedule* changes the step size of gradient descent during training. Step decay
and cosine annealing are two common learning rate schedules.

*Learning rate warmup* raises the learning rate linearly over the first few thousand steps,
before the schedule takes over. Learning rate warmup builds on the learning rate schedule.

## Warmup

Warmup keeps the first updates small, while the optimizer's statistics are still noisy. Without
warmup, large transformers often diverge in the first hundred steps. Warmup is cheap: it needs one
more hyperparameter, the number of warmup steps.
"""
TRANSFORMERS = """# Training transformers

Large transformers are trained with Adam and learning rate warmup. The learning rate schedule after
warmup is usually a cosine decay.
"""


def test_a_name_the_lessons_write_alone_only_after_the_longer_name_ending_in_it_is_its_short_name() -> None:
    # "warmup prerequisite learning-rate-warmup" was committed from the names alone: a lesson that
    # introduces "learning rate warmup" and goes on under "## Warmup" uses the head as its short name.
    warmup = (["warmup"], ["learning rate warmup"])
    assert "'warmup' is written alone only after 'learning rate warmup'" in short_name(
        [SCHEDULES, TRANSFORMERS], *warmup
    )
    assert short_name([TRANSFORMERS, "Warmup first, then learning rate warmup."], *warmup) == ""
    # A base concept the lessons name first, or one ending other longer names, is no short name.
    taught = "The derivative measures change. A partial derivative holds the other inputs fixed."
    assert short_name([taught], ["derivative"], ["partial derivative"]) == ""
    assert (
        short_name(
            ["An L1 cache is small, an L2 cache larger; a cache hit is cheap."], ["cache"], ["L1 cache"]
        )
        == ""
    )
    # A title names the lesson's subject before its prose introduces the parts (d2l's "# Deep
    # Factorization Machines" over "Factorization machines model ..."), and a hyphenated name is
    # one word, also spelt without its hyphen ("encoder decoder" is no kind of decoder).
    titled = "# Deep Factorization Machines\n\nFactorization machines are linear. Deep ones add an MLP."
    assert short_name([titled], ["factorization machine"], ["deep factorization machine"]) == ""
    assert (
        short_name(["An encoder-decoder has a decoder."], ["decoder"], ["encoder-decoder", "encoder decoder"])
        == ""
    )
    concepts = [
        Concept(id="warmup", name="warmup", type="method", recorded_at=AT),
        Concept(id="lr-warmup", name="learning rate warmup", type="method", recorded_at=AT),
    ]
    state = GraphState(GraphView(concepts, []))
    state.add_lesson("l1", ["warmup", "lr-warmup"], prose=SCHEDULES)
    payload = state.view.support("warmup", "prerequisite", "lr-warmup").payload()
    assert "'warmup' is written alone only after" in str(payload["short_name"])
    # A lesson that names the short one apart from the longer makes it a concept of its own.
    state.add_lesson("l2", ["warmup"], prose="A warmup lap loosens the muscles before a race.")
    assert "short_name" not in state.view.support("warmup", "prerequisite", "lr-warmup").payload()


def test_a_short_name_caps_a_claim_no_quote_states_and_leaves_a_stated_one_to_the_model() -> None:
    # "The VAE builds on the autoencoder" says the two are two concepts, whatever order a lesson
    # names them in; a prerequisite read from the names alone says nothing of the kind.
    def claim(kind: str) -> dict[str, object]:
        return {
            "proposal": {"src": "vae", "type": "builds_on", "dst": "autoencoder", "origin": "ingest"},
            "evidence": [{"index": 0, "lesson_id": "l1", "kind": kind}],
            "subgraph": {"short_name": "'autoencoder' is written alone only after 'variational autoencoder'"},
        }

    data = json.dumps([{"index": 0, "quote": "The VAE builds on the autoencoder."}])
    score, why = score_claim(claim("inferred"), data)
    assert score <= ONE_CONCEPT and "short name" in why
    score, why = score_claim(claim("explicit"), data)
    assert "short name" not in why and score > ONE_CONCEPT


def test_a_prerequisite_from_names_is_not_committed_between_a_name_and_its_short_name(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    run_magg(["init", "--db", db])
    for name, text in (("01-schedules.md", SCHEDULES), ("02-transformers.md", TRANSFORMERS)):
        (tmp_path / name).write_text(text, encoding="utf-8")
        run_magg(["ingest", "--db", db, str(tmp_path / name)])
    store = SQLiteStore.open(db, create=False)
    try:
        assert {"warmup", "learning-rate-warmup"} <= {c.id for c in store.concepts()}
        active = store.triples()
        assert ("learning-rate-warmup", "builds_on", "learning-rate-schedule") in active
        assert not [t for t in active if {t[0], t[2]} == {"warmup", "learning-rate-warmup"}]
    finally:
        store.close()


NETWORKS = [("nn", ["neural network", "neural networks"]), ("ann", ["artificial neural network", "ANN"])]


@pytest.mark.parametrize(
    "sentence",
    [
        "Sometimes neural networks are called *Artificial Neural Networks*, ANNs, to say they are models.",
        "The neural network is often called the artificial neural network.",
        "Often, neural networks are called artificial neural networks in older books.",
    ],
)
def test_a_name_the_whole_subject_of_a_statement_is_called_by_is_a_name_of_one_concept(sentence: str) -> None:
    assert names_one_concept(sentence, finder(NETWORKS))


@pytest.mark.parametrize(
    "sentence",
    [
        "Neural networks with many layers are called artificial neural networks.",  # a subject with more
        "In the simplest case, a neural network is called an artificial neural network.",
        "A neural network is called an artificial neural network of one layer.",  # a kind, by its article
        "With one hidden layer, neural networks are called artificial neural networks.",
        "The weights of neural networks are called the parameters of an artificial neural network.",
        "Neural networks are called artificial neural networks' simpler cousins.",
    ],
)
def test_a_statement_whose_subject_says_more_than_a_name_gives_no_synonym(sentence: str) -> None:
    assert not names_one_concept(sentence, finder(NETWORKS))
