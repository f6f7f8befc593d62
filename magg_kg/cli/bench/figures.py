"""What every benchmark of ``magg bench`` shares: the time its clocks start at, and how its tables
show a figure."""

from __future__ import annotations

__all__ = ["CLOCK_START", "figure"]

CLOCK_START = "2026-01-01T00:00:00.000000Z"
"""A benchmark's clocks start here, so every run writes the same records."""


def figure(value: object) -> str:
    """A figure as a table cell: three decimals, or a dash for none.

    >>> [figure(v) for v in (0.12345, 7, None, "full")]
    ['0.123', '7', '—', 'full']
    """
    if value is None:
        return "—"
    return f"{value:.3f}" if isinstance(value, float) else str(value)
