"""The audit chain's hash cannot be kept while text moves from one field to the next."""

from __future__ import annotations

import hashlib

import pytest
from pydantic import ValidationError

from magg_kg.audit import chain_hash, find_break
from magg_kg.operations import AppendAudit
from magg_kg.records import AuditEvent


def test_text_moved_across_a_line_break_between_audit_fields_is_detected() -> None:
    """The hash joins the fields with line breaks: "k\\nx" + "y" and "k" + "x\\ny" hash alike, so a
    field holding a line break is itself a break of the chain (and no writer may write one)."""
    at = "2026-01-01T00:00:00.000000Z"
    text = "\n".join(["", "1", "e-1", "k", "x\ny", "{}", at])
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    moved = AuditEvent(
        seq=1,
        event_id="e-1",
        kind="k\nx",
        subject="y",
        payload="{}",
        recorded_at=at,
        prev_hash="",
        hash=digest,
    )
    assert find_break([moved]) == "audit event 1: a field holds a line break, which no writer writes"
    with pytest.raises(ValueError, match="line break"):
        chain_hash("", 1, "e-1", "k", "x\ny", "{}", at)
    with pytest.raises(ValidationError, match="subject"):
        AppendAudit(event_id="e-1", kind="k", subject="x\ny", payload="{}", recorded_at=at)
