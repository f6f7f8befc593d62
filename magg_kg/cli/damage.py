"""Damage to a SQLite database file, as SQLite's integrity check finds it: before a command opens
the file (:func:`first_damage`), and again while ``magg serve`` runs, whenever the file changed
(:class:`DamageWatch`)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from magg_kg.errors import RunError
from magg_kg.integrity import integrity_findings, read_only

__all__ = ["NOT_A_DATABASE", "DamageWatch", "DamagedFile", "GoneFile", "first_damage"]


def first_damage(path: Path) -> str:
    """The first thing SQLite's integrity check finds wrong in the file at ``path``; "" when sound.
    (The quick check misses an index that no longer matches its table, which made `coverage` and
    `export` disagree; the whole check takes 0.09 s on the 52 MB d2l graph, against 0.06 s.)
    A file SQLite cannot read at all ("file is not a database", "disk I/O error") is damaged too
    (it was read as sound); one it could not open, lock, or roll a journal back in is not: the
    store's own opening says why."""
    if str(path) == ":memory:":
        return ""
    try:
        with closing(read_only(path)) as connection:
            found = integrity_findings(connection, 1)
    except sqlite3.DatabaseError as error:
        said = str(error)
        return said if any(cue in said for cue in _DAMAGE) else ""
    return " ".join(found[0].replace("*** in database main ***", "").split()) if found else ""  # one line


_DAMAGE = ("malformed", "not a database", "disk I/O error")
"""SQLite's messages for a file it cannot read (SQLITE_CORRUPT, SQLITE_NOTADB, SQLITE_IOERR); any
other failure (it could not open the file, or lock it, or roll back a journal beside it without
writing) is left to the store's opening."""
NOT_A_DATABASE = "file is not a database"
"""What :func:`first_damage` says of a file whose header is not SQLite's: damage to a file that was a
database (``magg serve``'s), or a file of another kind given to a command."""


class DamagedFile(RunError):
    """The database file was found damaged (or gone) while ``magg serve`` runs: nothing is read or
    written."""


class GoneFile(DamagedFile):
    """The file ``magg serve`` opened is no longer at its path (moved, deleted, or replaced by another
    file): the connections to it are to be closed, since SQLite would read the -wal file of the path
    (not of the file) with it, and a file made there from them."""


Signature = tuple[int, int, int, int]
"""A file's device, inode, size and modification time."""


@dataclass
class DamageWatch:
    """Checks the database file at ``path`` again before a request is answered, but only when the
    file changed since the last check (its inode, size or modification time: a write from outside,
    a copy or a restore over it); the check costs 0.06 to 0.16 s on the 52 MB d2l graph, the look
    at the file a few microseconds. SQLite's own commits go to the write-ahead log and reach the
    file at a checkpoint, which is then checked, but for the process's own (:meth:`own`). A damaged
    file stays refused until it changes again.

    The file first seen is the one served: another file at the path (moved over it, or made after
    it was deleted) is refused (:class:`GoneFile`) until ``magg serve`` is started again. It is not
    served from new connections: SQLite's -wal and -shm files belong to the path, and within one
    process the locks of a connection to the old file and of one to the new would be one lock."""

    path: Path
    _served: tuple[int, int] | None = None
    _seen: tuple[Signature, str] | None = None
    _changes: int = 0
    _replaced: bool = False
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def check(self) -> int:
        """How many times the file was found changed by another hand (not :meth:`own`) since it was
        first checked: connections kept across such a change read their cached pages, not the
        file. Raises :class:`DamagedFile` when the file is damaged, :class:`GoneFile` when it is
        gone (the connections still open would read the old one, a new one would be an empty
        graph) or replaced."""
        signature = self._signature()
        with self._lock:  # requests run in threads: one check at a time, the others wait for it
            if signature is not None and self._served is None:
                self._served = signature[:2]
            if self._replaced or (signature is not None and signature[:2] != self._served):
                self._replaced = True
                raise GoneFile(
                    f"the database file at {self.path.name} was replaced (moved over, or deleted and made "
                    "again) while magg serve ran: nothing is read or written; restart `magg serve` to "
                    "serve the file now there"
                )
            if signature is None:
                raise GoneFile(
                    f"no database file at {self.path.name} any more: nothing is read or written until "
                    "it is back"
                )
            if self._seen is None or self._seen[0] != signature:
                self._changes += self._seen is not None
                self._seen = (signature, first_damage(self.path))
            damage, changes = self._seen[1], self._changes
        if damage:
            raise DamagedFile(
                f"the database is damaged ({damage}): nothing is read or written; stop `magg serve`, "
                "restore the file from a backup, then start it again (`magg audit verify` lists what is "
                "wrong)"
            )
        return changes

    def own(self, write: Callable[[], None]) -> None:
        """Runs ``write``, this process's own write to the file (a checkpoint of what it recorded;
        a connection opened or closed, which sets the journal mode), and takes the file as it
        leaves it as checked: when it was as last checked, and sound, before. No check runs while
        it writes."""
        with self._lock:
            before = self._signature()
            write()
            if self._seen is not None and not self._seen[1] and before == self._seen[0]:
                after = self._signature()
                if after is not None and after[:2] == before[:2]:
                    self._seen = (after, "")

    def _signature(self) -> Signature | None:
        try:
            stat = self.path.stat()
        except OSError:
            return None
        return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
