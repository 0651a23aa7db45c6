"""The ledger: what each request cost (``usagerecord``) and the events a turn records
(``event``: folds, rebuilds, the librarian's passes), for ``monet usage`` and the replay's
figures."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, insert
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from storage.models import (
    Event,
    UsageRecord,
)
from storage.rows import Db, insert_row, run


def add_event(db: Db, ts: str, name: str, detail: dict[str, Any]) -> int:
    """Log one event (a Core insert: folds log theirs inside a request's preparation)."""
    return insert_row(db, Event, ts=ts, name=name,
                      detail_json=json.dumps(detail, ensure_ascii=False))


def events_after(db: Db, after_id: int | None) -> list[tuple[int, str, str, dict[str, Any]]]:
    """The events stored after ``after_id`` (id, ts, name, detail), oldest first; None:
    none, only the newest id (as ``[(id, "", "", {})]``, or ``[]`` in a history without
    events)."""
    if after_id is None:
        newest = run(db, sa_select(func.max(col(Event.id)))).scalar()
        return [] if newest is None else [(int(newest), "", "", {})]
    rows = run(db, sa_select(col(Event.id), col(Event.ts), col(Event.name),
                             col(Event.detail_json))
               .where(col(Event.id) > after_id).order_by(col(Event.id))).all()
    return [(int(i), ts, name, json.loads(detail)) for i, ts, name, detail in rows]


def last_event_id(db: Db) -> int:
    """The newest event's id (0 in a history without events)."""
    found = events_after(db, None)
    return found[0][0] if found else 0


_INSERT_USAGE = insert(UsageRecord)


def insert_usage(db: Db, values: dict[str, Any]) -> int:
    """One line of the ledger (``cms.model.ledger.usage_values``); returns its id."""
    key = run(db, _INSERT_USAGE, values).lastrowid
    assert key is not None
    return int(key)


@dataclass(frozen=True)
class UsageRow:
    """The ledger's totals over one day (or, summed, over several)."""

    day: str
    requests: int
    input_tokens: int  # uncached input
    cache_write_5m_tokens: int
    cache_write_1h_tokens: int
    cache_read_tokens: int
    output_tokens: int
    dollars: float

    @property
    def cache_write_tokens(self) -> int:
        return self.cache_write_5m_tokens + self.cache_write_1h_tokens

    @property
    def cache_hit_ratio(self) -> float:
        """Cache reads / all input tokens (uncached + cache writes + reads)."""
        total = self.input_tokens + self.cache_write_tokens + self.cache_read_tokens
        return self.cache_read_tokens / total if total else 0.0


def usage_rows(session: Session, day: str | None = None) -> list[UsageRow]:
    """Per-day totals of the ledger, oldest day first."""
    query = (
        sa_select(
            col(UsageRecord.day),
            func.count(col(UsageRecord.id)),
            func.sum(col(UsageRecord.input_tokens)),
            func.sum(col(UsageRecord.cache_write_5m)),
            func.sum(col(UsageRecord.cache_write_1h)),
            func.sum(col(UsageRecord.cache_read)),
            func.sum(col(UsageRecord.output_tokens)),
            func.sum(col(UsageRecord.dollars)),
        )
        .group_by(col(UsageRecord.day))
        .order_by(col(UsageRecord.day))
    )
    if day is not None:
        query = query.where(col(UsageRecord.day) == day)
    return [
        UsageRow(
            day=d,
            requests=int(n),
            input_tokens=int(inp or 0),
            cache_write_5m_tokens=int(w5 or 0),
            cache_write_1h_tokens=int(w1 or 0),
            cache_read_tokens=int(read or 0),
            output_tokens=int(out or 0),
            dollars=float(usd or 0.0),
        )
        for d, n, inp, w5, w1, read, out, usd in session.connection().execute(query).all()
    ]


def turn_lifetimes(session: Session, day: str | None = None) -> dict[str, int]:
    """How many chat requests had their conversation breakpoint at each lifetime ("5m",
    "1h"; lines before migration 0020 say none)."""
    query = (select(UsageRecord.turn_ttl, func.count(col(UsageRecord.id)))
             .where(UsageRecord.purpose == "chat", UsageRecord.turn_ttl != "")
             .group_by(UsageRecord.turn_ttl))
    if day is not None:
        query = query.where(UsageRecord.day == day)
    return {str(ttl): int(n) for ttl, n in session.exec(query).all()}


def usage_by_purpose(session: Session, day: str | None = None) -> dict[str, float]:
    query = select(UsageRecord.purpose, func.sum(UsageRecord.dollars)).group_by(
        UsageRecord.purpose
    )
    if day is not None:
        query = query.where(UsageRecord.day == day)
    return {purpose: float(usd or 0.0) for purpose, usd in session.exec(query).all()}


def last_usage(session: Session, purpose: str) -> UsageRecord | None:
    return session.exec(
        select(UsageRecord)
        .where(UsageRecord.purpose == purpose)
        .order_by(col(UsageRecord.id).desc())
        .limit(1)  # the ORM fetches every row a query returns, first() or not
    ).first()
