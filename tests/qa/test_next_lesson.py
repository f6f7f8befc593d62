"""What comes next after X, when the graph states nothing that builds on X: the course's order says
it, labelled as such, quoting the opening of the lesson (or the part) taught after X's; never for
the next step of a process a question places itself in."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.offline.handlers import offline_handlers
from agents.question_types import classify
from governance.next_lesson import asks_course_order, taught_next
from governance.qa import answer_flat, answer_routed
from magg_kg.graph_index import GraphIndex
from magg_kg.llm.offline import OfflineLLM
from tests.qa.courses import course_graph

LESSONS = {
    "01-chapter_hash-tables--tables.md": "# Hash Tables\n\nA **hash table** is a table that stores items "
    "under keys.\n",
    "02-chapter_hash-tables--probing.md": "# Probing a Hash Table\n\nA full slot of a hash table is "
    "skipped.\n",
    "03-chapter_sorted-search--binary-search.md": "# Binary Search\n\nSo far we have put lists in order. "
    "**Binary search** is a search method that halves a sorted list until the item is found.\n",
    "04-chapter_sorted-search--index.md": "# Searching Sorted Lists\n\nNow that the mechanics are behind "
    "you, the next tools are new. However, searching a sorted list is much faster than searching a "
    "shuffled one.\n",
    "05-chapter_trees--heaps.md": "# Heaps\n\nA **binary heap** is a tree that keeps its least item on "
    "top.\n",
}


@pytest.fixture(scope="module")
def graph(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GraphIndex]:
    with course_graph(tmp_path_factory.mktemp("next"), LESSONS) as built:
        yield built


def _concept(graph: GraphIndex, name: str) -> str:
    found = [c for c, concept in graph.concepts.items() if concept.name.lower() == name]
    assert found, f"the course no longer yields {name}"
    return found[0]


def test_a_part_named_after_the_concept_is_followed_by_the_next_part_s_introduction(
    graph: GraphIndex,
) -> None:
    said, cited = taught_next(graph, _concept(graph, "hash table"))
    assert said.startswith("In the course, the part after the one on hash table is ")
    assert '"Searching Sorted Lists": ' in said
    # the sentence that says what the part is about goes on from the one before: both are quoted
    assert '"Now that the mechanics are behind you, the next tools are new. However, searching' in said
    assert "not the graph's" in said and len(cited) == 1 and f"[{cited[0]}]" in said


def test_a_concept_its_part_is_not_named_after_is_followed_by_the_next_lesson(graph: GraphIndex) -> None:
    said, _ = taught_next(graph, _concept(graph, "binary search"))
    lead = "In the course, the next lesson after the one that teaches Binary search is"
    assert said.startswith(f'{lead} "Searching Sorted Lists"')


def test_an_edgeless_what_comes_next_question_is_answered_from_the_course_order(graph: GraphIndex) -> None:
    llm = OfflineLLM(offline_handlers())
    question = "I have finished hash tables, what comes next?"
    for result in (answer_routed(llm, graph, question, {}), answer_flat(llm, graph, question)):
        assert "In the course, the part after the one on hash table is" in result.answer


def test_what_comes_after_a_step_of_a_process_is_no_question_of_the_course_order() -> None:
    assert not asks_course_order("In the hiring process, what comes after the interview?", ["hiring"])
    assert not asks_course_order("What comes after grading in sorting?", ["sorting"])
    assert asks_course_order("What should I study after sorting?", ["sorting"])
    assert asks_course_order("What should I learn after the heaps chapter?", ["heap"])
    assert asks_course_order("I finished the sorting chapter, what comes after that?", ["sorting"])


def test_what_comes_next_with_no_after_asks_the_course_order_only_of_what_the_learner_has_done() -> None:
    # "..., and what comes next?" after a question about doing something asks the next step of
    # that, not the lesson after the one on a concept the question happens to name
    assert not asks_course_order("How do I start a sorting project, and what comes next?", ["sorting"])
    assert asks_course_order("I have finished hash tables, what comes next?", ["hash tables"])
    assert asks_course_order("Done with sorting. What next?", ["sorting"])
    assert asks_course_order("What is the next lesson after the heaps chapter?", ["heap"])


def test_a_cue_word_said_of_the_course_asks_no_order() -> None:
    keys = {"ethics rule": "ethics", "sorting": "sorting"}
    assert classify("What are the ethics rules this course follows?", keys).type != "unlocks"
    assert classify("What follows sorting?", keys).type == "unlocks"


SPREAD = {
    "01-chapter_queues--heaps.md": "# Heaps in Queues\n\nA **heap** is a tree with its least item on top.\n",
    "02-chapter_queues--rings.md": "# Ring Buffers\n\nA **ring buffer** is an array that wraps around.\n",
    "03-chapter_sorting--heaps.md": "# Sorting with Heaps\n\nA heap sorts a list when its top is taken "
    "again and again.\n",
    "04-chapter_sorting--merging.md": "# Merge Sort\n\n**Merge sort** is a sort that merges sorted halves.\n",
    "05-chapter_graphs--paths.md": "# Shortest Paths\n\nA **shortest path** is a path of least weight.\n",
}


def test_lessons_on_a_concept_in_several_parts_none_named_after_it_say_no_next_lesson(
    tmp_path: Path,
) -> None:
    # d2l: "pretraining" titles a lesson of the attention chapter and the lessons of the chapter named
    # after it; the first of them was taken as its lesson, and the answer named the attention chapter's
    # next lesson ("Multi-Head Attention") as what comes after pretraining
    with course_graph(tmp_path, SPREAD) as spread:
        said, cited = taught_next(spread, _concept(spread, "heap"))
        assert (said, cited) == ("", [])
    named = dict(SPREAD)
    named["03-chapter_heaps--sorting.md"] = named.pop("03-chapter_sorting--heaps.md")
    (tmp_path / "named").mkdir()
    with course_graph(tmp_path / "named", dict(sorted(named.items()))) as headed:
        said, _ = taught_next(headed, _concept(headed, "heap"))
        assert said.startswith('In the course, the part after the one on heap is "Merge Sort"'), said
