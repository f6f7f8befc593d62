"""``magg init``, ``magg ingest`` and ``magg demo``: the graph built by governed ingestion, from the
command line.

Exit codes: 0 when every lesson given was ingested, skipped as unchanged or reported as a
duplicate; 1 when at least one file was refused (the others are ingested all the same, and each
refusal is one line on stderr); 2 for a usage error (no such path, an empty folder).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from governance.ingest_report import IngestReport, LessonOutcome
from magg_kg.cli.context import BY_METAVAR, DbOption, JsonOption, open_context, print_json
from magg_kg.cli.ingestion import curriculum_folder, run_ingest
from magg_kg.config import without_password
from magg_kg.coverage import coverage_report
from magg_kg.errors import UserError
from magg_kg.lesson_files import find_lessons, notebooks_in
from magg_kg.lessons import DEFAULT_MAX_BYTES

__all__ = ["demo", "ingest_command", "ingest_report_json", "init", "register"]


def register(app: typer.Typer) -> None:
    """Adds ``init``, ``ingest`` and ``demo`` to the ``magg`` app."""
    app.command("init")(init)
    app.command("ingest")(ingest_command)
    app.command("demo")(demo)


def init(db: DbOption = None) -> None:
    """Create (or migrate) the database."""
    with open_context(db, create=True) as ctx:
        version = ctx.store.schema_version()
        d1 = ctx.config.store == "d1"
        where = f"D1 through {without_password(ctx.config.d1.url)}" if d1 else ctx.config.db
        ctx.out.print(f"database ready: {where} (schema version {version})")


def ingest_report_json(report: IngestReport) -> dict[str, object]:
    return {
        "lessons": {
            status: report.count(status)
            for status in ("new", "new-version", "skipped", "duplicate", "refused")
        },
        "files": [lesson.__dict__ for lesson in report.lessons],
        "concepts_added": report.concepts,
        "aliases_added": report.aliases,
        "proposals": report.proposals,
        "decisions": [
            {"stage": s, "verdict": v, "count": n} for (s, v), n in sorted(report.outcomes.items())
        ],
        "states": dict(sorted(report.states.items())),
        "domains": report.domains,
        "invalidated": report.invalidated,
        "cost": {stage: cost.as_dict() for stage, cost in sorted(report.cost.items())},
        "failures": report.failures,
        "conflicts": report.conflicts,
        "gone": [
            {"lesson_key": gone.key, "lesson_id": gone.lesson_id, "source_path": gone.path}
            for gone in report.gone
            if not gone.left_out
        ],
        "left_out": [
            {
                "lesson_key": gone.key,
                "lesson_id": gone.lesson_id,
                "source_path": gone.path,
                "why": gone.left_out,
            }
            for gone in report.gone
            if gone.left_out
        ],
    }


def print_ingest_summary(report: IngestReport, out: Console) -> None:
    lessons = Table(title="lessons")
    for column in ("new", "new version", "skipped", "duplicate", "refused", "concepts added", "proposals"):
        lessons.add_column(column)
    lessons.add_row(
        *(str(report.count(s)) for s in ("new", "new-version", "skipped", "duplicate", "refused")),
        str(report.concepts),
        str(report.proposals),
    )
    out.print(lessons)
    if report.outcomes:
        decisions = Table(title="decisions by stage and verdict")
        for column in ("stage", "verdict", "count"):
            decisions.add_column(column)
        for (stage, verdict), count in sorted(report.outcomes.items()):
            decisions.add_row(stage, verdict, str(count))
        out.print(decisions)
        out.print(
            "proposal states when admitted: "
            + ", ".join(f"{k} {v}" for k, v in sorted(report.states.items()))
        )
        if report.states.get("abstained"):
            out.print(
                "open (abstained) proposals were judged against the graph as it stood when their "
                "lesson came in: `magg reconsider` judges them again against the graph as it stands now"
            )
    if report.cost:
        cost = Table(title="LLM cost by stage")
        capped = any(c.capped for c in report.cost.values())  # calls the spend cap kept from being made
        for column in ("stage", "calls", "failures", "prompt tokens", "completion tokens"):
            cost.add_column(column)
        if capped:
            cost.add_column("not made (spend cap)")
        for stage, c in sorted(report.cost.items()):
            counts = (
                c.calls,
                c.failures,
                c.prompt_tokens,
                c.completion_tokens,
                *((c.capped,) if capped else ()),
            )
            cost.add_row(stage, *(str(count) for count in counts))
        out.print(cost)
    if report.domains:
        out.print(f"domains: {report.domains}; edges invalidated by re-judging: {report.invalidated}")
    if report.conflicts:
        retried = sum(1 for lesson in report.lessons if lesson.attempts > 1)
        out.print(
            f"{len(report.conflicts)} batch(es) refused because another writer changed the graph first; "
            f"{retried} lesson(s) read again and admitted again",
            markup=False,
            highlight=False,
        )


def _failures(report: IngestReport, err: Console) -> None:
    """A warning for the model calls that failed, with the first failures, and one for the calls
    the spend cap kept from being made (no call, so no failure): what either would have decided
    is left undecided."""
    capped = sum(cost.capped for cost in report.cost.values())
    if capped:
        err.print(
            f"warning: {capped} model call(s) not made: the spend cap was reached; what they would have "
            "decided is left undecided (abstained) or missing",
            markup=False,
            highlight=False,
        )
    failed = sum(cost.failures for cost in report.cost.values())
    if not failed:
        return
    err.print(
        f"warning: {failed} model call(s) failed; what they would have decided is left undecided "
        "(abstained) or missing",
        markup=False,
        highlight=False,
    )
    failures = [failure for failure in report.failures if ": over_budget: " not in failure]
    for failure in failures[:5]:
        err.print(f"  {failure}", markup=False, highlight=False)
    if len(failures) > 5:
        err.print(f"  ... and {len(failures) - 5} more", markup=False, highlight=False)


_ORDINARY = ("alt text", "title", "title text")
"""Hidden text every illustrated lesson has (alt text, titles): never evidence, not worth a warning."""


def _barren(report: IngestReport, err: Console, provider: str) -> None:
    """One warning line per lesson that left concepts out (named only beside instruction-like
    text), per new lesson that gave nothing: no new concept, no proposal (a lesson in another
    language, or with no prose, is recorded all the same, and skipped when run again; one that
    names only concepts the graph has already is said to), and, under the offline provider, per new
    lesson that gave something but whose prose is mostly in another language (the few English
    names in it are all that was read)."""
    for lesson in report.lessons:
        if lesson.held:
            err.print(
                f"warning: lesson {lesson.lesson_id} ({lesson.path}): {lesson.held} concept(s) it names "
                "only beside instruction-like text left out, with what it claims of them",
                markup=False,
                highlight=False,
            )
        if lesson.status not in ("new", "new-version"):
            continue
        if lesson.concepts or lesson.proposals:
            language = _language(lesson.path) if provider == "offline" else ""
            if language and language not in _NO_PROSE:
                err.print(
                    f"warning: lesson {lesson.lesson_id} ({lesson.path}): most of its prose reads as "
                    f"{language}, and the offline provider reads English prose only: {lesson.concepts} new "
                    f"concept(s) and {lesson.proposals} relation(s) came out of it",
                    markup=False,
                    highlight=False,
                )
        elif not lesson.held:
            language = _language(lesson.path)
            if language in _NO_PROSE:
                hint = f": it has {language}, only code, markup or tables"
            elif language and provider == "offline":  # German naming one known concept is still German
                hint = f": it reads as {language}, and the offline provider reads English prose only"
            else:
                hint = _english(lesson, provider)
            err.print(
                f"warning: lesson {lesson.lesson_id} ({lesson.path}): no new concept and no relation "
                f"came out of it{hint}",
                markup=False,
                highlight=False,
            )


def _english(lesson: LessonOutcome, provider: str) -> str:
    """Why a lesson of English prose gave nothing: most of it reads as instructions to the reviewer
    (evidence of nothing), or the rest names only known concepts, or nothing offline reads."""
    said = ""
    if lesson.instructed * 2 > lesson.sentences:  # a few are false alarms, and not why it gave nothing
        said = f": {lesson.instructed} of its {lesson.sentences} sentence(s) read as instructions to the "
        said += "reviewer, which are never evidence"
    if lesson.instructed and lesson.instructed == lesson.sentences:
        return said
    if lesson.named:  # an English lesson on what the graph has already
        return f"{said}{';' if said else ':'} the {lesson.named} concept(s) it names were known already"
    return said + ("; the offline provider reads English prose only" if provider == "offline" else "")


def _language(path: str) -> str:
    """What a lesson file reads as when it is not English prose: the language most of the prose of
    its first pages reads as ("German", "CJK script": :func:`agents.offline.language.prose_language`),
    "no prose" when they are code, markup or tables only, "no prose under its headings" when they are
    that and headings; "" for English or a file that cannot be read again. Only the prose view is
    read: a code block's ``d`` and ``c`` are not French."""
    from agents.offline.language import prose_language
    from agents.topics import without_headings
    from magg_kg.markup import find_prose, flavor_of

    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(20_000)
            prose = find_prose(head, flavor_of(path, head)).prose
    except OSError:
        return ""
    if not _PROSE_WORD.search(prose):
        return "no prose"
    if not _PROSE_WORD.search(without_headings(prose)):
        return "no prose under its headings"
    return prose_language(prose)


_PROSE_WORD = re.compile(r"[^\W\d_]{2,}")
_NO_PROSE = ("no prose", "no prose under its headings")


def _moved(report: IngestReport, err: Console) -> None:
    """One note per lesson read as a new version of a lesson read from another file (``--moved``)."""
    for lesson in report.lessons:
        if lesson.elsewhere:
            err.print(
                f"note: lesson {lesson.lesson_id} ({lesson.path}) is a new version of the lesson read "
                f"from {lesson.elsewhere} ({lesson.detail}), as --moved says",
                markup=False,
                highlight=False,
            )


def _notes(report: IngestReport, err: Console) -> None:
    """One note per file whose text is stored but is not what the course holds now (a withdrawn
    lesson, a version a later one replaced): it was not taken, and why; and one per lesson whose
    file is gone from a folder ingested (a course that dropped it), or left out of its walk (a
    hidden folder an earlier version read, ``--skip``), with how to withdraw it."""
    for lesson in report.lessons:
        if lesson.note:
            err.print(f"note: {lesson.path}: {lesson.note}", markup=False, highlight=False)
    for gone in report.gone:
        if gone.left_out:
            said = f"which this run left out ({gone.left_out}): it stays in the graph; if it should not"
        else:
            said = "which is gone; if the course dropped it"
        err.print(
            f"note: lesson {gone.key!r} was read from {gone.path}, {said}, `magg review withdraw "
            f"{gone.key} --reviewer NAME --reason TEXT` takes out what only it says",
            markup=False,
            highlight=False,
        )


def _notebooks(paths: list[Path], skip: tuple[str, ...], err: Console) -> None:
    """One note per folder whose walk saw Jupyter notebooks: they are not read (JSON, no lesson)."""
    for folder, notebooks in notebooks_in(paths, skip).items():
        names = [notebook.relative_to(folder).as_posix() for notebook in notebooks]
        shown = ", ".join(names[:3]) + (f", ... {len(names) - 3} more" if len(names) > 3 else "")
        err.print(
            f"note: {folder}: {len(names)} Jupyter notebook(s) not read ({shown}): a notebook is JSON, "
            "not a lesson; convert each with `jupyter nbconvert --to markdown NOTEBOOK` and ingest the .md "
            "files",
            markup=False,
            highlight=False,
        )


def _hidden(report: IngestReport, err: Console) -> None:
    """One warning line per lesson with concealed text (comments, hidden elements): it is
    suspicious and was never evidence."""
    for lesson in report.lessons:
        concealed = [h for h in lesson.hidden if not h.split(" at ")[0].endswith(_ORDINARY)]
        if not concealed:
            continue
        shown = ", ".join(concealed[:3]) + (f", ... {len(concealed) - 3} more" if len(concealed) > 3 else "")
        err.print(
            f"warning: lesson {lesson.lesson_id}: {len(concealed)} hidden text span(s) ignored "
            f"(suspicious: {shown})",
            markup=False,
            highlight=False,
        )


def _refusals(report: IngestReport, err: Console) -> int:
    refused = [lesson for lesson in report.lessons if lesson.status == "refused"]
    for lesson in refused:
        err.print(f"refused: {lesson.detail}", markup=False, highlight=False)
    return 1 if refused else 0


PathsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="PATH...",
        click_type=BY_METAVAR,
        help="Lessons (Markdown, MDX or HTML) or folders of them (walked into subfolders, but not "
        "hidden ones, such as .git and .github, nor node_modules).",
        show_default=False,
    ),
]
MaxCalls = Annotated[
    int | None, typer.Option("--max-calls", min=0, metavar="N", help="Stop asking the model after N calls.")
]
MaxTokens = Annotated[
    int | None, typer.Option("--max-tokens", min=0, metavar="N", help="Stop asking the model after N tokens.")
]
Flat = Annotated[
    bool, typer.Option("--flat", help="Ablation: commit every proposal that passes the schema checks.")
]
MaxBytes = Annotated[
    int, typer.Option("--max-bytes", min=1, metavar="BYTES", help="Refuse lesson files larger than this.")
]
Skip = Annotated[
    list[str] | None,
    typer.Option(
        "--skip",
        metavar="GLOB",
        help="Leave out the files of a folder whose path in it matches (repeatable; * spans folders: "
        '"*/translations/*").',
    ),
]
Moved = Annotated[
    bool,
    typer.Option(
        "--moved",
        help="A file whose key is that of a lesson read from another file is that lesson's new version "
        "(the course moved); without it such a file is refused, as another course's file of the same key.",
    ),
]


def ingest_command(
    paths: PathsArgument,
    db: DbOption = None,
    json_: JsonOption = False,
    max_calls: MaxCalls = None,
    max_tokens: MaxTokens = None,
    flat: Flat = False,
    max_bytes: MaxBytes = DEFAULT_MAX_BYTES,
    skip: Skip = None,
    moved: Moved = False,
) -> None:
    """Ingest lessons (Markdown, MDX or HTML; files or folders) through governed admission."""
    if any(not path.strip() for path in paths):  # a Path of "" would be this folder, read whole
        raise UserError("an empty lesson path names no lesson: pass a file or a folder (`.` for this one)")
    lessons = [Path(path) for path in paths]
    patterns = tuple(skip or ())
    find_lessons(lessons, patterns)  # a mistyped lesson path is refused before a database is created
    with open_context(db, create=True, decides=True, asks=True) as ctx:
        report = run_ingest(
            ctx,
            lessons,
            show_progress=not json_ and sys.stderr.isatty(),
            flat=flat,
            max_calls=max_calls,
            max_tokens=max_tokens,
            max_bytes=max_bytes,
            skip=patterns,
            moved=moved,
        )
        if json_:
            print_json(ingest_report_json(report))
        else:
            print_ingest_summary(report, ctx.out)
        _failures(report, ctx.err)
        _barren(report, ctx.err, ctx.config.llm.provider)
        _moved(report, ctx.err)
        _notes(report, ctx.err)
        _notebooks(lessons, patterns, ctx.err)
        _hidden(report, ctx.err)
        code = _refusals(report, ctx.err)
    if code:
        raise typer.Exit(code)


def demo(db: DbOption = None, json_: JsonOption = False) -> None:
    """Ingest the bundled sample curriculum into the graph (--db) and show what happened.

    It runs under the configured MAGG_LLM and MAGG_POLICY, as ingest does (unset: offline, default policy).
    """
    with open_context(db, create=True, decides=True, asks=True) as ctx:
        report = run_ingest(ctx, [curriculum_folder()], show_progress=not json_ and sys.stderr.isatty())
        _failures(report, ctx.err)
        if json_:  # what `magg ingest --json` prints, and the coverage after it
            print_json({**ingest_report_json(report), "coverage": coverage_report(ctx.store)})
            return
        out = ctx.out
        if report.count("new") + report.count("new-version") == 0:
            out.print(
                f"nothing to do: the {report.count('skipped')} bundled lessons are already in "
                f"{ctx.config.where}"
            )
        else:
            print_ingest_summary(report, out)
        cover = coverage_report(ctx.store)
        overall = cover["overall"]
        assert isinstance(overall, dict)
        out.print(
            f"coverage: {overall['concepts']} concepts, {overall['active_edges']} active edges, "
            f"{len(overall['prerequisite_cycles'])} prerequisite cycles, {overall['lessons']} lessons"
        )
        domains = [row for row in ctx.store.domains() if not json.loads(str(row["card"])).get("retired")]
        out.print(f"domains ({len(domains)}): " + "; ".join(f"{row['id']} {row['name']}" for row in domains))
        states = Counter(p.state for p in ctx.store.proposals())
        out.print(
            "proposals by state now (later evidence can settle earlier ones): "
            + ", ".join(f"{k} {v}" for k, v in sorted(states.items()))
        )
        out.print(f"database: {ctx.config.where}")
        out.print(
            "next: `magg domains`, `magg coverage`, `magg usage`, `magg audit verify`, "
            "`magg ingest YOUR-LESSONS/`"
        )
