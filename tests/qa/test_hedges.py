"""A "What is X?" question hedged by a learner ("so what even is X", "what exactly are X") asks
what X is, as the plain question does."""

from __future__ import annotations

from agents.answer_forms import as_what_is
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
