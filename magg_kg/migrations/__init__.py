"""The schema migrations of the SQLite store (the same SQL D1 applies): numbered SQL files beside
this module, read in order."""

from __future__ import annotations

import re
import sqlite3
from importlib import resources

__all__ = ["migrations", "split_statements"]

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """The schema migrations in order: (version, file name, SQL text)."""
    entries = resources.files("magg_kg.migrations").iterdir()
    found = [(match, entry) for entry in entries if (match := _MIGRATION_NAME.match(entry.name))]
    return sorted((int(match.group(1)), entry.name, entry.read_text("utf-8")) for match, entry in found)


def split_statements(sql: str) -> list[str]:
    """A migration script as its statements, in order (a trigger body's ``;`` stays inside it).

    >>> split_statements("CREATE TABLE t (a);\\nCREATE TRIGGER x BEFORE DELETE ON t BEGIN SELECT 1; END;")
    ['CREATE TABLE t (a);', 'CREATE TRIGGER x BEFORE DELETE ON t BEGIN SELECT 1; END;']
    """
    found, pending = [], ""
    for piece in sql.split(";"):
        pending += piece + ";"
        if sqlite3.complete_statement(pending):
            if pending.strip(" \t\n;"):
                found.append(pending.strip())
            pending = ""
    return found
