"""What one ingestion run did: an outcome per lesson file, and the run's totals (what ``magg ingest``
prints, and ``--json`` writes)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from agents.cost import Cost

__all__ = ["IngestReport", "LessonOutcome", "Status"]

Status = Literal["new", "new-version", "skipped", "duplicate", "refused"]


@dataclass(frozen=True)
class LessonOutcome:
    path: str
    status: Status
    lesson_id: str = ""
    detail: str = ""
    concepts: int = 0
    proposals: int = 0
    hidden: tuple[str, ...] = ()
    """The hidden text spans found in the lesson and ignored, as "<reason> at <start>-<end>"."""
    attempts: int = 1
    """How many times the lesson was built and sent (more than one after a conflict)."""
    held: int = 0
    """New concepts the lesson names only beside instruction-like text, left out."""
    named: int = 0
    """The concepts the lesson names, new or known."""
    instructed: int = 0
    """Of a new lesson that gave nothing (no new concept, no proposal), under governance: how many of
    its sentences read as instructions to the reviewing system (:func:`governance.taint.instructions`)."""
    sentences: int = 0
    """Of such a lesson: how many sentences its prose writes, headings left out."""
    elsewhere: str = ""
    """The file the version it supersedes was read from, when that is another file."""
    note: str = ""
    """Why a file whose text is stored is not taken as the lesson now: its lesson was withdrawn, or
    it is the text of a version a later one replaced."""


@dataclass(frozen=True)
class GoneLesson:
    """A current lesson whose file is gone from the folder it was read from, or is there but left
    out of the folder's walk (``left_out`` says why: a hidden folder, ``node_modules``, ``--skip``)."""

    key: str
    lesson_id: str
    path: str
    left_out: str = ""


@dataclass
class IngestReport:
    lessons: list[LessonOutcome] = field(default_factory=list)
    concepts: int = 0
    aliases: int = 0
    proposals: int = 0
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    states: Counter[str] = field(default_factory=Counter)
    cost: dict[str, Cost] = field(default_factory=dict)
    domains: int = 0
    invalidated: int = 0
    failures: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    """One line per batch refused because another writer changed the graph first (then retried)."""
    gone: list[GoneLesson] = field(default_factory=list)
    """The current lessons read before from a folder given whose files are gone from it, or that its
    walk now leaves out."""

    def count(self, status: Status) -> int:
        return sum(1 for lesson in self.lessons if lesson.status == status)
