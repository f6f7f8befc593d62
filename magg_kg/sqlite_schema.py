"""The schema of a SQLite database file: its version, and bringing it up to date.

Only a command that writes a graph or a decision brings an older schema up to date; one that only
reads refuses it (a read never changes the file: a backup, or a file an older magg still uses).
"""

from __future__ import annotations

import sqlite3

from magg_kg.errors import SchemaError, StoreError
from magg_kg.migrations import migrations, split_statements
from magg_kg.store import SCHEMA_VERSION

__all__ = ["current_version", "migrate", "migrate_held", "missing_migrations"]


def current_version(db: sqlite3.Connection, location: str) -> int:
    """The schema version of the database (0: a new, empty one)."""
    # One statement, so that a schema another process commits in between is seen whole or not at all.
    tables, exists = db.execute(
        "SELECT COUNT(*), COALESCE(SUM(type = 'table' AND name = 'schema_version'), 0) FROM sqlite_master"
    ).fetchone()
    if not exists:
        if tables:
            raise StoreError(
                f"{location} is a SQLite database but not a magg database "
                "(it has tables and no schema_version); pass another --db"
            )
        return 0
    return int(db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_version").fetchone()[0])


def missing_migrations(
    db: sqlite3.Connection, location: str, *, create: bool, upgrade: bool
) -> list[tuple[int, str, str]]:
    """The migrations the database lacks (:func:`~magg_kg.migrations.migrations`), once what
    cannot be opened is refused: an empty file unless ``create``, a newer schema, and an older
    one unless ``upgrade``, with a :class:`SchemaError` that names ``magg init``. Reads only."""
    current = current_version(db, location)
    if current == 0 and not create:
        raise StoreError(
            f"no database at {location} (the file is empty); run `magg init --db {location}` first"
        )
    _check_not_newer(current, location)
    missing = [entry for entry in migrations() if entry[0] > current]
    if missing and current and not upgrade:
        raise SchemaError(
            f"{location} has schema version {current}, older than this magg's ({SCHEMA_VERSION}), and a "
            f"read does not change it: run `magg init --db {location}` to migrate it (on a copy, if an "
            "older magg still uses it)"
        )
    return missing


def migrate(db: sqlite3.Connection, location: str, *, create: bool, upgrade: bool) -> None:
    """Brings the schema up to date in a transaction of its own (what is refused is refused
    before anything is written: :func:`missing_migrations`).

    Two processes opening a new file at once both see version 0 before either holds the lock:
    the one that waits must re-read the version once it holds the lock, or it runs the first
    migration again on a database that already has it.
    """
    missing = missing_migrations(db, location, create=create, upgrade=upgrade)
    if not missing:
        return
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as error:
        raise _migration_error(error, missing[0][1], location) from None
    try:
        migrate_held(db, location)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def migrate_held(db: sqlite3.Connection, location: str) -> None:
    """Applies the migrations the database lacks in the transaction the caller holds the write
    lock in (``BEGIN IMMEDIATE``), the version read again under the lock: they are kept or rolled
    back with what the caller writes in it."""
    current = current_version(db, location)
    _check_not_newer(current, location)
    for version, name, sql in migrations():
        if version <= current:
            continue
        try:
            for statement in split_statements(sql):
                db.execute(statement)
        except sqlite3.OperationalError as error:
            raise _migration_error(error, name, location) from None


def _check_not_newer(current: int, location: str) -> None:
    if current > SCHEMA_VERSION:
        raise SchemaError(
            f"{location} was written by a newer magg (schema version {current}, "
            f"this magg knows up to {SCHEMA_VERSION}); upgrade magg to open it"
        )


def _migration_error(error: sqlite3.OperationalError, name: str, location: str) -> Exception:
    if "readonly" in str(error):
        return StoreError(
            f"{location} is read-only and needs migration {name}; make it writable or pass another --db"
        )
    return error
