"""JSON lines: files of one JSON object a line (labels, claims, data sets), read whole and checked
before anything in them is used, so that a malformed line costs a clear message and no work."""

from __future__ import annotations

import json
from pathlib import Path

from magg_kg.errors import InputError

__all__ = ["json_object", "json_objects", "text_of"]


def text_of(path: Path) -> str:
    """A data file's text; :class:`~magg_kg.errors.InputError` names the file (and the first bad
    byte) when it is not UTF-8."""
    try:
        return path.read_text("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(f"{path} is not UTF-8 text (byte {error.start}): save it as UTF-8") from None


def json_objects(path: Path) -> list[tuple[str, dict[str, object]]]:
    """Each JSON object of a JSON-lines file, with where it is (``PATH:LINE``), blank lines skipped;
    :class:`~magg_kg.errors.InputError` names the file, and the line, of anything else (text that
    is not UTF-8, a line that is not JSON or not a JSON object)."""
    rows: list[tuple[str, dict[str, object]]] = []
    for number, line in enumerate(text_of(path).splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        rows.append((where, json_object(line, where)))
    return rows


def json_object(line: str, where: str) -> dict[str, object]:
    """One line's JSON object; :class:`~magg_kg.errors.InputError` names ``where`` when the line is
    not JSON or not an object."""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        raise InputError(f"{where}: not JSON ({error.msg} at char {error.pos})") from None
    if not isinstance(row, dict):
        raise InputError(f"{where}: expected a JSON object, got {type(row).__name__}")
    return row
