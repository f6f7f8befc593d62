"""The embedded backend: a local SQLite file with the same schema as D1.

A batch is one ``BEGIN IMMEDIATE`` transaction: every statement of every operation, or none.
Other processes wait for the write lock (``busy_timeout``) instead of failing. Each operation's
fields are written as JSON once (:func:`~magg_kg.operations.op_writer`): those texts make both the
batch's digest, which the store computes itself, and the columns kept as JSON text; consecutive
operations of one type are one ``executemany``.

Durability: a store opened to write keeps its journal in WAL mode with ``synchronous = FULL`` (one
opened ``write_late``, to read or to write one decision, keeps the mode it finds: a read is no write).
A batch is acknowledged only once its commit is on disk (one fsync), so an applied batch, and
the audit events it appended, survive a power loss as well as a killed process. The audit chain
is the record of truth: ``synchronous = NORMAL`` would spare the fsync per batch (at most about 5%
of the time of 100 batches of 1,000 edge versions, measured), but a power loss could then take
back batches already reported applied, and a chain head someone has seen (a verified audit, a
report) could later be extended differently. WAL needs a -wal and a -shm file beside the
database; the last store to close puts the file back in rollback-journal mode, so that a database
at rest is one file, readable in a folder where those cannot be made.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any, cast

from magg_kg.audit import chain_hash
from magg_kg.canonical import Columns, ModelWriter
from magg_kg.errors import StoreError
from magg_kg.operations import (
    JSON_TEXT,
    AppendAudit,
    Batch,
    digest_of,
    field_json,
    op_fields,
    op_writer,
    statements,
)
from magg_kg.sqlite_schema import migrate, migrate_held, missing_migrations
from magg_kg.store import BatchResult, Param, Row, Store, queries

__all__ = ["SQLiteStore", "bind"]

CACHE_KIB = 64 * 1024
"""The page cache of a connection, at most (SQLite's default is 2 MiB): a batch that touches index
pages all over (an edge id is a hash) finds them in memory, not on disk, batch after batch."""
WAL_CHECKPOINT_PAGES = 10_000
"""Pages (4 KiB each) the WAL may hold before it is copied back into the database: a page written
by batch after batch (an index's) is copied once per checkpoint, not once per batch."""
EXCLUSIVE_WAIT_S = 600.0
"""How long :meth:`SQLiteStore.exclusive` waits for the write lock, one busy timeout after another."""
_OPEN_HINTS = (  # "unable to open": the file or its folder refuses (permissions, a special file system)
    ("unable to open", "can it be read, and its folder written?"),
    ("locked", "another process has held its lock for the 30 s waited: try again when it is done"),
    ("", "is it corrupted or another kind of file?"),
)


def _identity(location: str) -> tuple[int, int] | None:
    """The device and inode of the file at ``location``; None when there is none."""
    try:
        stat = Path(location).stat()
    except OSError:
        return None
    return (stat.st_dev, stat.st_ino)


def bind(value: object) -> Param:
    """An operation field as a SQL parameter: JSON text for lists and objects, 0/1 for booleans."""
    if type(value) is str:  # the common case first: most fields are text
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list | dict):
        return field_json(value)
    if value is None or isinstance(value, str | int | float):
        return value
    raise TypeError(f"cannot bind a {type(value).__name__}")


_CHAIN = ("seq", "prev_hash", "hash")
"""The fields of an audit event the applier computes (``computed`` in protocol/statements.json)."""


@dataclass(frozen=True)
class _Statement:
    """One prepared statement of an operation type, and where its parameters are among the columns
    of what the operation's writer (:meth:`~magg_kg.canonical.ModelWriter.write_many`) gives for
    many operations, the values of their fields then their JSON texts, followed by the audit
    chain's fields. A parameter a store keeps as JSON text is bound as that text, the others as
    they are (sqlite3 binds a bool as 0/1)."""

    sql: str
    at: tuple[int, ...]
    json_at: tuple[tuple[int, int], ...]
    """(parameter, column of the field's values) of each parameter kept as JSON text."""

    @classmethod
    def of(cls, spec: Mapping[str, Any], names: Sequence[str], json_fields: frozenset[str]) -> _Statement:
        params: list[str] = spec["params"]
        at = tuple(
            len(names) + names.index(name) if name in json_fields
            else names.index(name) if name in names
            else 2 * len(names) + _CHAIN.index(name)
            for name in params
        )  # fmt: skip
        json_at = tuple((i, names.index(name)) for i, name in enumerate(params) if name in json_fields)
        return cls(spec["sql"], at, json_at)

    def rows(self, columns: Columns) -> Iterator[tuple[Any, ...]]:
        """The statement's rows, one per operation, from the operations' columns, made as they are
        read (executemany binds each and lets it go: no row is kept)."""
        picked = [columns[at] for at in self.at]
        for param, value_at in self.json_at:
            values = columns[value_at]
            if not set(map(type, values)) <= {list, dict}:  # not validated: as bind() binds it
                texts = zip(values, picked[param], strict=True)
                picked[param] = [t if type(v) in (list, dict) else bind(v) for v, t in texts]
        return zip(*picked, strict=True)


@dataclass(frozen=True)
class _Plan:
    """How a store writes one operation type: its writer and its statements."""

    writer: ModelWriter
    statements: tuple[_Statement, ...]
    group: int  # in the protocol's ``write_order``: a batch's operations are written group by group


def _plan() -> tuple[tuple[str, list[str]], dict[str, _Plan]]:
    """The batch head's statement and parameters, and each operation type's writer, statements and
    write-order group (protocol/statements.json)."""
    protocol: dict[str, Any] = statements()
    group = {kind: at for at, kinds in enumerate(protocol["write_order"]) for kind in kinds}
    plans = {}
    for kind, specs in protocol["operations"].items():
        writer = op_writer(kind)
        written = tuple(_Statement.of(s, writer.names, JSON_TEXT[kind]) for s in specs)
        plans[kind] = _Plan(writer, written, group[kind])
    return (protocol["batch"]["sql"], protocol["batch"]["params"]), plans


class SQLiteStore(Store):
    """A magg-kg database in one SQLite file (or ``:memory:``)."""

    def __init__(self, connection: sqlite3.Connection, location: str) -> None:
        self._db = connection
        self._location = location
        (self._head, self._head_params), self._plans = _plan()
        self._held = False
        self._wal = False
        self._file: tuple[int, int] | None = None  # (device, inode) of the file it opened
        self._behind = False  # an older schema, migrated by the first write (``write_late``)

    @classmethod
    def open(
        cls,
        path: str | Path,
        *,
        create: bool = True,
        read_only: bool = False,
        upgrade: bool = True,
        write_late: bool = False,
    ) -> SQLiteStore:
        """Opens (and, if needed and ``upgrade``, migrates) the database at ``path``.

        A missing or empty file becomes a new database only if ``create``; otherwise opening it is a
        :class:`StoreError` and nothing is written. An older schema is migrated only if ``upgrade``,
        else refused (:func:`~magg_kg.sqlite_schema.migrate`). ``read_only`` opens an existing
        database for reading only: every write then fails with a :class:`StoreError` (as it does
        when the file itself is read-only). A store opened ``write_late`` writes nothing to the file
        before its first write: it takes the journal mode as it finds it, and migrates an older
        schema in the transaction of its first write, so that a command that fails before it
        writes (an unknown id) leaves the file byte for byte as it was.
        """
        location = str(path)
        create = create and not read_only
        if location != ":memory:":
            file = Path(location)
            if file.is_dir():
                raise StoreError(f"database path {file} is a directory; pass a file path with --db")
            if file.exists() and not file.is_file():  # /dev/null: SQLite would leave a journal beside it
                raise StoreError(f"database path {file} is not a regular file; pass a file path with --db")
            if not file.exists() and not create:
                raise StoreError(f"no database at {file}; run `magg init --db {file}` first")
            if not file.parent.exists():
                raise StoreError(f"folder {file.parent} does not exist; create it or pass another --db")
        try:
            target, uri = location, False
            if read_only and location != ":memory:":
                target, uri = f"{Path(location).resolve().as_uri()}?mode=ro", True
            connection = sqlite3.connect(target, isolation_level=None, timeout=30.0, uri=uri)
            connection.row_factory = sqlite3.Row
            connection.execute("PRAGMA foreign_keys = ON")
            connection.execute("PRAGMA busy_timeout = 30000")
            connection.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
            store = cls(connection, location)
            upgrade = upgrade and not read_only
            if write_late and not create:
                store._behind = bool(missing_migrations(connection, location, create=False, upgrade=upgrade))
            else:
                migrate(connection, location, create=create, upgrade=upgrade)
            if not read_only and location != ":memory:":
                store._use_wal(switch=not write_late)
        except sqlite3.DatabaseError as error:
            hint = next(hint for cue, hint in _OPEN_HINTS if cue in str(error))
            raise StoreError(f"cannot open {location} as a magg database ({error}); {hint}") from None
        return store

    def _use_wal(self, switch: bool = True) -> None:
        """WAL with ``synchronous = FULL`` (see the module's docstring for why FULL); a store that
        does not ``switch`` keeps the journal mode it finds (WAL when another store set it)."""
        try:
            mode = self._db.execute("PRAGMA journal_mode = WAL" if switch else "PRAGMA journal_mode")
            self._wal = mode.fetchone()[0] == "wal"
        except sqlite3.OperationalError:
            return  # no room for the -wal file (a read-only folder): reads work, writes fail as before
        self._file = _identity(self._location)
        self._db.execute("PRAGMA synchronous = FULL")
        self._db.execute(f"PRAGMA wal_autocheckpoint = {WAL_CHECKPOINT_PAGES}")

    def close(self) -> None:
        """Closes the connection; the last one to the file puts it back in rollback-journal mode.
        Another, which cannot, copies the write-ahead log into the file and empties it, if no
        reader is in the way: the -wal file belongs to the path, and frames left in it would be
        read with any file later moved or copied there. A file that cannot be read then is no
        error here: the command's own reads said so (a traceback was printed instead). Nor does a
        store whose file is no longer at its path (moved, deleted, replaced) touch the journal: the
        -wal and -shm files there may be another file's, which leaving WAL mode would delete
        (SQLite's own close leaves them to it)."""
        try:
            if self._file is not None and _identity(self._location) == self._file and self._in_wal():
                self._db.execute("PRAGMA busy_timeout = 0")  # only the last connection can leave WAL mode
                try:
                    self._db.execute("PRAGMA journal_mode = DELETE")
                except sqlite3.OperationalError:  # others are open: they fail at once
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.DatabaseError:
            pass
        finally:
            self._db.close()

    def _in_wal(self) -> bool:
        """Whether the file is in WAL mode: this store set it, or another has since."""
        return self._wal or self._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"

    def settle(self) -> None:
        if not self._wal or _identity(self._location) != self._file:  # another file's log: not ours
            return
        try:
            self._db.execute("PRAGMA busy_timeout = 0")  # a reader in the way: left to a later one
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        except sqlite3.DatabaseError:
            pass
        finally:
            self._db.execute("PRAGMA busy_timeout = 30000")

    def query(self, name: str, params: dict[str, Param] | None = None) -> list[Row]:
        spec = queries()[name]
        given = params or {}
        values = [given.get(str(field)) for field in spec["params"]]  # type: ignore[attr-defined]
        try:  # a damaged page fails where it is read, which may be as late as the last row
            return [dict(row) for row in self._db.execute(str(spec["sql"]), values).fetchall()]
        except sqlite3.DatabaseError as error:
            raise StoreError(f"reading {self._location} failed ({error})") from None

    def apply(self, batch: Batch) -> BatchResult:
        try:
            self._db.execute(self._begin())
        except sqlite3.OperationalError as error:
            raise _cannot_write(self._location, error) from None
        try:
            if self._behind and not self._held:  # write_late: an older schema migrated in this write
                migrate_held(self._db, self._location)
            result = self._apply_in_transaction(batch)
        except sqlite3.IntegrityError as error:
            self._rollback()
            return BatchResult(batch.batch_id, "refused", "constraint", str(error))
        except sqlite3.OperationalError as error:
            self._rollback()
            # A read-only file, a read-only folder (no room for the journal), a full or failing disk.
            if any(cause in str(error) for cause in ("readonly", "disk", "unable to open")):
                raise _cannot_write(self._location, error) from None
            return BatchResult(batch.batch_id, "refused", "constraint", str(error))
        except BaseException:
            self._rollback()
            raise
        if result.status == "applied":
            try:
                self._db.execute(self._commit())
            except sqlite3.OperationalError as error:  # the disk filled up at the commit
                self._rollback()
                raise _cannot_write(self._location, error) from None
            if not self._held:
                self._behind = False
        else:
            self._rollback()
        return result

    def apply_all(self, batches: Sequence[Batch]) -> list[BatchResult]:
        # One transaction (one commit) for all; each batch a savepoint of it, kept or rolled back alone.
        with self.exclusive():
            return [self.apply(batch) for batch in batches]

    # Inside exclusive() the write lock is already held: a batch is a savepoint of that transaction.

    def _begin(self) -> str:
        return "SAVEPOINT batch" if self._held else "BEGIN IMMEDIATE"

    def _commit(self) -> str:
        return "RELEASE batch" if self._held else "COMMIT"

    def _rollback(self) -> None:
        # SQLite may have rolled the whole transaction back itself (a full disk, an I/O error):
        # then there is neither a savepoint nor a transaction left to undo.
        if not self._held:
            self._abandon()
        elif self._db.in_transaction:
            self._db.execute("ROLLBACK TO batch")
            self._db.execute("RELEASE batch")

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Holds the write lock (``BEGIN IMMEDIATE``) for the whole block: other writers wait, readers
        do not; the batches applied inside are committed together when the block ends."""
        if self._held:
            yield
            return
        # A writer that holds the lock lesson after lesson may take it again before a waiter wakes;
        # a caller of exclusive() is willing to wait its turn longer than one busy timeout.
        deadline = time.monotonic() + EXCLUSIVE_WAIT_S
        while True:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise _cannot_write(self._location, error) from None
        self._held = True
        try:
            if self._behind:  # write_late: an older schema migrated in the transaction of the block
                migrate_held(self._db, self._location)
            yield
        except BaseException:
            self._abandon()
            raise
        else:
            try:
                self._db.execute("COMMIT")
            except sqlite3.OperationalError as error:
                self._abandon()
                raise _cannot_write(self._location, error) from None
            self._behind = False
        finally:
            self._held = False

    def _abandon(self) -> None:
        """Rolls the open transaction back, unless SQLite ended it itself (a full disk)."""
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _apply_in_transaction(self, batch: Batch) -> BatchResult:
        known = self._db.execute(
            "SELECT digest FROM batches WHERE batch_id = ?", (batch.batch_id,)
        ).fetchone()
        texts, steps = self._rows(batch)
        digest = digest_of(batch.batch_id, batch.sent_at, texts)  # never the digest the batch claims
        if known is not None:
            if known["digest"] == digest:
                return BatchResult(batch.batch_id, "duplicate")
            return BatchResult(
                batch.batch_id,
                "refused",
                "conflict",
                "this batch id was already applied with different content",
            )
        head = dict(batch_id=batch.batch_id, digest=digest, op_count=len(batch.ops), sent_at=batch.sent_at)
        self._db.execute(self._head, [head[name] for name in self._head_params])
        for sql, rows in steps:
            self._db.executemany(sql, rows)
        return BatchResult(batch.batch_id, "applied")

    def _rows(self, batch: Batch) -> tuple[list[str], list[tuple[str, Iterable[tuple[Any, ...]]]]]:
        """Each operation's canonical JSON (for the digest), and the statements to run in order,
        each with its rows. The operations of one type are written together, column by column, each
        field as JSON once for the digest and the rows alike; they run in the protocol's write order
        (the batch's effect), a run of one type's one-statement operations as one executemany."""
        ops, kinds = batch.ops, [op.op for op in batch.ops]
        where: dict[str, list[int]] = {}  # type -> where its operations are in the batch
        for at, op_kind in enumerate(kinds):
            where.setdefault(op_kind, []).append(at)
        texts: list[str] = [""] * len(ops)
        rows: dict[str, list[Iterator[tuple[Any, ...]]]] = {}  # type -> each statement's rows, in order
        for kind, places in where.items():
            mine = ops if len(places) == len(ops) else [ops[at] for at in places]
            plan = self._plans[kind]
            values, parts, written = plan.writer.write_many(list(map(op_fields, mine)))
            columns = values + parts
            if kind == "append_audit":
                columns += self._chain(cast(list[AppendAudit], mine))
            rows[kind] = [spec.rows(columns) for spec in plan.statements]
            if len(places) == len(ops):
                texts = written
                continue
            for at, text in zip(places, written, strict=True):
                texts[at] = text
        if len(where) == 1 and len(rows[kinds[0]]) == 1:  # one statement for all: its rows as read
            return texts, [(self._plans[kinds[0]].statements[0].sql, rows[kinds[0]][0])]
        listed = {kind: [list(each) for each in of] for kind, of in rows.items()}
        steps: list[tuple[str, Iterable[tuple[Any, ...]]]] = []
        done = dict.fromkeys(where, 0)
        for kind, run in groupby(sorted(kinds, key=lambda kind: self._plans[kind].group)):  # stable
            first = done[kind]
            done[kind] = last = first + sum(1 for _ in run)
            specs = self._plans[kind].statements
            if len(specs) == 1:
                steps.append((specs[0].sql, listed[kind][0][first:last]))
                continue
            for i in range(first, last):
                steps.extend((spec.sql, [each[i]]) for spec, each in zip(specs, listed[kind], strict=True))
        return texts, steps

    def _chain(self, events: Sequence[AppendAudit]) -> Columns:
        """The audit chain's fields of each event, in order, after the chain's head."""
        seq, prev_hash = self.audit_head()
        chain = []
        for e in events:
            seq += 1
            hash_ = chain_hash(prev_hash, seq, e.event_id, e.kind, e.subject, e.payload, e.recorded_at)
            chain.append((seq, prev_hash, hash_))
            prev_hash = hash_
        return list(zip(*chain, strict=True))


def _cannot_write(location: str, error: sqlite3.Error) -> StoreError:
    """A refused write; a read-only one names the folder too (SQLite writes a journal beside the file)."""
    if not any(cause in str(error) for cause in ("readonly", "unable to open")) or location.startswith(":"):
        return StoreError(f"cannot write {location} ({error})")
    folder = Path(location).absolute().parent
    return StoreError(f"cannot write {location} ({error}): the file and its folder {folder} must be writable")
