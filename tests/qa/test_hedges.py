"""A "What is X?" question hedged by a learner ("so what even is X", "what exactly are X") asks
what X is, as the plain question does."""

from __future__ import annotations

from agents.answer_forms import as_what_is
from agents.clauses import pointing
from agents.hedges import hedged_what_is, unhedged


def test_a_hedged_what_is_question_is_asked_plainly() -> None:
    assert as_what_is("so what even is a learning rate") == "What is a learning rate?"
    assert as_what_is("Okay, what exactly are residual connections?") == "What are residual connections?"
    assert as_what_is("what's a learning rate, actually?") == "What is a learning rate?"
    assert as_what_is("well what does stride even mean?") == "What is stride?"
    assert as_what_is("hey, what's the meaning of stride?") == "What is stride?"


def test_a_plain_or_other_question_is_left_as_it_is() -> None:
    assert hedged_what_is("What is a learning rate?") == ""
    assert hedged_what_is("what really matters in training") == ""
    assert unhedged("What exactly does pooling do?") == "What exactly does pooling do?"
    assert unhedged("Why is it even needed?") == "Why is it even needed?"


def test_an_explanation_for_a_newcomer_asks_what_x_is() -> None:
    assert as_what_is("explain gradient clipping like I'm new to this") == "What is gradient clipping?"
    assert as_what_is("ELI5 gradient clipping") == "What is gradient clipping?"
    assert as_what_is("Can you explain beam search in simple terms?") == "What is beam search?"
    assert as_what_is("what is beam search, for a beginner?") == "What is beam search?"
    assert as_what_is("explain how beam search works like I'm five") == ""


def test_what_saying_x_does_something_means_asks_what_the_doing_is() -> None:
    assert as_what_is("What does it mean when people say a model overfits?") == "What is overfitting?"
    assert as_what_is("what does it mean when we say a network saturates") == "What is saturation?"


def test_the_it_of_what_it_means_when_points_to_nothing() -> None:
    assert pointing("What does it mean when people say a model overfits?") == ""
    assert pointing("what does it really mean if a network saturates") == ""
    assert pointing("What does it mean?") == "it"
