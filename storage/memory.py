"""What is remembered, as stored: the memory items and the context summary (issue 42:
these queries were built in cms's notes and forget, and in operations).

The rules that decide what is remembered are ``cms/memory/rules.py``; the statements a
rebuild runs every time are built once here, as Core statements with plain values (ORM
objects cost ~0.3 ms even for none).
"""

from __future__ import annotations

from sqlalchemy import String, and_, bindparam, delete, type_coerce
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from storage.models import ContextSummary, MemoryItem
from storage.queries import TOLD_STATUSES, Db, run

_OLDER = aliased(MemoryItem)
_TOLD = (
    sa_select(col(MemoryItem.id), col(MemoryItem.fact),
              type_coerce(col(MemoryItem.kind), String),
              type_coerce(col(MemoryItem.status), String), col(MemoryItem.created_ts),
              col(MemoryItem.expires_ts), col(_OLDER.fact), col(_OLDER.created_ts))
    # (only a fact that changes, about a subject's property, tells what it replaced: a
    # like said again or corrected replaces the old words, which Claude is not shown)
    .outerjoin(_OLDER, and_(col(_OLDER.id) == col(MemoryItem.supersedes_id),
                            col(MemoryItem.key).startswith("fact:")))
    .where(col(MemoryItem.status).in_([s.value for s in TOLD_STATUSES]))
    .order_by(col(MemoryItem.id))
)
_EXPIRED_BETWEEN = sa_select(col(MemoryItem.id)).where(
    col(MemoryItem.expires_ts).is_not(None),
    col(MemoryItem.expires_ts) > bindparam("low"),
    col(MemoryItem.expires_ts) <= bindparam("high"),
).limit(1)

#: A told item: id, fact, kind, status, created, expires (or None), and the fact it
#: replaced with when that was remembered (None, None when it replaced nothing).
ToldRow = tuple[int, str, str, str, str, "str | None", "str | None", "str | None"]


def told(db: Db) -> list[ToldRow]:
    """The items Claude is told (settled ones, expired or not), oldest first."""
    return [tuple(row) for row in run(db, _TOLD)]


def expired_between(db: Db, low: str, high: str) -> bool:
    """Did an item expire after ``low`` and at or before ``high`` (ISO times, UTC)?"""
    return run(db, _EXPIRED_BETWEEN, {"low": low, "high": high}).first() is not None


def every_item(session: Session) -> list[MemoryItem]:
    """Every memory item, whatever its status, oldest first (rows the caller may change
    in its transaction)."""
    return list(session.exec(select(MemoryItem).order_by(col(MemoryItem.id))))


def drop_context_summaries(session: Session) -> None:
    """Every stored context summary goes (forgetting writes it again from what is left)."""
    session.exec(delete(ContextSummary))
