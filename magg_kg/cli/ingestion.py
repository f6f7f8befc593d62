"""Ingestion as the command line composes it: the LLM stack, the judge and the ingestion context
built from a command's context, with a progress bar on a terminal.

``magg ingest`` and ``magg demo`` run it, and so do the benchmarks that build graphs from lessons
(``magg bench qa``, ``benchmarks/qa.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from agents.cost import Cost
from agents.roles import BUNDLED
from governance.ingest_report import IngestReport
from governance.ingestion import IngestContext, ingest
from governance.judgment import Judgment
from magg_kg.cli.context import Context
from magg_kg.lessons import DEFAULT_MAX_BYTES
from magg_kg.operations import RecordUsage

__all__ = ["curriculum_folder", "run_ingest"]


def curriculum_folder() -> Path:
    """The bundled curriculum, as a folder (works from an installed package)."""
    folder = resources.files("magg_kg.curriculum")
    return Path(str(folder))


def run_ingest(
    ctx: Context,
    paths: list[Path],
    *,
    show_progress: bool,
    flat: bool = False,
    max_calls: int | None = None,
    max_tokens: int | None = None,
    max_bytes: int = DEFAULT_MAX_BYTES,
    skip: tuple[str, ...] = (),
    moved: bool = False,
) -> IngestReport:
    """Builds the LLM stack (closed when the command ends) and the ingestion context from a command's
    context and runs ingestion."""
    calls, tokens = ctx.config.llm.cap_settings  # what --max-calls and --max-tokens set, they name
    llm_config = ctx.config.llm.model_copy(
        update={
            key: value
            for key, value in (("max_calls", max_calls), ("max_tokens", max_tokens))
            if value is not None
        }
        | {
            "cap_settings": (
                calls if max_calls is None else "--max-calls",
                tokens if max_tokens is None else "--max-tokens",
            )
        }
    )
    llm, usage = ctx.llm(llm_config, bundled=BUNDLED)
    context = IngestContext(
        store=ctx.store,
        llm=llm,
        clock=ctx.clock,
        policy=ctx.config.policy,
        seed=ctx.config.seed,
        flat=flat,
        max_bytes=max_bytes,
        skip=skip,
        moved=moved,
        usage=usage,
        gate=None if flat else Judgment(llm, ctx.config.policy, ctx.clock, ctx.store),
    )
    if not show_progress:
        report = ingest(paths, context)
    else:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("{task.fields[what]}"),
            console=ctx.err,
            transient=True,
        ) as bar:
            tasks: dict[str, TaskID] = {}

            def step(phase: str, done: int, total: int, what: str) -> None:
                if phase not in tasks:
                    tasks[phase] = bar.add_task(phase, total=total, what="")
                bar.update(tasks[phase], completed=done, what=what)

            context.progress = step
            report = ingest(paths, context)
    usage.flush(ctx.store, ctx.clock)
    report.cost = _cost_of(usage.recorded)
    return report


def _cost_of(recorded: Sequence[RecordUsage]) -> dict[str, Cost]:
    """The run's LLM cost by stage, from the calls its usage log recorded (every stage, the gate's
    included; not those of another process writing to the same database meanwhile)."""
    costs: dict[str, Cost] = {}
    for row in recorded:
        cost = costs.setdefault(row.stage, Cost())
        capped = row.outcome == "over_budget"  # the spend cap kept it from being made
        cost.calls += 0 if capped else 1
        cost.capped += capped
        cost.failures += 0 if capped or row.outcome in ("ok", "cached") else 1
        cost.prompt_tokens += row.prompt_tokens
        cost.completion_tokens += row.completion_tokens
    return costs
