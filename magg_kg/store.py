"""The store interface: batches in, records out.

Both backends share every read: a backend only knows how to run a named query from
``protocol/queries.json`` and how to apply a :class:`~magg_kg.operations.Batch`. The embedded
SQLite backend is :mod:`magg_kg.sqlite`; the D1 backend (through the ``ts-apply`` Worker) is
:mod:`magg_kg.d1`.
"""

from __future__ import annotations

import json
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache
from importlib import resources

from magg_kg.migrations import migrations, split_statements
from magg_kg.operations import Batch
from magg_kg.outcomes import SETTLED, TIME_ORDER, BatchResult
from magg_kg.records import (
    AuditEvent,
    Concept,
    Decision,
    EdgeVersion,
    Grounding,
    Lesson,
    Proposal,
    Span,
    Triple,
)

__all__ = [
    "SCHEMA_VERSION",
    "SETTLED",
    "TIME_ORDER",
    "WITHDRAWAL",
    "BatchResult",
    "Param",
    "Row",
    "Store",
    "Triple",
    "edge_from_row",
    "queries",
]

SCHEMA_VERSION = 4
"""The newest schema this code knows; a database with a higher version is refused."""
WITHDRAWAL = "withdrawal"
"""The stage of the decisions that withdraw a lesson from the course (``magg review withdraw``)."""

Param = str | int | float | None
"""One value bound to a query or held in a row: what SQLite and D1 both store."""
Row = dict[str, Param]


@cache
def queries() -> dict[str, dict[str, object]]:
    """The named read queries shared by both backends."""
    text = resources.files("magg_kg.protocol").joinpath("queries.json").read_text("utf-8")
    loaded: dict[str, dict[str, object]] = {
        name: spec for name, spec in json.loads(text).items() if not name.startswith("_")
    }
    return loaded


@cache
def query_columns() -> dict[str, frozenset[str]]:
    """The columns of each named query's rows, as SQLite declares them for the statement on an
    empty database of the schema (no row needed; each parameter bound to 0, as "LIMIT ?1" needs a
    number): what a row of any backend must carry."""
    db = sqlite3.connect(":memory:")
    try:
        for _, _, sql in migrations():
            for statement in split_statements(sql):
                db.execute(statement)
        columns = {}
        for name, spec in queries().items():
            cursor = db.execute(str(spec["sql"]), [0] * len(spec["params"]))  # type: ignore[arg-type]
            columns[name] = frozenset(column[0] for column in cursor.description or ())
        return columns
    finally:
        db.close()


def _spans(text: str | int | float | None) -> tuple[Span, ...]:
    return tuple(Span.model_validate(item) for item in json.loads(str(text or "[]")))


def _text(row: Row, column: str) -> str:
    """A column that is never null, as text; a ValueError for a null (a row no store of this
    schema holds: a D1 Worker's reply read as a row)."""
    value = row[column]
    if value is None:
        raise ValueError(f"{column} is null")
    return str(value)


def edge_from_row(row: Row) -> EdgeVersion:
    """An edge version from its ``concept_edges`` row."""
    return EdgeVersion(
        version_id=_text(row, "version_id"),
        edge_id=_text(row, "edge_id"),
        src=_text(row, "src"),
        type=_text(row, "type"),
        dst=_text(row, "dst"),
        status="active" if row["status"] == "active" else "invalidated",
        grounding=Grounding(
            confidence=float(row["confidence"] or 0.0),
            reason=str(row["reason"]),
            source=str(row["source"]),
            evidence=_spans(row["evidence"]),
        ),
        valid_at=_text(row, "valid_at"),
        invalid_at=None if row["invalid_at"] is None else str(row["invalid_at"]),
        recorded_at=_text(row, "recorded_at"),
        expired_at=None if row["expired_at"] is None else str(row["expired_at"]),
        decision_id=_text(row, "decision_id"),
        invalidated_by=None if row["invalidated_by"] is None else str(row["invalidated_by"]),
        policy_version=str(row["policy_version"]),
        prompt_version=str(row["prompt_version"]),
        model=str(row["model"]),
    )


def _proposal(row: Row) -> Proposal:
    return Proposal.model_validate(
        {**row, "evidence": _spans(row["evidence"]), "confidence": float(row["confidence"] or 0)},
        strict=False,
    )


def _decision(row: Row) -> Decision:
    return Decision.model_validate({**row, "detail": json.loads(str(row["detail"]))}, strict=False)


class Store(ABC):
    """A magg-kg database. Writes are batches; reads are named queries."""

    @abstractmethod
    def apply(self, batch: Batch) -> BatchResult:
        """Applies a batch atomically and idempotently (a retried batch changes nothing)."""

    def apply_all(self, batches: Sequence[Batch]) -> list[BatchResult]:
        """Applies batches in order, each atomically and idempotently as :meth:`apply` does (a
        refused batch does not stop the others), and returns their results in order. A backend may
        apply several in one transaction or one request: what it returns is written; if it raises,
        any of the batches may be written or not, each whole, and sending them again is harmless."""
        return [self.apply(batch) for batch in batches]

    @abstractmethod
    def query(self, name: str, params: dict[str, Param] | None = None) -> list[Row]:
        """Runs one named query from ``protocol/queries.json``."""

    def close(self) -> None:  # noqa: B027 - most backends have nothing to release
        """Releases the backend's resources."""

    def settle(self) -> None:  # noqa: B027 - most backends keep nothing aside
        """Puts what this store wrote where a reader of the database alone finds it (SQLite: copies
        its write-ahead log into the file and empties it); nothing for the other backends."""

    @contextmanager
    def exclusive(self) -> Iterator[None]:
        """Keeps other writers out while the caller reads the store and writes what it built from
        those reads, so that nothing it read goes stale before it writes; the writes made inside
        are kept only if the block ends without an exception.

        A backend that cannot hold a lock across requests (D1) yields at once: its batches are
        checked when applied instead, and a stale one is refused as a conflict
        (:class:`~magg_kg.errors.BatchConflict`) for the caller to build again.
        """
        yield

    def write(self, batch: Batch) -> BatchResult:
        """Applies a batch and raises :class:`BatchRefused` if it was refused."""
        return self.apply(batch).raise_for_refusal()

    # Reads shared by every backend.

    def schema_version(self) -> int:
        return int(self.query("schema_version")[0]["version"] or 0)

    def concepts(self, as_of: str | None = None) -> list[Concept]:
        return [Concept.model_validate(row) for row in self.query("concepts", {"as_of": as_of})]

    def concepts_by_id(self, ids: Iterable[str]) -> list[Concept]:
        """The concepts with these ids (unknown ids are left out), by id."""
        wanted = sorted(set(ids))
        if not wanted:
            return []
        rows = self.query("concepts_by_id", {"ids": json.dumps(wanted)})
        return [Concept.model_validate(row) for row in rows]

    def aliases_of(self, ids: Iterable[str]) -> dict[str, str]:
        """Normalized alias -> canonical concept id, for the aliases of these concepts."""
        wanted = sorted(set(ids))
        if not wanted:
            return {}
        rows = self.query("aliases_of", {"ids": json.dumps(wanted)})
        return {str(row["alias"]): str(row["concept_id"]) for row in rows}

    def aliases(self, as_of: str | None = None) -> dict[str, str]:
        """Normalized alias -> canonical concept id."""
        rows = self.query("aliases", {"as_of": as_of})
        return {str(row["alias"]): str(row["concept_id"]) for row in rows}

    def edges(self, as_of: str | None = None) -> list[EdgeVersion]:
        """The active edge versions, now or as known at system time ``as_of``."""
        return [edge_from_row(row) for row in self.query("edges_as_of", {"as_of": as_of})]

    def triples(self, as_of: str | None = None) -> list[Triple]:
        """The active edges as (src, type, dst) in that order, now or as of ``as_of``: the graph
        without its grounding records (the cheap read for graph algorithms). Now, they are read
        from an index, one row per source concept (five times fewer rows to carry)."""
        if as_of:
            rows = self.query("triples_as_of", {"as_of": as_of})
            return [(str(row["src"]), str(row["type"]), str(row["dst"])) for row in rows]
        found: list[Triple] = []
        for row in self.query("active_triples"):
            src = str(row["src"])
            found += sorted((src, str(type_), str(dst)) for type_, dst in json.loads(str(row["edges"])))
        return found

    def triples_touching(self, concepts: Iterable[str]) -> list[Triple]:
        """The active edges with an end among ``concepts``, as (src, type, dst)."""
        ids = sorted(set(concepts))
        if not ids:
            return []
        rows = self.query("triples_touching", {"concepts": json.dumps(ids)})
        return [(str(row["src"]), str(row["type"]), str(row["dst"])) for row in rows]

    def active_edge(self, src: str, type_: str, dst: str) -> EdgeVersion | None:
        """The active version of one edge, if there is one."""
        rows = self.query("active_edge", {"src": src, "type": type_, "dst": dst})
        return edge_from_row(rows[0]) if rows else None

    def edge_versions(self) -> list[EdgeVersion]:
        """Every edge version ever recorded, in recording order."""
        return [edge_from_row(row) for row in self.query("edge_versions")]

    def edge_version(self, version_id: str) -> EdgeVersion | None:
        rows = self.query("edge_version", {"version_id": version_id})
        return edge_from_row(rows[0]) if rows else None

    def recent_edges(self, limit: int) -> list[EdgeVersion]:
        """The most recently recorded active edge versions a machine committed, newest first: a
        person's (approved, restored, reinstated) stands until a person reverses it."""
        return [edge_from_row(row) for row in self.query("recent_active_edges", {"limit": limit})]

    def lessons(self, as_of: str | None = None) -> list[Lesson]:
        """Lessons with their text, in ingestion order."""
        return [Lesson.model_validate(row) for row in self.query("lesson_texts", {"as_of": as_of})]

    def current_lessons(self, as_of: str | None = None) -> list[Lesson]:
        """The current version of each lesson (the last of its key recorded), in ingestion order:
        what the course says now, without the versions a later one replaced, nor a lesson whose
        current version was withdrawn (:meth:`withdrawals`)."""
        current = set(self.current_lesson_ids(as_of))
        return [lesson for lesson in self.lessons(as_of) if lesson.id in current]

    def current_lesson_ids(self, as_of: str | None = None) -> list[str]:
        """The ids of the current lessons (:meth:`current_lessons`), in ingestion order, read
        without the lessons' texts."""
        return self._lesson_ids(as_of)[1]

    def stale_lessons(self, as_of: str | None = None) -> set[str]:
        """The ids of the stored lessons that are not current (:meth:`current_lessons`): versions a
        later one replaced, and withdrawn lessons. Read without the lessons' texts."""
        every, current = self._lesson_ids(as_of)
        return set(every) - set(current)

    def _lesson_ids(self, as_of: str | None) -> tuple[list[str], list[str]]:
        """Every stored lesson's id and the current ones', in ingestion order."""
        rows = self.query("lessons", {"as_of": as_of})
        latest = {str(row["lesson_key"]): str(row["id"]) for row in rows}
        current = set(latest.values()) - set(self.withdrawals(as_of))
        every = [str(row["id"]) for row in rows]
        return every, [lesson for lesson in every if lesson in current]

    def withdrawals(self, as_of: str | None = None) -> dict[str, Decision]:
        """The lessons a person withdrew from the course (``magg review withdraw``) and did not
        reinstate since (``magg review reinstate``), by lesson id: the decision that withdrew each
        (stage :data:`WITHDRAWAL`, verdict ``withdraw``; a later verdict ``reinstate`` undoes it)."""
        withdrawn: dict[str, Decision] = {}
        for decision in self.decisions_at(WITHDRAWAL, as_of, ("withdraw", "reinstate")):  # in order taken
            lesson = str(decision.detail.get("lesson_id"))
            if decision.verdict == "withdraw":
                withdrawn[lesson] = decision
            elif decision.verdict == "reinstate":
                withdrawn.pop(lesson, None)
        return withdrawn

    def decisions_at(
        self, stage: str, as_of: str | None = None, verdicts: Sequence[str] | None = None
    ) -> list[Decision]:
        """The decisions taken at ``stage`` (as of ``as_of``; of ``verdicts`` only, when given), in
        the order they were taken."""
        wanted = None if verdicts is None else json.dumps(list(verdicts))
        params: dict[str, Param] = {"stage": stage, "as_of": as_of, "verdicts": wanted}
        return [_decision(row) for row in self.query("decisions_at_stage", params)]

    def lesson(self, lesson_id: str) -> Lesson | None:
        rows = self.query("lesson", {"id": lesson_id})
        return Lesson.model_validate(rows[0]) if rows else None

    def lesson_by_sha256(self, sha256: str) -> Lesson | None:
        rows = self.query("lesson_by_sha256", {"sha256": sha256})
        return Lesson.model_validate(rows[0]) if rows else None

    def chunks(self, lesson_id: str) -> list[Row]:
        return self.query("chunks", {"lesson_id": lesson_id})

    def lesson_concepts(self, as_of: str | None = None) -> list[Row]:
        return self.query("lesson_concepts", {"as_of": as_of})

    def lesson_roles(self, as_of: str | None = None) -> list[Row]:
        """(lesson_id, concept_id, role) of every link, as :meth:`lesson_concepts` orders them,
        without the evidence (what the graph's views read, for every lesson, before each lesson)."""
        return self.query("lesson_roles", {"as_of": as_of})

    def lesson_links(self, concepts: Iterable[str]) -> list[Row]:
        """(lesson_id, concept_id, role) of the lessons linking these concepts."""
        wanted = sorted(set(concepts))
        return self.query("lesson_links_of", {"ids": json.dumps(wanted)}) if wanted else []

    def lesson_count(self) -> int:
        return int(self.query("lesson_count")[0]["lessons"] or 0)

    def domains(self, as_of: str | None = None) -> list[Row]:
        return self.query("domains", {"as_of": as_of})

    def concept_domains(self, as_of: str | None = None) -> dict[str, tuple[str, ...]]:
        """Concept id -> the domains that own it (several for a bridge concept)."""
        owners: dict[str, list[str]] = {}
        for row in self.query("concept_domains", {"as_of": as_of}):
            owners.setdefault(str(row["concept_id"]), []).append(str(row["domain_id"]))
        return {concept: tuple(sorted(ids)) for concept, ids in owners.items()}

    def proposals(self) -> list[Proposal]:
        return [_proposal(row) for row in self.query("proposals")]

    def proposals_in(self, states: Iterable[str], *, without_stage: str | None = None) -> list[Proposal]:
        """The proposals whose state is one of ``states``, in the order of :meth:`proposals`; with
        ``without_stage``, only those with no decision at that stage. Read in one query, without
        the other proposals or any decision."""
        params: dict[str, Param] = {"states": json.dumps(sorted(set(states))), "without_stage": without_stage}
        return [_proposal(row) for row in self.query("proposals_in_states", params)]

    def proposals_decided_since(self, after: int) -> tuple[int, list[Proposal]]:
        """The last decision's sequence number, and the proposals with a decision after ``after``
        up to it, each in its state as of that decision, in the order of :meth:`proposals`."""
        head = int(self.query("decision_head")[0]["seq"] or 0)
        if head <= after:
            return head, []
        rows = self.query("proposals_decided_between", {"after": after, "until": head})
        return head, [_proposal(row) for row in rows]

    def proposals_decided_at(self, stage: str) -> set[str]:
        """The ids of the proposals with a decision at ``stage``."""
        return {str(row["proposal_id"]) for row in self.query("proposals_decided_at", {"stage": stage})}

    def proposal(self, proposal_id: str) -> Proposal | None:
        rows = self.query("proposal", {"id": proposal_id})
        return _proposal(rows[0]) if rows else None

    def decisions(self, proposal_id: str | None = None) -> list[Decision]:
        if proposal_id is None:
            rows = self.query("decisions")
        else:
            rows = self.query("decisions_for_proposal", {"proposal_id": proposal_id})
        return [_decision(row) for row in rows]

    def review_queue(self) -> list[Row]:
        """Review items whose proposal is still quarantined."""
        return self.query("review_queue")

    def audit_events(self) -> list[AuditEvent]:
        return [AuditEvent.model_validate(row) for row in self.query("audit_log")]

    def audit_head(self) -> tuple[int, str]:
        """The last audit event's sequence number and hash ((0, "") when empty)."""
        rows = self.query("audit_head")
        return (int(rows[0]["seq"] or 0), str(rows[0]["hash"])) if rows else (0, "")

    def latest_time(self) -> str | None:
        """The latest time the store has recorded (a batch sent, an edge version recorded or
        closed, a domain or ownership row, an audit event, a decision, a model call); None when it
        has recorded nothing. A writer's clock observes it (:meth:`magg_kg.clock.Clock.observe`)
        so that what it writes comes after."""
        rows = self.query("latest_time")
        return str(rows[0]["at"]) if rows and rows[0]["at"] else None

    def graph_stamp(self) -> tuple[Param, ...]:
        """The graph's stamp: what changes whenever the graph does. It is the row counts of the
        tables that say what the graph is (concepts, aliases, edge versions, invalidations, domains
        and ownership, lessons and their chunks: every one only grows) and how many domain and
        ownership rows are closed (the one change that adds no row), and how many lessons were
        withdrawn (a withdrawal may close no edge). Equal stamps, equal graphs: a
        reader that keeps the graph reads it again only when this moves; usage and cache writes
        leave it as it is."""
        rows = self.query("graph_stamp")
        return tuple(rows[0].values()) if rows else ()

    def usage(self) -> list[Row]:
        return self.query("usage")

    def usage_by_stage(self) -> list[Row]:
        return self.query("usage_by_stage")

    def cache_entry(self, key: str) -> Row | None:
        rows = self.query("cache_entry", {"key": key})
        return rows[0] if rows else None
