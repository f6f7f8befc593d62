"""What became of a write batch, as both backends say it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from magg_kg.errors import BatchConflict, BatchRefused

__all__ = ["SETTLED", "TIME_ORDER", "BatchResult"]

TIME_ORDER = "time order:"
"""How a refusal by the store's time order begins (``migrations/0002_time_order.sql``)."""
SETTLED = "settled:"
"""How a refusal by a batch's precondition begins (an ``expect_`` operation,
``migrations/0003_preconditions.sql`` and ``0004_active_versions.sql``): another writer decided
first what the batch decides."""


@dataclass(frozen=True)
class BatchResult:
    """What became of a batch: applied, a harmless duplicate, or refused with nothing written."""

    batch_id: str
    status: Literal["applied", "duplicate", "refused"]
    code: str = ""
    reason: str = ""

    @property
    def conflict(self) -> bool:
        """Refused because another writer got there first (the same batch id with other content,
        a uniqueness rule: one active version per edge, one row per domain version; or a time
        before one another writer recorded: ``time order:``), not because the batch is wrong:
        built again from a fresh read, at a fresh time, it may well be applied.

        >>> unique = "UNIQUE constraint failed: domains.id, domains.version"
        >>> BatchResult("b", "refused", "constraint", unique).conflict
        True
        >>> BatchResult("b", "refused", "constraint", "time order: a domain version ...").conflict
        True
        >>> BatchResult("b", "refused", "constraint", "CHECK constraint failed: src <> dst").conflict
        False
        """
        return self.status == "refused" and (
            self.code == "conflict" or self.reason.startswith(("UNIQUE constraint failed", TIME_ORDER))
        )

    @property
    def settled(self) -> bool:
        """Refused because what the batch was judged on no longer holds (:data:`SETTLED`): another
        writer decided it first. Not an error, and not to be built again: it is done.

        >>> BatchResult("b", "refused", "constraint", "settled: a proposal this batch ...").settled
        True
        """
        return self.status == "refused" and self.reason.startswith(SETTLED)

    def raise_for_refusal(self) -> BatchResult:
        if self.conflict:
            raise BatchConflict(self.batch_id, self.code, self.reason)
        if self.status == "refused":
            raise BatchRefused(self.batch_id, self.code, self.reason)
        return self
