"""The audit chain: each event's hash covers the previous hash, so tampering is detectable."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

from magg_kg.records import AuditEvent

__all__ = ["CHAIN_HEAD", "chain_hash", "find_break"]

CHAIN_HEAD = re.compile(r"^(0:|[1-9][0-9]{0,15}:[0-9a-f]{64})$")
"""The chain's head as text, ``SEQ:HASH`` (``0:`` for an empty chain): what the Worker's answers
carry and what ``magg audit verify`` prints and takes back."""


def chain_hash(
    prev_hash: str, seq: int, event_id: str, kind: str, subject: str, payload: str, recorded_at: str
) -> str:
    """The hash of one audit event; the Worker computes the same text the same way. The fields are
    joined with line breaks, which none of them may hold (the write protocol refuses one), so that
    no text can move from one field to the next and keep the hash.

    >>> chain_hash("", 1, "a", "k", "s", "{}", "2026-01-01T00:00:00.000000Z")[:12]
    '32019a9979b5'
    """
    fields = [prev_hash, str(seq), event_id, kind, subject, payload, recorded_at]
    if any("\n" in field for field in fields):
        raise ValueError("an audit event's fields hold no line break")
    text = "\n".join(fields)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def find_break(events: Iterable[AuditEvent]) -> str | None:
    """The first problem in the chain, in words, or None when the chain is intact."""
    prev_hash = ""
    expected_seq = 1
    for event in events:
        if event.seq != expected_seq:
            return f"audit event {event.event_id}: seq {event.seq}, expected {expected_seq}"
        if event.prev_hash != prev_hash:
            return (
                f"audit event {event.seq} ({event.event_id}): prev_hash does not match event {event.seq - 1}"
            )
        fields = (event.event_id, event.kind, event.subject, event.payload, event.recorded_at, event.hash)
        if any("\n" in field for field in fields):
            return f"audit event {event.seq}: a field holds a line break, which no writer writes"
        recomputed = chain_hash(
            prev_hash,
            event.seq,
            event.event_id,
            event.kind,
            event.subject,
            event.payload,
            event.recorded_at,
        )
        if recomputed != event.hash:
            return f"audit event {event.seq} ({event.event_id}): hash does not match its content"
        prev_hash = event.hash
        expected_seq += 1
    return None
