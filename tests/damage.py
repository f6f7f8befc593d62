"""Damage done to a SQLite file on purpose, for the tests of what reads it."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

__all__ = ["lose_the_edges"]


def lose_the_edges(path: Path) -> None:
    """The page of the edges reads as holding no row (its cell count written over with 0): a read
    finds no edge and no error; SQLite's integrity check finds it. The graph must hold edges."""
    with closing(sqlite3.connect(path)) as connection:
        assert connection.execute("SELECT COUNT(*) FROM concept_edges").fetchone()[0] > 0
        (root,) = connection.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'concept_edges'"
        ).fetchone()
        size = connection.execute("PRAGMA page_size").fetchone()[0]
    with path.open("r+b") as file:
        file.seek((root - 1) * size + 3)  # a leaf page's header: its number of cells
        file.write(b"\0\0")
