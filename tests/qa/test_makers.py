"""Who made a thing: a name only from a sentence that says the thing was made, never a guess."""

from __future__ import annotations

import pytest

from agents.answer_spans import Excerpt
from agents.makers import asks_maker, maker
from agents.offline.handlers import offline_handlers
from magg_kg.llm.port import Prompt

LLM_HANDLERS = offline_handlers()


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("Who invented the perceptron?", True),
        ("who first proposed dropout", True),
        ("Who coined the term machine learning?", True),
        ("Who is the author of the lesson?", False),  # no verb of making
        ("Who founded the label that signed the band?", False),  # a clause: another question's chain
        ("What did Rosenblatt invent?", False),
    ],
)
def test_a_question_asks_who_made_a_thing_of_a_few_words(question: str, asks: bool) -> None:
    assert asks_maker(question) is asks


@pytest.mark.parametrize(
    "sentence",
    [
        "The perceptron was invented by Frank Rosenblatt in 1957.",
        "Frank Rosenblatt invented the perceptron in 1957.",
        "The [Perceptron] is a type of linear classifier invented by American psychologist Frank Rosenblatt.",
    ],
)
def test_the_name_beside_the_verb_of_making_in_the_sentence_that_names_the_thing(sentence: str) -> None:
    lesson = [Excerpt("c-1", "History", f"Some history. {sentence}")]
    span = maker("Who invented the perceptron?", lesson)
    assert span is not None and (span.text, span.excerpt, span.sentence) == (
        "Frank Rosenblatt",
        "c-1",
        sentence,
    )


@pytest.mark.parametrize(
    "sentence",
    [
        # a name in a sentence about something else
        "Sepp Hochreiter proposed the LSTM, and many papers proposed other ideas.",
        # the verb is about another thing, in another clause
        "A chat-bot called Eugene Goostman, developed in St.Petersburg, passed the perceptron test.",
        # only writing about it, a method's acronym, a capitalized first word
        "The New York Times wrote about the perceptron.",
        "The perceptron was later developed into the MLP.",
        "Describing the perceptron, he proposed a learning rule.",
    ],
)
def test_no_name_without_a_sentence_that_says_who_made_the_thing(sentence: str) -> None:
    assert maker("Who invented the perceptron?", [Excerpt("c-1", "History", sentence)]) is None


def test_an_expert_says_nothing_rather_than_a_name_from_another_sentence() -> None:
    # The sentence names a person near "proposed", but not dropout: before, the reader answered
    # "Sepp Hochreiter"; the dropout edge does not say who either.
    data = (
        "[c-1] Many models resembling Sepp Hochreiter's original design for the LSTM were proposed.\n"
        "[e-1] Dropout is applied to each layer of the MLP."
    )
    prompt = Prompt(
        task="qa.answer",
        stage="qa",
        agent="expert:d",
        system="",
        data=data,
        payload={
            "question": "Who proposed dropout?",
            "concepts": ["dropout"],
            "names": {"dropout": "dropout", "mlp": "MLP"},
            "edges": [{"edge_id": "e-1", "type": "applies_to", "src": "dropout", "dst": "mlp"}],
            "excerpts": {"c-1": "Recurrent networks"},
        },
        prompt_version="qa-6",
    )
    reply = LLM_HANDLERS["qa.answer"](prompt)
    assert reply["citations"] == [] and reply["short_answer"] == ""


def _answer(
    question: str, sentence: str, title: str = "Convolutional networks", names: dict[str, str] | None = None
) -> dict[str, object]:
    named = names or {}
    payload = {
        "question": question,
        "concepts": list(named),
        "names": named,
        "edges": [],
        "excerpts": {"c-1": title},
    }
    prompt = Prompt(
        task="qa.answer",
        stage="qa",
        agent="expert:d",
        system="",
        data=f"[c-1] {sentence}",
        payload=payload,
        prompt_version="qa-6",
    )
    return LLM_HANDLERS["qa.answer"](prompt)


@pytest.mark.parametrize(
    ("question", "sentence"),
    [
        # One word of the question was enough: "Italy", "Leon Bottou" (found by a hostile run).
        ("What is the capital of France?", 'Such as "Rome" "Italy" "France" "Paris".'),
        ("Who wrote this book?", "Some ATMs still run the code that Yann LeCun and Leon Bottou wrote."),
        ("Which optimizer is best?", "In these cases, an MLP may be the best that we can do."),
        ("What is the meaning of life?", "**Impact of AI/ML**: AI/ML have big impacts on daily life."),
    ],
)
def test_a_sentence_sharing_one_word_of_the_question_answers_nothing(question: str, sentence: str) -> None:
    reply = _answer(question, sentence)
    assert reply["citations"] == [] and reply["short_answer"] == ""


def test_a_sentence_that_says_what_is_asked_of_the_thing_asked_about_answers() -> None:
    reply = _answer("Who proposed LeNet?", "LeNet was proposed by Yann LeCun in 1989.")
    assert reply["short_answer"] == "Yann LeCun" and reply["citations"] == ["c-1"]
    reply = _answer("When was LeNet proposed?", "LeNet was proposed by Yann LeCun in 1989.")
    assert reply["short_answer"] == "1989"


def test_a_sentence_that_names_the_concept_asked_about_answers_in_other_words() -> None:
    # "introduced" is not in the sentence, but the concept asked about is: the date was lost when
    # two of the question's words were asked for (found by a second hostile run).
    sentence = "The Transformer architecture was proposed in 2017 by Vaswani and colleagues."
    reply = _answer("When was the transformer introduced?", sentence, names={"transformer": "Transformer"})
    assert reply["short_answer"] == "2017"
