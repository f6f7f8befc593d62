"""What a yes/no question asks of its subject: the rarest word of its main clause, not its condition."""

from __future__ import annotations

from agents.answer_spans import Excerpt, best_span
from agents.predicates import main_predicate


def test_the_condition_clause_is_no_part_of_the_predicate() -> None:
    asked = "Does a kettle use more electricity when the water gets hotter?"
    assert main_predicate(asked, ["kettle"]) == frozenset({"electr"})


def test_a_yes_no_question_quotes_the_sentence_that_says_its_predicate() -> None:
    asked = "Does a kettle use more electricity when the water gets hotter?"
    excerpts = [
        Excerpt("c-1", "Kettles", "A kettle heats water; the water gets hotter as the kettle runs."),
        Excerpt("c-2", "Kettles: Power", "A kettle uses the same electricity however hot the water is."),
    ]
    span = best_span(asked, excerpts, ["kettle"])
    assert span is not None
    assert span.excerpt == "c-2"
