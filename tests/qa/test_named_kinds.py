"""A question for the kinds of X that the graph has no part for is answered by the kinds the
lesson teaching X names after X's head noun, each with the sentence that introduces it.

d2l: "What kinds of distribution shift are there?" said only "The graph does not cover what is part
of distribution shift.", though the lesson on it introduces covariate shift, label shift and
concept shift, each a concept of the graph, in sections of their own.
"""

from __future__ import annotations

from pathlib import Path

from agents.offline.handlers import offline_handlers
from governance.namesakes import asks_kinds
from governance.qa import answer_flat, answer_routed
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LLM = OfflineLLM(offline_handlers())
LESSONS = {
    "01-soil-erosion.md": "# Soil Erosion\n\nSoil erosion is the loss of the top layer of soil from a field. "
    "Farmers fear it because it takes years to rebuild.\n\n## Types of Soil Erosion\n\nThere are several.\n\n"
    "### Wind Erosion\n\n*Wind erosion* carries dry topsoil away in storms. It is worst on bare fields.\n\n"
    "### Water Erosion\n\nRain that runs off a slope takes soil with it. We call this *water erosion*. "
    "It cuts gullies.\n",
    "02-coasts.md": "# Coastal Erosion\n\n*Coastal erosion* is the wearing away of a coast by the sea.\n",
}


def test_the_kinds_a_lesson_names_after_the_whole_answer_a_kinds_question(tmp_path: Path) -> None:
    with course_graph(tmp_path, LESSONS) as graph:
        asked = "What kinds of soil erosion are there?"
        for result in (answer_routed(LLM, graph, asked, {}), answer_flat(LLM, graph, asked)):
            assert "wind erosion" in result.answer.lower() and "water erosion" in result.answer.lower()
            assert "*Wind erosion* carries dry topsoil away in storms." in result.answer
            # Named "water erosion" only after the sentence that says what it is: both are quoted.
            named = "Rain that runs off a slope takes soil with it. We call this *water erosion*."
            assert named in result.answer
            assert "Coastal" not in result.answer  # taught in another lesson: not named by this one
            assert "does not cover" not in result.answer
            assert result.citations


def test_parts_asked_are_not_read_as_kinds() -> None:
    assert asks_kinds("What types of soil erosion exist?")
    assert not asks_kinds("What is part of soil erosion?")
