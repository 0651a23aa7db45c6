"""The Timeline Index's repository for what changes its lines outside a fold: a
librarian's lease and summary of a pending line (Core statements built once: a pass runs
them for every line it writes), and the rows forgetting rewrites or removes (issue 42:
these queries were built in cms's librarian and forget).

The folds' own statements (lines made, read and rolled up each turn) are in
``storage.queries``.
"""

from __future__ import annotations

from sqlalchemy import bindparam, delete, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, col, select

from storage.models import Presummary, TimelineEntry
from storage.queries import Db, run

_ENTRY_ID = col(TimelineEntry.id) == bindparam("entry")
_MINE = col(TimelineEntry.claimed_by) == bindparam("by")
_CLAIM = update(TimelineEntry).where(
    _ENTRY_ID, col(TimelineEntry.summary).is_(None),
    col(TimelineEntry.claimed_until).is_(None)
    | (col(TimelineEntry.claimed_until) < bindparam("now")),
).values(claimed_by=bindparam("by"), claimed_until=bindparam("until"),
         attempts=col(TimelineEntry.attempts) + 1)
_RELEASE = update(TimelineEntry).where(_ENTRY_ID, _MINE).values(
    claimed_by=None, claimed_until=None, last_error=bindparam("error"))
_WRITE = update(TimelineEntry).where(
    _ENTRY_ID, _MINE, col(TimelineEntry.summary).is_(None),
).values(summary=bindparam("summary"), summary_source=bindparam("source"),
         summarized_ts=bindparam("ts"), claimed_by=None, claimed_until=None, last_error=None)
_SEGMENT_OF = sa_select(col(TimelineEntry.segment_id), col(TimelineEntry.attempts)).where(
    _ENTRY_ID)


def claim(db: Db, entry_id: int, by: str, now: str, until: str) -> bool:
    """Lease a pending line to ``by`` until ``until`` (ISO times), unless it is written or
    another's lease runs at ``now``; counts the attempt. Whether it was leased."""
    return bool(run(db, _CLAIM, {"entry": entry_id, "now": now, "by": by,
                                 "until": until}).rowcount)


def release(db: Db, entry_id: int, by: str, error: str) -> None:
    """``by`` gives its lease back, saying why (``error``, kept to 500 characters)."""
    run(db, _RELEASE, {"entry": entry_id, "by": by, "error": error[:500]})


def write(db: Db, entry_id: int, by: str, summary: str, source: str, ts: str) -> bool:
    """The line's summary, written only by the holder of its lease and only once (a
    forget that rewrote the line meanwhile took the lease away). Whether it was written."""
    return bool(run(db, _WRITE, {"entry": entry_id, "by": by, "summary": summary,
                                 "source": source, "ts": ts}).rowcount)


def segment_of(db: Db, entry_id: int) -> tuple[int, int] | None:
    """The segment a line summarizes and how often it was leased (None: the line is gone,
    or is a roll-up)."""
    row = run(db, _SEGMENT_OF, {"entry": entry_id}).first()
    return None if row is None or row[0] is None else (int(row[0]), int(row[1]))


def noting_later_values(session: Session) -> list[TimelineEntry]:
    """The lines whose summary carries a note of a newer value (``(later, …)``:
    ``cms/memory/updates.py``)."""
    return list(session.exec(select(TimelineEntry).where(
        col(TimelineEntry.summary).icontains(" (later, "))))


def line_of_segment(session: Session, segment_id: int) -> TimelineEntry | None:
    return session.exec(
        select(TimelineEntry).where(TimelineEntry.segment_id == segment_id)).first()


def children(session: Session, parent_id: int) -> list[TimelineEntry]:
    """The lines a roll-up condenses, oldest first."""
    return list(session.exec(
        select(TimelineEntry).where(TimelineEntry.parent_id == parent_id)
        .order_by(col(TimelineEntry.first_message_id))))


def drop_presummaries_over(session: Session, first_id: int, last_id: int) -> None:
    """Summaries written ahead over any message between these ids go."""
    session.exec(delete(Presummary).where(
        col(Presummary.first_message_id) <= last_id,
        col(Presummary.last_message_id) >= first_id))
