"""The Timeline Index's repository: folds, segments and their lines, the summaries
written ahead (presummaries), what is pending for the librarian and its leases, and the
rows forgetting rewrites or removes (issue 42: part of these were built in cms's
librarian and forget). ``LineReader`` keeps the lines between renders until a row's
revision changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import bindparam, delete, func, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from storage.models import (
    Fold,
    Message,
    Presummary,
    Segment,
    Thread,
    TimelineEntry,
    TimelineLevel,
)
from storage.rows import Db, KeptRows, connection_of, execute, run, run_many
from storage.talk import _BY_ID, _TALK, Talk, _talk

_SET_SEGMENT = update(Message).where(_BY_ID == bindparam("mid")).values(
    segment_id=bindparam("segment"))


_PRESUMMARIES_FROM = sa_select(
    col(Presummary.first_message_id), col(Presummary.last_message_id),
    col(Presummary.summary), col(Presummary.source), col(Presummary.created_ts),
).where(col(Presummary.first_message_id).in_(bindparam("firsts", expanding=True)))


_PRESUMMARY_RUNS = sa_select(
    col(Presummary.first_message_id), col(Presummary.last_message_id)
).where(col(Presummary.first_message_id) >= bindparam("start"))

_FIRST, _LAST = aliased(Message), aliased(Message)


_AHEAD_LINES = (
    sa_select(col(Presummary.first_message_id), col(_FIRST.day), col(_LAST.day),
              col(_FIRST.ts), col(_LAST.ts), col(_FIRST.tab), col(Presummary.summary))
    .join(_FIRST, col(_FIRST.id) == col(Presummary.first_message_id))
    .join(_LAST, col(_LAST.id) == col(Presummary.last_message_id))
    .where(col(_FIRST.segment_id).is_(None), col(Presummary.summary) != "")
    .order_by(col(Presummary.first_message_id))
)


def lines_summarized_ahead(db: Db) -> list[Line]:
    """The Timeline Index line each run the librarian summarized ahead would get, were a
    fold to cut exactly that run (``timeline.create_fold`` gives such a segment the
    summary); runs already folded, and claims still being written, are left out. (Read
    from the messages not yet folded: the presummaries of a year are not all read.)"""
    return [Line(0, TimelineLevel.SEGMENT, None, str(day_from), str(day_to), str(start),
                 str(end), str(tab), int(first), str(summary))
            for first, day_from, day_to, start, end, tab, summary in run(db, _AHEAD_LINES)]


def presummary_runs(db: Db, from_id: int) -> set[tuple[int, int]]:
    """(first, last) of every run summarized ahead (or claimed) from message ``from_id``."""
    return {(int(a), int(b)) for a, b in run(db, _PRESUMMARY_RUNS, {"start": from_id})}


def presummary_texts(
    db: Db, runs: Sequence[tuple[int, int]]
) -> dict[tuple[int, int], tuple[str, str, str]]:
    """(summary, source, created) the librarian wrote ahead for exactly these runs (first,
    last message id), by run; a run with none, or a librarian's claim still being written,
    is missing."""
    if not runs:
        return {}
    wanted = set(runs)
    rows = run(db, _PRESUMMARIES_FROM, {"firsts": sorted({a for a, _ in runs})})
    return {(a, b): (str(text), str(source), str(created))
            for a, b, text, source, created in rows if (a, b) in wanted and text}


_RESOLVE_FOLDS = update(Fold).where(col(Fold.id).in_(bindparam("ids", expanding=True))).values(
    resolved_ts=bindparam("ts"))


def mark_folds_resolved(db: Db, fold_ids: Sequence[int], ts: str) -> None:
    """Every placeholder of these folds has its summary now (their one re-render is due)."""
    if fold_ids:
        run(db, _RESOLVE_FOLDS, {"ids": list(fold_ids), "ts": ts})


def set_segments(db: Db, segment_of: dict[int, int]) -> None:
    """These messages (by id) were folded into these segments (one statement, run for
    each message by the driver)."""
    if segment_of:
        run_many(db, _SET_SEGMENT, [{"mid": m, "segment": s} for m, s in segment_of.items()])


_TALK_OF_SEGMENT = _TALK.where(col(Message.segment_id) == bindparam("segment")).order_by(_BY_ID)


def talk_of_segment(db: Db, segment_id: int) -> list[Talk]:
    """The messages a segment holds, oldest first, as plain values."""
    return _talk(db, _TALK_OF_SEGMENT, segment=segment_id)


def messages_of_segment(session: Session, segment_id: int) -> Sequence[Message]:
    return session.exec(
        select(Message).where(Message.segment_id == segment_id).order_by(col(Message.id))
    ).all()


def top_level_entries(session: Session) -> Sequence[TimelineEntry]:
    return session.exec(
        select(TimelineEntry)
        .where(col(TimelineEntry.parent_id).is_(None))
        .order_by(col(TimelineEntry.first_message_id), col(TimelineEntry.id))
    ).all()


class Line(NamedTuple):
    """A Timeline Index line as a render and a roll-up read it (plain values). A
    named tuple: a render reads every line, and one is made from its row ~5 times faster
    than a frozen dataclass."""

    id: int
    level: TimelineLevel
    segment_id: int | None
    day_from: str
    day_to: str
    start_ts: str
    end_ts: str
    tabs: str
    first_message_id: int
    summary: str | None


_TOP_LINES = sa_select(*(col(getattr(TimelineEntry, name)) for name in Line._fields)).where(
    col(TimelineEntry.parent_id).is_(None)
).order_by(col(TimelineEntry.first_message_id), col(TimelineEntry.id))


def top_level_lines(db: Db) -> list[Line]:
    """``top_level_entries`` as plain values, in the same order."""
    return list(map(Line._make, run(db, _TOP_LINES)))


_TOP_LINE_REVS = sa_select(col(TimelineEntry.id), col(TimelineEntry.rev)).where(
    col(TimelineEntry.parent_id).is_(None)
).order_by(col(TimelineEntry.first_message_id), col(TimelineEntry.id))


_TOP_LINES_BY_ID = sa_select(col(TimelineEntry.rev), *_TOP_LINES.selected_columns).where(
    col(TimelineEntry.id).in_(bindparam("ids", expanding=True)),
    col(TimelineEntry.parent_id).is_(None))


_CHILD_LINES = sa_select(*_TOP_LINES.selected_columns).where(
    col(TimelineEntry.parent_id) == bindparam("parent"))


_SET_PARENT = update(TimelineEntry).where(
    col(TimelineEntry.id).in_(bindparam("ids", expanding=True))).values(
    parent_id=bindparam("parent"))


_UPDATE_LINE = update(TimelineEntry).where(col(TimelineEntry.id) == bindparam("line_id"))


def child_lines(db: Db, parent_id: int) -> list[Line]:
    """The lines a roll-up line was made of."""
    return [Line(*row) for row in run(db, _CHILD_LINES, {"parent": parent_id})]


def set_parent(db: Db, parent_id: int, ids: Sequence[int]) -> None:
    """Put these lines under a roll-up line (they leave the TI's top level)."""
    if ids:
        run(db, _SET_PARENT, {"parent": parent_id, "ids": list(ids)})


def update_line(db: Db, line_id: int, **values: Any) -> None:
    """Write these columns of one Timeline Index line."""
    run(db, _UPDATE_LINE, {"line_id": line_id, **values})


class LineReader(KeptRows[Line]):
    """The Timeline Index's top-level lines (``TimelineEntry.rev``, migration 0012), read
    at every rebuild: a render reads in full only the lines new or changed since the last."""

    def __init__(self) -> None:
        super().__init__(_TOP_LINES_BY_ID, Line._make)

    def top_level(self, db: Db) -> list[Line]:
        """``top_level_lines``, keeping the lines already held."""
        return self._read(db, _TOP_LINE_REVS, {}, lambda _line: True)


_RAW_AGAIN = sa_select(col(Segment.id)).where(
    col(Segment.thread_id) == bindparam("thread"),
    col(Segment.last_message_id) >= sa_select(col(Thread.raw_from_message_id)).where(
        col(Thread.id) == bindparam("thread")).scalar_subquery())


_SET_RAW_FROM = update(Thread).where(col(Thread.id) == bindparam("thread")).values(
    raw_from_message_id=bindparam("raw_from"))


def set_raw_from(db: Db, thread_id: int, raw_from: int) -> None:
    """Thread model: the thread's raw window starts at message ``raw_from`` (what was
    before it is folded); nothing for a thread that is gone."""
    run(db, _SET_RAW_FROM, {"thread": thread_id, "raw_from": raw_from})


def segments_raw_again(db: Db, thread_id: int) -> set[int]:
    """Thread model: the ids of the thread's segments whose talk is in the prompt word for
    word again (from its raw window's start on); none for a thread that is gone (the
    subquery is NULL, and no comparison with it holds)."""
    return set(run(db, _RAW_AGAIN, {"thread": thread_id}).scalars())


def pending_count(session: Session) -> int:
    """How many Timeline Index lines wait for their summary (the status bar)."""
    return int(session.exec(
        select(func.count(col(TimelineEntry.id))).where(
            TimelineEntry.level == TimelineLevel.SEGMENT, col(TimelineEntry.summary).is_(None))
    ).one())


_PENDING_IDS = (
    sa_select(col(TimelineEntry.id))
    .where(col(TimelineEntry.level) == TimelineLevel.SEGMENT.value,
           col(TimelineEntry.summary).is_(None))
    .order_by(col(TimelineEntry.id))
)


def pending_entry_ids(db: Db) -> list[int]:
    """The ids of the segment lines still waiting for their summary, oldest first."""
    return [i for i in run(db, _PENDING_IDS).scalars() if i is not None]


def pending_entries(session: Session, limit: int | None = None) -> Sequence[TimelineEntry]:
    query = (
        select(TimelineEntry)
        .where(TimelineEntry.level == TimelineLevel.SEGMENT, col(TimelineEntry.summary).is_(None))
        .order_by(col(TimelineEntry.id))
    )
    if limit is not None:
        query = query.limit(limit)
    return session.exec(query).all()


# Driven from the unresolved folds (migration 0014's partial index holds only those), not
# from every segment: the join from ``segment`` read all of them, 0.4 ms a request at a
# year's 6,700 segments; this reads the few unresolved folds' own (11 us).
_RESOLVABLE_FOLDS = (
    sa_select(col(Segment.fold_id))
    .join(TimelineEntry, col(TimelineEntry.segment_id) == col(Segment.id))
    .where(col(Segment.fold_id).in_(
        sa_select(col(Fold.id)).where(col(Fold.resolved_ts).is_(None),
                                      col(Fold.segment_count) > 0)))
    .group_by(col(Segment.fold_id))
    .having(func.count(col(TimelineEntry.summary)) == func.count(col(TimelineEntry.id)))
)


_ENTRIES_OF_FOLDS = (
    sa_select(col(Segment.fold_id), col(TimelineEntry.id))
    .join(Segment, col(TimelineEntry.segment_id) == col(Segment.id))
    .where(col(Segment.fold_id).in_(bindparam("folds", expanding=True)))
)


def resolvable_folds(db: Db) -> dict[int, list[int]]:
    """Every fold not yet marked resolved whose lines all have their summaries, with its
    entry ids. Asked before every request, so it is one aggregate over the unresolved
    folds, and usually answers with nothing."""
    conn = connection_of(db)
    folds = [int(f) for f in execute(conn, _RESOLVABLE_FOLDS).scalars() if f is not None]
    if not folds:
        return {}
    found: dict[int, list[int]] = {f: [] for f in folds}
    for fold_id, entry_id in execute(conn, _ENTRIES_OF_FOLDS, {"folds": folds}):
        found[int(fold_id or 0)].append(int(entry_id or 0))  # both are set by the join
    return found


_IDS_OF_SEGMENT = sa_select(_BY_ID).where(col(Message.segment_id) == bindparam("segment"))


def entry_message_ids(db: Db, entry: TimelineEntry | Line) -> set[int]:
    """The ids of the messages a segment line summarizes (none for a roll-up)."""
    if entry.segment_id is None:
        return set()
    return {int(i) for i in run(db, _IDS_OF_SEGMENT, {"segment": entry.segment_id}).scalars()}


_TEXTS_OF_SEGMENTS = (
    sa_select(col(Message.text))
    .where(col(Message.segment_id).in_(bindparam("segments", expanding=True)),
           col(Message.hidden).is_(False))
    .order_by(_BY_ID)
)


def segment_texts(db: Db, segment_ids: Sequence[int]) -> list[str]:
    """The words of the shown messages (both sides) of these segments, oldest first: what
    a line written about them may say."""
    if not segment_ids:
        return []
    return [str(t) for t in run(db, _TEXTS_OF_SEGMENTS, {"segments": list(segment_ids)}
                                ).scalars()]


_LATEST_SUMMARIES = (
    sa_select(*_TOP_LINES.selected_columns)
    .where(col(TimelineEntry.summary).is_not(None),
           col(TimelineEntry.level) == TimelineLevel.SEGMENT.value)
    .order_by(col(TimelineEntry.first_message_id).desc(), col(TimelineEntry.id).desc())
    .limit(bindparam("limit"))
)


def latest_summaries(db: Db, limit: int) -> list[Line]:
    """The newest segment summaries (the finest memories of talk), newest first."""
    return list(map(Line._make, run(db, _LATEST_SUMMARIES, {"limit": limit})))


_RUN = (col(Presummary.first_message_id) == bindparam("first"),
        col(Presummary.last_message_id) == bindparam("last"))


_FILL_CLAIMED_RUN = update(Presummary).where(
    *_RUN, col(Presummary.source) == bindparam("claim"), col(Presummary.summary) == "",
    ~sa_select(_BY_ID).where(_BY_ID.in_(bindparam("ids", expanding=True)),
                             col(Message.segment_id).is_not(None)).exists(),
).values(summary=bindparam("summary"), source=bindparam("source"))


_DROP_CLAIMED_RUN = delete(Presummary).where(
    *_RUN, col(Presummary.source) == bindparam("claim"), col(Presummary.summary) == "")


def fill_claimed_run(db: Db, first_id: int, last_id: int, run_ids: Sequence[int], claim: str,
                     summary: str, source: str) -> bool:
    """Write the summary of a run claimed as ``claim`` (an empty row), only while none of
    its messages is folded: the statement itself checks, so a fold committed by another
    process a moment before is never followed by a summary of its run ahead (the fold
    made a placeholder; the line is summarized once, as a pending entry). Returns whether
    it wrote."""
    return bool(run(db, _FILL_CLAIMED_RUN, {
        "first": first_id, "last": last_id, "ids": list(run_ids), "claim": claim,
        "summary": summary, "source": source}).rowcount)


def drop_claimed_run(db: Db, first_id: int, last_id: int, claim: str) -> None:
    """Give up a run claimed as ``claim`` and not yet written."""
    run(db, _DROP_CLAIMED_RUN, {"first": first_id, "last": last_id, "claim": claim})


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
