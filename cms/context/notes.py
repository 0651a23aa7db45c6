"""What the context reads of what is remembered.

The memory items themselves are written by the rules of ``cms/memory/rules.py``; the
context block (``cms/context/context_block.py``) reads them here as plain values at a
rebuild. The test every note and summary passes on its way to a system block is
``cms/records.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from sqlalchemy import String, and_, bindparam, type_coerce
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import col

from storage import queries
from storage.models import MemoryItem

#: The statuses Claude reads: only what is settled (a contested item waits for the
#: person, in the memory panel).
SHOWN = queries.TOLD_STATUSES

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


_OLDER = aliased(MemoryItem)
_SHOWN_NOTES = (
    sa_select(col(MemoryItem.id), col(MemoryItem.fact),
              type_coerce(col(MemoryItem.kind), String),
              type_coerce(col(MemoryItem.status), String), col(MemoryItem.created_ts),
              col(MemoryItem.expires_ts), col(_OLDER.fact), col(_OLDER.created_ts))
    # (only a fact that changes, about a subject's property, tells what it replaced: a
    # like said again or corrected replaces the old words, which Claude is not shown)
    .outerjoin(_OLDER, and_(col(_OLDER.id) == col(MemoryItem.supersedes_id),
                            col(MemoryItem.key).startswith("fact:")))
    .where(col(MemoryItem.status).in_([s.value for s in SHOWN]))
    .order_by(col(MemoryItem.id))
)


def shown_notes(db: queries.Db, now: datetime) -> tuple[Note, ...]:
    """``active_items`` as plain values, for the context block: one Core statement (a
    rebuild renders the block every time; ORM objects cost ~0.3 ms even for none)."""
    now_utc = now.astimezone(UTC).isoformat()
    return tuple(Note(i, fact, kind, status, created, before or "", before_ts or "")
                 for i, fact, kind, status, created, expires, before, before_ts
                 in queries.run(db, _SHOWN_NOTES)
                 if expires is None or expires > now_utc)


_EXPIRED_BETWEEN = sa_select(col(MemoryItem.id)).where(
    col(MemoryItem.expires_ts).is_not(None),
    col(MemoryItem.expires_ts) > bindparam("low"),
    col(MemoryItem.expires_ts) <= bindparam("high"),
).limit(1)


def expired_since(db: queries.Db, since: datetime, now: datetime) -> bool:
    """Did a remembered item expire after ``since``? Then a summary written at ``since``
    may still mention it and must not be sent any more."""
    low, high = since.astimezone(UTC).isoformat(), now.astimezone(UTC).isoformat()
    found = queries.run(db, _EXPIRED_BETWEEN, {"low": low, "high": high})
    return found.first() is not None
