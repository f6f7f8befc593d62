"""A yes/no question with a "when" clause asks yes or no, not a date; retrieval for it reads the
chunks on the concept it names that say the most of what it asks of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.answer_forms import expected_kind
from governance.excerpts import find_excerpts
from governance.question_forms import defined
from magg_kg.cli.context import open_context
from magg_kg.cli.ingestion import run_ingest
from magg_kg.graph_index import build_graph_index


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Does a tree grow more leaves when the summer gets warmer?", "yesno"),
        ("Is the bridge closed when it rains?", "yesno"),
        ("Can a kettle boil over when the lid is shut?", "yesno"),
        # An indirect question still asks the date.
        ("Do you know when the bridge opened?", "date"),
        ("When was the bridge opened?", "date"),
    ],
)
def test_a_when_clause_of_a_yes_no_question_asks_no_date(question: str, kind: str) -> None:
    assert expected_kind(question) == kind


def test_a_yes_no_question_reads_the_chunk_that_says_what_it_asks_of_the_concept(tmp_path: Path) -> None:
    filler = "Gradient descent is an optimization method that walks downhill on a loss surface. " * 6
    (tmp_path / "lessons").mkdir()
    (tmp_path / "lessons" / "descent.md").write_text(
        f"# Gradient descent\n\n{filler}\n\n"
        "## Behaviour over time\n\nThe step size of gradient descent stays fixed however many "
        "iterations are run.\n",
        encoding="utf-8",
    )
    # Another lesson, read first, says the same words of it: the concept's own lesson answers.
    (tmp_path / "lessons" / "a-loops.md").write_text(
        "# Training loops\n\nA training loop calls gradient descent with a step size and a number of "
        "iterations chosen by hand.\n",
        encoding="utf-8",
    )
    with open_context(tmp_path / "magg.sqlite", create=True) as ctx:
        run_ingest(ctx, [tmp_path / "lessons"], show_progress=False)
        graph = build_graph_index(ctx.store)
        assert "gradient-descent" in graph.concepts
        question = "Does gradient descent take a smaller step size when the iterations go on?"
        about = defined(graph, question, ["gradient-descent"])
        found = find_excerpts(graph, question, about=about)
        assert found[0].title == "Gradient descent: Behaviour over time"
