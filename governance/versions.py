"""Versions of a lesson: what an earlier version alone supported, judged against the new one.

A standing proposal of an earlier version is closed (``rejected``, verdict ``superseded``) when
the new version proposes the same edge again, or ``unsupported`` when it does not. An active edge
whose every evidence span came from earlier versions, and which the new version does not support,
is invalidated (closed, never deleted) with a decision that says why; when another lesson's
proposal states it (a twin refused as a duplicate while the edge was in), it is committed again
as a new version grounded on that lesson's words (verdict ``regrounded``). An edge the new version
still supports stays active, grounded anew on the new version's words when every span of it came
from earlier versions (so that no quote of it is one the course no longer has; not when the new
words are tainted, :mod:`governance.taint`); its new proposal meets the rule engine's
``no-duplicate``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from agents.cost import Cost
from agents.offline.injection import LessonScan, scan
from governance.admission import AdmissionContext
from governance.claims import ground
from governance.curation import current_grounding, regrounded, stated_now
from governance.ingest_report import GoneLesson, LessonOutcome
from governance.taint import taint
from governance.withdrawal import withdrawn_note
from magg_kg.builders import decision_op, invalidation_op
from magg_kg.config import Policy
from magg_kg.lesson_files import same_file, why_left_out
from magg_kg.lessons import LessonText
from magg_kg.operations import Operation, RecordDecision, SpanData, span_data
from magg_kg.records import EdgeVersion, Lesson, Proposal, ProposalState, Span, Triple
from magg_kg.store import Store

__all__ = ["decision", "gone_from", "known_outcome", "moved_refusal", "read_elsewhere", "rejudge"]


def decision(
    policy: Policy,
    proposal_id: str | None,
    stage: str,
    verdict: str,
    state: ProposalState,
    why: str,
    at: str,
    detail: dict[str, object] | None = None,
) -> RecordDecision:
    """A decision taken by rules (verification, re-judging a lesson's versions)."""
    return decision_op(
        proposal_id,
        stage,
        verdict,
        state,
        why,
        detail=detail or {"cost": Cost().as_dict()},
        policy_version=policy.version,
        prompt_version="rejudge-1" if stage == "rejudge" else "verify-1",
        model="rules",
        decided_at=at,
    )


def rejudge(
    store: Store,
    policy: Policy,
    lesson: LessonText,
    previous: Lesson,
    proposals: list[Proposal],
    admission: AdmissionContext,
    stored_proposals: list[Proposal],
    outcomes: Counter[tuple[str, str]],
    at: str,
) -> list[Operation]:
    """What the previous versions of the lesson alone supported, judged against the new version."""
    versions = {stored.id for stored in store.lessons() if stored.lesson_key == lesson.key}
    supported = {(p.src, p.type, p.dst): p.id for p in proposals}
    ops: list[Operation] = []
    for old in stored_proposals:  # standing or open (abstained, quarantined): the course no longer says it
        if old.lesson_id not in versions or old.state not in ("proposed", "abstained", "quarantined"):
            continue
        triple = (old.src, old.type, old.dst)
        if triple in supported:
            ops.append(
                decision(
                    policy,
                    old.id,
                    "rejudge",
                    "superseded",
                    "rejected",
                    f"lesson {previous.id} was replaced by {lesson.id}; re-proposed as {supported[triple]}",
                    at,
                )
            )
        else:
            ops.append(
                decision(
                    policy,
                    old.id,
                    "rejudge",
                    "unsupported",
                    "rejected",
                    f"the new version {lesson.id} of the lesson no longer supports it",
                    at,
                )
            )
            if old.state == "proposed":  # the standing claims the owners count
                admission.graph.memory.claims[triple] -= 1
        outcomes[("rejudge", "superseded" if triple in supported else "unsupported")] += 1
    stated: dict[Triple, list[Span]] | None = None  # read once, when an edge needs it
    found: LessonScan | None = None
    for edge in store.edges():
        sources = {span.lesson_id for span in edge.grounding.evidence}
        triple = (edge.src, edge.type, edge.dst)
        if not sources & versions:
            continue
        own: list[SpanData] = []
        if triple in supported:  # the new version states it: grounded anew on its own words
            said = next(p for p in proposals if (p.src, p.type, p.dst) == triple)
            found = scan(lesson.text, lesson.flavor) if found is None else found  # once per lesson
            own = _own_words(lesson, said, found)
        if not sources <= versions:  # other lessons' quotes stay, the earlier versions' go
            others = span_data(span for span in edge.grounding.evidence if span.lesson_id not in versions)
            why = f"its quotes of {previous.id}, which {lesson.id} replaced, are left out"
            ops += _regrounded(policy, edge, [*others, *own], why, at)
            outcomes[("rejudge", "reground")] += 1
            continue
        if triple in supported:  # kept as it is when the new words cannot ground it (tainted)
            if own:
                why = f"its quotes are of {previous.id}, which {lesson.id} replaced"
                ops += _regrounded(policy, edge, own, why, at)
                outcomes[("rejudge", "reground")] += 1
            continue
        schema = admission.graph.schema
        stated = stated_now(store, schema, frozenset(versions)) if stated is None else stated
        spans, _ = current_grounding(store, schema, triple, stated)
        if spans:  # another lesson states it too: grounded anew on that lesson's words
            ops += _regrounded(policy, edge, spans, f"the new version {lesson.id} does not support it", at)
            outcomes[("rejudge", "reground")] += 1
            continue
        closing = decision(
            policy,
            None,
            "rejudge",
            "unsupported",
            "invalidated",
            f"edge {edge.version_id} ({' '.join(triple)}) rested only on {', '.join(sorted(sources))}; "
            f"the new version {lesson.id} does not support it",
            at,
            {"version_id": edge.version_id, "cost": Cost().as_dict()},
        )
        ops += [closing, invalidation_op(edge.version_id, closing)]
        admission.graph.invalidate(*triple)
        outcomes[("rejudge", "invalidate")] += 1
    return ops


def _own_words(lesson: LessonText, said: Proposal, found: LessonScan) -> list[SpanData]:
    """The evidence a new version gives an edge, fit to ground it (its quotes found in the text, no
    instruction in them or near them: ``found``, the lesson's scan); none when it is not."""
    spans, problem = ground(said.evidence, lambda lesson_id: lesson.text if lesson_id == lesson.id else None)
    return (
        []
        if problem or taint(said.evidence, lambda lesson_id: found if lesson_id == lesson.id else None)
        else spans
    )


def _regrounded(
    policy: Policy, edge: EdgeVersion, spans: list[SpanData], why: str, at: str
) -> list[Operation]:
    lessons = ", ".join(sorted({span.lesson_id for span in spans}))
    detail: dict[str, object] = {"version_id": edge.version_id, "lessons": lessons, "cost": Cost().as_dict()}
    stated = f"edge {edge.version_id}: {why}; {lessons} state it"  # one decision id per edge
    closing = decision(policy, None, "rejudge", "regrounded", "invalidated", stated, at, detail)
    said = f"edge {edge.edge_id} grounded on {lessons}: {why}"
    return regrounded(
        edge, spans, closing, decision(policy, None, "rejudge", "regrounded", "committed", said, at, detail)
    )


def known_outcome(
    store: Store, lesson: LessonText, known: Lesson, stale: set[str], *, meanwhile: bool
) -> LessonOutcome:
    """The outcome for a lesson whose text is stored already (under its own name or another); a
    note when that text is not what the course holds now (``stale``, :meth:`Store.stale_lessons`:
    a withdrawn lesson, a replaced version)."""
    if known.lesson_key != lesson.key:
        return LessonOutcome(lesson.source_path, "duplicate", known.id, f"same text as lesson {known.id}")
    why = "ingested by another run while this one ran" if meanwhile else "unchanged since it was ingested"
    if known.id not in stale:
        return LessonOutcome(lesson.source_path, "skipped", known.id, why)
    rows = store.query("lessons", {"as_of": None})  # no texts
    latest = next(str(row["id"]) for row in reversed(rows) if row["lesson_key"] == known.lesson_key)
    note = ""
    if latest != known.id:  # the graph no longer follows the course: refused, so the run says so
        return LessonOutcome(
            lesson.source_path,
            "refused",
            known.id,
            f"{lesson.source_path}: not ingested: its text is that of version {known.id}, which {latest} "
            "replaced; a version "
            "is stored once, so edit the lesson to make it a new version (the graph keeps the later one)",
        )
    if (withdrawal := store.withdrawals().get(known.id)) is not None:
        note = (
            f"not taken: lesson {known.id} was {withdrawn_note(withdrawal)}; `magg review reinstate "
            f"{known.lesson_key} --reviewer NAME --reason TEXT` brings it back as it was, or edit it (a "
            "new version)"
        )
    return LessonOutcome(lesson.source_path, "skipped", known.id, why, note=note)


def gone_from(store: Store, paths: Sequence[Path], skip: Sequence[str] = ()) -> list[GoneLesson]:
    """The current lessons read before from a file under one of the folders ``paths`` names, whose
    file is no longer there (a course that dropped a lesson, which a person may withdraw; a path
    recorded relative to another directory is looked for from this one), or is there but left out
    of every such folder's walk (:func:`~magg_kg.lesson_files.why_left_out`: a ``.github`` file an
    earlier version read, a ``--skip`` pattern), and not named itself: it stays in the graph, and
    a person may withdraw it."""
    folders = [path.resolve() for path in paths if path.is_dir()]
    if not folders:
        return []
    named = {path.resolve() for path in paths if not path.is_dir()}
    stale = store.stale_lessons()
    gone = []
    for row in store.query("lessons", {"as_of": None}):  # no texts
        file = Path(str(row["source_path"])).resolve()
        under = [folder for folder in folders if file.is_relative_to(folder)]
        if str(row["id"]) in stale or not under:
            continue
        left_out = [why_left_out(file.relative_to(folder).as_posix(), skip) for folder in under]
        if not file.exists():
            gone.append(GoneLesson(str(row["lesson_key"]), str(row["id"]), str(row["source_path"])))
        elif all(left_out) and file not in named:
            gone.append(
                GoneLesson(str(row["lesson_key"]), str(row["id"]), str(row["source_path"]), left_out[0])
            )
    return gone


def read_elsewhere(previous: Lesson | None, lesson: LessonText) -> str:
    """The file the latest version of ``lesson``'s key was read from, when that is another file
    than ``lesson``'s (:func:`magg_kg.lesson_files.same_file`); "" otherwise."""
    if previous is None or same_file(previous.source_path, lesson.source_path):
        return ""
    return previous.source_path


def moved_refusal(lesson: LessonText, elsewhere: str) -> str:
    """Why a file of a known key read from another file is not taken as that lesson's new version
    without ``--moved``: two courses with a file of one path ("intro.md") would replace each other's
    lessons, and invalidate the edges only the other supported. While that other file is still
    there (in this very run, at times: a folder given before as a subfolder), no course moved, and
    ``--moved`` is not offered: it would make one file a version of another."""
    said = f"{lesson.source_path}: not ingested: its key {lesson.key!r} is that of a lesson read from "
    if Path(elsewhere).exists():
        return (
            f"{said}{elsewhere}, which is still there: two files of one key; rename this one (or leave it "
            "out of the run: --skip GLOB in a folder), so that each is a lesson of its own"
        )
    return (
        f"{said}{elsewhere}; if this is that course moved, run again with --moved (it is then a new "
        "version); if it is another course, ingest from a folder that holds both, so that their paths "
        "in it differ"
    )
