"""Document processing: normalization, chunks, and the files that are not lessons."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from magg_kg.errors import InputError
from magg_kg.lessons import find_lessons, read_lesson, split_chunks


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
    assert [key for _, key in find_lessons([tmp_path])] == ["b-two", "one"]
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no Markdown lesson"):
        find_lessons([tmp_path / "empty"])
    with pytest.raises(InputError, match="no such file"):
        find_lessons([tmp_path / "missing"])
