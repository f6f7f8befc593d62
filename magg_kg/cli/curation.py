"""The commands by which a person curates the graph's committed edges and its lessons:
``magg review invalidate``, ``restore``, ``withdraw`` and ``reinstate`` (:mod:`governance.curation`,
:mod:`governance.withdrawal`), and the write that each person's decision shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated

import typer

from governance.curation import invalidate, restore
from governance.withdrawal import reinstate, withdraw
from magg_kg.cli.context import BY_METAVAR, Context, DbOption, open_context, write_batch
from magg_kg.errors import UserError
from magg_kg.operations import Operation, RecordDecision

__all__ = [
    "ReviewerOption",
    "person_decides",
    "review_invalidate",
    "review_reinstate",
    "review_restore",
    "review_withdraw",
]

ReviewerOption = Annotated[
    str, typer.Option("--reviewer", metavar="NAME", help="Your name, recorded with the decision.")
]


def review_invalidate(
    ident: Annotated[
        str,
        typer.Argument(
            metavar="EDGE", click_type=BY_METAVAR, help="An active edge's id (e-...) or version id."
        ),
    ],
    reviewer: ReviewerOption,
    reason: Annotated[str, typer.Option("--reason", metavar="REASON", help="Why the edge is wrong.")],
    db: DbOption = None,
) -> None:
    """Invalidate a committed edge, with the reason; no lesson commits it again unless a person
    restores it."""
    person_decides(
        db,
        ident,
        "invalidate",
        lambda ctx: invalidate(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, reason),
        f"invalidated {ident}; the rules refuse it until a person restores it",
    )


def review_restore(
    ident: Annotated[
        str,
        typer.Argument(
            metavar="EDGE", click_type=BY_METAVAR, help="The edge's id, or the id of the version invalidated."
        ),
    ],
    reviewer: ReviewerOption,
    reason: Annotated[
        str, typer.Option("--reason", metavar="REASON", help="Why the invalidation was wrong.")
    ],
    db: DbOption = None,
) -> None:
    """Undo a person's invalidation of an edge: the rules run again, then the edge is committed."""
    person_decides(
        db,
        ident,
        "restore",
        lambda ctx: restore(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, reason),
        f"restored {ident}: edge committed again",
    )


def review_withdraw(
    ident: Annotated[
        str,
        typer.Argument(
            metavar="LESSON", click_type=BY_METAVAR, help="The lesson's key, a version's id, or its file."
        ),
    ],
    reviewer: ReviewerOption,
    reason: Annotated[
        str, typer.Option("--reason", metavar="REASON", help="Why the lesson leaves the course.")
    ],
    db: DbOption = None,
) -> None:
    """Withdraw a lesson from the course: the edges only it grounds are invalidated, its open
    proposals closed, and answers no longer quote it (nothing is deleted)."""

    def done(ops: Sequence[Operation]) -> str:
        decided = [(op.verdict, op.state_after) for op in ops if isinstance(op, RecordDecision)]
        return (
            f"withdrew {ident}: {decided.count(('withdrawn', 'invalidated'))} edge(s) only it grounded "
            f"invalidated, {decided.count(('regrounded', 'committed'))} grounded again on another lesson "
            f"that states them, {decided.count(('withdrawn', 'rejected'))} open proposal(s) of it closed"
        )

    person_decides(
        db,
        ident,
        "withdraw",
        lambda ctx: withdraw(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, reason),
        done,
    )


def review_reinstate(
    ident: Annotated[
        str,
        typer.Argument(
            metavar="LESSON",
            click_type=BY_METAVAR,
            help="The withdrawn lesson's key, a version's id, or its file.",
        ),
    ],
    reviewer: ReviewerOption,
    reason: Annotated[
        str, typer.Option("--reason", metavar="REASON", help="Why the lesson is back in the course.")
    ],
    db: DbOption = None,
) -> None:
    """Undo a lesson's withdrawal: the edges it closed are committed again where the rules still
    pass, and its proposals that were open are open again."""
    kept_out: list[str] = []

    def decided(ctx: Context) -> list[Operation]:
        ops, refused = reinstate(ctx.store, ctx.clock, ctx.config.policy, ident, reviewer, reason)
        kept_out.extend(refused)
        return ops

    def done(ops: Sequence[Operation]) -> str:
        decided = [(op.verdict, op.state_after) for op in ops if isinstance(op, RecordDecision)]
        back = decided.count(("reinstated", "committed"))
        reopened = sum(1 for verdict, state in decided if verdict == "reinstated" and state != "committed")
        said = f"reinstated {ident}: {back} edge(s) committed again, {reopened} proposal(s) of it open again"
        if quoting := decided.count(("regrounded", "committed")):
            said += f", {quoting} edge(s) another lesson grounds quote it again"
        if kept_out:
            refusals = "; ".join(kept_out[:3])
            said += f"; {len(kept_out)} edge(s) stay closed, as the rules refuse them now: {refusals}"
        return said

    person_decides(db, ident, "reinstate", decided, done)


def person_decides(
    db: Path | None,
    ident: str,
    action: str,
    decided: Callable[[Context], list[Operation]],
    done: str | Callable[[Sequence[Operation]], str],
) -> None:
    """Writes a person's decision on ``ident``, the write lock held from the read to the write (as
    in :func:`review_approve`), and says ``done`` (or what it makes of the ops written)."""
    with open_context(db, decides=True, held=True) as ctx:
        ops = decided(ctx)
        refused = write_batch(ctx.store, ctx.clock, "review", ident, ops, None)
        if refused:
            decided(ctx)  # what settled it since (another reviewer, on D1), said as a refusal, if anything
            raise UserError(
                f"cannot {action} {ident}: the store refused the decision ({refused}); nothing written"
            )
        ctx.out.print(done if isinstance(done, str) else done(ops), markup=False)
