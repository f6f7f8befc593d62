"""Lesson files: which files a path names as lessons (a folder walked), the key each is stored
under, and whether a path recorded by an earlier run names a file read now.

A lesson's key is the slug of the file's path relative to the folder it was found in (its name,
for a file named itself), without the suffix: a file's versions share it, and a lesson's id is
``<key>@<sha256[:12]>`` (:mod:`magg_kg.lessons`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fnmatch import fnmatchcase
from pathlib import Path

from magg_kg.errors import InputError
from magg_kg.markup import FLAVORS

__all__ = ["find_lessons", "lesson_key", "same_file"]


def same_file(earlier: str, now: str) -> bool:
    """Whether a lesson path recorded by an earlier run (as it was given: a relative one, from a
    directory this run does not know, names the end of a path) names the file read now.

    >>> same_file("course/intro.md", "/h/a/course/intro.md"), same_file("./intro.md", "/x/intro.md")
    (True, True)
    >>> same_file("a/intro.md", "/home/b/intro.md"), same_file("/x/a/intro.md", "/x/b/intro.md")
    (False, False)
    """
    before, current = Path(earlier), Path(now).resolve()
    if before.is_absolute() or ".." in before.parts:
        return before.resolve() == current
    parts = [part for part in before.parts if part != "."]
    return bool(parts) and list(current.parts[-len(parts) :]) == parts


def lesson_key(relative: str) -> str:
    """The lesson key: the slug of a path without its suffix.

    >>> lesson_key("chapter_rnn/LSTM Basics.md")
    'chapter-rnn-lstm-basics'
    """
    stem = relative[: -len(Path(relative).suffix)] if Path(relative).suffix else relative
    return re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "lesson"


def find_lessons(paths: list[Path], skip: Sequence[str] = ()) -> list[tuple[Path, str]]:
    """The lesson files named by ``paths`` (folders walked, sorted), each with its key.

    In a folder, a lesson is a file with a suffix of :data:`magg_kg.markup.FLAVORS` (``.md``,
    ``.markdown``, ``.mdx``, ``.html``, ``.htm``), except the README of the folder itself, which
    describes it; a README in a subfolder is a lesson (a course on GitHub is often one folder per
    lesson, its text in the folder's README). A file whose path under the folder matches a
    ``skip`` pattern is left out (:func:`fnmatch.fnmatchcase`, where ``*`` spans folders too:
    ``*/translations/*``, ``*assignment.md``). A file named itself is read whatever its suffix (as
    Markdown unless it is HTML); a file of a folder that links out of it is left out. Raises
    :class:`InputError` for a path that does not exist, is no regular file or folder (a device, a
    pipe), cannot be read (a name too long, a folder that cannot be listed), a folder with no lesson
    file, or two files of one key (``a/intro.md`` and ``b/intro.md`` passed as the folders ``a`` and ``b``).
    """
    found: list[tuple[Path, str]] = []
    for path in paths:
        try:
            found.extend(_lessons_at(path, skip))
        except OSError as error:  # a name too long for the file system, a folder it cannot list
            raise InputError(f"{path}: cannot be read: {error.strerror or error}") from None
    first: dict[str, Path] = {}
    for file, key in found:
        other = first.setdefault(key, file)
        if other.resolve() != file.resolve():
            # One would be read as a new version of the other, and its edges re-judged without it.
            raise InputError(
                f"{other} and {file} would be one lesson (key {key!r}), the second a new version of the "
                "first; pass the folder that holds both, so that their paths in it differ, or ingest "
                "them into separate databases"
            )
    return found


def _lessons_at(path: Path, skip: Sequence[str]) -> list[tuple[Path, str]]:
    """The lesson files one path names, each with its key (see :func:`find_lessons`)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder; check the path")
    if not path.is_dir():
        if not path.is_file():  # /dev/zero, a named pipe: no end to read to
            raise InputError(f"{path}: not a regular file (a device, a pipe or a socket); pass a lesson file")
        return [(path, lesson_key(path.name))]
    globs = [f"/{pattern.removeprefix('/')}" for pattern in skip] + list(skip)  # "*/x/*" takes a top x/
    named = (
        p
        for p in path.rglob("*")
        if p.suffix.lower() in FLAVORS
        and not (p.stem.lower() == "readme" and p.parent == path)
        and not any(fnmatchcase(f"/{p.relative_to(path).as_posix()}", glob) for glob in globs)
    )
    # A link out of the folder is not one of its lessons: a course's repository could otherwise
    # pull any file of this machine ("s.md -> /etc/shadow") into the graph.
    inside = path.resolve()
    files = sorted(p for p in named if p.is_file() and p.resolve().is_relative_to(inside))
    if not files:
        left = " or left out by --skip" if skip else ""
        raise InputError(
            f"{path}: folder holds no lesson (*.md, *.markdown, *.mdx, *.html, *.htm){left}; "
            "pass a folder of lessons"
        )
    return [(file, lesson_key(file.relative_to(path).as_posix())) for file in files]
