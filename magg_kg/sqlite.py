"""The embedded backend: a local SQLite file with the same schema as D1.

A batch is one ``BEGIN IMMEDIATE`` transaction: every statement of every operation, or none.
Other processes wait for the write lock (``busy_timeout``) instead of failing.
"""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from importlib import resources
from pathlib import Path

from magg_kg.audit import chain_hash
from magg_kg.errors import SchemaError, StoreError
from magg_kg.operations import Batch, statements
from magg_kg.records import canonical_json
from magg_kg.store import SCHEMA_VERSION, BatchResult, Row, Store, queries

__all__ = ["SQLiteStore", "bind", "migrations"]

EXCLUSIVE_WAIT_S = 600.0
"""How long :meth:`SQLiteStore.exclusive` waits for the write lock, one busy timeout after another."""
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
Param = str | int | float | None


def migrations() -> list[tuple[int, str, str]]:
    """The schema migrations in order: (version, file name, SQL text)."""
    folder = resources.files("magg_kg.migrations")
    found = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    return sorted(found)


def _statements(sql: str) -> list[str]:
    """A migration script as its statements, in order (a trigger body's ``;`` stays inside it).

    >>> _statements("CREATE TABLE t (a);\\nCREATE TRIGGER x BEFORE DELETE ON t BEGIN SELECT 1; END;")
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


def bind(value: object) -> Param:
    """An operation field as a SQL parameter: JSON text for lists and objects, 0/1 for booleans."""
    if type(value) is str:  # the common case first: most fields are text
        return value
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, list | dict):
        return canonical_json(value)
    if value is None or isinstance(value, str | int | float):
        return value
    raise TypeError(f"cannot bind a {type(value).__name__}")


def _row(fields: dict[str, object], params: list[str]) -> list[Param]:
    """An operation's parameters for one statement (text, the common case, passes as it is)."""
    return [value if type(value) is str else bind(value) for value in map(fields.get, params)]


class SQLiteStore(Store):
    """A magg-kg database in one SQLite file (or ``:memory:``)."""

    def __init__(self, connection: sqlite3.Connection, location: str) -> None:
        self._db = connection
        self._location = location
        self._protocol = statements()
        self._held = False

    @classmethod
    def open(cls, path: str | Path, *, create: bool = True, read_only: bool = False) -> SQLiteStore:
        """Opens (and, if needed, migrates) the database at ``path``.

        A missing or empty file becomes a new database only if ``create``; otherwise opening it is a
        :class:`StoreError` and nothing is written. ``read_only`` opens an existing database for
        reading only: every write then fails with a :class:`StoreError` (as it does when the file
        itself is read-only).
        """
        location = str(path)
        create = create and not read_only
        if location != ":memory:":
            file = Path(location)
            if file.is_dir():
                raise StoreError(f"database path {file} is a directory; pass a file path with --db")
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
            store = cls(connection, location)
            store._migrate(create)
        except sqlite3.DatabaseError as error:
            raise StoreError(
                f"cannot open {location} as a magg database ({error}); "
                "is it corrupted or another kind of file?"
            ) from None
        return store

    def _current_version(self) -> int:
        # One statement, so that a schema another process commits in between is seen whole or not at all.
        tables, exists = self._db.execute(
            "SELECT COUNT(*), COALESCE(SUM(type = 'table' AND name = 'schema_version'), 0) FROM sqlite_master"
        ).fetchone()
        if not exists:
            if tables:
                raise StoreError(
                    f"{self._location} is a SQLite database but not a magg database "
                    "(it has tables and no schema_version); pass another --db"
                )
            return 0
        return int(self._db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])

    def _migrate(self, create: bool) -> None:
        """Brings the schema up to date; the version is read again under the write lock.

        Two processes opening a new file at once both see version 0 before either holds the lock:
        the one that waits must re-read the version once it holds the lock, or it runs the first
        migration again on a database that already has it.
        """
        current = self._current_version()
        if current == 0 and not create:
            raise StoreError(
                f"no database at {self._location} (the file is empty); "
                f"run `magg init --db {self._location}` first"
            )
        self._check_not_newer(current)
        pending = [entry for entry in migrations() if entry[0] > current]
        if not pending:
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise self._migration_error(error, pending[0][1]) from None
        try:
            current = self._current_version()
            self._check_not_newer(current)
            for version, name, sql in pending:
                if version <= current:
                    continue
                try:
                    for statement in _statements(sql):
                        self._db.execute(statement)
                except sqlite3.OperationalError as error:
                    raise self._migration_error(error, name) from None
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    def _check_not_newer(self, current: int) -> None:
        if current > SCHEMA_VERSION:
            raise SchemaError(
                f"{self._location} was written by a newer magg (schema version {current}, "
                f"this magg knows up to {SCHEMA_VERSION}); upgrade magg to open it"
            )

    def _migration_error(self, error: sqlite3.OperationalError, name: str) -> Exception:
        if "readonly" in str(error):
            return StoreError(
                f"{self._location} is read-only and needs migration {name}; "
                "make it writable or pass another --db"
            )
        return error

    def close(self) -> None:
        self._db.close()

    def query(self, name: str, params: dict[str, Param] | None = None) -> list[Row]:
        spec = queries()[name]
        given = params or {}
        values = [given.get(str(field)) for field in spec["params"]]  # type: ignore[attr-defined]
        try:
            cursor = self._db.execute(str(spec["sql"]), values)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"reading {self._location} failed ({error})") from None
        return [dict(row) for row in cursor.fetchall()]

    def apply(self, batch: Batch) -> BatchResult:
        try:
            self._db.execute(self._begin())
        except sqlite3.OperationalError as error:
            raise StoreError(f"cannot write {self._location} ({error})") from None
        try:
            result = self._apply_in_transaction(batch)
        except sqlite3.IntegrityError as error:
            self._rollback()
            return BatchResult(batch.batch_id, "refused", "constraint", str(error))
        except sqlite3.OperationalError as error:
            self._rollback()
            # A read-only file, a read-only folder (no room for the journal), a full or failing disk.
            if any(cause in str(error) for cause in ("readonly", "disk", "unable to open")):
                raise StoreError(f"cannot write {self._location} ({error})") from None
            return BatchResult(batch.batch_id, "refused", "constraint", str(error))
        except BaseException:
            self._rollback()
            raise
        if result.status == "applied":
            self._db.execute(self._commit())
        else:
            self._rollback()
        return result

    # Inside exclusive() the write lock is already held: a batch is a savepoint of that transaction.

    def _begin(self) -> str:
        return "SAVEPOINT batch" if self._held else "BEGIN IMMEDIATE"

    def _commit(self) -> str:
        return "RELEASE batch" if self._held else "COMMIT"

    def _rollback(self) -> None:
        if self._held:
            self._db.execute("ROLLBACK TO batch")
        self._db.execute(self._commit() if self._held else "ROLLBACK")

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
                    raise StoreError(f"cannot write {self._location} ({error})") from None
        self._held = True
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        else:
            self._db.execute("COMMIT")
        finally:
            self._held = False

    def _apply_in_transaction(self, batch: Batch) -> BatchResult:
        digest = batch.content_digest()  # never the digest the batch claims
        known = self._db.execute(
            "SELECT digest FROM batches WHERE batch_id = ?", (batch.batch_id,)
        ).fetchone()
        if known is not None:
            if known["digest"] == digest:
                return BatchResult(batch.batch_id, "duplicate")
            return BatchResult(
                batch.batch_id,
                "refused",
                "conflict",
                "this batch id was already applied with different content",
            )
        head_spec = self._protocol["batch"]
        assert isinstance(head_spec, dict)
        head = {
            "batch_id": batch.batch_id,
            "digest": digest,
            "op_count": len(batch.ops),
            "sent_at": batch.sent_at,
        }
        self._db.execute(head_spec["sql"], [head[field] for field in head_spec["params"]])
        seq, prev_hash = self.audit_head()
        operations = self._protocol["operations"]
        assert isinstance(operations, dict)
        # A run of consecutive one-statement operations of one type goes in one executemany, which
        # runs the same statements in the same order as one execute per operation.
        run_sql, run_rows = "", []
        for op in batch.ops:
            fields = op.model_dump(mode="json")
            if op.op == "append_audit":
                seq += 1
                fields["seq"] = seq
                fields["prev_hash"] = prev_hash
                fields["hash"] = prev_hash = chain_hash(
                    prev_hash,
                    seq,
                    fields["event_id"],
                    fields["kind"],
                    fields["subject"],
                    fields["payload"],
                    fields["recorded_at"],
                )
            specs = operations[op.op]
            if len(specs) == 1 and specs[0]["sql"] == run_sql:
                run_rows.append(_row(fields, specs[0]["params"]))
                continue
            if run_rows:
                self._db.executemany(run_sql, run_rows)
                run_sql, run_rows = "", []
            if len(specs) == 1:
                run_sql, run_rows = specs[0]["sql"], [_row(fields, specs[0]["params"])]
                continue
            for spec in specs:
                self._db.execute(spec["sql"], _row(fields, spec["params"]))
        if run_rows:
            self._db.executemany(run_sql, run_rows)
        return BatchResult(batch.batch_id, "applied")
