"""Document processing: normalization, chunks, and the files that are not lessons."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from magg_kg import lessons
from magg_kg.errors import InputError
from magg_kg.lesson_files import find_lessons
from magg_kg.lessons import read_lesson, split_chunks
from magg_kg.operations import AddLesson


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_text_is_nfc_without_control_characters(tmp_path: Path) -> None:
    lesson = read_lesson(write(tmp_path / "a.md", "# Cafe\u0301s\r\n\nA\x07B\tC\x1b.\n".encode()))
    assert lesson.text == "# Cafés\n\nAB\tC.\n"
    assert lesson.title == "Cafés"
    assert lesson.id == f"a@{lesson.sha256[:12]}"


def test_title_falls_back_to_the_file_name(tmp_path: Path) -> None:
    assert (
        read_lesson(write(tmp_path / "my-first_lesson.md", b"No heading here.\n")).title == "my first lesson"
    )


def test_a_title_reads_its_character_references(tmp_path: Path) -> None:
    # A title began inside a reference ("18;ariance and ...") once a word spelled with one was read
    # whole (found by a hostile run).
    markdown = read_lesson(write(tmp_path / "a.md", b"# Co&#118;ariance and Eigen&shy;vectors\n\nText.\n"))
    assert markdown.title == "Covariance and Eigenvectors"
    assert [chunk.heading for chunk in markdown.chunks] == ["Covariance and Eigenvectors"]
    html = b"<html><head><title>Rock &amp; Roll</title></head><body><p>Text.</p></body></html>"
    assert read_lesson(write(tmp_path / "b.html", html)).title == "Rock & Roll"


def test_chunks_cover_the_text_overlap_and_are_stable(tmp_path: Path) -> None:
    body = "# Title\n\n" + "\n\n".join(f"## Part {i}\n\n" + "Sentence number one. " * 100 for i in range(3))
    lesson = read_lesson(write(tmp_path / "long.md", body.encode()))
    chunks = lesson.chunks
    assert len(chunks) > 3
    assert chunks[0].start == 0 and chunks[-1].end == len(lesson.text)
    for before, after in itertools.pairwise(chunks):
        assert not lesson.text[before.end : after.start].strip()  # nothing but blank lines between
        assert after.end > before.end
    assert all(c.end - c.start <= 1200 + 200 for c in chunks)  # size + overlap at most
    assert any(after.start < before.end for before, after in itertools.pairwise(chunks))
    assert [c.id for c in split_chunks(lesson.sha256, lesson.text)] == [c.id for c in chunks]
    assert any(c.heading.startswith("Part") for c in chunks)


def test_a_chunk_is_titled_by_the_section_of_its_own_text_not_of_its_overlap(tmp_path: Path) -> None:
    # d2l's pandas lesson: a short section ends a chunk with the next heading, and the chunk after it
    # repeats both; it was titled by the short section though all it adds is the next one's text.
    body = (
        "# Lesson\n\n" + "An opening sentence. " * 30 + "\n\n## Tensors\n\nTensors hold the data.\n\n"
        "## Discussion\n\n" + "We now load data into tensors. " * 60
    )
    lesson = read_lesson(write(tmp_path / "pandas.md", body.encode()))
    discussion = lesson.text.index("## Discussion")
    crossing = [
        after
        for before, after in itertools.pairwise(lesson.chunks)
        if after.start < discussion < before.end <= discussion + len("## Discussion\n\n")
    ]
    assert len(crossing) == 1 and lesson.text[crossing[0].start :].startswith("## Tensors")  # the overlap
    assert crossing[0].end > discussion + 1000  # nearly all of it is the Discussion's text
    assert crossing[0].heading == "Discussion"
    assert [c.heading for c in lesson.chunks] == ["Lesson", "Tensors", "Discussion", "Discussion"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"   \n\n", "empty"),
        (b"# T\n\x00\x01binary", "binary"),
        ("# Caf\u00e9".encode("latin-1"), "not UTF-8"),
        (bytes(range(1, 9)) * 50, "control characters"),
    ],
)
def test_files_that_are_not_lessons_are_refused(tmp_path: Path, data: bytes, message: str) -> None:
    path = write(tmp_path / "bad.md", data)
    with pytest.raises(InputError, match=message) as raised:
        read_lesson(path)
    assert str(path) in str(raised.value) and "\n" not in str(raised.value)


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.md"
    with path.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: reading it would take 50 MB
    with pytest.raises(InputError, match="over the 2,000,000-byte limit"):
        read_lesson(path)


def test_folders_are_walked_sorted_and_an_empty_one_is_refused(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    write(tmp_path / "b" / "two.md", b"# Two\n")
    write(tmp_path / "one.md", b"# One\n")
    write(tmp_path / "README.md", b"# Readme\n")
    write(tmp_path / "readme.mdx", b"# Readme\n")
    write(tmp_path / "c.mdx", b"# C\n")
    write(tmp_path / "d.HTML", b"<h1>D</h1>\n")
    write(tmp_path / "e.htm", b"<h1>E</h1>\n")
    write(tmp_path / "f.markdown", b"# F\n")
    write(tmp_path / "notes.txt", b"not a lesson\n")
    assert [key for _, key in find_lessons([tmp_path])] == ["b-two", "c", "d", "e", "f", "one"]
    (tmp_path / "empty").mkdir()
    write(tmp_path / "empty" / "notes.txt", b"not a lesson\n")
    with pytest.raises(InputError, match=r"no lesson \(\*\.md, \*\.markdown, \*\.mdx, \*\.html, \*\.htm\)"):
        find_lessons([tmp_path / "empty"])
    with pytest.raises(InputError, match="no such file"):
        find_lessons([tmp_path / "missing"])
    # A file named itself is a lesson whatever its suffix: the folder rule is for what a walk finds.
    assert find_lessons([tmp_path / "notes.txt"]) == [(tmp_path / "notes.txt", "notes")]


def test_a_course_of_one_folder_per_lesson_is_read_and_skip_patterns_leave_files_out(tmp_path: Path) -> None:
    for folder in ("1-Intro/1-basics/translations", "2-Regression"):
        (tmp_path / folder).mkdir(parents=True)
    write(tmp_path / "README.md", b"# The course\n")  # the folder's own README describes it
    write(tmp_path / "1-Intro" / "1-basics" / "README.md", b"# Basics\n")
    write(tmp_path / "1-Intro" / "1-basics" / "assignment.md", b"# Task\n")
    write(tmp_path / "1-Intro" / "1-basics" / "translations" / "README.es.md", b"# Fundamentos\n")
    write(tmp_path / "2-Regression" / "README.md", b"# Regression\n")
    keys = [key for _, key in find_lessons([tmp_path])]
    assert keys == [
        "1-intro-1-basics-readme",
        "1-intro-1-basics-assignment",
        "1-intro-1-basics-translations-readme-es",
        "2-regression-readme",
    ]
    kept = find_lessons([tmp_path], skip=("*/translations/*", "*assignment.md"))
    assert [key for _, key in kept] == ["1-intro-1-basics-readme", "2-regression-readme"]
    with pytest.raises(InputError, match=r"no lesson .* or left out by --skip"):
        find_lessons([tmp_path], skip=("*",))


def test_a_name_the_file_system_cannot_hold_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"cannot be read: File name too long"):
        find_lessons([tmp_path / ("a" * 300 + ".md")])  # 255 bytes a name on the file systems we run on


@pytest.mark.parametrize(
    ("name", "data", "flavor", "title"),
    [
        ("a.md", "# Using `pip`\n\n```python\n# not a title\n```\n", "markdown", "Using `pip`"),
        ("b.mdx", "import X from 'x'\n\n# MDX lesson\n\n<X />\n", "mdx", "MDX lesson"),
        (
            "c.html",
            "<html><head><title>Page</title></head><body><h1>Dropout</h1></body></html>",
            "html",
            "Page",
        ),
        ("d.htm", "<p>No heading here.</p>", "html", "d"),
    ],
)
def test_the_suffix_names_the_flavor_and_the_title_comes_from_prose(
    tmp_path: Path, name: str, data: str, flavor: str, title: str
) -> None:
    lesson = read_lesson(write(tmp_path / name, data.encode()))
    assert (lesson.flavor, lesson.title) == (flavor, title)
    assert len(lesson.prose) == len(lesson.text) and lesson.text == data  # the stored text is the original


def test_chunks_follow_the_prose_and_keep_original_offsets(tmp_path: Path) -> None:
    code = "```python\n" + "\n".join(f"# step {i}\nx = {i}" for i in range(200)) + "\n```\n"
    body = "# Lesson\n\nDropout is a regularization technique.\n\n" + code + "\nWeight decay also helps.\n"
    lesson = read_lesson(write(tmp_path / "code.md", body.encode()))
    assert [c.heading for c in lesson.chunks] == ["Lesson", "Lesson"]  # no heading from "# step" in code
    assert [lesson.text[c.start : c.end] for c in lesson.chunks] == [
        "# Lesson\n\nDropout is a regularization technique.",
        "Weight decay also helps.\n",
    ]
    assert "x = 1" in lesson.text and "x = 1" not in lesson.prose


def test_a_lesson_with_no_prose_has_no_chunks(tmp_path: Path) -> None:
    lesson = read_lesson(write(tmp_path / "only-code.md", b"```python\nprint('hi')\n```\n"))
    assert lesson.chunks == () and not lesson.prose.strip() and lesson.text.startswith("```")


def _long_lesson(sections: int) -> str:
    return "".join(
        f"## Part {i} `code` ##\n\n" + f"Sentence {i} on gradients and attention. " * (15 + i % 40) + "\n\n"
        for i in range(sections)
    )


def test_each_chunk_is_under_the_last_heading_before_it() -> None:
    text = "Opening words before any heading. " * 10 + "\n\n" + _long_lesson(60)
    chunks = split_chunks("0" * 64, text, size=600, overlap=100)
    assert len(chunks) > 60 and chunks[0].heading == ""
    for chunk in chunks:
        above = text.rfind("## Part ", 0, chunk.start + len("## Part "))  # one may start the chunk
        expected = "" if above < 0 else text[above + 3 : text.index("\n", above)].removesuffix(" ##")
        assert chunk.heading == expected, (chunk, expected)


class _CountingPattern:
    """The heading pattern, counting how often the text is scanned for headings."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.scans = 0

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        self.scans += 1
        return self.pattern.finditer(text)

    def search(self, text: str) -> re.Match[str] | None:
        self.scans += 1
        return self.pattern.search(text)


def test_headings_are_found_in_one_scan_whatever_the_number_of_chunks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Work is counted, not timed: a scan per chunk made ingestion quadratic in the lesson's size.
    counting = _CountingPattern(lessons._HEADING)
    monkeypatch.setattr(lessons, "_HEADING", counting)
    chunks = split_chunks("0" * 64, _long_lesson(400), size=600, overlap=100)
    assert len(chunks) > 400 and counting.scans == 1


def test_a_lesson_longer_than_the_store_takes_is_refused_whatever_max_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    limit = AddLesson.model_fields["text"].metadata[0].max_length
    assert lessons.MAX_LESSON_CHARS == limit  # the same limit as the store's add_lesson op
    monkeypatch.setattr(lessons, "MAX_LESSON_CHARS", 1000)  # the same rule, on a small file
    path = write(tmp_path / "long.md", ("A sentence of prose. " * 60).encode())
    with pytest.raises(InputError, match=r"1,260 characters is over the 1,000-character limit"):
        read_lesson(path, max_bytes=10**9)
    assert read_lesson(write(tmp_path / "short.md", b"A sentence of prose.\n")).text


def test_a_lesson_too_large_for_one_batch_is_refused_in_one_line_and_the_others_are_ingested(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import governance.ingestion
    from magg_kg.sqlite import SQLiteStore
    from tests.cli import magg

    curriculum = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"
    big, small = tmp_path / "big.md", tmp_path / "small.md"
    big.write_text((curriculum / "20-nlp-word-embeddings.md").read_text("utf-8"), "utf-8")
    small.write_text("# Tiny\n\nA vector has a length.\n", "utf-8")
    monkeypatch.setattr(governance.ingestion, "BATCH_OPS", 40)
    db = tmp_path / "g.sqlite"
    code, _, err = magg(["ingest", str(big), str(small), "--db", str(db)], capsys)
    assert code == 1
    refusals = [line for line in err.splitlines() if line.startswith("refused:")]
    assert len(refusals) == 1 and "big.md" in refusals[0] and "split it into smaller lessons" in refusals[0]
    assert "Traceback" not in err
    store = SQLiteStore.open(db)
    try:
        assert [lesson.source_path for lesson in store.lessons()] == [str(small)]
    finally:
        store.close()
