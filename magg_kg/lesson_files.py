"""Lesson files: which files a path names as lessons (a folder walked), the key each is stored
under, and whether a path recorded by an earlier run names a file read now.

A lesson's key comes from the file's path relative to the folder it was found in (its name, for a
file named itself), without the suffix, case and punctuation (:func:`lesson_key`): a file's versions
share it, and a lesson's id is ``<key>@<sha256[:12]>`` (:mod:`magg_kg.lessons`).
"""

from __future__ import annotations

import glob
import json
import os
import re
import shlex
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from fnmatch import fnmatchcase
from pathlib import Path, PurePosixPath

from magg_kg.errors import InputError
from magg_kg.markup import FLAVORS

__all__ = [
    "ascii_key",
    "find_lessons",
    "is_notebook",
    "lesson_key",
    "notebooks_in",
    "same_file",
    "why_left_out",
]


def is_notebook(name: str, text: str) -> bool:
    """Whether a file (its name and text) is a Jupyter notebook: an ``.ipynb``, or JSON holding
    ``cells`` and ``nbformat`` whatever its suffix (a notebook saved as ``.md``). Its JSON is no
    lesson, and its Markdown cells are JSON strings, escaped: an offset into what they say would not
    point into the file, where a quote is checked. It is refused; ``jupyter nbconvert --to markdown``
    makes it a lesson.

    >>> is_notebook("a.md", '{"cells": [], "nbformat": 4}'), is_notebook("b.ipynb", "")
    (True, True)
    >>> is_notebook("c.md", '{"cells": "are units of life"}'), is_notebook("d.md", "# Cells {nbformat}")
    (False, False)
    """
    if PurePosixPath(name).suffix.lower() == ".ipynb":
        return True
    if not text.lstrip().startswith("{") or '"nbformat"' not in text:
        return False
    try:
        notebook = json.loads(text)
    except ValueError:
        return False
    return isinstance(notebook, dict) and isinstance(notebook.get("cells"), list) and "nbformat" in notebook


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
    """The lesson key of a path (relative to the folder given): without its suffix, in NFC and
    lower case, its letters, marks and digits (of any script) kept, each run of other characters
    one hyphen, none at either end; ``lesson`` when nothing is left. An ASCII path's key is the
    one magg has always given it (:func:`ascii_key`): a course ingested before keeps its keys.

    >>> lesson_key("chapter_rnn/LSTM Basics.md"), lesson_key("机器学习.md"), lesson_key("Été/Café.md")
    ('chapter-rnn-lstm-basics', '机器学习', 'été-café')
    """
    text = unicodedata.normalize("NFC", _stem(relative)).lower()
    kept = "".join(char if unicodedata.category(char)[0] in "LMN" else " " for char in text)
    return "-".join(kept.split()) or "lesson"


def ascii_key(relative: str) -> str:
    """The key magg gave a path before 2026-12: its ASCII letters and digits alone (every name in
    another script was ``lesson``). A lesson stored under it keeps it (:func:`find_lessons`).

    >>> ascii_key("Été/Café.md"), ascii_key("机器学习.md")
    ('t-caf', 'lesson')
    """
    return re.sub(r"[^a-z0-9]+", "-", _stem(relative).lower()).strip("-") or "lesson"


def _stem(relative: str) -> str:
    return relative[: -len(Path(relative).suffix)] if Path(relative).suffix else relative


def find_lessons(
    paths: list[Path], skip: Sequence[str] = (), stored: Mapping[str, str] | None = None
) -> list[tuple[Path, str]]:
    """The lesson files named by ``paths`` (folders walked, sorted), each with its key.

    In a folder, a lesson is a file with a suffix of :data:`magg_kg.markup.FLAVORS` (``.md``,
    ``.markdown``, ``.mdx``, ``.html``, ``.htm``), except the README of the folder itself, which
    describes it; a README in a subfolder is a lesson (a course on GitHub is often one folder per
    lesson, its text in the folder's README). Hidden folders and files (``.git``, ``.github``) and
    ``node_modules`` are not walked, and a file whose path under the folder matches a ``skip``
    pattern is left out (:func:`fnmatch.fnmatchcase`, where ``*`` spans folders too:
    ``*/translations/*``, ``*assignment.md``): :func:`why_left_out`. A file named itself is read
    whatever its suffix (as Markdown unless it is HTML), hidden or not; a file of a folder that
    links out of it is left out. A Jupyter notebook is no lesson (:func:`is_notebook`): named itself it is
    refused when read, and a folder's are not read (:func:`notebooks_in`).

    ``stored`` maps each key of a store to the path its latest version was read from: a file whose
    lesson is stored under the key magg gave it before (:func:`ascii_key`, "caf" for ``Café.md``)
    keeps that key, so that an edit of it is that lesson's new version.

    Raises :class:`InputError` for a path that does not exist, is no regular file or folder (a
    device, a pipe), cannot be read (a name too long, a folder that cannot be listed), a folder with
    no lesson file, or two files of one key (``a/intro.md`` and ``b/intro.md`` passed as the folders
    ``a`` and ``b``; ``01 Intro.md`` and ``01_intro.md`` in one folder), naming both and what to do.
    """
    found: list[tuple[Path, str, Path]] = []  # file, key, the path given that named it
    for path in paths:
        try:
            found.extend((file, key, path) for file, key in _lessons_at(path, skip, stored or {}))
        except OSError as error:  # a name too long for the file system, a folder it cannot list
            raise InputError(f"{path}: cannot be read: {error.strerror or error}") from None
    first: dict[str, tuple[Path, Path]] = {}
    for file, key, given in found:
        other, other_given = first.setdefault(key, (file, given))
        if other.resolve() != file.resolve():
            # One would be read as a new version of the other, and its edges re-judged without it.
            raise InputError(
                f"{other} and {file} would be one lesson (key {key!r}), the second a new version of the "
                f"first; {_apart(other, other_given, file, given)}"
            )
    return [(file, key) for file, key, _ in found]


def _apart(first: Path, first_given: Path, second: Path, given: Path) -> str:
    """What keeps two lesson files of one key apart: renaming one; leaving the second out with
    ``--skip``, when both come from one folder; the folder that holds both, when their keys
    differ there; naming one alone, when one was named itself."""
    ways = ["rename one of them"]
    if given == first_given and given.is_dir():
        pattern = shlex.quote(glob.escape(second.relative_to(given).as_posix()))
        ways.append(f"leave one out (--skip {pattern})")
    else:
        common = Path(os.path.commonpath([first.absolute(), second.absolute()]))
        if lesson_key(first.absolute().relative_to(common).as_posix()) != lesson_key(
            second.absolute().relative_to(common).as_posix()
        ):
            ways.append(
                f"pass the folder that holds both ({os.path.relpath(common)}), where their keys differ"
            )
    if not (given.is_dir() and first_given.is_dir()):
        ways.append("name only one of them")
    return ", or ".join(ways)


def _lessons_at(path: Path, skip: Sequence[str], stored: Mapping[str, str]) -> list[tuple[Path, str]]:
    """The lesson files one path names, each with its key (see :func:`find_lessons`)."""
    if not path.exists():
        raise InputError(f"{path}: no such file or folder; check the path")
    if not path.is_dir():
        if not path.is_file():  # /dev/zero, a named pipe: no end to read to
            raise InputError(f"{path}: not a regular file (a device, a pipe or a socket); pass a lesson file")
        return [(path, _key(path, path.name, stored))]
    pruned: list[str] = []
    walked = [p for p in _walk(path, pruned) if not _skipped_by(p.relative_to(path).as_posix(), skip)]
    named = (
        p
        for p in walked
        if p.suffix.lower() in FLAVORS and not (p.stem.lower() == "readme" and p.parent == path)
    )
    # A link out of the folder is not one of its lessons: a course's repository could otherwise
    # pull any file of this machine ("s.md -> /etc/shadow") into the graph.
    inside = path.resolve()
    files = sorted(p for p in named if p.is_file() and p.resolve().is_relative_to(inside))
    if not files:
        left = " or left out by --skip" if skip else ""
        names = sorted(set(pruned))
        unwalked = f" ({', '.join(names[:3])}{', ...' if names[3:] else ''} not walked)" if names else ""
        notebooks = _notebooks(walked)
        seen = (
            f"; it holds {len(notebooks)} Jupyter notebook(s), not read: {_NOTEBOOKS_HINT}"
            if notebooks
            else ""
        )
        raise InputError(
            f"{path}: folder holds no lesson (*.md, *.markdown, *.mdx, *.html, *.htm){left}{unwalked}{seen}; "
            "pass a folder of lessons"
        )
    return [(file, _key(file, file.relative_to(path).as_posix(), stored)) for file in files]


def notebooks_in(paths: Sequence[Path], skip: Sequence[str] = ()) -> dict[Path, list[Path]]:
    """The Jupyter notebooks (``.ipynb``) a walk of each folder of ``paths`` sees and does not read
    (:func:`find_lessons`), by folder: none of a hidden folder (``.ipynb_checkpoints``), none a
    ``skip`` pattern leaves out; a folder with none is not a key."""
    found: dict[Path, list[Path]] = {}
    for path in paths:
        if path.is_dir():
            walked = (p for p in _walk(path, []) if not _skipped_by(p.relative_to(path).as_posix(), skip))
            if notebooks := _notebooks(walked):
                found[path] = notebooks
    return found


_NOTEBOOKS_HINT = "convert each with `jupyter nbconvert --to markdown NOTEBOOK` and ingest the .md files"


def _notebooks(files: Iterable[Path]) -> list[Path]:
    return sorted(p for p in files if p.suffix.lower() == ".ipynb" and p.is_file())


def why_left_out(relative: str, skip: Sequence[str] = ()) -> str:
    """Why a folder's walk leaves out the file at ``relative`` (its path in the folder, whatever its
    suffix): in a hidden folder or hidden itself (``.git``, ``.github``: a clone's issue templates
    are no lessons), in ``node_modules`` (its packages' READMEs), or matched by a ``skip`` pattern;
    "" when the walk reads it.

    >>> why_left_out(".github/ISSUE_TEMPLATE/bug.md"), why_left_out("a/node_modules/x/README.md")
    ('in the hidden folder .github', 'in node_modules')
    >>> why_left_out("1-intro/translations/README.es.md", ["*/translations/*"]), why_left_out("1-intro/a.md")
    ('matched by --skip */translations/*', '')
    """
    *folders, name = PurePosixPath(relative).parts
    if "node_modules" in folders:
        return "in node_modules"
    if hidden := next((folder for folder in folders if _hidden(folder)), None):
        return f"in the hidden folder {hidden}"
    if _hidden(name):
        return "hidden (its name starts with a dot)"
    pattern = _skipped_by(relative, skip)
    return f"matched by --skip {pattern}" if pattern else ""


def _hidden(name: str) -> bool:
    return name.startswith(".") or name == "node_modules"


def _walk(folder: Path, pruned: list[str]) -> Iterator[Path]:
    """The files under ``folder``, but for the hidden ones and those in hidden folders or
    ``node_modules`` (:func:`why_left_out`), which are not walked into; their names go to ``pruned``.
    Links to folders are not followed (``Path.rglob`` did not follow them either)."""
    for top, folders, files in os.walk(folder):
        pruned += [name for name in (*folders, *files) if _hidden(name)]
        folders[:] = sorted(name for name in folders if not _hidden(name))
        yield from (Path(top, name) for name in files if not _hidden(name))


def _skipped_by(relative: str, skip: Sequence[str]) -> str:
    """The ``skip`` pattern the path (in the folder) matches, "" for none; ``*`` spans folders, and
    ``*/x/*`` also takes an ``x/`` at the top of the folder."""
    for pattern in skip:
        if fnmatchcase(f"/{relative}", f"/{pattern.removeprefix('/')}") or fnmatchcase(
            f"/{relative}", pattern
        ):
            return pattern
    return ""


def _key(file: Path, relative: str, stored: Mapping[str, str]) -> str:
    """The file's key: :func:`lesson_key`, or :func:`ascii_key` for a file whose lesson a store
    holds under it (and none under the new one)."""
    key, earlier = lesson_key(relative), ascii_key(relative)
    if key != earlier and key not in stored and earlier in stored and same_file(stored[earlier], str(file)):
        return earlier
    return key
