"""Damage to a SQLite database file, as SQLite's integrity check finds it: before a command opens
the file (:func:`first_damage`), and again while ``magg serve`` runs, whenever the file changed
(:class:`DamageWatch`)."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from magg_kg.errors import RunError
from magg_kg.integrity import integrity_findings, read_only

__all__ = ["DamageWatch", "DamagedFile", "first_damage"]


def first_damage(path: Path) -> str:
    """The first thing SQLite's integrity check finds wrong in the file at ``path``; "" when sound.
    (The quick check misses an index that no longer matches its table, which made `coverage` and
    `export` disagree; the whole check takes 0.09 s on the 52 MB d2l graph, against 0.06 s.)"""
    if str(path) == ":memory:":
        return ""
    try:
        with closing(read_only(path)) as connection:
            found = integrity_findings(connection, 1)
    except sqlite3.DatabaseError as error:  # what cannot be read so is said by the store's reads
        return "" if "malformed" not in str(error) else str(error)
    return " ".join(found[0].replace("*** in database main ***", "").split()) if found else ""  # one line


class DamagedFile(RunError):
    """The database file was found damaged (or gone) while ``magg serve`` runs: nothing is read or
    written."""


@dataclass
class DamageWatch:
    """Checks the database file at ``path`` again before a request is answered, but only when the
    file changed since the last check (its inode, size or modification time: a write from outside,
    a copy or a restore over it); the check costs 0.06 to 0.16 s on the 52 MB d2l graph, the look
    at the file a few microseconds. SQLite's own commits go to the write-ahead log and reach the
    file at a checkpoint, which is then checked. A damaged file stays refused until it changes
    again (restored from a backup)."""

    path: Path
    _seen: tuple[tuple[int, int, int], str] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self) -> None:
        """Raises :class:`DamagedFile` when the file is damaged, or gone (moved or deleted: the
        connections still open would read the old one, a new one would be an empty graph)."""
        try:
            stat = self.path.stat()
        except OSError as error:
            raise DamagedFile(
                f"no database file at {self.path.name} any more ({error.strerror}): nothing is read or "
                "written until it is back"
            ) from None
        signature = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        with self._lock:  # requests run in threads: one check at a time, the others wait for it
            if self._seen is None or self._seen[0] != signature:
                self._seen = (signature, first_damage(self.path))
            damage = self._seen[1]
        if damage:
            raise DamagedFile(
                f"the database is damaged ({damage}): nothing is read or written until it is restored "
                "from a backup (`magg audit verify` lists what is wrong)"
            )
