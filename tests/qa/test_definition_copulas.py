"""'What is X?': a copula that only praises X ("X is a very exciting area") says nothing of what X
is; a sentence with X as its subject that says what X does ("X lets Y ...") does, when nothing
says "X is ..."; and a label before a definition ("**Note**: X is ...") does not hide it."""

from __future__ import annotations

from agents.definitions import defines, definition


def test_an_evaluation_alone_is_no_definition() -> None:
    sentences = ["Graph sketching is a really thrilling area in the world of data.", "We like it."]
    assert not defines(sentences, ["graph sketching"])
    found = definition(["graph sketching"], sentences)
    assert found is not None and found.text == sentences[0]  # quoted whole, not as what X is


def test_an_evaluation_that_goes_on_to_say_what_x_is_still_defines() -> None:
    sentences = ["Graph sketching is an exciting technique for summarising big graphs in memory."]
    found = definition(["graph sketching"], sentences)
    assert found is not None and found.text == "an exciting technique for summarising big graphs in memory"


def test_what_x_lets_others_do_describes_x_before_a_praise_or_a_mention() -> None:
    sentences = [
        "Graph sketches are a powerful tool.",
        "Many people use graph sketches today.",
        "In short, here is the idea: graph sketches let a program count paths by keeping a summary.",
    ]
    found = definition(["graph sketch"], sentences, known=True)
    assert found is not None and found.position == 2
    assert found.text == "graph sketches let a program count paths by keeping a summary"  # after the colon


def test_a_label_before_a_definition_does_not_hide_it() -> None:
    sentences = ["We store rows in Tablestore.", "**Note**: Tablestore is the storage layer for the suite."]
    found = definition(["Tablestore"], sentences, known=True)
    assert found is not None and found.text == "the storage layer for the suite"
