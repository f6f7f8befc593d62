"""Governed ingestion: lessons in, one atomic batch per lesson out.

``ingest(paths, ctx)`` reads every lesson (:mod:`magg_kg.lessons`): a file that is not a lesson is
refused and reported, the others go on; a lesson whose content hash is stored is skipped (no model
call), and one whose hash was already seen under another name is reported as a duplicate. Then each
new lesson, in order, is one unit of work against the graph *as the store has it now*:

1. the store is read afresh (domains and their concepts first, then concepts, aliases, proposals,
   active edges), and the lesson's graph state is built from it (:mod:`governance.graph_state`):
   the one graph that the rules, the owners and the judge read, updated once per commit;
2. concepts and candidate edges are extracted (:mod:`agents.extraction`), knowing only the concepts
   already stored, that is those of the lessons before this one;
3. the domains are recomputed (:mod:`governance.domains`) from the stored graph and this lesson;
4. its proposals are built, what verification dropped is recorded, what a previous version of the
   lesson alone supported is re-judged (a standing proposal it no longer supports is rejected; an
   active edge whose every quote came from the old version and that the new one does not support
   is invalidated, never deleted), and admission runs (:mod:`governance.admission`);
5. everything - concepts, domain changes, lesson, chunks, aliases, links, proposals, decisions,
   gate writes and LLM usage - goes as ONE batch whose id comes from the lesson's hash.

A file longer than ``ctx.part_chars`` (400,000 characters by default) is read as consecutive parts,
cut at headings (:func:`magg_kg.lessons.read_parts`), and each part is a lesson of the above: its
own batch, well within the store's bound on one batch, so a lesson of any size allowed by
``--max-bytes`` is ingested in time linear in its size. Parts and versions of one file are not
independent support for each other's claims.

So ingesting a folder is the same as ingesting its lessons one by one, in order, and a run that is
interrupted anywhere and run again gives the graph an uninterrupted run gives: the lessons it wrote
are skipped, and the next one starts from the very state it would have started from. A lesson
whose extraction the model could not finish (out of reach, or the spend cap reached:
``Extraction.interrupted``) is such an interruption: it is refused and reported, nothing of it
written, so that the next run ingests it whole instead of skipping it as done.

Many writers at once. The reads and the write of one lesson happen under the store's
:meth:`~magg_kg.store.Store.exclusive` lock (SQLite holds its write lock; other writers wait). A
backend that cannot hold one (D1) refuses a batch built on reads another writer has since changed
(:class:`~magg_kg.errors.BatchConflict`: the same active edge, the next version of the same domain,
the same lesson); the lesson is then read again against the current graph and admitted again, up
to ``ctx.attempts`` times, and the refusals are recorded in the run's report and in an ``ingest``
decision of the lesson's batch. A lesson another run ingested meanwhile is reported as skipped.

The gate, when there is one, stands behind the taint rule (:mod:`governance.taint`): a proposal
whose evidence lies near instruction-like text of its lesson, or overlaps hidden text,
is quarantined for a person instead of being judged.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Protocol

from agents.cost import Cost
from agents.extraction import Extraction, extract_lesson
from agents.lesson_index import LessonProse, prose_reader, stored_prose
from agents.registry import Registry
from agents.topics import Course
from governance.admission import Admission, AdmissionContext, admit
from governance.conflict import contest_for
from governance.domains import card, compute_layout, layout_ops, stored_anchors, weighted_graph
from governance.graph_state import GraphState
from governance.ingest_report import IngestReport, LessonOutcome
from governance.lesson_batch import concept_ops, concepts_of, dropped_ops, lesson_ops, lesson_proposal
from governance.stages import Gate
from governance.taint import Quarantine, instructions
from governance.versions import decision, gone_from, known_outcome, moved_refusal, read_elsewhere, rejudge
from magg_kg.clock import Clock
from magg_kg.config import Policy
from magg_kg.errors import BatchConflict, InputError
from magg_kg.ids import make_id
from magg_kg.journal import journaled
from magg_kg.ledger import ProposalLedger
from magg_kg.lesson_files import find_lessons
from magg_kg.lessons import DEFAULT_MAX_BYTES, PART_CHARS, LessonText, file_key, read_parts
from magg_kg.llm.port import LLM
from magg_kg.markup import Flavor, flavor_of
from magg_kg.operations import BATCH_OPS, Batch, InvalidateEdge, Operation, RecordDecision
from magg_kg.records import Proposal
from magg_kg.store import TIME_ORDER, Store
from magg_kg.vocabulary import CURRICULUM, GraphSchema

__all__ = [
    "ATTEMPTS",
    "AttachableGate",
    "IngestContext",
    "UsageSource",
    "ingest",
]

Progress = Callable[[str, int, int, str], None]
ATTEMPTS = 8
"""How many times a lesson is built and sent before the run gives up on it (conflicts only)."""


class UsageSource(Protocol):
    def drain(self) -> list[Operation]:
        """The usage records of the calls made since the last drain."""
        ...


class AttachableGate(Gate, Protocol):
    """A gate that can be given the graph state of each lesson (read afresh from the store)."""

    def attach(self, graph: GraphState, proposals: Sequence[Proposal] | None = None) -> None: ...


@dataclass
class IngestContext:
    store: Store
    llm: LLM
    clock: Clock
    policy: Policy
    seed: int = 7
    schema: GraphSchema = CURRICULUM
    gate: AttachableGate | None = None
    flat: bool = False
    max_bytes: int = DEFAULT_MAX_BYTES
    part_chars: int = PART_CHARS
    """A longer lesson file is ingested as consecutive parts, each a lesson (:func:`read_parts`)."""
    skip: tuple[str, ...] = ()
    """Patterns of the files a folder's walk leaves out (:func:`find_lessons`)."""
    usage: UsageSource | None = None
    progress: Progress | None = None
    attempts: int = ATTEMPTS
    sleep: Callable[[float], None] = time.sleep
    """Waits between attempts after a conflict (a short, growing, jittered pause)."""
    lesson_prose: LessonProse | None = None
    """Reads a stored lesson's prose for the judge's sentence counts (:func:`ingest` keeps what it
    read for the whole run: a lesson id is a content hash)."""
    ledger: ProposalLedger | None = None
    """The store's proposals, kept for the whole run by :func:`ingest` and read again where changed."""
    course: Course | None = None
    """The lessons stored and those of the run, whose headings' topics :func:`ingest` compares."""
    moved: bool = False
    """A file of a known key read from another path is a new version (the course moved); else refused."""


def _step(ctx: IngestContext, phase: str, done: int, total: int, what: str) -> None:
    if ctx.progress is not None:
        ctx.progress(phase, done, total, what)


def _read(ctx: IngestContext, paths: Sequence[Path], report: IngestReport) -> list[LessonText]:
    fresh: list[LessonText] = []
    seen: dict[str, str] = {}
    stale = lru_cache(maxsize=1)(ctx.store.stale_lessons)  # read once, when a stored text is met
    keys = {
        str(row["lesson_key"]): str(row["source_path"]) for row in ctx.store.query("lessons", {"as_of": None})
    }
    for path, key in find_lessons(list(paths), ctx.skip, keys):  # a key given before is kept
        try:
            parts = read_parts(path, key, max_bytes=ctx.max_bytes, part_chars=ctx.part_chars)
        except InputError as error:
            report.lessons.append(LessonOutcome(str(path), "refused", detail=str(error)))
            continue
        for lesson in parts:
            known = ctx.store.lesson_by_sha256(lesson.sha256)
            if known is not None:
                report.lessons.append(known_outcome(ctx.store, lesson, known, stale(), meanwhile=False))
            elif lesson.sha256 in seen:
                first = seen[lesson.sha256]
                report.lessons.append(
                    LessonOutcome(str(path), "duplicate", first, f"same text as lesson {first}")
                )
            else:
                seen[lesson.sha256] = lesson.id
                fresh.append(lesson)
    return fresh


def ingest(paths: Sequence[Path], ctx: IngestContext) -> IngestReport:
    """Ingests lessons (files or folders) through governed admission, one batch per lesson."""
    report = IngestReport()
    if ctx.lesson_prose is None:
        ctx = replace(ctx, lesson_prose=lru_cache(maxsize=256)(prose_reader(ctx.store)))
    if ctx.ledger is None:
        ctx = replace(ctx, ledger=ProposalLedger(ctx.store))
    ctx.clock.observe(ctx.store.latest_time())  # a clock behind the recorded history writes after it
    fresh = _read(ctx, paths, report)
    report.gone = gone_from(ctx.store, paths, ctx.skip)
    stored = ((row.id, stored_prose(row) or "") for row in ctx.store.lessons())
    ctx = replace(ctx, course=ctx.course or Course.of([*stored, *((f.id, f.prose) for f in fresh)]))
    for index, lesson in enumerate(fresh):
        _step(ctx, "ingesting", index, len(fresh), lesson.key)
        _ingest_lesson(ctx, lesson, report)
    if fresh:
        _step(ctx, "ingesting", len(fresh), len(fresh), "")
    return report


@dataclass
class _Built:
    """One lesson built against one read of the store: its batch and what goes in the report."""

    outcome: LessonOutcome
    batch: Batch | None = None
    extraction: Extraction = field(default_factory=Extraction)
    admission: Admission = field(default_factory=Admission)
    domains: int = 0
    invalidated: int = 0


def _ingest_lesson(ctx: IngestContext, lesson: LessonText, report: IngestReport) -> None:
    """Builds and writes one lesson; on a conflict, reads the store again and builds it again."""
    refusals: list[str] = []
    usage: list[Operation] = []  # the model calls of refused attempts were made all the same
    jitter = random.Random()
    for attempt in range(1, max(1, ctx.attempts) + 1):
        try:
            with ctx.store.exclusive():
                built = _build(ctx, lesson, refusals, usage)
                if built.batch is not None:
                    ctx.store.write(built.batch)
        except InputError as error:
            report.lessons.append(LessonOutcome(lesson.source_path, "refused", lesson.id, str(error)))
            return
        except BatchConflict as conflict:
            line = f"lesson {lesson.id} ({lesson.key}): attempt {attempt} refused, {conflict.reason}"
            refusals.append(conflict.reason)
            report.conflicts.append(line)
            if conflict.reason.startswith(TIME_ORDER):  # another writer recorded a later time first
                ctx.clock.observe(ctx.store.latest_time())
            ctx.sleep(min(2.0, 0.05 * 2 ** (attempt - 1)) * (0.5 + jitter.random()))
            continue
        _account(report, built, attempt)
        return
    report.lessons.append(
        LessonOutcome(
            lesson.source_path,
            "refused",
            lesson.id,
            f"{lesson.source_path}: not ingested: other writers changed the graph under each of "
            f"{len(refusals)} attempts (last: {refusals[-1]}); run `magg ingest` again",
            attempts=len(refusals),
        )
    )


def _account(report: IngestReport, built: _Built, attempt: int) -> None:
    outcome = built.outcome
    if attempt > 1:
        outcome = LessonOutcome(**{**outcome.__dict__, "attempts": attempt})
    report.lessons.append(outcome)
    if built.batch is None:
        return
    extraction, admission = built.extraction, built.admission
    report.failures += [f"{outcome.lesson_id}: {failure}" for failure in extraction.failures]
    report.cost.setdefault("extraction", Cost()).add(extraction.cost)
    report.domains = built.domains
    report.invalidated += built.invalidated
    report.concepts += len(extraction.new_concepts)
    report.aliases += len(extraction.new_aliases)
    report.proposals += len(extraction.candidates) + len(extraction.dropped)
    # What the batch recorded, as the decisions table holds it (stage and verdict as stored).
    report.outcomes.update((op.stage, op.verdict) for op in built.batch.ops if isinstance(op, RecordDecision))
    report.states.update(admission.states.values())
    for stage, cost in admission.cost.items():
        report.cost.setdefault(stage, Cost()).add(cost)


def _lookup(store: Store, lesson: LessonText) -> Callable[[str], tuple[str, Flavor] | None]:
    """Lesson texts for the taint rule: this lesson's, and any stored lesson's."""

    def find(lesson_id: str) -> tuple[str, Flavor] | None:
        if lesson_id == lesson.id:
            return lesson.text, lesson.flavor
        stored = store.lesson(lesson_id)
        return (stored.text, flavor_of(stored.source_path, stored.text)) if stored is not None else None

    return find


def _build(ctx: IngestContext, lesson: LessonText, refusals: list[str], usage: list[Operation]) -> _Built:
    store = ctx.store
    lessons = store.lessons()  # another writer may have stored this text since the run read it
    if same := next((s for s in lessons if s.sha256 == lesson.sha256), None):
        return _Built(known_outcome(store, lesson, same, store.stale_lessons(), meanwhile=True))
    # Ownership first: every concept it names is then among the concepts read next.
    stored_domains, assigned = store.domains(), store.concept_domains()
    previous = next((s for s in reversed(lessons) if s.lesson_key == lesson.key), None)
    elsewhere = read_elsewhere(previous, lesson)
    if elsewhere and not ctx.moved:  # another course's file of the same path is no version of it
        return _Built(
            LessonOutcome(lesson.source_path, "refused", lesson.id, moved_refusal(lesson, elsewhere))
        )
    registry = Registry(store.concepts(), store.aliases())
    assert ctx.ledger is not None  # ingest() gives every run one
    stored_proposals = ctx.ledger.current()
    corroborations = _corroborations(stored_proposals, lesson)
    extraction = extract_lesson(lesson, ctx.llm, registry, ctx.schema, corroborations, ctx.course)
    if extraction.interrupted:
        # Written, the lesson would count as ingested and a later run would skip what it missed.
        why = (
            f"{lesson.source_path}: not ingested, nothing of it written: extraction stopped "
            f"({extraction.interrupted}); run `magg ingest` again"
        )
        return _Built(LessonOutcome(lesson.source_path, "refused", lesson.id, why))
    # The taint rule (governed only): evidence beside an instruction in its lesson waits for a
    # person, and a concept named only beside text that surely addresses the system is not taken
    # up at all (merely suspicious text, tutorial prose at times, holds claims, not concepts).
    gate = ctx.gate
    quarantine = Quarantine(gate, ctx.policy, ctx.clock, _lookup(store, lesson)) if gate is not None else None
    scan = quarantine.scan_of(lesson.id) if quarantine is not None else None
    held = set() if scan is None else extraction.without_held(scan.instructed, lesson.prose, registry.names)
    concepts = {cid: info for cid, info in registry.concepts.items() if cid not in held}
    # One graph state for the lesson, read once: the rules, the owners and the judge read it, and
    # each commit or invalidation below updates it once.
    standing = Counter((p.src, p.type, p.dst) for p in stored_proposals if p.state == "proposed")
    graph = GraphState.of_store(store, ctx.schema, standing, ctx.lesson_prose)
    at = ctx.clock.now()
    graph.add_concepts(concepts_of(extraction.new_concepts, at))
    graph.view.add_names(dict(extraction.new_aliases))  # the judge knows every name the owners see
    graph.add_lesson(
        lesson.id,
        [link.concept_id for link in extraction.links],
        [link.concept_id for link in extraction.links if link.role == "teaches"],
        lesson.prose,
    )
    # Owners see what this lesson claims; each claim leaves the count when it is rejected.
    graph.memory.claims.update(c.triple for c in extraction.candidates)
    groups: dict[str, list[str]] = {}
    for row in store.lesson_roles():
        groups.setdefault(str(row["lesson_id"]), []).append(str(row["concept_id"]))
    groups[lesson.id] = [link.concept_id for link in extraction.links]
    facts = graph.memory.facts
    edges = [(s, d, 1.0) for s, _, d in sorted(facts)]  # in one order whatever the hash seed
    edges += [(c.src, c.dst, c.confidence) for c in extraction.candidates if c.confidence >= 0.5]
    layout = compute_layout(
        weighted_graph(concepts, edges, groups.values()),
        _members(assigned),
        {cid: info.name for cid, info in concepts.items()},
        ctx.seed,
        stored_anchors(stored_domains),
    )
    open_questions = [
        (p.id, p.src, p.type, p.dst) for p in stored_proposals if p.state in ("abstained", "quarantined")
    ]
    cards = {d.id: card(d, facts, open_questions) for d in layout.domains}
    contest = None
    if gate is not None and quarantine is not None:  # one is there when the other is
        # The judge reads the graph as it is now, this lesson's concepts included.
        gate.attach(graph, stored_proposals)
        contest = None if ctx.flat else contest_for(gate, quarantine, store, ctx.policy, ctx.clock)
    admission = AdmissionContext(
        llm=ctx.llm,
        graph=graph,
        layout=layout,
        policy=ctx.policy,
        clock=ctx.clock,
        names=registry.names,
        gate=quarantine,
        flat=ctx.flat,
        contest=contest,
    )
    ops: list[Operation] = [
        *concept_ops(extraction.new_concepts, at),
        *layout_ops(layout, cards, stored_domains, assigned, at),
        *lesson_ops(lesson, previous, extraction, at),
        *dropped_ops(ctx.policy, extraction, lesson.id, at),
    ]
    proposals = [
        lesson_proposal(c, lesson.id, at) for c in sorted(extraction.candidates, key=lambda c: c.triple)
    ]
    outcomes: Counter[tuple[str, str]] = Counter()
    if previous is not None:
        rejudged = rejudge(
            store, ctx.policy, lesson, previous, proposals, admission, stored_proposals, outcomes, at
        )
        ops += rejudged
        closed = {op.proposal_id for op in rejudged if isinstance(op, RecordDecision)}
        if gate is not None and closed:  # what the earlier versions said joins no new proposal's evidence
            gate.attach(graph, [p for p in stored_proposals if p.id not in closed])
    batch_id = make_id("batch", "lesson", lesson.sha256)
    result = admit(proposals, admission, batch_id)
    ops += result.ops
    if refusals:
        ops.append(_retried(ctx.policy, lesson, refusals, at))
    if ctx.usage is not None:
        usage += ctx.usage.drain()
    ops += usage
    barren = not (extraction.new_concepts or proposals)  # then say how much of it addresses the reviewer
    instructed, sentences = instructions(scan, lesson.prose) if scan is not None and barren else (0, 0)
    if len(ops) > BATCH_OPS:
        raise InputError(
            f"{lesson.source_path}: not ingested: it makes {len(ops):,} operations and one lesson is "
            f"written as one batch of at most {BATCH_OPS:,}; split it into smaller lessons"
        )
    return _Built(
        LessonOutcome(
            lesson.source_path,
            "new-version" if previous else "new",
            lesson.id,
            f"supersedes {previous.id}" if previous else "",
            len(extraction.new_concepts),
            len(proposals),
            tuple(f"{h.reason} at {h.start}-{h.end}" for h in lesson.hidden),
            held=len(held),
            named=len({link.concept_id for link in extraction.links}),
            instructed=instructed,
            sentences=sentences,
            elsewhere=elsewhere,
        ),
        Batch.of(batch_id, at, journaled(ops, at)),
        extraction,
        result,
        domains=len(layout.domains),
        invalidated=sum(isinstance(op, InvalidateEdge) for op in ops) - outcomes[("rejudge", "reground")],
    )


def _corroborations(proposals: Iterable[Proposal], lesson: LessonText) -> Counter[tuple[str, str, str]]:
    """For each standing triple, how many other lesson files claim it: another version or another
    part of this lesson's own file is no independent support."""
    own = file_key(lesson.id)
    claimed = {
        ((p.src, p.type, p.dst), file_key(p.lesson_id) if p.lesson_id else p.id)
        for p in proposals
        if p.state in ("proposed", "committed")
    }
    return Counter(triple for triple, source in claimed if source != own)


def _members(assigned: dict[str, tuple[str, ...]]) -> dict[str, set[str]]:
    """Domain id -> its concepts, from concept id -> domain ids."""
    members: dict[str, set[str]] = {}
    for concept, domain_ids in assigned.items():
        for domain_id in domain_ids:
            members.setdefault(domain_id, set()).add(concept)
    return members


def _retried(policy: Policy, lesson: LessonText, refusals: list[str], at: str) -> Operation:
    """The decision that records why a lesson was built again before its batch was applied."""
    return decision(
        policy,
        None,
        "ingest",
        "retried",
        "proposed",
        f"lesson {lesson.id} was read again and admitted again after {len(refusals)} refused "
        "attempt(s): another writer had changed the graph first",
        at,
        {"attempts": len(refusals) + 1, "refusals": refusals[-8:], "cost": Cost().as_dict()},
    )
