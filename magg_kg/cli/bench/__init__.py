"""``magg bench``: benchmarks that measure governance on labelled data, and scale.

Each module of this package adds its commands to the group with ``register(bench)``, as every
command module adds its own to the ``magg`` app; a new benchmark is one more module and one more
line in :data:`BENCHMARKS`.
"""

from __future__ import annotations

from collections.abc import Callable

import typer

from magg_kg.cli.bench import blind, perf, qa, replay, scierc

__all__ = ["BENCHMARKS", "register"]

BENCHMARKS: tuple[Callable[[typer.Typer], None], ...] = (
    replay.register,
    qa.register,
    scierc.register,
    perf.register,
    blind.register,
)
"""The group's commands, in the order ``magg bench --help`` lists them."""


def register(app: typer.Typer) -> None:
    """Adds the ``bench`` group to the ``magg`` app."""
    bench = typer.Typer(help="Benchmarks: governance measured on labelled data.", no_args_is_help=True)
    for add in BENCHMARKS:
        add(bench)
    app.add_typer(bench, name="bench")
