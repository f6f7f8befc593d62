"""An answer written in code (``QAResult.assemble``) quotes each lesson sentence once."""

from __future__ import annotations

from governance.experts import ExpertReport, QAResult

SENTENCE = "AI Builder provides two types of AI Models: Prebuilt AI Models and Custom AI Models."


def _result(*answers: tuple[str, list[str]]) -> QAResult:
    experts = [ExpertReport("d-1", "", [], [], answer=a, short_answer="s", citations=c) for a, c in answers]
    return QAResult("What is Custom AI Models?", "routed", None, experts=experts).assemble()


def test_an_edge_whose_quote_was_quoted_keeps_its_claim_without_the_quote() -> None:
    # genai: "What is Custom AI Models?" quoted the lesson sentence, then again as an edge's evidence.
    said = (
        f'The lesson says "{SENTENCE}" [c-1]. Custom AI Models contrasts with Prebuilt AI Models '
        f'(the lesson says: "{SENTENCE}") [e-1]. AI Builder is related to Custom AI Models [e-2].'
    )
    result = _result((said, ["c-1", "e-1", "e-2"]))
    assert result.answer.count("AI Builder provides") == 1, result.answer
    assert "Custom AI Models contrasts with Prebuilt AI Models [e-1]." in result.answer
    assert result.citations == ["c-1", "e-1", "e-2"]


def test_a_later_quote_that_holds_an_earlier_one_is_left_out_with_its_citation() -> None:
    longer = f"Models come in kinds. {SENTENCE}"
    first = (f'Custom AI Models: the lesson says "{SENTENCE}" [c-1].', ["c-1"])
    part = "Custom AI Models is part of AI Builder [e-3]."
    second = (f'The lesson says "{longer}" [c-2]. {part}', ["c-2", "e-3"])
    result = _result(first, second)
    assert result.answer == (
        f'Custom AI Models: the lesson says "{SENTENCE}" [c-1]. Custom AI Models is part of AI Builder [e-3].'
    )
    assert result.citations == ["c-1", "e-3"]  # c-2 is cited nowhere else in the answer
    assert _result(second, first).answer.count("AI Builder provides") == 1  # and a shorter one after it


def test_an_edge_is_said_when_its_quote_holds_quotes() -> None:
    # d2l: "How do residual connections make it possible to train really deep networks?" lost its
    # edge of residual connections whole: its quote, read up to its first inner mark, had been said.
    quote = 'In contrast to post-normalization ("add & norm"), pre-normalization trains better.'
    said = (
        f'Normalization is related to Transformer (the lesson says: "{quote}") [e-1]. '
        f'Residual connection is related to Transformer (the lesson says: "{quote}") [e-2].'
    )
    result = _result((said, ["e-1", "e-2"]))
    assert result.answer.endswith(" Residual connection is related to Transformer [e-2]."), result.answer
    assert result.answer.count("pre-normalization") == 1
    assert result.citations == ["e-1", "e-2"]
