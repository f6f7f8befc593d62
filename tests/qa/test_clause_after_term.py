"""A term asked about ends before a clause that says who does something with it.

genai: "What are the responsible AI principles Microsoft lists?" said the graph does not cover
"responsible AI principles Microsoft lists": "Microsoft lists" (a subject and its verb, no "that")
says who lists the principles; the term is "responsible AI principles".
"""

from __future__ import annotations

from pathlib import Path

from agents.question_slots import clause_start
from governance.question_forms import lacked_term
from tests.qa.courses import course_graph

LESSONS = {
    "01-rai.md": "# Using AI Responsibly\n\n*Responsible AI* is building AI that is fair and safe. "
    "Responsible AI guides every product we build.\n",
}


def test_a_trailing_subject_and_verb_is_no_part_of_the_term_asked(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        assert "responsible-ai" in graph.concepts, sorted(graph.concepts)
        term, parts = lacked_term(graph, "What are the responsible AI principles Microsoft lists?")
        assert (term, parts) == ("responsible AI principles", ["responsible-ai"])
        term, _ = lacked_term(graph, "What are the responsible AI principles we follow?")
        assert term == "responsible AI principles"
        # A name that ends in a word that may be a verb is read whole.
        assert lacked_term(graph, "What are responsible AI product uses?")[0] == "responsible AI product uses"


def test_only_a_name_or_a_pronoun_and_its_verb_form_make_such_a_clause() -> None:
    assert clause_start("AI principles Microsoft lists") == len("AI principles")
    assert clause_start("AI principles they list") == len("AI principles")
    assert clause_start("AI principles they lists") is None  # no "they lists"
    assert clause_start("AI principles Microsoft list") is None  # no "Microsoft list"
    assert clause_start("Azure OpenAI Service models") is None  # no noun before a subject
