"""A question asked yes or no answered by a sentence that names its subject, not what it asks.

d2l: "Is the loss function of a neural network convex?" quoted "Because weight decay is ubiquitous
in neural network optimization, ... for easy use in combination with any loss function.": it names
the loss function and says nothing of convexity. A sentence that names a concept the question
names now bears on a question asked yes or no only when it also says the question's rarest topic
word, unless the names say it (what the question asks of them).
"""

from __future__ import annotations

from agents.relevance import asked_of, on_topic
from tests.qa.courses import expert_reply

CONVEX = "Is the loss function of a neural network convex?"
WEIGHT_DECAY = (
    "Because weight decay is ubiquitous in neural network optimization, the deep learning framework makes "
    "it especially convenient, integrating weight decay into the optimization algorithm itself for easy "
    "use in combination with any loss function."
)
NONCONVEX = (
    "Furthermore, even though the optimization problems in deep learning are generally nonconvex, they "
    "often exhibit some properties of convex ones near local minima."
)


def test_a_sentence_naming_the_concept_must_say_what_the_question_asks_of_it() -> None:
    assert on_topic(CONVEX, WEIGHT_DECAY, "Weight Decay", ["loss functions"]) is False
    assert on_topic(CONVEX, NONCONVEX, "Convexity", ["loss functions"]) is True
    # the rarest word said by the names themselves asks nothing more of the sentence
    assert (
        on_topic("Is weight decay a regularizer?", "Weight decay is common.", "", ["weight decay"]) is False
    )
    assert on_topic("Why use weight decay?", "Weight decay is common.", "", ["weight decay"]) is True
    # a why or how question may be answered without its rarest word ("chatbot": what it is for)
    when = "When should I pick fine-tuning over RAG for my chatbot?"
    assert (
        on_topic(when, "RAG helps when a business lacks the data to fine-tune an LLM.", "", ["RAG"]) is True
    )


def test_the_weight_decay_sentence_no_longer_answers_whether_a_loss_is_convex() -> None:
    names = {"c-loss": "loss functions"}
    excerpts = {"c-1": ("Weight Decay: Concise Implementation", WEIGHT_DECAY)}
    assert "weight decay" in WEIGHT_DECAY and "loss function" in WEIGHT_DECAY  # it shares words with it
    assert WEIGHT_DECAY not in expert_reply(CONVEX, excerpts, names).answer
    said = "The loss functions of deep networks are generally nonconvex, though convex near local minima."
    assert said in expert_reply(CONVEX, {**excerpts, "c-2": ("Convexity", said)}, names).answer


def test_what_a_question_asked_yes_or_no_asks_is_its_rarest_word_after_the_concept_it_names() -> None:
    assert asked_of(CONVEX, ["loss functions"]) == {"convex"}
    assert asked_of(CONVEX, ["neural networks"]) == {"convex"}
    # "tuning", rarer, is said before the concept this one names: another concept's word
    assert (
        asked_of("is fine tuning worth it or is prompt engineering usually enough?", ["prompt engineering"])
        == set()
    )
