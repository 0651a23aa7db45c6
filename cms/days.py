"""Which day a moment belongs to: its local date minus the day boundary."""

from __future__ import annotations

from datetime import datetime, time, timedelta


def day_of(moment: datetime, day_start: time) -> str:
    """``01:30`` with a ``04:00`` boundary belongs to the evening before."""
    shifted = moment - timedelta(hours=day_start.hour, minutes=day_start.minute)
    return shifted.date().isoformat()
