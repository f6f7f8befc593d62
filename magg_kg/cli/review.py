"""``magg review``, ``magg recheck``, ``magg reconsider`` and ``magg discover``: the loop after
admission.

Each write is one atomic batch, written by :func:`magg_kg.cli.context.write_batch` (audit events,
and the LLM usage rows of the work it records). A batch refused because another process changed
the graph meanwhile is reported, the others still land, and the command exits 1: running it again
finishes the work. A batch whose precondition failed (another run settled first what it decides)
is skipped, not reported as refused.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated

import typer
from rich.table import Table

from governance.discovery import discover as run_discover
from governance.recheck import recheck as run_recheck
from governance.reconsider import ROUNDS, Reconsidered, still_open
from governance.reconsider import reconsider as run_reconsider
from governance.review import approve, case_of, pending, reject
from magg_kg.cli.context import (
    BY_METAVAR,
    Context,
    DbOption,
    JsonOption,
    open_context,
    print_json,
    write_batch,
)
from magg_kg.cli.curation import (
    ReviewerOption,
    person_decides,
    review_invalidate,
    review_reinstate,
    review_restore,
    review_withdraw,
)
from magg_kg.errors import UserError
from magg_kg.llm.usage import UsageLog
from magg_kg.operations import InvalidateEdge, Operation
from magg_kg.store import SETTLED

__all__ = [
    "MAX_LIMIT",
    "discover_command",
    "recheck_command",
    "reconsider_command",
    "register",
    "rerun_hint",
    "review_approve",
    "review_list",
    "review_reject",
    "review_show",
]

SKIPPED = "settled by another run first"
"""Why a result was not written: its batch's precondition failed (:meth:`_record`)."""
MAX_LIMIT = 1_000_000_000
"""The largest ``--limit``: far above any graph, far below what SQLite's integer holds."""


def register(app: typer.Typer) -> None:
    """Adds the ``review`` group (``list``, ``show``, ``approve``, ``reject``, ``invalidate``,
    ``restore``, ``withdraw``, ``reinstate``), ``recheck``, ``reconsider`` and ``discover`` to the
    ``magg`` app."""
    review = typer.Typer(
        help="Human review of quarantined proposals, and of committed edges.", no_args_is_help=True
    )
    review.command("list")(review_list)
    review.command("show")(review_show)
    review.command("approve")(review_approve)
    review.command("reject")(review_reject)
    review.command("invalidate")(review_invalidate)
    review.command("restore")(review_restore)
    review.command("withdraw")(review_withdraw)
    review.command("reinstate")(review_reinstate)
    app.add_typer(review, name="review")
    app.command("recheck")(recheck_command)
    app.command("reconsider")(reconsider_command)
    app.command("discover")(discover_command)


def _usage(ctx: Context) -> UsageLog:
    """The command's LLM, as its usage log (which the governance loops ask through)."""
    _, usage = ctx.llm()
    return usage


def _write(ctx: Context, kind: str, key: str, ops: Sequence[Operation], usage: UsageLog | None) -> str:
    return write_batch(ctx.store, ctx.clock, kind, key, ops, usage)


def _record(
    ctx: Context,
    kind: str,
    key: str,
    what: str,
    row: dict[str, object],
    ops: Sequence[Operation],
    usage: UsageLog,
    refused: list[str],
) -> dict[str, object]:
    """Writes one result's ops (when it has any) in a batch of its own, and notes in its summary
    ``row`` whether it was written. A batch whose precondition failed (another run settled what it
    decides first: :data:`~magg_kg.store.SETTLED`) is ``skipped``, not an error; another refusal
    is added to ``refused`` as ``what: why``."""
    if ops:
        problem = _write(ctx, kind, key, ops, usage)
        row["written"] = not problem
        if problem.startswith(SETTLED):
            row["skipped"] = SKIPPED
        elif problem:
            refused.append(f"{what}: {problem}")
            row["refused"] = problem
    return row


def _states(rows: Sequence[Mapping[str, object]]) -> dict[str, int]:
    """How many results ended in each state, of those this run wrote or had nothing to write for
    (open, skipped by discovery): a result it did not write is not counted."""
    states: dict[str, int] = {}
    for row in rows:
        if row.get("written", True) is True:
            states[str(row["state"])] = states.get(str(row["state"]), 0) + 1
    return states


def _skipped(rows: Sequence[Mapping[str, object]]) -> int:
    """How many results another run settled first (nothing of them written here)."""
    return sum(1 for row in rows if row.get("skipped"))


def _tally(states: Mapping[str, int], skipped: int) -> str:
    """The states' counts, and what was skipped, as a person reads them.

    >>> _tally({"open": 2}, 3), _tally({}, 3), _tally({}, 0)
    ('open 2; 3 settled by another run first, skipped', '3 settled by another run first, skipped', 'none')
    """
    parts = [_counts(states)] if states or not skipped else []
    return "; ".join([*parts, *([f"{skipped} {SKIPPED}, skipped"] if skipped else [])])


def _counts(states: Mapping[str, int]) -> str:
    """States and their counts as a person reads them.

    >>> _counts({"committed": 20, "open": 207})
    'committed 20, open 207'
    """
    return ", ".join(f"{state} {count}" for state, count in states.items()) or "none"


def _finish(ctx: Context, command: str, refused: Sequence[str], usage: UsageLog | None) -> None:
    if usage is not None:
        usage.flush(ctx.store, ctx.clock)
    calls = usage.recorded if usage is not None else []
    if calls and all(call.outcome not in ("ok", "cached") for call in calls):
        ctx.err.print(
            f"warning: every model call failed ({len(calls)} of {len(calls)}, {calls[0].outcome}): "
            f"nothing was judged; check the model settings and run `magg {command}` again",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(1)
    if refused:
        ctx.err.print(
            f"{len(refused)} batch(es) refused because the graph changed while `magg {command}` ran "
            f"(another process writing?): {refused[0]}; nothing of them was written; "
            f"run `magg {command}` again to finish",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(1)


def review_list(db: DbOption = None, json_: JsonOption = False) -> None:
    """Quarantined proposals waiting for a person, oldest first."""
    with open_context(db) as ctx:
        items = [item.summary() for item in pending(ctx.store)]
        if json_:
            print_json({"count": len(items), "items": items})
            return
        if not items:
            ctx.out.print("no proposal is waiting for review")
            return
        table = Table(title=f"{len(items)} proposal(s) waiting for review")
        table.add_column("review id", overflow="fold", min_width=18)  # ids are typed back: never cut
        table.add_column("proposal", overflow="fold", min_width=18)
        table.add_column("edge")
        table.add_column("reason", overflow="fold")  # an edge id in it is typed back too
        for item in items:
            edge, dup = f"{item['src']} {item['type']} {item['dst']}", item["duplicates"]
            why = f"cannot be approved (duplicates active edge {dup}): reject it; " if dup else ""
            table.add_row(str(item["id"]), str(item["proposal_id"]), edge, why + str(item["reason"])[:90])
        ctx.out.print(table)


def review_show(
    ident: Annotated[str, typer.Argument(metavar="ID", click_type=BY_METAVAR)],
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """A proposal's evidence, the owners' votes, and the judge's and debate's reasoning."""
    with open_context(db) as ctx:
        case = case_of(ctx.store, ident)
        if json_:
            print_json(case)
            return
        _print_case(ctx, case)


def _rows(value: object) -> list[dict[str, object]]:
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def _print_case(ctx: Context, case: Mapping[str, object]) -> None:
    say = ctx.out.print
    proposal = case["proposal"]
    assert isinstance(proposal, dict)
    edge = f"{proposal['src']} {proposal['type']} {proposal['dst']}"
    say(f"proposal {proposal['id']}: {edge} [{proposal['state']}]", markup=False)
    if proposal["state"] == "committed" and not case.get("edge_active"):
        say("its edge is no longer in the graph (closed since; `magg export --json` shows the graph)")
    if case.get("reason"):
        say(f"why it waits: {case['reason']}", markup=False)
    say("evidence:")
    for span in _rows(case.get("evidence")):
        where = f"{span['kind']}, {span['lesson_id']} {span['start']}-{span['end']}"
        say(f"  ({where}) {span['quote']!r}", markup=False)
    say("votes:")
    for vote in _rows(case.get("votes")):
        # Review verdicts carry owner and verdict; deliberation ballots only their domain.
        owner = vote.get("owner") or f"owner:{vote.get('domain')}"
        verdict = vote.get("verdict") or f"vote (weight {vote.get('weight')})"
        say(f"  {owner}: {verdict} {vote.get('score')} {vote.get('rationale', '')}", markup=False)
    say("decisions:")
    for decision in _rows(case.get("decisions")):
        score = decision.get("score")
        shown = f"{score:.2f}" if isinstance(score, float) else "-"
        say(
            f"  {decision['stage']}: {decision['verdict']} ({shown}) -> {decision['state_after']}: "
            f"{decision['rationale']}",
            markup=False,
        )
        debate = decision.get("debate")
        for turn in _rows(debate.get("transcript") if isinstance(debate, dict) else None):
            points = "; ".join(str(p.get("claim")) for p in _rows(turn.get("points")))
            who = f"round {turn['round']} {turn['side']} ({turn['agent']})"
            say(f"    {who}: {points or turn.get('failure', '')}", markup=False)


def review_approve(
    ident: Annotated[str, typer.Argument(metavar="ID", click_type=BY_METAVAR)],
    reviewer: ReviewerOption,
    note: Annotated[
        str, typer.Option("--note", "--reason", metavar="REASON", help="Why, for the record.")
    ] = "",
    db: DbOption = None,
) -> None:
    """Approve a quarantined proposal: the rules run again, then the edge is committed."""
    # The write lock is held from the read to the write: a second reviewer finds it settled.
    with open_context(db, decides=True, held=True) as ctx:
        ops = approve(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, note)
        refused = _write(ctx, "review", ident, ops, None)
        if refused:  # on D1, whose writers hold no lock, another reviewer may have settled it since
            approve(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, note)  # says who, if so
            raise UserError(
                f"cannot approve {ident}: the store refused the commit ({refused}); nothing written"
            )
        closed = sum(isinstance(op, InvalidateEdge) for op in ops)
        also = f"; {closed} edge in conflict with it closed" if closed else ""
        ctx.out.print(
            f"approved {ident}: edge committed, source review:{' '.join(reviewer.split())}{also}",
            markup=False,
        )


def review_reject(
    ident: Annotated[str, typer.Argument(metavar="ID", click_type=BY_METAVAR)],
    reviewer: ReviewerOption,
    reason: Annotated[str, typer.Option("--reason", metavar="REASON", help="Why the proposal is wrong.")],
    db: DbOption = None,
) -> None:
    """Reject a quarantined proposal, with the reason."""
    person_decides(
        db,
        ident,
        "reject",
        lambda ctx: reject(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, reason),
        f"rejected {ident}",
    )


def recheck_command(
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, max=MAX_LIMIT, metavar="N", help="Edges to re-judge (default 25)."),
    ] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Re-judge recently recorded active edges; invalidate those now below the reject bar (never
    an edge a person committed)."""
    with open_context(db, decides=True, asks=True) as ctx:
        usage = _usage(ctx)
        policy = ctx.config.policy
        results: list[dict[str, object]] = []
        refused: list[str] = []
        for result in run_recheck(ctx.store, usage, policy, ctx.clock, limit or policy.recheck_limit):
            what, key = f"edge version {result.version_id}", result.version_id
            results.append(_record(ctx, "recheck", key, what, result.summary(), result.ops, usage, refused))
        written = [r for r in results if r["written"] is True]
        counts = {v: sum(r["verdict"] == v for r in written) for v in ("keep", "invalidate", "void")}
        skipped = _skipped(results)
        if json_:
            print_json({"rechecked": len(results), "counts": counts, "skipped": skipped, "edges": results})
        else:
            for row in results:
                score = "-" if row["score"] is None else f"{row['score']:.2f}"
                verdict = "skipped" if row.get("skipped") else row["verdict"]
                ctx.out.print(f"{verdict:<10} {score}  {row['src']} {row['type']} {row['dst']}", markup=False)
            done = f"re-checked {len(results)} edge(s); invalidated {counts['invalidate']}"
            ctx.out.print(f"{done}{f'; {skipped} {SKIPPED}, skipped' if skipped else ''}", markup=False)
        _finish(ctx, "recheck", refused, usage)


def reconsider_command(
    limit: Annotated[
        int | None,
        typer.Option(
            "--limit",
            min=1,
            max=MAX_LIMIT,
            metavar="N",
            help="Open edges to judge again per round, oldest first (default: all). Edges left open "
            "are judged again by the next run, so a limit below the open edges never reaches the newer.",
        ),
    ] = None,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds",
            min=1,
            metavar="N",
            help="Rounds at most: while a round commits edges, the next judges those left open against them.",
        ),
    ] = ROUNDS,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Judge open (abstained) proposals again against the graph as it stands now: commit, reject,
    or leave them open; and those held only because a concept related to nothing in the
    curriculum, once it does. Run it after ingesting a course."""
    with open_context(db, decides=True, asks=True) as ctx:
        usage = _usage(ctx)
        latest: dict[tuple[str, str, str], dict[str, object]] = {}  # each edge's last result
        changed: list[Reconsidered] = []
        refused: list[str] = []
        last: dict[str, int] = {}  # the last round's states
        ran = 0
        while ran < rounds:
            ran += 1
            found_now: list[dict[str, object]] = []
            for found in run_reconsider(ctx.store, usage, ctx.config.policy, ctx.clock, limit):
                key, what = found.settled[-1], " ".join(found.triple)
                row = _record(ctx, "reconsider", key, what, found.summary(), found.ops, usage, refused)
                if found.state == "open" and not still_open(ctx.store, found):  # no batch to refuse
                    row.update(written=False, skipped=SKIPPED)
                latest[found.triple] = row
                found_now.append(row)
                if found.state != "open" and row.get("written") is True:
                    changed.append(found)
            last = _states(found_now)
            if refused or not _another_round(last):
                break
        results = list(latest.values())
        states, skipped = _states(results), _skipped(results)
        if json_:
            report = {"reconsidered": len(results), "rounds": ran, "states": states, "skipped": skipped}
            print_json({**report, "results": results})
        else:
            for result in changed:
                score = "-" if result.score is None else f"{result.score:.2f}"
                ctx.out.print(f"{result.state:<12} {score}  {' '.join(result.triple)}", markup=False)
            ctx.out.print(
                f"reconsidered {len(results)} open edge(s) in {ran} round(s): {_tally(states, skipped)}",
                markup=False,
            )
            hint = "" if refused else rerun_hint(last)
            if hint:
                ctx.out.print(hint, markup=False)
        _finish(ctx, "reconsider", refused, usage)


def _another_round(states: Mapping[str, int]) -> bool:
    """Whether a round that ended in ``states`` may be followed by one that changes something: it
    committed edges, and left open edges that were judged before those commits."""
    return bool(states.get("committed") and states.get("open"))


def rerun_hint(states: Mapping[str, int]) -> str:
    """What to do when the last round of a reconsideration committed edges and left others open:
    the edges judged before a commit did not see it (empty when there is nothing to say).

    >>> bool(rerun_hint({"committed": 2, "open": 5})), rerun_hint({"committed": 2}), rerun_hint({"open": 5})
    (True, '', '')
    """
    if not _another_round(states):
        return ""
    return (
        "edges judged before a commit of the last round did not see it: "
        "run `magg reconsider` again to judge those still open against it"
    )


def discover_command(
    limit: Annotated[
        int | None,
        typer.Option("--limit", min=1, max=MAX_LIMIT, metavar="N", help="Candidates per batch (default 20)."),
    ] = None,
    db: DbOption = None,
    json_: JsonOption = False,
) -> None:
    """Propose missing relations between concepts two hops apart, through rules, judge and debate."""
    with open_context(db, decides=True, asks=True) as ctx:
        usage = _usage(ctx)
        policy = ctx.config.policy
        results: list[dict[str, object]] = []
        refused: list[str] = []
        for found in run_discover(
            ctx.store, usage, policy, ctx.clock, limit or policy.discover_limit, ctx.config.seed
        ):
            pair = f"{found.candidate.a}|{found.candidate.c}"
            what = f"{found.candidate.a} / {found.candidate.c}"
            results.append(_record(ctx, "discover", pair, what, found.summary(), found.ops, usage, refused))
        states, skipped = _states(results), _skipped(results)
        if json_:
            print_json({"candidates": len(results), "states": states, "skipped": skipped, "results": results})
        else:
            for row in results:
                triple = row["proposal"]
                proposal = " ".join(str(x) for x in triple) if isinstance(triple, list) else "-"
                state = "skipped" if row.get("skipped") else row["state"]  # another run wrote it first
                ctx.out.print(f"{state:<12} {row['a']} ~ {row['c']}: {proposal}", markup=False)
            ctx.out.print(f"{len(results)} candidate(s): {_tally(states, skipped)}", markup=False)
        _finish(ctx, "discover", refused, usage)
