"""A comparison that asks of a property of the two things it names ("which pins do A and B have", "the
cost per call of A compared to B") is answered first by the sentences that say that property, then by
what each one is; an edge that joins the two does not stand in for reading the lessons; "A vs B?" asks of
no property and is answered as before."""

from __future__ import annotations

from agents import qa
from agents.answer_spans import Excerpt
from agents.properties import asked_property, said_of
from governance.comparison import unjoined
from governance.qa import UNOWNED
from magg_kg.clock import StepClock
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.port import Prompt
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import seed

_SORTS = ["radix sort", "bucket sort"]


def test_the_property_is_the_question_s_words_besides_the_names_and_the_comparison() -> None:
    assert asked_property("radix sort vs bucket sort, which uses more memory?", _SORTS) == ["memori"]
    assert asked_property("How does the running time of radix sort compare to bucket sort?", _SORTS) == [
        "run",
        "time",
    ]
    assert asked_property("What are the main differences between radix sort and bucket sort?", _SORTS) == []
    assert asked_property("radix vs bucket sorts?", _SORTS) == []  # the names' shortened words
    # A name's initials stand for it; the words it is written with are no property of it.
    assert asked_property(
        "GSM vs bucket sort - which keys does each one sort?", ["generic sort method", *_SORTS]
    ) == ["key"]


def test_the_sentence_that_says_the_property_comes_before_what_each_one_is() -> None:
    radix = "Radix sort is a sort that reads keys digit by digit."
    bucket = "Bucket sort is a sort that splits keys into ranges."
    memory = "Here, bucket sort needs extra memory for every bucket it fills."
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system="",
        data=f"[c-1] {radix}\n\n[c-2] {bucket} {memory}",
        payload={
            "question": "radix sort vs bucket sort, how much memory do they need?",
            "compare": _SORTS,
            "excerpts": {"c-1": "Sorting", "c-2": "Sorting"},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.compare_offline(prompt))
    assert reply.answer.startswith(f'bucket sort: the lesson says "{memory}" [c-2].'), reply.answer
    assert radix in reply.answer  # what each one is, after it


def test_a_name_s_own_words_do_not_say_the_property() -> None:
    # "gated sort" says "gate" only as its name: the sentence that says the gates answers.
    names = ["gated sort", "bucket sort"]
    named = Excerpt("c-1", "S", "The gated sort is faster than bucket sort on short keys.")
    gates = Excerpt("c-2", "S", "Bucket sort has no gates, while the gated sort opens two gates per pass.")
    found = said_of("gated sort vs bucket sort: which gates do they use?", [named, gates], names)
    assert [(chunk, text) for chunk, text, _ in found] == [("c-2", gates.text)]


def test_a_question_that_asks_a_property_reads_the_lessons_though_an_edge_joins_the_two() -> None:
    store = SQLiteStore.open(":memory:")
    seed(
        store,
        StepClock("2026-01-01T00:00:00.000000Z"),
        [("attention", "builds_on", "transformer", "Transformers build on attention.")],
    )
    graph = build_graph_index(store)
    store.close()

    def read(text: str) -> bool:
        sub = qa.SubQuestion(text=text, concepts=["attention", "transformer"], type="relation")
        return unjoined(graph, sub, [UNOWNED])

    assert read("How does the memory use of attention compare to a transformer?")
    assert not read("attention vs transformer")  # the edge says how they relate


def test_a_setting_after_the_last_name_is_no_property() -> None:
    assert asked_property("radix sort vs bucket sort in Python?", _SORTS) == []
    assert asked_property("How fast is radix sort compared to bucket sort on short keys?", _SORTS) == ["fast"]


def test_a_reader_of_one_side_reads_the_property_without_the_other_side_s_name() -> None:
    # Routed, each domain's expert reads the side it owns: the other side's name is no property.
    memory = "Radix sort needs little memory beyond its counts."
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:d1",
        system="",
        data=f"[c-1] Radix sort is a sort that reads keys digit by digit. {memory}",
        payload={
            "question": "radix sort vs bucket sort, which uses more memory?",
            "compare": ["radix sort"],
            "sides": _SORTS,
            "excerpts": {"c-1": "Sorting"},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.compare_offline(prompt))
    assert reply.answer.startswith(f'radix sort: the lesson says "{memory}" [c-1].'), reply.answer
