"""The wall clock, for the app and the librarian process (``cms`` only receives clocks)."""

from __future__ import annotations

from datetime import datetime


class SystemClock:
    """The person's wall clock in the system time zone."""

    def now(self) -> datetime:
        return datetime.now().astimezone()
