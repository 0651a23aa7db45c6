"""What the context reads of what is remembered.

The memory items themselves are written by the rules of ``cms/memory/rules.py``; the
context block (``cms/context/context_block.py``) reads them here as plain values at a
rebuild. The test every note and summary passes on its way to a system block is
``cms/records.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from storage import memory as memory_rows
from storage.memory import TOLD_STATUSES
from storage.rows import Db

#: The statuses Claude reads: only what is settled (a contested item waits for the
#: person, in the memory panel).
SHOWN = TOLD_STATUSES

@dataclass(frozen=True, slots=True)
class Note:
    """A remembered item as the context block shows it (plain values, read at a rebuild)."""

    id: int
    fact: str
    kind: str
    status: str
    created_ts: str
    #: What this item replaced (a fact that changed: "I live in Nagoya"), and when that
    #: was remembered; "" when it replaced nothing.
    before: str = ""
    before_ts: str = ""


def shown_notes(db: Db, now: datetime) -> tuple[Note, ...]:
    """``active_items`` as plain values, for the context block: one Core statement (a
    rebuild renders the block every time; ORM objects cost ~0.3 ms even for none)."""
    now_utc = now.astimezone(UTC).isoformat()
    return tuple(Note(i, fact, kind, status, created, before or "", before_ts or "")
                 for i, fact, kind, status, created, expires, before, before_ts
                 in memory_rows.told(db)
                 if expires is None or expires > now_utc)


def expired_since(db: Db, since: datetime, now: datetime) -> bool:
    """Did a remembered item expire after ``since``? Then a summary written at ``since``
    may still mention it and must not be sent any more."""
    low, high = since.astimezone(UTC).isoformat(), now.astimezone(UTC).isoformat()
    return memory_rows.expired_between(db, low, high)
