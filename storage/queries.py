"""Queries over the tables. Portable SQLAlchemy only (no SQLite-specific SQL here).

The queries a chat turn runs (committing the message, reading today's talk, storing the
reply and its usage) are SQLAlchemy Core statements built once, and today's talk comes
back as plain ``Talk`` values rather than ORM objects: measured on this machine, a Core
statement inside a transaction costs ~15 us and an ORM ``get`` ~100 us, and a turn made
of ORM sessions spent most of its time there (docs/performance.md).
The ORM stays for everything else.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, NamedTuple, TypeVar

from sqlalchemy import (
    String,
    bindparam,
    column,
    delete,
    func,
    insert,
    table,
    type_coerce,
    update,
)
from sqlalchemy import select as sa_select
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.engine import Connection
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from storage import direct
from storage.models import (
    ContextSummary,
    Event,
    Fold,
    MemoryItem,
    MemoryStatus,
    Message,
    MessageRole,
    MessageStatus,
    Presummary,
    PromptState,
    ReplyVersion,
    Segment,
    Setting,
    Thread,
    ThreadKind,
    TimelineEntry,
    TimelineLevel,
    UsageRecord,
)

#: The per-turn functions take a Session or a plain Connection (``Database.
#: transaction``: a turn's two writes need no ORM, and a Session costs ~55 us more).
Db = Session | Connection
_Kept = TypeVar("_Kept")


def _conn(db: Db) -> Connection:
    return db if isinstance(db, Connection) else db.connection()


def run(db: Db, statement: Any, params: dict[str, Any] | None = None) -> Any:
    """Execute a Core statement built once (a module's constant) on a connection or a
    session's, straight on the driver's cursor (``storage/direct.py``); rows come back as
    tuples. A statement built at each call goes through ``_conn(db).execute``."""
    return direct.execute(_conn(db), statement, params)


def prompt_state(session: Session) -> PromptState:
    """The prompt state as an ORM object (made if new, as ``_ensure_prompt_state`` makes it)."""
    state = session.get(PromptState, 1)
    if state is None:
        _ensure_prompt_state(session)
        state = session.get(PromptState, 1)
        assert state is not None
    return state


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


_USER_TIMES = (sa_select(col(Message.day), col(Message.ts))
               .where(col(Message.role) == MessageRole.USER,
                      col(Message.day) >= bindparam("since"), col(Message.day) < bindparam("until"))
               .order_by(col(Message.id)))


def user_times(db: Db, since: str, until: str) -> list[tuple[str, str]]:
    """(day, ts) of the person's messages of the days from ``since`` to before ``until``,
    oldest first: the pauses they left (``cms/context/rhythm.py``)."""
    return [(str(day), str(ts)) for day, ts in run(db, _USER_TIMES,
                                                    {"since": since, "until": until})]


# ----- the hot path: what one chat turn reads and writes ------------------------------
@dataclass(frozen=True, slots=True)
class Talk:
    """One stored message as the prompt, the folds and the librarian read it."""

    id: int
    thread_id: int
    day: str
    tab: str
    tab_label: str
    role: MessageRole
    text: str
    content_json: str | None
    ts: str
    token_estimate: int
    status: MessageStatus
    segment_id: int | None
    hidden: bool


_TALK = sa_select(*(col(getattr(Message, name)) for name in Talk.__slots__))
_BY_ID = col(Message.id)
_UNSEGMENTED_BEFORE_DAY = _TALK.where(
    col(Message.day) < bindparam("day"), col(Message.segment_id).is_(None)
).order_by(_BY_ID)
_UNSEGMENTED_OF_THREAD = _TALK.where(
    col(Message.thread_id) == bindparam("thread"), col(Message.segment_id).is_(None)
).order_by(_BY_ID)
_UNSEGMENTED = _TALK.where(col(Message.segment_id).is_(None)).order_by(_BY_ID)


_REVS_OF_DAY = sa_select(_BY_ID, col(Message.rev)).where(
    col(Message.day) == bindparam("day"), col(Message.segment_id).is_(None)
).order_by(_BY_ID)
_REVS_OF_THREAD = sa_select(_BY_ID, col(Message.rev)).where(
    col(Message.thread_id) == bindparam("thread"),
    _BY_ID >= sa_select(col(Thread.raw_from_message_id))
    .where(col(Thread.id) == bindparam("thread")).scalar_subquery(),
).order_by(_BY_ID)
_TALK_REV = sa_select(col(Message.rev), *_TALK.selected_columns).where(
    _BY_ID.in_(bindparam("ids", expanding=True)))


#: How many different reads (by query and parameters: a day's talk, each thread's) a
#: reader keeps the rows of: the thread model reads the talk of the thread the person is
#: in, and coming back to a thread finds its rows still held instead of reading them all
#: again.
KEPT_READS = 8


class _KeptRows(Generic[_Kept]):
    """Rows read before every request, keeping the ones already held: each read asks only
    for the ids and revisions (a ``rev`` column, drawn anew by a trigger at any change, from any
    process) and reads in full the rows it has not seen at that revision. It holds the rows
    of the last read of each query and parameters, for the last ``KEPT_READS`` of those."""

    def __init__(self, by_ids: Any, make: Callable[[Sequence[Any]], _Kept]) -> None:
        self._by_ids = by_ids  # (rev, then the value's columns, id first) of rows by "ids"
        self._make = make
        self._held: OrderedDict[tuple[Any, ...], dict[int, tuple[int, _Kept]]] = OrderedDict()
        self._lock = threading.Lock()  # the reply worker and the window's thread may both read

    def _read(self, db: Db, query: Any, params: dict[str, Any],
              still: Callable[[_Kept], bool]) -> list[_Kept]:
        with self._lock:
            return self._read_locked(_conn(db), query, params, still)

    def _read_locked(self, conn: Connection, query: Any, params: dict[str, Any],
                     still: Callable[[_Kept], bool]) -> list[_Kept]:
        revs = direct.execute(conn, query, params).all()
        key = (id(query), *sorted(params.items()))
        held = self._held.pop(key, {})
        missing = [i for i, rev in revs if (held.get(i) or (-1, None))[0] != rev]
        if missing:
            # a second read: without a read transaction the database may change between
            # the two, so a row read here must still be one the first read asked for, and
            # one gone meanwhile is no longer held
            gone = set(missing)
            for row in direct.execute(conn, self._by_ids, {"ids": missing}):
                fresh = self._make(row[1:])
                gone.discard(row[1])
                if still(fresh):
                    held[row[1]] = (row[0], fresh)
                else:
                    held.pop(row[1], None)
            for i in gone:
                held.pop(i, None)
        found: list[_Kept] = []
        kept: dict[int, tuple[int, _Kept]] = {}
        for i, _rev in revs:
            entry = held.get(i)
            if entry is not None:  # (None: deleted, or folded, between the two reads)
                kept[i] = entry
                found.append(entry[1])
        self._held[key] = kept  # the newest read last; the oldest read's rows go first
        while len(self._held) > KEPT_READS:
            self._held.popitem(last=False)
        return found


class TalkReader(_KeptRows[Talk]):
    """Today's raw talk (``Message.rev``, migration 0011)."""

    def __init__(self) -> None:
        super().__init__(_TALK_REV, lambda row: Talk(*row))

    def raw_of_day(self, db: Db, day: str) -> list[Talk]:
        """Sunset model: the day's messages not yet folded, oldest first."""
        return self._read(db, _REVS_OF_DAY, {"day": day},
                          lambda t: t.day == day and t.segment_id is None)

    def raw_of_thread(self, db: Db, thread_id: int) -> list[Talk]:
        """Thread model: the thread's messages from its raw window start."""
        return self._read(db, _REVS_OF_THREAD, {"thread": thread_id},
                          lambda t: t.thread_id == thread_id)


def _talk(db: Db, query: Any, **params: Any) -> list[Talk]:
    return [Talk(*row) for row in run(db, query, params)]


def unsegmented_before_day(db: Db, day: str) -> list[Talk]:
    return _talk(db, _UNSEGMENTED_BEFORE_DAY, day=day)


def unsegmented_of_thread(db: Db, thread_id: int) -> list[Talk]:
    return _talk(db, _UNSEGMENTED_OF_THREAD, thread=thread_id)


_BY_IDS = _TALK.where(_BY_ID.in_(bindparam("ids", expanding=True))).order_by(_BY_ID)


def talk_by_ids(db: Db, ids: Sequence[int]) -> list[Talk]:
    """These messages as they are now, oldest first (the deleted ones missing)."""
    return _talk(db, _BY_IDS, ids=list(ids))


def unsegmented_messages(session: Session) -> list[Talk]:
    """Every message still raw in some prompt (not yet in a segment), oldest first."""
    return _talk(session, _UNSEGMENTED)


_STATE = PromptState.__table__  # type: ignore[attr-defined]
_TURN_STATE = sa_select(_STATE.c.current_day, _STATE.c.current_tab,
                        _STATE.c.current_thread_id).where(_STATE.c.id == 1)
_SET_STATE = update(_STATE).where(_STATE.c.id == 1)
_DAY_THREAD = sa_select(col(Thread.id)).where(
    col(Thread.kind) == ThreadKind.DAY, col(Thread.day) == bindparam("day")).limit(1)
_NEWEST_ID = sa_select(func.max(_BY_ID))
_INSERT_MESSAGE = insert(Message)
#: On SQLite, a new message's id is above every id ever given (migration 0021): the
#: largest present or the largest deleted (``id_floor``), plus one, in the insert itself.
_ID_FLOOR = table("id_floor", column("name"), column("top"))
_INSERT_MESSAGE_SQLITE = insert(Message).values(id=sa_select(func.max(
    func.coalesce(sa_select(func.max(_BY_ID)).scalar_subquery(), 0),
    func.coalesce(sa_select(_ID_FLOOR.c.top).where(_ID_FLOOR.c.name == "message")
                  .scalar_subquery(), 0)) + 1).scalar_subquery())
_INSERT_USAGE = insert(UsageRecord)
_DELETE_SETTING = delete(Setting).where(col(Setting.key) == bindparam("key"))
_SET_SEGMENT = update(Message).where(_BY_ID == bindparam("mid")).values(
    segment_id=bindparam("segment"))


@dataclass(slots=True)
class PromptRecord:
    """The prompt state's row as plain values (``PromptState``'s columns). The context
    manager reads it with one Core statement and writes back only the columns it changed
    (``save_prompt``): the librarian and the memory panel write other columns of the row."""

    id: int
    fingerprint: str
    pinned_text: str
    context_text: str
    pinned_tokens: int
    context_tokens: int
    ti_text: str
    ti_head_text: str
    ti_tokens: int
    ti_rendered_day: str
    ti_pending_ids_json: str
    prompt_day: str
    prompt_thread_id: int | None
    current_day: str
    current_thread_id: int | None
    current_tab: str
    librarian_last_run_ts: str
    memory_version: int
    memory_rendered: int


_PROMPT = sa_select(*(_STATE.c[name] for name in PromptRecord.__slots__)).where(
    _STATE.c.id == 1)


def load_prompt(db: Db) -> PromptRecord:
    """The prompt state (made if new) as a ``PromptRecord``."""
    row = run(db, _PROMPT).first()
    if row is None:
        _ensure_prompt_state(db)
        row = run(db, _PROMPT).first()
        assert row is not None
    return PromptRecord(*row)


def save_prompt(db: Db, record: PromptRecord, loaded: PromptRecord) -> None:
    """Write the columns of ``record`` that differ from ``loaded`` (as it was read)."""
    changed = {name: getattr(record, name) for name in PromptRecord.__slots__
               if getattr(record, name) != getattr(loaded, name)}
    if changed:
        run(db, _SET_STATE, changed)


_MAKE_PROMPT_STATE = insert(PromptState).prefix_with("OR IGNORE", dialect="sqlite")
_MAKE_PROMPT_STATE_PG = postgresql_insert(PromptState).on_conflict_do_nothing()


def _ensure_prompt_state(db: Db) -> None:
    """Make the prompt state's row (a new home, before the app's first start). Another
    process may make it at the same moment (a replay and a watching librarian on a new
    home): the second insert is then a no-op, not an error."""
    statement = (_MAKE_PROMPT_STATE if _conn(db).dialect.name == "sqlite"
                 else _MAKE_PROMPT_STATE_PG)
    run(db, statement, PromptState(id=1).model_dump())


def turn_state(db: Db) -> tuple[str, str, int | None]:
    """(current day, current tab, current thread id) of the prompt state (made if new)."""
    row = run(db, _TURN_STATE).first()
    if row is None:
        _ensure_prompt_state(db)
        row = run(db, _TURN_STATE).first()
        assert row is not None
    return row[0], row[1], row[2]


_LIBRARIAN_LAST_RUN = sa_select(_STATE.c.librarian_last_run_ts).where(_STATE.c.id == 1)


def librarian_last_run(db: Db) -> str:
    """When a librarian pass last ended ("" before the first)."""
    return str(run(db, _LIBRARIAN_LAST_RUN).scalar() or "")


def set_turn_state(db: Db, **values: Any) -> None:
    """Update these columns of the prompt state (made first if there is none yet)."""
    if run(db, _SET_STATE, values).rowcount == 0:
        _ensure_prompt_state(db)
        run(db, _SET_STATE, values)


def _thread_id(db: Db, found: Any, **new: Any) -> int:
    """The id ``found`` by a thread query, or that of a new thread made with ``new``."""
    if found is not None:
        return int(found)
    return insert_row(db, Thread, raw_from_message_id=0, **new)


def day_thread_id(db: Db, day: str, created_ts: str) -> int:
    """The id of ``day``'s thread (sunset model), made if it has none yet."""
    found = run(db, _DAY_THREAD, {"day": day}).scalar()
    return _thread_id(db, found, kind=ThreadKind.DAY, day=day, title=day,
                      created_ts=created_ts)


_THREAD_EXISTS = sa_select(col(Thread.id)).where(col(Thread.id) == bindparam("id"))
_TOPIC_THREAD = sa_select(col(Thread.id)).where(
    col(Thread.kind) == ThreadKind.TOPIC, col(Thread.title) == bindparam("title")).limit(1)


def thread_exists(db: Db, thread_id: int) -> bool:
    return run(db, _THREAD_EXISTS, {"id": thread_id}).first() is not None


def topic_thread_id(db: Db, title: str, created_ts: str) -> int:
    """Thread model: the id of the thread named ``title``, made if there is none."""
    found = run(db, _TOPIC_THREAD, {"title": title}).scalar()
    return _thread_id(db, found, kind=ThreadKind.TOPIC, day=None, title=title,
                      created_ts=created_ts)


def newest_message_id(db: Db) -> int:
    return int(run(db, _NEWEST_ID).scalar() or 0)


def insert_message(db: Db, **values: Any) -> Talk:
    """Store a message (every ``Talk`` field but ``id`` and ``segment_id``), with one Core
    insert; returns it as stored."""
    conn = _conn(db)
    key = direct.execute(conn, _INSERT_MESSAGE_SQLITE if conn.dialect.name == "sqlite"
                         else _INSERT_MESSAGE, values).lastrowid
    assert key is not None
    return Talk(id=int(key), segment_id=None, **values)


def insert_usage(db: Db, values: dict[str, Any]) -> int:
    """One line of the ledger (``cms.model.ledger.usage_values``); returns its id."""
    key = run(db, _INSERT_USAGE, values).lastrowid
    assert key is not None
    return int(key)


def delete_setting(db: Db, key: str) -> None:
    run(db, _DELETE_SETTING, {"key": key})


_SETTING = sa_select(col(Setting.value_json)).where(col(Setting.key) == bindparam("key"))
_UPDATE_SETTING = update(Setting).where(col(Setting.key) == bindparam("name")).values(
    value_json=bindparam("value"))
_REPLACE_SETTING = update(Setting).where(
    col(Setting.key) == bindparam("name"), col(Setting.value_json) == bindparam("expected")
).values(value_json=bindparam("value"))


#: The setting that holds the last message the librarian proposed memories from.
MEMORY_MARK = "memory_scanned_to"
#: The setting that holds the last message the librarian read for newer values
#: (``cms/memory/updates.py``).
UPDATES_MARK = "updates_scanned_to"
#: The scans whose mark is a message id (lowered when the newest messages are deleted).
SCAN_MARKS = (MEMORY_MARK, UPDATES_MARK)


def setting_json(db: Db, key: str) -> str | None:
    """The stored JSON text of a setting, or None."""
    found = run(db, _SETTING, {"key": key}).scalar()
    return None if found is None else str(found)


_EVERY_SETTING = sa_select(col(Setting.key), col(Setting.value_json))


def every_setting(db: Db) -> dict[str, str]:
    """Every stored setting's JSON text, by key."""
    return {str(key): str(value) for key, value in run(db, _EVERY_SETTING)}


def replace_setting(db: Db, key: str, expected_json: str, value_json: str) -> bool:
    """Compare and set: store ``value_json`` only if the setting still holds
    ``expected_json``. Returns whether it did."""
    return bool(run(db, _REPLACE_SETTING, {
        "name": key, "expected": expected_json, "value": value_json}).rowcount)


def put_setting(db: Db, key: str, value_json: str) -> None:
    """Store a setting's JSON text (made or replaced)."""
    if run(db, _UPDATE_SETTING, {"name": key, "value": value_json}).rowcount == 0:
        _conn(db).execute(insert(Setting), {"key": key, "value_json": value_json})


_INSERTS: dict[type[Any], Any] = {}


def _insert_of(model: type[Any]) -> Any:
    """The Core insert of ``model``'s table, built once."""
    statement = _INSERTS.get(model)
    if statement is None:
        statement = _INSERTS[model] = insert(model)
    return statement


def insert_row(db: Db, model: type[Any], **values: Any) -> int:
    """Insert one row of ``model``'s table with one Core statement; returns its id. (Every
    column without a server default must be given.)"""
    key = run(db, _insert_of(model), values).lastrowid
    assert key is not None
    return int(key)


def insert_rows(db: Db, model: type[Any], rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert these rows of ``model``'s table; returns their ids, in order. (One insert
    each on the driver's cursor, ~5 us a row: cheaper than SQLAlchemy's multi-row
    ``INSERT ... RETURNING`` for the few rows of a fold, and the ids need no matching.)"""
    return [insert_row(db, model, **row) for row in rows]


def insert_many(db: Db, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """Insert these rows of ``model``'s table with one statement."""
    if rows:
        direct.execute_many(_conn(db), _insert_of(model), rows)


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
        direct.execute_many(_conn(db), _SET_SEGMENT,
                            [{"mid": m, "segment": s} for m, s in segment_of.items()])


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


class LineReader(_KeptRows[Line]):
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
    conn = _conn(db)
    folds = [int(f) for f in direct.execute(conn, _RESOLVABLE_FOLDS).scalars() if f is not None]
    if not folds:
        return {}
    found: dict[int, list[int]] = {f: [] for f in folds}
    for fold_id, entry_id in direct.execute(conn, _ENTRIES_OF_FOLDS, {"folds": folds}):
        found[int(fold_id or 0)].append(int(entry_id or 0))  # both are set by the join
    return found


def messages_by_ids(session: Session, ids: Sequence[int]) -> list[Message]:
    """These messages, oldest first."""
    return list(session.exec(
        select(Message).where(col(Message.id).in_(list(ids))).order_by(col(Message.id))
    ).all())


def all_messages(session: Session, day: str | None = None) -> Sequence[Message]:
    query = select(Message).order_by(col(Message.id))
    if day is not None:
        query = query.where(Message.day == day)
    return session.exec(query).all()


def threads_by_id(session: Session) -> dict[int, Thread]:
    return {t.id: t for t in session.exec(select(Thread)).all() if t.id is not None}


def day_message_counts(session: Session) -> list[tuple[str, int]]:
    rows = session.exec(
        select(Message.day, func.count(col(Message.id)))
        .group_by(Message.day)
        .order_by(col(Message.day).desc())
    ).all()
    return [(day, int(n)) for day, n in rows]


def tab_message_counts(session: Session, day: str) -> dict[str, int]:
    """How many messages of ``day`` each tab holds (the person's and Claude's)."""
    rows = session.exec(
        select(Message.tab, func.count(col(Message.id)))
        .where(Message.day == day, col(Message.role).in_(("user", "assistant")))
        .group_by(Message.tab)
    ).all()
    return {tab: int(n) for tab, n in rows}


def last_message_tab(session: Session, day: str) -> str | None:
    """The tab of the newest message of ``day``, or None on an empty day."""
    return session.exec(
        select(Message.tab).where(Message.day == day).order_by(col(Message.id).desc())
        .limit(1)
    ).first()


#: The columns the transcript shows, read as plain rows (no ORM objects: a day of
#: thousands of messages loads several times faster). The role and the status come back
#: as the stored strings, not enum members (10,000 conversions on a 5,000-message day).
_SHOWN = (
    col(Message.id), type_coerce(col(Message.role), String), col(Message.tab),
    col(Message.tab_label), col(Message.ts), col(Message.text), col(Message.content_json),
    type_coerce(col(Message.status), String), col(Message.hidden),
)


def shown_messages(
    session: Session, *, day: str | None = None, thread_id: int | None = None
) -> list[Any]:
    """The messages of a day (or a thread), oldest first, as rows with the shown columns
    (``id, role, tab, tab_label, ts, text, content_json, status, hidden``)."""
    query = sa_select(*_SHOWN).order_by(col(Message.id))
    if day is not None:
        query = query.where(col(Message.day) == day)
    if thread_id is not None:
        query = query.where(col(Message.thread_id) == thread_id)
    return list(session.connection().execute(query).all())


def latest_exchange(session: Session, day: str) -> tuple[Any | None, list[Any]]:
    """The person's newest message of ``day`` that Claude still sees, and the messages
    after it (its reply and tool rounds), as rows with the shown columns."""
    newest_id = session.connection().execute(
        sa_select(col(Message.id))
        .where(col(Message.day) == day, col(Message.role) == MessageRole.USER.value,
               col(Message.hidden).is_(False))
        .order_by(col(Message.id).desc()).limit(1)
    ).scalar()
    if newest_id is None:
        return None, []
    rows = session.connection().execute(
        sa_select(*_SHOWN)
        .where(col(Message.day) == day, col(Message.id) >= newest_id,
               col(Message.hidden).is_(False))
        .order_by(col(Message.id))
    ).all()
    return rows[0], list(rows[1:])


def read_value(session: Session, key: str) -> Any:
    """A small stored value (JSON) of the ``setting`` table, or None."""
    row = session.get(Setting, key)
    return None if row is None else json.loads(row.value_json)


def write_value(session: Session, key: str, value: Any) -> None:
    """Store (or, with None, remove) a small JSON value of the ``setting`` table."""
    row = session.get(Setting, key)
    if value is None:
        if row is not None:
            session.delete(row)
        return
    text = json.dumps(value, ensure_ascii=False)
    if row is None:
        row = Setting(key=key, value_json=text)
    row.value_json = text
    session.add(row)


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


def thread_messages(session: Session, thread_id: int) -> Sequence[Message]:
    return session.exec(
        select(Message).where(Message.thread_id == thread_id).order_by(col(Message.id))
    ).all()


def threads_with_counts(session: Session) -> list[tuple[Thread, int]]:
    counts = dict(
        session.exec(
            select(col(Message.thread_id), func.count(col(Message.id))).group_by(
                col(Message.thread_id)
            )
        ).all()
    )
    threads = session.exec(select(Thread).order_by(col(Thread.id))).all()
    return [(t, int(counts.get(t.id or 0, 0))) for t in threads]


def topic_thread_count(session: Session) -> int:
    return len(session.exec(select(Thread).where(Thread.kind == ThreadKind.TOPIC)).all())


def last_usage(session: Session, purpose: str) -> UsageRecord | None:
    return session.exec(
        select(UsageRecord)
        .where(UsageRecord.purpose == purpose)
        .order_by(col(UsageRecord.id).desc())
        .limit(1)  # the ORM fetches every row a query returns, first() or not
    ).first()


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


def bump_memory(session: Session) -> None:
    """What is remembered changed: the next request is rebuilt (memory_changed)."""
    state = prompt_state(session)
    state.memory_version += 1
    session.add(state)


#: The person's messages Claude still sees after message ``after``.
_SAID_BY_PERSON_AFTER = (_BY_ID > bindparam("after"), col(Message.role) == MessageRole.USER.value,
                         col(Message.hidden).is_(False))
_SAID_AFTER = sa_select(_BY_ID).where(*_SAID_BY_PERSON_AFTER).limit(1)


def said_after(db: Db, after_id: int) -> bool:
    """Has the person said anything Claude still sees after message ``after_id``?"""
    return run(db, _SAID_AFTER, {"after": after_id}).first() is not None


_USER_MESSAGES_AFTER = _TALK.where(*_SAID_BY_PERSON_AFTER).order_by(_BY_ID).limit(2000)


def user_messages_after(db: Db, after_id: int) -> list[Talk]:
    """The person's messages Claude still sees after message ``after_id``, oldest first
    (at most 2,000: a scan reads the rest at its next pass)."""
    return _talk(db, _USER_MESSAGES_AFTER, after=after_id)


_SPOKEN = col(Message.role).in_([MessageRole.USER.value, MessageRole.ASSISTANT.value])
_BEFORE = (sa_select(col(Message.role), col(Message.text))
           .where(_BY_ID < bindparam("id"), col(Message.thread_id) == bindparam("thread"),
                  _SPOKEN, col(Message.hidden).is_(False))
           .order_by(_BY_ID.desc()).limit(1))


def replies_before(db: Db, messages: Sequence[Talk]) -> dict[int, str]:
    """For each of the person's messages, Claude's reply it answers: the message just
    before it in its thread (tool rows aside), when that is Claude's (one indexed look-up
    each)."""
    replies: dict[int, str] = {}
    for message in messages:
        row = run(db, _BEFORE, {"id": message.id, "thread": message.thread_id}).first()
        if row is not None and row[0] == MessageRole.ASSISTANT.value:
            replies[message.id] = row[1]
    return replies


# ----- the versions of a regenerated reply (migration 0018) ---------------------------------
def reply_versions(session: Session, user_message_id: int) -> list[ReplyVersion]:
    """The versions of the reply to ``user_message_id``, in the order they were written
    (none until it is regenerated)."""
    return list(session.exec(
        select(ReplyVersion).where(col(ReplyVersion.user_message_id) == user_message_id)
        .order_by(col(ReplyVersion.number))).all())


def version_counts(session: Session, user_message_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    """{person's message id: (the current version's number, how many versions)} for
    those of ``user_message_ids`` whose reply has versions."""
    if not user_message_ids:
        return {}
    rows = session.exec(select(ReplyVersion.user_message_id, ReplyVersion.number,
                               ReplyVersion.current)
                        .where(col(ReplyVersion.user_message_id).in_(list(user_message_ids))))
    found: dict[int, tuple[int, int]] = {}
    for user_id, number, current in rows:
        now, count = found.get(user_id, (0, 0))
        found[user_id] = (number if current else now, count + 1)
    return found
