"""Verification: the audit chain, the rows against the journal that recorded them (edge versions,
decisions, proposals, lessons), the invariants every database must keep, and the integrity of a
SQLite file's own pages (which a query may never read, so the invariants alone can miss)."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from magg_kg.audit import find_break
from magg_kg.coverage import ACYCLIC_TYPES
from magg_kg.graph import find_cycle, typed_digraph
from magg_kg.integrity import integrity_findings, read_only
from magg_kg.journal import Journal, replay_edges, replay_records
from magg_kg.migrations import schema_objects
from magg_kg.records import AuditEvent, Decision, EdgeVersion, Lesson, Proposal
from magg_kg.store import Store

__all__ = ["Verification", "file_damage", "verification", "verify_store"]


_EVENTS = {"decision": "record_decision", "proposal": "add_proposal", "lesson": "add_lesson"}


@dataclass(frozen=True)
class Verification:
    """What :func:`verification` found: every broken invariant (none: the database is sound), and
    what it could not check, in words."""

    problems: tuple[str, ...]
    notes: tuple[str, ...] = ()


def _journal_mismatches(events: list[AuditEvent], versions: list[EdgeVersion]) -> list[str]:
    """Edge versions that the journal does not tell the same way (an edited table or log)."""
    try:
        replayed = replay_edges(events)
    except (KeyError, ValueError) as error:
        return [f"the audit journal cannot be replayed ({error})"]
    problems = []
    for edge in versions:
        told = replayed.pop(edge.version_id, None)
        if told is None:
            problems.append(f"edge version {edge.version_id} has no commit in the audit journal")
        elif told != edge:  # every field: the grounding and both time axes as much as the triple
            fields = [name for name in EdgeVersion.model_fields if getattr(told, name) != getattr(edge, name)]
            problems.append(
                f"edge version {edge.version_id} differs from its audit journal entry ({', '.join(fields)})"
            )
    problems.extend(f"audit journal commits {vid}, which is not in concept_edges" for vid in replayed)
    return problems


def _rows_against_journal(
    kind: str, told: Mapping[str, BaseModel], held: Iterable[BaseModel], own: str
) -> list[str]:
    """The rows of one table that differ from the event that recorded them (each field but
    ``own``, which the row holds and the event does not), that have no event, and the events
    that have no row."""
    problems, seen = [], set()
    for row in held:
        fields = row.__dict__
        ident = str(fields["id"])
        seen.add(ident)
        entry = told.get(ident)
        if entry is None:
            problems.append(f"{kind} {ident} has no {_EVENTS[kind]} event in the audit journal")
        elif {**entry.__dict__, own: fields[own]} != fields:
            differ = ", ".join(
                name for name, value in entry.__dict__.items() if name != own and value != fields[name]
            )
            problems.append(f"{kind} {ident} differs from its audit journal entry ({differ})")
    problems += [
        f"audit journal records {kind} {ident}, which is not in the {kind}s table"
        for ident in told
        if ident not in seen
    ]
    return problems


def _decision_order(journal: Journal, decisions: list[Decision]) -> list[str]:
    """The first decision whose place in the table (its ``seq``, which says which decision is a
    proposal's latest, hence its state) is not its place in the journal."""
    held = [d for d in decisions if d.id in journal.decisions]
    ids = {d.id for d in held}
    told = [ident for ident in journal.decisions if ident in ids]
    for decision, ident in zip(held, told, strict=True):
        if decision.id != ident:
            return [
                f"decision {decision.id} (seq {decision.seq}) is out of the order the audit journal "
                "records decisions in"
            ]
    return []


def _records_against_journal(
    events: list[AuditEvent], decisions: list[Decision], proposals: list[Proposal], lessons: list[Lesson]
) -> Verification:
    """Every decision, proposal and lesson row compared with the event that recorded it (each field;
    a lesson's text through its sha256). A proposal's quotes are not checked against its lesson: a
    proposal is a claim, which may misquote (the gate refuses to commit it then)."""
    try:
        journal = replay_records(events)
    except ValueError as error:  # pydantic's errors too
        return Verification((f"the audit journal cannot be replayed ({' '.join(str(error).split())[:200]})",))
    problems = _rows_against_journal("decision", journal.decisions, decisions, "seq")
    problems += _decision_order(journal, decisions)
    problems += [
        f"lesson {lesson.id}: its text does not hash to its sha256 (the text was changed)"
        for lesson in lessons
        if hashlib.sha256(lesson.text.encode("utf-8")).hexdigest() != lesson.sha256
    ]
    problems += _rows_against_journal("lesson", journal.lessons, lessons, "text")
    # A proposal made before the log journaled proposals (an older database) has no event: it is
    # one when its first decision came before the first add_proposal event (or there is none).
    unjournaled = {
        p.id
        for p in proposals
        if p.id not in journal.proposals
        and (
            not journal.proposals_from
            or journal.first_decided.get(p.id, journal.proposals_from) < journal.proposals_from
        )
    }
    journaled = [p for p in proposals if p.id not in unjournaled]
    problems += _rows_against_journal("proposal", journal.proposals, journaled, "state")
    notes = (
        (
            f"{len(unjournaled)} proposal(s) were made before magg journaled proposals: their rows "
            "could not be compared with the audit journal",
        )
        if unjournaled
        else ()
    )
    return Verification(tuple(problems), notes)


def _ownership_problems(store: Store) -> list[str]:
    """Once domains exist: every concept is owned by an active domain, every domain that is not
    retired owns a concept, and no concept is owned by a retired or unknown domain."""
    domains = store.domains()
    if not domains:  # ownership not computed yet (a database built by hand, a benchmark)
        return []
    retired = {str(row["id"]) for row in domains if json.loads(str(row["card"])).get("retired")}
    live = {str(row["id"]): str(row["name"]) for row in domains if str(row["id"]) not in retired}
    owners = store.concept_domains()
    problems = [
        f"concept {concept.id} has no active domain"
        for concept in store.concepts()
        if concept.id not in owners
    ]
    owned: set[str] = set()
    for concept, domain_ids in sorted(owners.items()):
        for domain_id in domain_ids:
            if domain_id in live:
                owned.add(domain_id)
            else:
                state = "retired" if domain_id in retired else "unknown"
                problems.append(f"concept {concept} is owned by {state} domain {domain_id}")
    problems += [
        f"domain {domain_id} ({name}) is active and owns no concept"
        for domain_id, name in sorted(live.items())
        if domain_id not in owned
    ]
    return problems


def verify_store(store: Store) -> list[str]:
    """Every broken invariant, in words; an empty list means the database is sound."""
    return list(verification(store).problems)


def verification(store: Store) -> Verification:
    """Every broken invariant, in words, and what could not be checked (:class:`Verification`)."""
    problems: list[str] = []
    events = store.audit_events()
    chain_break = find_break(events)
    if chain_break:
        problems.append(f"audit chain broken: {chain_break}")
    versions = store.edge_versions()
    problems.extend(_journal_mismatches(events, versions))
    decided = store.decisions()
    decisions = {decision.id for decision in decided}
    stored_lessons = store.lessons()
    lessons = {lesson.id: lesson.text for lesson in stored_lessons}
    active = [edge for edge in versions if edge.status == "active"]
    for key, count in Counter((e.src, e.type, e.dst) for e in active).items():
        if count > 1:
            problems.append(f"{count} active versions of {key[0]} -{key[1]}-> {key[2]}")
    for edge in versions:
        if edge.decision_id not in decisions:
            problems.append(f"edge version {edge.version_id}: decision {edge.decision_id} not found")
        if edge.status == "invalidated" and (edge.expired_at is None or edge.invalidated_by is None):
            problems.append(f"edge version {edge.version_id}: invalidated without expired_at/decision")
        for span in edge.grounding.evidence:
            text = lessons.get(span.lesson_id)
            if text is None:
                # Evidence from outside the lessons (benchmark data) names its source "external:...".
                if not span.lesson_id.startswith("external:"):
                    problems.append(f"edge version {edge.version_id}: unknown lesson {span.lesson_id}")
                continue
            if text[span.start : span.end] != span.quote:
                problems.append(
                    f"edge version {edge.version_id}: quote not found in lesson {span.lesson_id} "
                    f"at {span.start}-{span.end}"
                )
    records = Verification(())
    try:
        proposals = store.proposals()
    except ValueError as error:  # a row whose evidence is no JSON, or no span (pydantic's errors too)
        problems.append(f"the proposals table cannot be read: {' '.join(str(error).split())[:200]}")
    else:
        records = _records_against_journal(events, decided, proposals, stored_lessons)
    problems.extend(records.problems)
    for edge_type in ACYCLIC_TYPES:
        cycle = find_cycle(typed_digraph(active, [edge_type]))
        if cycle:
            problems.append(f"{edge_type} cycle among active edges: {' -> '.join(cycle)}")
    problems.extend(_ownership_problems(store))
    return Verification(tuple(problems), records.notes)


def file_damage(path: Path, most: int = 5) -> list[str]:
    """What SQLite's integrity check finds wrong in the database file at ``path``, and the tables,
    triggers and indexes of the schema it lacks (at most ``most`` lines of each; none when the
    file is sound). The file is opened for reading only.

    >>> file_damage(Path("/no/such/folder/magg.sqlite"))
    ['database file /no/such/folder/magg.sqlite: unable to open database file']
    """
    try:
        with closing(read_only(path)) as connection:
            found = integrity_findings(connection, most)
            held = connection.execute("SELECT type, name FROM sqlite_master").fetchall()
    except sqlite3.DatabaseError as error:
        return [f"database file {path}: {error}"]
    damage = [f"database file {path}: {finding}" for finding in found]
    missing = sorted(schema_objects() - {(str(kind), str(name)) for kind, name in held})
    damage += [
        f"database file {path}: {kind} {name} of the schema is missing" for kind, name in missing[:most]
    ]
    return damage
