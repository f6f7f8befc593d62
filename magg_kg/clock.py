"""Clocks: the one source of time, injected wherever time is read.

Time stamps are ISO 8601 UTC strings with microseconds, so text order is time order.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "StepClock", "SystemClock", "format_time", "parse_time"]

_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def format_time(moment: datetime) -> str:
    """Formats an aware datetime as a time stamp.

    >>> format_time(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000Z'
    """
    return moment.astimezone(UTC).strftime(_FORMAT)


def parse_time(text: str) -> str:
    """Reads a user's time (ISO 8601, a date, or a time stamp) as a time stamp; naive means UTC.

    >>> parse_time("2026-01-02")
    '2026-01-02T00:00:00.000000Z'
    >>> parse_time("2026-01-02T03:04:05+01:00")
    '2026-01-02T02:04:05.000000Z'
    """
    moment = datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        return format_time(moment)
    except OverflowError:  # "0001-01-01T00:00:00+01:00" is before the first time in UTC
        raise ValueError(f"{text!r} is out of the range of times") from None


class Clock(Protocol):
    def now(self) -> str:
        """The current time stamp; successive calls never go backwards."""
        ...


class SystemClock:
    """Wall-clock time, made strictly increasing so that as-of reads can tell writes apart."""

    def __init__(self) -> None:
        self._last = datetime.min.replace(tzinfo=UTC)

    def now(self) -> str:
        moment = datetime.now(UTC)
        if moment <= self._last:
            moment = self._last + timedelta(microseconds=1)
        self._last = moment
        return format_time(moment)


class StepClock:
    """A deterministic clock for tests and replays: starts at ``start``, steps on every read.

    >>> clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    >>> clock.now(), clock.now()
    ('2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:01.000000Z')
    """

    def __init__(self, start: str, step_seconds: float = 0.001) -> None:
        self._next = datetime.fromisoformat(start.replace("Z", "+00:00"))
        self._step = timedelta(seconds=step_seconds)

    def now(self) -> str:
        moment = self._next
        self._next = moment + self._step
        return format_time(moment)
