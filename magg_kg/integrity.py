"""SQLite's own check of a database file: its pages, and its indexes against their tables.

Read by ``magg audit verify`` (:func:`magg_kg.verification.file_damage`, every finding) and by every
other command before it opens a file, and ``magg serve`` when the file changed (its first finding,
:mod:`magg_kg.cli.damage`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

__all__ = ["integrity_findings", "read_only"]


def read_only(path: Path) -> sqlite3.Connection:
    """A connection to the database file at ``path`` that cannot write to it."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def integrity_findings(connection: sqlite3.Connection, most: int) -> list[str]:
    """What ``PRAGMA integrity_check`` finds wrong (at most ``most`` findings; none when sound).

    >>> integrity_findings(sqlite3.connect(":memory:"), 1)
    []
    """
    rows = connection.execute(f"PRAGMA integrity_check({int(most)})").fetchall()
    return [str(row[0]) for row in rows if row[0] != "ok"]
