"""Lesson files: the key each file gets, and two files of one key refused with a way out that works."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from magg_kg import lesson_files
from magg_kg.errors import InputError
from magg_kg.lesson_files import find_lessons, lesson_key
from tests.cli import magg

CURRICULUM = Path(__file__).resolve().parents[2] / "magg_kg" / "curriculum"


def _key_before(relative: str) -> str:
    """The key magg gave every path before keys kept other scripts (written out here, not imported:
    the recipe that databases ingested then hold)."""
    stem = relative[: -len(Path(relative).suffix)] if Path(relative).suffix else relative
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "lesson"


@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40))
def test_an_ascii_path_keeps_the_key_it_always_had(relative: str) -> None:
    # A course ingested before is read again under the same keys: an edit is a new version of its
    # lesson, not a second lesson beside it.
    assert lesson_key(relative) == _key_before(relative)


@pytest.mark.parametrize(
    ("relative", "key"),
    [
        ("机器学习.md", "机器学习"),
        ("深度学习.md", "深度学习"),
        ("Été/Café Crème.md", "été-café-crème"),
        ("Cafe\u0301.md", "café"),  # a name as macOS spells it (decomposed) is the same key
        ("Линейная алгебра.md", "линейная-алгебра"),
        ("हिन्दी.md", "हिन्दी"),  # the vowel signs and the virama are marks, kept in the word
        ("01_Intro.md", "01-intro"),
        ("🚀 — ✨.md", "lesson"),  # no letter and no digit at all
    ],
)
def test_a_key_keeps_the_letters_and_digits_of_any_script(relative: str, key: str) -> None:
    assert lesson_key(relative) == key


def test_lessons_named_in_another_script_are_lessons_of_their_own(tmp_path: Path) -> None:
    # Both were key "lesson": the folder was refused, and one at a time, with --moved as the
    # refusal said, one became a version of the other.
    (tmp_path / "机器学习.md").write_text("# 机器学习\n\nMachine learning.\n")
    (tmp_path / "深度学习.md").write_text("# 深度学习\n\nDeep learning.\n")
    assert [key for _, key in find_lessons([tmp_path])] == ["机器学习", "深度学习"]


def test_two_files_of_one_key_in_a_folder_are_refused_with_a_skip_that_leaves_one_out(tmp_path: Path) -> None:
    course = tmp_path / "course"
    (course / "x [1]").mkdir(parents=True)
    (course / "x [1]" / "01 Intro.md").write_text("# Intro\n\nOne.\n")
    (course / "x [1]" / "01_intro.md").write_text("# Intro\n\nTwo.\n")
    with pytest.raises(InputError) as refused:
        find_lessons([course])
    said = str(refused.value)
    first, second = course / "x [1]" / "01 Intro.md", course / "x [1]" / "01_intro.md"
    assert f"{first} and {second} would be one lesson (key 'x-1-01-intro')" in said
    assert "pass the folder that holds both" not in said  # they were in it: no help
    assert "rename one of them" in said
    # The pattern it names leaves out the second file and that file alone.
    skip = re.search(r"--skip (.+?)\)", said)
    assert skip is not None, said
    (pattern,) = shlex.split(skip.group(1))
    assert find_lessons([course], skip=(pattern,)) == [(first, "x-1-01-intro")]


def test_two_files_of_one_key_from_two_paths_are_refused_with_what_keeps_them_apart(tmp_path: Path) -> None:
    for course in ("a", "b"):
        (tmp_path / course).mkdir()
        (tmp_path / course / "intro.md").write_text(f"# Intro\n\nCourse {course}.\n")
    with pytest.raises(InputError, match=r"pass the folder that holds both \(.+\), where their keys differ"):
        find_lessons([tmp_path / "a", tmp_path / "b"])
    assert [key for _, key in find_lessons([tmp_path])] == ["a-intro", "b-intro"]
    # Two files named themselves, in one folder: that folder would not keep them apart.
    (tmp_path / "a" / "Intro.md").write_text("# Intro\n\nAgain.\n")
    with pytest.raises(InputError) as refused:
        find_lessons([tmp_path / "a" / "Intro.md", tmp_path / "a" / "intro.md"])
    said = str(refused.value)
    assert "rename one of them, or name only one of them" in said and "folder that holds both" not in said


def test_a_lesson_stored_under_the_key_magg_gave_it_before_keeps_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Café.md was key "caf": read under "café", an edit of it would be a second lesson beside the
    # first (which would go on grounding edges on text the course no longer has), and its text
    # unedited a duplicate of it.
    course, db = tmp_path / "course", str(tmp_path / "g.sqlite")
    course.mkdir()
    lesson = course / "Café.md"
    lesson.write_text((CURRICULUM / "02-math-calculus-gradients.md").read_text())
    with monkeypatch.context() as before:
        before.setattr(lesson_files, "lesson_key", _key_before)
        assert magg(["ingest", str(course), "--db", db], capsys)[0] == 0
    lesson.write_text(lesson.read_text() + "\nA **gradient** points uphill.\n")
    (course / "Über.md").write_text((CURRICULUM / "03-math-probability.md").read_text())
    code, out, _ = magg(["ingest", str(course), "--db", db, "--json"], capsys)
    files = {Path(entry["path"]).name: entry for entry in json.loads(out)["files"]}
    assert code == 0 and files["Café.md"]["status"] == "new-version"
    assert files["Café.md"]["lesson_id"].startswith("caf@")
    assert files["Über.md"]["status"] == "new" and files["Über.md"]["lesson_id"].startswith("über@")


def test_hidden_folders_and_files_and_node_modules_are_not_walked(tmp_path: Path) -> None:
    # A GitHub clone: its issue templates, its git folder and its packages' READMEs were lessons.
    for relative in (
        ".github/ISSUE_TEMPLATE/bug.md",
        ".git/h.md",
        "node_modules/pkg/README.md",
        "1-intro/node_modules/x/README.md",
        "1-intro/.draft.md",
        "1-intro/README.md",
        ".hidden-course/README.md",
    ):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("# A page\n\nText.\n")
    assert find_lessons([tmp_path]) == [(tmp_path / "1-intro" / "README.md", "1-intro-readme")]
    # A file named itself is read, hidden or not, and so is a hidden folder named itself.
    template = tmp_path / ".github" / "ISSUE_TEMPLATE" / "bug.md"
    assert find_lessons([template]) == [(template, "bug")]
    assert find_lessons([tmp_path / ".github"]) == [(template, "issue-template-bug")]
    with pytest.raises(
        InputError, match=r"holds no lesson .*\(\.draft\.md, \.git, \.github, \.\.\. not walked\)"
    ):
        find_lessons([tmp_path], skip=("1-intro/*",))


def _notebook(markdown: str) -> str:
    """A Jupyter notebook's JSON (nbformat 4), its one Markdown cell saying ``markdown``."""
    cell = {"cell_type": "markdown", "metadata": {}, "source": markdown.splitlines(keepends=True)}
    return json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_a_notebook_is_refused_with_how_to_convert_it_and_the_other_files_are_ingested(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its JSON was read as Markdown: a committed edge quoted `..."\n   ]\n  },\n  {\n   "cell_type'`
    # and a concept's description was `{\n "cells": [` (found by a hostile run).
    said = "# Logistic regression\n\nThe sigmoid function is a prerequisite for logistic regression.\n"
    (tmp_path / "lr.ipynb").write_text(_notebook(said))
    (tmp_path / "saved-as.md").write_text(_notebook(said))  # a notebook by its content, whatever its name
    lesson = tmp_path / "softmax.md"
    lesson.write_text("# Softmax\n\nThe **softmax** is a function that turns scores into probabilities.\n")
    db = tmp_path / "g.sqlite"
    code, out, err = magg(
        ["ingest", str(tmp_path / "lr.ipynb"), str(lesson), "--db", str(db), "--json"], capsys
    )
    files = {entry["path"]: entry["status"] for entry in json.loads(out)["files"]}
    assert code == 1 and files == {str(tmp_path / "lr.ipynb"): "refused", str(lesson): "new"}
    refusals = [line for line in err.splitlines() if line.startswith("refused: ")]
    assert refusals == [
        f"refused: {tmp_path / 'lr.ipynb'}: a Jupyter notebook (JSON), not a lesson; convert it with "
        f"`jupyter nbconvert --to markdown {tmp_path / 'lr.ipynb'}` and ingest the .md file it writes"
    ]
    code, _, err = magg(["ingest", str(tmp_path / "saved-as.md"), "--db", str(db)], capsys)
    assert code == 1 and f"refused: {tmp_path / 'saved-as.md'}: a Jupyter notebook (JSON)" in err
    code, out, _ = magg(["export", "--db", str(db)], capsys)
    assert code == 0 and "cells" not in out and "sigmoid" not in out.lower()  # nothing of either written
    # A Markdown lesson that shows notebook JSON in a code block is a lesson.
    shown = tmp_path / "format.md"
    shown.write_text('# The format\n\n```json\n{"cells": [], "nbformat": 4}\n```\n\nA notebook is JSON.\n')
    assert find_lessons([shown]) and lesson_files.is_notebook(shown.name, shown.read_text()) is False


def test_a_folder_walk_says_which_notebooks_it_did_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    course = tmp_path / "course"
    (course / "week-1" / ".ipynb_checkpoints").mkdir(parents=True)
    (course / "week-1" / "lab.ipynb").write_text(_notebook("# Lab\n\nText.\n"))
    (course / "week-1" / ".ipynb_checkpoints" / "lab-checkpoint.ipynb").write_text(_notebook("# Lab\n"))
    (course / "week-1" / "softmax.md").write_text(
        "# Softmax\n\nThe **softmax** turns scores into probabilities.\n"
    )
    code, _, err = magg(["ingest", str(course), "--db", str(tmp_path / "a.sqlite")], capsys)
    assert code == 0 and "refused" not in err
    assert (
        f"note: {course}: 1 Jupyter notebook(s) not read (week-1/lab.ipynb): a notebook is JSON, not a "
        "lesson; convert each with `jupyter nbconvert --to markdown NOTEBOOK` and ingest the .md files"
    ) in err
    code, _, err = magg(
        ["ingest", str(course), "--skip", "*.ipynb", "--db", str(tmp_path / "b.sqlite")], capsys
    )
    assert code == 0 and "notebook" not in err  # one left out by --skip is not said to
    # A folder of notebooks only holds no lesson, and the refusal says it holds notebooks.
    (course / "week-1" / "softmax.md").unlink()
    code, _, err = magg(["ingest", str(course), "--db", str(tmp_path / "c.sqlite")], capsys)
    assert code == 2 and "folder holds no lesson" in err and "it holds 1 Jupyter notebook(s), not read" in err
    assert "jupyter nbconvert --to markdown NOTEBOOK" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "c.sqlite").exists()
