"""A lesson file longer than one part is ingested as consecutive parts: cut outside code, each part a
lesson of its own, every part ingested once, a run interrupted between parts resuming to the graph an
uninterrupted run gives, and no part corroborating another part of its own file."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agents.offline.handlers import offline_handlers
from governance.ingestion import IngestContext, _corroborations, ingest
from governance.judgment import Judgment
from magg_kg.clock import StepClock
from magg_kg.config import Policy
from magg_kg.errors import InputError
from magg_kg.lessons import read_lesson, read_parts
from magg_kg.llm.offline import OfflineLLM
from magg_kg.records import Proposal, Span
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store
from magg_kg.verification import verify_store
from tests.ingestion.test_resume import Dying, Interrupted, graph

CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
PART = 2_500
"""Part size of these tests: small, so that two curriculum lessons make several parts."""

_vocabulary = ["data", "model", "loss", "layer", "the", "is", "a"]
_words = st.lists(st.sampled_from(_vocabulary), min_size=3, max_size=30)
_prose = _words.map(lambda words: " ".join(words).capitalize() + ".")
_code = st.lists(
    st.sampled_from(["# a comment", "x = 1", "", "## not a heading", "print(x)"]), min_size=1, max_size=8
).map(lambda lines: "```python\n" + "\n".join(lines) + "\n```")
_section = st.tuples(
    st.sampled_from(["#", "##", "###"]),
    _words,
    st.lists(st.one_of(_prose, _code), min_size=1, max_size=3),
).map(lambda s: f"{s[0]} {' '.join(s[1])}\n\n" + "\n\n".join(s[2]) + "\n\n")


@settings(max_examples=60, deadline=None)
@given(sections=st.lists(_section, min_size=2, max_size=25), part_chars=st.integers(1_000, 4_000))
def test_parts_cover_the_text_in_order_and_never_start_inside_code(
    tmp_path_factory: pytest.TempPathFactory, sections: list[str], part_chars: int
) -> None:
    path = tmp_path_factory.mktemp("parts") / "book.md"
    text = "".join(sections)
    path.write_text(text, "utf-8")
    whole = read_lesson(path, max_bytes=10**9).text
    parts = read_parts(path, max_bytes=10**9, part_chars=part_chars)
    assert "".join(part.text for part in parts) == whole
    assert all(len(part.text) <= part_chars for part in parts)
    assert len({part.key for part in parts}) == len(parts) and parts[0].key == "book"
    for part in parts:
        # Half a part always holds a word of prose here, so no cut falls inside a code block.
        assert part.text.count("```") % 2 == 0
        assert all(part.text[c.start : c.end].strip() for c in part.chunks)
    for part in parts[1:]:
        # Sections are far shorter than half a part here, so every cut falls at a heading of prose.
        if all(len(section) < part_chars // 2 for section in sections):
            assert part.text.startswith("#")


def test_a_text_shorter_than_a_part_is_one_lesson_as_before(tmp_path: Path) -> None:
    path = tmp_path / "small.md"
    path.write_text("# Small\n\nA vector has a length.\n", "utf-8")
    (part,) = read_parts(path, part_chars=PART)
    assert part == read_lesson(path)


def test_a_file_over_max_bytes_is_refused_whole_not_split(tmp_path: Path) -> None:
    path = tmp_path / "big.md"
    path.write_text("# Big\n\n" + "Prose goes on. " * 400, "utf-8")
    with pytest.raises(InputError, match="byte limit for a lesson"):
        read_parts(path, max_bytes=1_000, part_chars=500)


def _book(tmp_path: Path) -> Path:
    folder = tmp_path / "lessons"
    folder.mkdir()
    names = ("13-deep-learning-neural-networks-perceptron.md", "14-deep-learning-backpropagation.md")
    text = "".join((CURRICULUM / name).read_text("utf-8") + "\n\n" for name in names)
    (folder / "book.md").write_text(text, "utf-8")
    return folder


def _run(store: Store, folder: Path, start: str = "2026-01-01T00:00:00.000000Z") -> list[str]:
    clock = StepClock(start, step_seconds=0.001)
    llm = OfflineLLM(offline_handlers())
    gate = Judgment(llm, Policy(), clock, store)
    context = IngestContext(store=store, llm=llm, clock=clock, policy=Policy(), gate=gate, part_chars=PART)
    return [outcome.status for outcome in ingest([folder], context).lessons]


def test_a_long_lesson_is_ingested_part_by_part_and_each_part_once(tmp_path: Path) -> None:
    folder = _book(tmp_path)
    store = SQLiteStore.open(":memory:")
    try:
        first = _run(store, folder)
        stored = store.lessons()
        assert len(first) >= 3 and set(first) == {"new"} and len(stored) == len(first)
        assert [lesson.lesson_key for lesson in stored] == ["book"] + [
            f"book.part-{k}" for k in range(2, len(first) + 1)
        ]
        assert "".join(lesson.text for lesson in stored) == (folder / "book.md").read_text("utf-8")
        texts = {lesson.id: lesson.text for lesson in stored}
        for proposal in store.proposals():
            for span in proposal.evidence:  # every quote lies in its own part, at its offsets
                assert texts[span.lesson_id][span.start : span.end] == span.quote
        assert _run(store, folder) == ["skipped"] * len(first)
        assert not verify_store(store)
    finally:
        store.close()


@pytest.mark.parametrize("after", [1, 2])
def test_a_run_interrupted_between_parts_resumes_to_the_same_graph(tmp_path: Path, after: int) -> None:
    folder = _book(tmp_path)
    whole = SQLiteStore.open(":memory:")
    resumed = SQLiteStore.open(":memory:")
    try:
        _run(whole, folder)
        with pytest.raises(Interrupted):
            _run(Dying(resumed, after), folder)
        assert len(resumed.lessons()) == after and not verify_store(resumed)  # whole parts only
        _run(resumed, folder, "2026-01-02T00:00:00.000000Z")  # run again, later
        assert graph(resumed) == graph(whole)
    finally:
        whole.close()
        resumed.close()


def _claim(lesson_id: str, number: int) -> Proposal:
    span = Span(lesson_id=lesson_id, chunk_id="c", start=0, end=4, quote="text", kind="explicit")
    return Proposal(
        id=f"p-{number}",
        src="a",
        type="prerequisite",
        dst="b",
        confidence=0.6,
        evidence=(span,),
        origin="ingest",
        lesson_id=lesson_id,
        created_at="2026-01-01T00:00:00.000000Z",
    )


def test_parts_and_versions_of_one_file_are_no_independent_support(tmp_path: Path) -> None:
    path = tmp_path / "book.md"
    path.write_text("# Book\n\nA sentence.\n", "utf-8")
    (lesson,) = read_parts(path)  # key "book"
    claims = [
        _claim("book.part-2@0123456789ab", 1),  # another part of the same file
        _claim("book@ba9876543210", 2),  # another version of the same file
        _claim("other-book@0123456789ab", 3),
        _claim("other-book.part-4@0123456789ab", 4),  # the same other file: one source
        _claim("third@0123456789ab", 5),
    ]
    assert _corroborations(claims, lesson)[("a", "prerequisite", "b")] == 2
