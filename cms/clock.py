"""Clocks. ``cms`` never reads the wall clock itself; it is handed one of these."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from functools import lru_cache
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """An aware datetime in the person's local offset."""
        ...


class ManualClock:
    """A clock set by hand: replays and tests move it to each trace timestamp."""

    def __init__(self, start: datetime) -> None:
        if start.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = start

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("ManualClock needs an aware datetime")
        self._now = when


def parse_ts(text: str) -> datetime:
    """Parse an ISO 8601 timestamp that carries an offset."""
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        raise ValueError(f"timestamp without an offset: {text!r}")
    return value


@lru_cache(maxsize=8192)
def hhmm(ts: str) -> str:
    """HH:MM of a stored time, local to its offset (remembered: every request writes its
    turns' times, every render its lines')."""
    return parse_ts(ts).strftime("%H:%M")


def clock_in(ts: str, day: str) -> str:
    """HH:MM of a stored time on the clock of the day it counts in: after midnight and
    before the day starts, the hours go on past 24 ("24:13" for 00:13 the next morning),
    so that a day's lines read in order and keep their date."""
    moment = parse_ts(ts)
    try:
        behind = (moment.date() - date.fromisoformat(day)).days
    except ValueError:
        behind = 0
    if behind <= 0:
        return moment.strftime("%H:%M")
    return f"{moment.hour + 24 * behind:02d}:{moment.minute:02d}"


def day_of(moment: datetime, day_start: time) -> str:
    """Which day a moment belongs to: its local date minus the day boundary.

    ``01:30`` with a ``04:00`` boundary belongs to the evening before."""
    shifted = moment - timedelta(hours=day_start.hour, minutes=day_start.minute)
    return shifted.date().isoformat()
