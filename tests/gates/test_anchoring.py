"""A concept from nowhere: the gate never commits a claim on one quote when an endpoint has no
relation to the curriculum (no edge, no lesson teaching or defining it, no description naming it,
no shared word with another name, no lesson of another file naming it)."""

from __future__ import annotations

from agents.judge import Claim
from agents.support import GraphView
from governance.claims import anchored, build_claim
from magg_kg.builders import propose
from magg_kg.records import Concept, Span

AT = "2026-01-01T00:00:00.000000Z"
QUOTE = "The zorblax unit is related to attention."


def view_of(lessons: dict[str, list[str]]) -> GraphView:
    concepts = [
        Concept(id=c, name=name, type="concept", recorded_at=AT)
        for c, name in (("zorblax", "zorblax"), ("attention", "attention"), ("softmax", "softmax"))
    ]
    members: dict[str, set[str]] = {}
    for lesson_id, linked in lessons.items():
        for concept in linked:
            members.setdefault(concept, set()).add(lesson_id)
    return GraphView(concepts, [("softmax", "related", "attention")], members=members, lessons=len(lessons))


def claim_in(view: GraphView, quotes: list[tuple[str, str]]) -> Claim:
    evidence = [
        Span(lesson_id=lesson, start=0, end=len(quote), quote=quote, kind="implicit")
        for lesson, quote in quotes
    ]
    proposal = propose(
        "zorblax", "related", "attention", context=("t",), origin="ingest", confidence=0.3,
        evidence=evidence, created_at=AT, lesson_id=quotes[0][0],
    )  # fmt: skip
    return build_claim(view, proposal, evidence)


def test_a_concept_named_by_one_lesson_file_is_from_nowhere_whatever_its_versions_and_parts() -> None:
    one_file = view_of(
        {
            "intro@aaaaaaaaaaaa": ["zorblax", "attention"],
            "intro.part-2@bbbbbbbbbbbb": ["zorblax"],
            "intro@cccccccccccc": ["zorblax"],
        }
    )
    assert not one_file.anchored("zorblax") and one_file.anchored("attention")  # attention has an edge
    assert not anchored(claim_in(one_file, [("intro@aaaaaaaaaaaa", QUOTE)]))


def test_the_lessons_of_two_files_naming_a_concept_relate_it_to_the_curriculum() -> None:
    two_files = view_of({"intro@aaaaaaaaaaaa": ["zorblax", "attention"], "later@bbbbbbbbbbbb": ["zorblax"]})
    assert two_files.anchored("zorblax")
    assert anchored(claim_in(two_files, [("intro@aaaaaaaaaaaa", QUOTE)]))


def test_a_second_quote_backs_a_claim_whose_endpoint_is_from_nowhere() -> None:
    one_file = view_of({"intro@aaaaaaaaaaaa": ["zorblax", "attention"]})
    again = "Attention and the zorblax unit work together."
    assert anchored(claim_in(one_file, [("intro@aaaaaaaaaaaa", QUOTE), ("intro@aaaaaaaaaaaa", again)]))


def test_a_word_shared_with_another_concepts_alias_relates_a_concept_to_the_curriculum() -> None:
    concepts = [
        Concept(id=c, name=name, type="concept", recorded_at=AT)
        for c, name in (("retrieval", "retrieval"), ("rag", "RAG"), ("zorblax", "zorblax"))
    ]
    view = GraphView(concepts, [], members={"retrieval": {"rag@aaaaaaaaaaaa"}}, lessons=1)
    assert not view.anchored("retrieval")
    view.add_names({"retrieval augmented generation": "rag"})
    assert view.anchored("retrieval") and view.anchored("rag")  # "retrieval" is a word of RAG's alias
    assert not view.anchored("zorblax")
