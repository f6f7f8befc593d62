"""Errors: failures, not outcomes (a refused proposal is a verdict, not an exception).

The tree::

    MaggError                  anything magg-kg raises on purpose
    ├── UserError              the user can fix it: the message says what and how
    │   ├── ConfigError        bad or missing configuration
    │   ├── InputError         a lesson or file that cannot be read as a lesson
    │   └── StoreError         the database cannot be opened or written
    │       └── SchemaError    the database was written by a newer schema
    └── RunError               the run failed for a reason outside the user's input
        ├── BatchRefused       the store refused a write batch (nothing was written)
        │   └── BatchConflict  ... because another writer changed what it was built on: re-read, retry
        ├── BackendUnavailable the D1 Worker or the model gateway could not be reached
        └── BadReply           the D1 Worker answered what this client cannot read
"""

from __future__ import annotations

__all__ = [
    "BackendUnavailable",
    "BadReply",
    "BatchConflict",
    "BatchRefused",
    "ConfigError",
    "InputError",
    "MaggError",
    "RunError",
    "SchemaError",
    "StoreError",
    "UserError",
]


class MaggError(Exception):
    """Base of every error magg-kg raises on purpose."""


class UserError(MaggError):
    """Something the user can fix; the message says what happened and what to do."""


class ConfigError(UserError):
    pass


class InputError(UserError):
    pass


class StoreError(UserError):
    pass


class SchemaError(StoreError):
    pass


class RunError(MaggError):
    pass


class BatchRefused(RunError):
    def __init__(self, batch_id: str, code: str, reason: str) -> None:
        super().__init__(f"batch {batch_id} refused ({code}): {reason}")
        self.batch_id = batch_id
        self.code = code
        self.reason = reason


class BatchConflict(BatchRefused):
    """A batch refused because the graph moved under it: another writer committed the same active
    edge, the next version of the same domain, or the same batch id first. Nothing was written;
    reading the store again and building the batch anew is the remedy, not an error for the run."""


class BackendUnavailable(RunError):
    pass


class BadReply(RunError):
    """A reply of the D1 Worker that is not what the protocol says (a row of another shape, a page
    that does not move on): nothing of it is used."""
