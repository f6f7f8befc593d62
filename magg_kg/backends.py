"""Choosing the store backend from the configuration: the embedded SQLite file or D1."""

from __future__ import annotations

from urllib.parse import urlsplit

from magg_kg.config import Config, is_loopback, without_password
from magg_kg.d1 import D1Store
from magg_kg.errors import ConfigError
from magg_kg.sqlite import SQLiteStore
from magg_kg.store import Store

__all__ = ["open_store"]


def open_store(
    config: Config, *, create: bool = True, upgrade: bool = True, write_late: bool = False
) -> Store:
    """The store ``config`` names: ``SQLiteStore`` at ``config.db``, or ``D1Store`` (MAGG_STORE=d1).

    A SQLite file that does not exist yet is created only if ``create``; otherwise opening it is a
    :class:`StoreError` and no file is written; a file of an older schema is migrated only if
    ``upgrade``, else refused, unchanged, naming ``magg init``; ``write_late``, in the transaction
    of the store's first write, which is also the first thing it writes to the file
    (:meth:`SQLiteStore.open`). (D1 is created by its migrations,
    never here; a D1 database without them, with only some of them, or migrated by a newer magg,
    is refused on opening.)

    >>> from pathlib import Path
    >>> from magg_kg.store import SCHEMA_VERSION
    >>> open_store(Config(db=Path(":memory:"))).schema_version() == SCHEMA_VERSION
    True
    >>> open_store(Config(store="d1"))
    Traceback (most recent call last):
    ...
    magg_kg.errors.ConfigError: MAGG_STORE=d1 needs MAGG_D1_URL and MAGG_D1_TOKEN ...
    """
    if config.store == "d1":
        tokens = [token.get_secret_value() for token in (config.d1.token, config.d1.read_token) if token]
        if not config.d1.url or not any(tokens):
            raise ConfigError(
                "MAGG_STORE=d1 needs MAGG_D1_URL and MAGG_D1_TOKEN (the ts-apply Worker's URL and "
                "bearer token; MAGG_D1_READ_TOKEN alone is enough for reading); see "
                "ts-apply/README.md, or unset MAGG_STORE to use the SQLite file"
            )
        where = urlsplit(config.d1.url)
        if where.scheme == "http" and not is_loopback(where.hostname or ""):
            raise ConfigError(
                f"MAGG_D1_URL {without_password(config.d1.url)!r} is plain http to another machine: the "
                "bearer token would cross the network in clear; use the Worker's https URL (http is for "
                "a `wrangler dev` on this machine)"
            )
        store = D1Store(config.d1)
        try:
            store.schema_version()  # as SQLite refuses a file of a newer magg on opening, or none of magg's
        except BaseException:
            store.close()  # its HTTP client
            raise
        return store
    return SQLiteStore.open(config.db, create=create, upgrade=upgrade, write_late=write_late)
