"""In a comparison, a sentence that states how two sides differ answers before one that only likens
them or announces a list; a sentence ending in ":" is quoted with the list items it announces; an edge
that quotes a heading, or says only that the two differ and not how, leaves the comparison to the lessons."""

from __future__ import annotations

from agents import qa
from agents.answer_spans import Excerpt
from agents.together import said_together
from governance.comparison import unjoined
from governance.qa import UNOWNED
from magg_kg.clock import StepClock
from magg_kg.graph_index import build_graph_index
from magg_kg.llm.port import Prompt
from magg_kg.sqlite import SQLiteStore
from tests.gates.world import seed


def test_a_sentence_that_states_a_difference_beats_one_that_only_likens() -> None:
    likens = Excerpt("c-1", "Sorting", "Radix sort is similar to bucket sort in many ways.")
    differs = Excerpt(
        "c-2",
        "Summary",
        "Radix sort reads the keys digit by digit, whereas bucket sort splits them into ranges.",
    )
    found = said_together("radix sort vs bucket sort", [likens, differs], ["radix sort", "bucket sort"])
    assert found == ("c-2", differs.text)


def test_an_announcement_is_quoted_with_the_items_it_announces() -> None:
    text = (
        "The differences between radix sort and bucket sort are as follows:\n\n"
        "* Radix sort is stable. It reads digits.\n"
        "* Bucket sort is faster on uniform keys. It needs ranges.\n\n"
        "Radix sort is similar to bucket sort."
    )
    found = said_together(
        "radix sort vs bucket sort", [Excerpt("c-1", "Sorting", text)], ["radix sort", "bucket sort"]
    )
    assert found is not None
    assert found[1] == (
        "The differences between radix sort and bucket sort are as follows: "
        "Radix sort is stable. Bucket sort is faster on uniform keys."
    )


def test_a_bare_announcement_yields_to_a_sentence_that_states_the_difference() -> None:
    text = (
        "The differences between radix sort and bucket sort are as follows:\n\n"
        "Radix sort is stable, but bucket sort is not."
    )
    found = said_together(
        "radix sort vs bucket sort", [Excerpt("c-1", "S", text)], ["radix sort", "bucket sort"]
    )
    assert found == ("c-1", "Radix sort is stable, but bucket sort is not.")


def test_an_edge_that_quotes_a_heading_or_says_no_difference_leaves_the_comparison_to_the_lessons() -> None:
    def joined_by(type_: str, quote: str) -> bool:
        store = SQLiteStore.open(":memory:")
        seed(store, StepClock("2026-01-01T00:00:00.000000Z"), [("attention", type_, "transformer", quote)])
        graph = build_graph_index(store)
        store.close()
        sub = qa.SubQuestion(
            text="attention vs transformer", concepts=["attention", "transformer"], type="relation"
        )
        return not unjoined(graph, sub, [UNOWNED])

    assert not joined_by(
        "contrasts_with", "Attention is related to transformers"
    )  # heading-like: no sentence
    assert not joined_by("contrasts_with", "Attention is related to transformers.")  # states no difference
    assert joined_by("builds_on", "Transformers build on attention.")  # says how they relate


def test_each_side_is_said_by_its_own_sentence_not_the_one_naming_both() -> None:
    both = "The library offers two kinds of sorts: radix sorts and bucket sorts."
    radix = "Radix sorts read keys digit by digit."
    bucket = "With bucket sorts you split the keys into ranges of your own choosing."
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:flat",
        system="",
        data=f"[c-1] {both} {radix}\n\n[c-2] {bucket}",
        payload={
            "question": "radix sorts vs bucket sorts - which do I use",
            "compare": ["radix sorts", "bucket sorts"],
            "excerpts": {"c-1": "Sorting", "c-2": "Sorting"},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    reply = qa.ExpertAnswer.model_validate(qa.compare_offline(prompt))
    assert f'bucket sorts: the lesson says "{bucket}" [c-2]' in reply.answer, reply.answer


def test_a_difference_stated_answers_first_only_when_the_question_asks_how_they_differ() -> None:
    # d2l: "Can I add two tensors that live on different GPUs?" quoted "... it leverages GPUs to
    # accelerate numerical computation, whereas NumPy only runs on CPUs" (GPUs set against CPUs) before
    # "when the input is a tensor on the GPU, the model will calculate the result on the same GPU".
    sorts = ["radix sort", "bucket sort"]
    stated = Excerpt("c-1", "Sorting", "Radix sort is quick, but bucket sort needs ranges of keys.")
    plain = Excerpt("c-2", "Sorting", "Bucket sort can call radix sort on the keys of each bucket.")
    assert said_together("radix sort vs bucket sort", [plain, stated], sorts) == ("c-1", stated.text)
    asked = "Can bucket sort call radix sort on the keys of each bucket?"
    assert said_together(asked, [stated, plain], sorts) == ("c-2", plain.text)
