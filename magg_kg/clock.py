"""Clocks: the one source of time, injected wherever time is read.

Time stamps are ISO 8601 UTC strings with microseconds, so text order is time order.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Protocol

__all__ = ["Clock", "OutOfRange", "StepClock", "SystemClock", "format_time", "parse_time"]


def format_time(moment: datetime) -> str:
    """Formats an aware datetime as a time stamp.

    >>> format_time(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC))
    '2026-01-02T03:04:05.000000Z'
    >>> format_time(datetime(1, 1, 1, tzinfo=UTC))  # four digits of year, as text order needs
    '0001-01-01T00:00:00.000000Z'
    """
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def _moment(text: str) -> datetime:
    """An ISO 8601 time as an aware datetime; naive means UTC. Raises ValueError for other text."""
    moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def parse_time(text: str) -> str:
    """Reads a user's time (ISO 8601, a date, or a time stamp) as a time stamp; naive means UTC.

    >>> parse_time("2026-01-02")
    '2026-01-02T00:00:00.000000Z'
    >>> parse_time("2026-01-02T03:04:05+01:00")
    '2026-01-02T02:04:05.000000Z'
    """
    moment = _moment(text.strip())
    try:
        return format_time(moment)
    except OverflowError:  # "0001-01-01T00:00:00+01:00" is before the first time in UTC
        raise OutOfRange(f"{text!r} is before the first time or after the last") from None


class OutOfRange(ValueError):
    """A time written correctly that is no time in UTC (before year 1, after year 9999)."""


class Clock(Protocol):
    def now(self) -> str:
        """The current time stamp; successive calls never go backwards."""
        ...

    def observe(self, stamp: str | None) -> None:
        """Takes note of a time recorded elsewhere (the store's latest): every later :meth:`now`
        is after it. A writer whose clock is behind what another writer recorded (a clock set
        back, another machine's running ahead) then writes after that history instead of being
        refused by the store's time order; an earlier time, or None, changes nothing."""
        ...


_LAST_OBSERVABLE = datetime.max.replace(tzinfo=UTC) - timedelta(days=1)


def _observed(stamp: str | None) -> datetime | None:
    """The moment a stored time stands for, or None when there is none to observe: no time, one that
    does not read as a time stamp, or one at the end of the calendar (a clock moved past it could
    not step on; the store's time order refuses the write instead, with its reason).

    >>> _observed("2026-01-02T03:04:05.000000Z").year, _observed("9999-12-31T23:59:59.999999Z")
    (2026, None)
    >>> _observed("yesterday"), _observed(None)
    (None, None)
    """
    if stamp is None:
        return None
    try:
        moment = _moment(stamp)
    except ValueError:
        return None
    return moment if moment <= _LAST_OBSERVABLE else None


class SystemClock:
    """Wall-clock time, made strictly increasing so that as-of reads can tell writes apart, and
    never before a time it observed (a hybrid clock: the wall clock, or past the latest recorded
    time when the wall clock is behind it). Past a time ahead of the wall clock by this clock's own
    offset, a random part of a second drawn once: two processes that observe the same time (a
    store whose history runs ahead of both) would otherwise read the same times, and write
    batches of one id.

    ``history``, when given, is where the recorded history's latest time is read (a command's
    store: :meth:`magg_kg.store.Store.latest_time`). It is read once, at the first :meth:`now`, and
    observed: a command that never reads the time (``magg audit verify`` on a damaged file) never
    queries it.

    >>> clock = SystemClock()
    >>> clock.observe("2999-01-01T00:00:00.000000Z")
    >>> "2999-01-01T00:00:00.000000Z" < clock.now() < "2999-01-01T00:00:01.000001Z"
    True
    >>> SystemClock(history=lambda: "2999-01-01T00:00:00.000000Z").now() > "2999"
    True
    """

    def __init__(self, history: Callable[[], str | None] | None = None) -> None:
        self._last = datetime.min.replace(tzinfo=UTC)
        self._offset = timedelta(microseconds=random.SystemRandom().randrange(1_000_000))
        self._history = history

    def now(self) -> str:
        if self._history is not None:
            history, self._history = self._history, None
            self.observe(history())
        moment = datetime.now(UTC)
        if moment <= self._last:
            moment = self._last + timedelta(microseconds=1)
        self._last = moment
        return format_time(moment)

    def observe(self, stamp: str | None) -> None:
        moment = _observed(stamp)
        if moment is None:
            return
        ahead = moment >= datetime.now(UTC)  # only then would two clocks read the same times
        self._last = max(self._last, moment + self._offset if ahead else moment)


class StepClock:
    """A deterministic clock for tests and replays: starts at ``start``, steps on every read.

    >>> clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
    >>> clock.now(), clock.now()
    ('2026-01-01T00:00:00.000000Z', '2026-01-01T00:00:01.000000Z')
    """

    def __init__(self, start: str, step_seconds: float = 0.001) -> None:
        self._next = _moment(start)
        self._step = timedelta(seconds=step_seconds)

    def now(self) -> str:
        moment = self._next
        self._next = moment + self._step
        return format_time(moment)

    def observe(self, stamp: str | None) -> None:
        """The next reading is one step after ``stamp`` when it is not already later.

        >>> clock = StepClock("2026-01-01T00:00:00.000000Z", step_seconds=1.0)
        >>> clock.observe("2026-06-01T00:00:00.000000Z"); clock.now()
        '2026-06-01T00:00:01.000000Z'
        """
        moment = _observed(stamp)
        if moment is not None:
            self._next = max(self._next, moment + self._step)
