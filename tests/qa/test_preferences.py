"""A question asking which of two things to use was answered by the sentence sharing the most words
with it, and the sentence that says which one is preferable came after it, from an edge's quote. d2l:
"When should I use max pooling rather than average pooling?" quoted first "we can average over
adjacent pixels to obtain an image with better signal-to-noise ratio ...", and "max-pooling is
preferable to average pooling" third. Such a question is now answered first by a sentence naming the
first thing asked (or both) that states a preference or a condition, from a lesson or an edge's quote.
"""

from __future__ import annotations

from agents import qa
from agents.answer_spans import Excerpt
from agents.preferences import asks_choice, preferred
from magg_kg.llm.port import Prompt

NAMES = {"heap": "binary heap", "list": "sorted list"}
SIDES = list(NAMES.values())
LESSON = (
    "A sorted list can be built from a binary heap by popping every element in order of the keys. "
    "Popping from a binary heap, like reading a sorted list, gives keys in order. "
    "Both keep their elements in an order of their keys."
)
QUOTE = "When keys come one at a time, a binary heap is preferable to a sorted list: each insert is cheap."


def _reply(question: str) -> qa.ExpertAnswer:
    prompt = Prompt(
        task=qa.ANSWER_TASK,
        stage="qa",
        agent="expert:d-1",
        system="",
        data=f"[e-pick] {QUOTE}\n[c-heap] {LESSON}",
        payload={
            "question": question,
            "concepts": ["heap", "list"],
            "names": NAMES,
            "edges": [{"edge_id": "e-pick", "src": "heap", "type": "related", "dst": "list"}],
            "excerpts": {"c-heap": "Heaps"},
        },
        prompt_version=qa.PROMPT_VERSION,
    )
    return qa.ExpertAnswer.model_validate(qa.answer_offline(prompt))


def test_a_question_of_which_to_use_quotes_the_preference_first_from_an_edge() -> None:
    for asked in (
        "When should I use a binary heap rather than a sorted list?",
        "Binary heap vs sorted list, which should I use?",
        "Should I pick a binary heap instead of a sorted list to keep keys in order?",
    ):
        answer = _reply(asked).answer
        assert answer.startswith(f'The lesson says "{QUOTE}" [e-pick].'), (asked, answer)


def test_a_preference_said_in_a_lesson_is_read_there() -> None:
    lesson = Excerpt("c-1", "Heaps", f"{LESSON} In practice a binary heap is used when inserts are many.")
    found = preferred("When would I choose a binary heap over a sorted list?", [lesson], {}, SIDES)
    assert found is not None and found.sentence == "In practice a binary heap is used when inserts are many."
    assert found.excerpt == "c-1"


def test_only_a_choice_between_two_things_is_read_so() -> None:
    assert asks_choice("Which of a binary heap and a sorted list should I use?")
    assert not asks_choice("How does a binary heap differ from a sorted list?")
    assert not asks_choice("When should I use a binary heap?")
    lesson = Excerpt("c-1", "Heaps", f"{LESSON} In practice a binary heap is used when inserts are many.")
    assert preferred("How is a binary heap built from a sorted list?", [lesson], {}, SIDES) is None
    # what is chosen ("a trie") is not among the names: no sentence of the other one answers
    assert preferred("When should I use a trie instead of a binary heap?", [lesson], {}, SIDES) is None


def test_a_comparative_answers_only_when_it_names_both() -> None:
    # "faster" of one thing alone compares it with something else, not with the other thing asked
    alone = "A binary heap gets faster as its keys grow fewer."
    both = "A binary heap is lighter to update than a sorted list."
    lesson = Excerpt("c-1", "Heaps", f"{LESSON} {alone} {both}")
    found = preferred("Binary heap vs sorted list, which should I use?", [lesson], {}, SIDES)
    assert found is not None and found.sentence == both
    lesson = Excerpt("c-1", "Heaps", f"{LESSON} {alone}")
    assert preferred("Binary heap vs sorted list, which should I use?", [lesson], {}, SIDES) is None


def test_which_of_two_is_a_kind_of_thing_asks_no_choice() -> None:
    # HotpotQA: "Which is a comedy film, The Million Dollar Duck or Don Quixote?" quoted a sentence
    # that says Don Quixote is among "the greatest works of fiction" as a preference, and lost its answer.
    assert not asks_choice("Which is a comedy film, The Heap Book or The List Book?")
    assert asks_choice("Heaps or sorted lists: which is better for a priority queue?")
