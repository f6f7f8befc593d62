"""The schema migrations of the SQLite store (the same SQL D1 applies): numbered SQL files beside
this module, read in order."""

from __future__ import annotations

import re
import sqlite3
from importlib import resources

__all__ = ["migrations", "schema_objects", "split_statements"]

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


_CREATE = re.compile(
    r"\bCREATE\s+(?:UNIQUE\s+)?(TABLE|TRIGGER|INDEX)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.IGNORECASE
)
_DROP = re.compile(r"\bDROP\s+(TABLE|TRIGGER|INDEX)\s+(?:IF\s+EXISTS\s+)?(\w+)", re.IGNORECASE)


def schema_objects() -> set[tuple[str, str]]:
    """(kind, name) of every table, trigger and index the migrations leave: what a database of
    this schema must hold (a dropped append-only trigger would let history be deleted).

    >>> ("table", "audit_log") in schema_objects(), ("trigger", "decisions_no_delete") in schema_objects()
    (True, True)
    """
    found: set[tuple[str, str]] = set()
    for _, _, sql in migrations():
        for statement in split_statements(sql):
            code = "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("--"))
            if (made := _CREATE.match(code.strip())) is not None:
                found.add((made.group(1).lower(), made.group(2)))
            elif (dropped := _DROP.match(code.strip())) is not None:
                found.discard((dropped.group(1).lower(), dropped.group(2)))
    return found
