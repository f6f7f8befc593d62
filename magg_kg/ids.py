"""Identifiers: one prefix per kind of id, and the one function that makes an id of a kind.

An id is ``<prefix>-<hex>``: the prefix names its kind (:data:`KINDS`), the hex is the start of
the SHA-256 of the id's parts joined by the unit separator, so the same parts give the same id on
every machine and in every run (never Python's ``hash()``). No prefix is the start of another, so
the prefix read off an id names one kind. Two kinds are not hashed: a lesson's id is its key and
the start of its content hash (:func:`lesson_id`), and blind reviews are numbered in shuffled order
(:func:`numbered_id`).

>>> make_id("edge", "a", "prerequisite", "b") == edge_id("a", "prerequisite", "b")
True
>>> edge_id("a", "prerequisite", "b"), make_id("domain", "gradient")[:4]
('e-2762ea7a7e3ceb71', 'dom-')
>>> lesson_id("calculus", "5" * 64), numbered_id("blind_review", 7, 4)
('calculus@555555555555', 'r-0007')
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

__all__ = [
    "KINDS",
    "IdKind",
    "IdStyle",
    "digest",
    "edge_id",
    "lesson_id",
    "make_id",
    "numbered_id",
]

IdKind = Literal[
    "audit_event",
    "batch",
    "blind_review",
    "chunk",
    "decision",
    "decision_table",
    "domain",
    "edge",
    "proposal",
    "queue_entry",
    "usage",
    "version",
]


@dataclass(frozen=True)
class IdStyle:
    """How the ids of one kind are written: their prefix, the hex digits kept, and what they name."""

    prefix: str
    length: int
    names: str


KINDS: Mapping[IdKind, IdStyle] = MappingProxyType(
    {
        "audit_event": IdStyle("au", 16, "an audit event: its operation and payload"),
        "batch": IdStyle("b", 16, "a batch of writes: what it writes for, and when"),
        "blind_review": IdStyle("r", 4, "a row of a blind-review sample, numbered in shuffled order"),
        "chunk": IdStyle("c", 16, "a chunk of a lesson: the lesson's content hash and the offsets"),
        "decision": IdStyle("dec", 16, "a decision: its subject, stage, verdict, rationale and time"),
        "decision_table": IdStyle("table", 12, "the decision table's version: its rows"),
        "domain": IdStyle("dom", 8, "a domain: its most central concept when it was first found"),
        "edge": IdStyle("e", 16, "an edge across all its versions: source, type, target"),
        "proposal": IdStyle("p", 16, "a proposal: its origin, triple and what sets it apart"),
        "queue_entry": IdStyle("q", 16, "an entry of the review queue: its proposal and decision"),
        "usage": IdStyle("u", 16, "a model call's usage row: when, which call, task and agent"),
        "version": IdStyle("v", 16, "an edge version: its edge and the decision that committed it"),
    }
)
"""Every kind of id, by kind. Ids written before this table (``d-`` domains and decisions, ``dec-``
decisions, ``ev-`` audit events, ``r-`` queue entries) stay as they were written."""


def digest(*parts: str, length: int = 16) -> str:
    """The first ``length`` hex digits of the SHA-256 of the parts, joined by the unit separator.

    >>> digest("a", "b", length=8)
    'f04cdced'
    """
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:length]


def make_id(kind: IdKind, *parts: str) -> str:
    """The id of a record of ``kind`` made from its parts.

    >>> make_id("decision", "p-1", "rules", "pass", "ok", "2026-01-01T00:00:00.000000Z")[:4]
    'dec-'
    """
    style = KINDS[kind]
    return f"{style.prefix}-{digest(*parts, length=style.length)}"


def edge_id(src: str, type_: str, dst: str) -> str:
    """The identity of an edge across all its versions."""
    return make_id("edge", src, type_, dst)


def lesson_id(key: str, sha256: str) -> str:
    """A lesson version's id: its key (the file's slug) and the start of its content hash."""
    return f"{key}@{sha256[:12]}"


def numbered_id(kind: IdKind, number: int, width: int) -> str:
    """The ``number``-th id of a numbered kind, zero-padded to ``width`` digits (at least the kind's)."""
    return f"{KINDS[kind].prefix}-{number:0{max(width, KINDS[kind].length)}d}"
