"""A how question that ends on two comparatives ("shorter or cheaper?") asks how, not which.

genai: "I keep hitting the max_tokens limit — how can I make my completions shorter or cheaper?"
was read as a choice between "shorter" and "cheaper" (two options after "or", a comparative among
them), which no sentence of the lessons names, and said the graph does not cover it.
"""

from __future__ import annotations

import pytest

from agents.answer_forms import expected_kind


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        (
            "I keep hitting the max_tokens limit — how can I make my completions shorter or cheaper?",
            "explanation",
        ),
        ("Why are smaller models faster or cheaper?", "explanation"),
        # A comparative without "how" or "why" still asks which of two.
        ("Who was born first, Ann or Bo?", "option"),
        ("Is GPT-4 larger, or Llama 2?", "option"),
        ("Which is cheaper, GPT-4 or GPT-3.5?", "option"),
    ],
)
def test_a_how_or_why_question_is_no_choice_between_comparatives(question: str, kind: str) -> None:
    assert expected_kind(question) == kind
