"""What is remembered, as stored: the memory items and the context summary (issue 42:
these queries were built in cms's notes and forget, and in operations).

The rules that decide what is remembered are ``cms/memory/rules.py``; the statements a
rebuild runs every time are built once here, as Core statements with plain values (ORM
objects cost ~0.3 ms even for none).
"""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import (
    String,
    and_,
    bindparam,
    delete,
    type_coerce,
)
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from storage.models import (
    ContextSummary,
    MemoryItem,
    MemoryStatus,
)
from storage.rows import Db, run

_LATEST_SUMMARY = sa_select(
    col(ContextSummary.day), col(ContextSummary.text), col(ContextSummary.created_ts)
).order_by(col(ContextSummary.id).desc()).limit(1)


def latest_summary_text(db: Db) -> tuple[str, str, str] | None:
    """(day, text, created) of the newest daily context summary, or None."""
    row = run(db, _LATEST_SUMMARY).first()
    return None if row is None else (str(row[0]), str(row[1]), str(row[2]))


_LATEST_CONTEXT_SUMMARY = (
    sa_select(col(ContextSummary.day), col(ContextSummary.created_ts))
    .order_by(col(ContextSummary.id).desc()).limit(1)
)


def latest_context_summary_when(db: Db) -> tuple[str, str] | None:
    """(day, created_ts) of the newest daily context summary, or None before the first."""
    row = run(db, _LATEST_CONTEXT_SUMMARY).first()
    return None if row is None else (str(row[0]), str(row[1]))


_SUPERSEDED_SOURCES = sa_select(col(MemoryItem.source_message_ids)).where(
    col(MemoryItem.status) == MemoryStatus.SUPERSEDED.value)


def superseded_sources(db: Db) -> set[int]:
    """The source messages of memory items a newer statement superseded."""
    return {int(i) for row in run(db, _SUPERSEDED_SOURCES).scalars() for i in json.loads(row)}


_SUPERSEDING_TS = sa_select(col(MemoryItem.created_ts)).where(
    col(MemoryItem.supersedes_id).is_not(None))


def superseded_since(db: Db, since: datetime) -> bool:
    """Has a memory item superseded another since ``since``? (Compared as times: the
    stored stamps may carry different UTC offsets.)"""
    rows = run(db, _SUPERSEDING_TS).scalars()
    return any(datetime.fromisoformat(ts) > since for ts in rows)


#: The memory statuses Claude reads: active, and contested (shown as a contradiction).
#: The memory items the person's panel shows and the rules weigh a new one against:
#: active, and contested (two items MONET could not tell apart, for the person to settle).
SHOWN_STATUSES = (MemoryStatus.ACTIVE, MemoryStatus.CONTESTED)


#: What Claude is told: only what is settled (issue 40), never a contested value.
TOLD_STATUSES = (MemoryStatus.ACTIVE,)


_SHOWN_ITEMS = (select(MemoryItem).where(col(MemoryItem.status).in_(list(SHOWN_STATUSES)))
                .order_by(col(MemoryItem.id)))


def shown_memory_items(session: Session) -> list[MemoryItem]:
    """The memory items the panel shows (active or contested, expired ones too), oldest
    first, as ORM objects the caller may change in its transaction."""
    return list(session.exec(_SHOWN_ITEMS).all())


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
