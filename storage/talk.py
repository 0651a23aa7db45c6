"""The talk's repository: the threads and their messages.

A chat turn's own reads and writes (committing the message, reading today's talk as
plain ``Talk`` values, kept between turns by ``TalkReader`` until a row's revision
changes) are Core statements built once (``storage/rows.py`` says why); the window's
reads (a day's messages, the counts per day and tab, the latest exchange, a reply's
versions) and the user actions' (forgetting, regenerating, editing, a replay's
continuation, an export's ids) hand back rows the caller may change in its transaction
(issue 42: these queries were built in cms and operations; they were one module,
``storage/queries.py``, over every table).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    String,
    bindparam,
    column,
    func,
    insert,
    table,
    text,
    type_coerce,
)
from sqlalchemy import select as sa_select
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, select

from storage.models import (
    Message,
    MessageRole,
    MessageStatus,
    ReplyVersion,
    Thread,
    ThreadKind,
)
from storage.rows import Db, KeptRows, connection_of, execute, insert_row, run

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


class TalkReader(KeptRows[Talk]):
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
    conn = connection_of(db)
    key = execute(conn, _INSERT_MESSAGE_SQLITE if conn.dialect.name == "sqlite"
                  else _INSERT_MESSAGE, values).lastrowid
    assert key is not None
    return Talk(id=int(key), segment_id=None, **values)


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


#: What a read of a damaged row raises (a text that is not UTF-8, a value the driver
#: cannot convert): the export skips such a row and says which.
UNREADABLE: tuple[type[Exception], ...] = (SQLAlchemyError, UnicodeDecodeError, ValueError)


def existing(session: Session, ids: Sequence[int]) -> list[int]:
    """Those of ``ids`` still stored, in id order."""
    if not ids:
        return []
    return [i for i in session.exec(select(Message.id).where(col(Message.id).in_(list(ids)))
                                    .order_by(col(Message.id))) if i is not None]


def newest(session: Session) -> Message | None:
    """The last message stored, of any role."""
    return session.exec(select(Message).order_by(col(Message.id).desc()).limit(1)).first()


def said_containing(session: Session, words: str) -> list[int]:
    """The person's messages whose text holds ``words`` (case folded, ``%`` and ``_``
    taken literally)."""
    return [i for i in session.exec(
        select(Message.id).where(Message.role == MessageRole.USER,
                                 col(Message.text).icontains(words, autoescape=True))
    ) if i is not None]


def after_in_thread(session: Session, thread_id: int, after_id: int,
                    limit: int) -> list[Message]:
    """The next ``limit`` messages of a thread after message ``after_id``, oldest first."""
    return list(session.exec(
        select(Message).where(Message.thread_id == thread_id, col(Message.id) > after_id)
        .order_by(col(Message.id)).limit(limit)))


def after_on_day(session: Session, day: str, after_id: int) -> list[Message]:
    """A day's messages after message ``after_id``, oldest first."""
    return list(session.exec(
        select(Message).where(Message.day == day, col(Message.id) > after_id)
        .order_by(col(Message.id))))


def roles_after_on_day(session: Session, day: str, after_id: int
                       ) -> list[tuple[int, MessageRole]]:
    """(id, role) of a day's messages after message ``after_id``, oldest first."""
    return [(int(i or 0), MessageRole(role)) for i, role in session.exec(
        select(Message.id, Message.role).where(Message.day == day, col(Message.id) > after_id)
        .order_by(col(Message.id)))]


def said_before(session: Session, day: str, before_id: int) -> int | None:
    """The id of the person's last message of ``day`` before message ``before_id``."""
    return session.exec(
        select(Message.id).where(Message.day == day, Message.role == MessageRole.USER,
                                 col(Message.id) < before_id)
        .order_by(col(Message.id).desc()).limit(1)).first()


def tool_results(session: Session) -> list[Message]:
    """Every tool result stored (what forgetting looks through for quotes)."""
    return list(session.exec(select(Message).where(Message.role == MessageRole.TOOL)))


def ids_of(db: Db, day: str | None = None) -> list[int]:
    """Every message's id (of ``day``), oldest first, without reading a text (an export
    then reads them in batches and can skip a damaged one)."""
    where = "WHERE day = :day" if day is not None else ""
    return [int(row[0]) for row in connection_of(db).execute(
        text(f"SELECT id FROM message {where} ORDER BY id"), {"day": day})]


def said_with_text(session: Session, said: str) -> list[tuple[int, str]]:
    """(id, time) of the person's messages whose text is exactly ``said``, oldest first."""
    return [(i, ts) for i, ts in session.exec(
        select(col(Message.id), col(Message.ts))
        .where(Message.role == MessageRole.USER, col(Message.text) == said)
        .order_by(col(Message.id))) if i is not None]


def said_from(session: Session, first_id: int) -> list[tuple[str, str]]:
    """(time, text) of the person's messages from message ``first_id`` on, oldest first."""
    return [(ts, said) for ts, said in session.exec(
        select(col(Message.ts), col(Message.text))
        .where(Message.role == MessageRole.USER, col(Message.id) >= first_id)
        .order_by(col(Message.id)))]


def generation(db: Db) -> tuple[int, ...]:
    """How far the history has come, in one read: the messages' count, newest id and sum
    of revisions, the Timeline Index lines' count and sum of revisions (another device's
    or process's write changes one of them: ``SharedWatch``)."""
    row = connection_of(db).exec_driver_sql(
        "SELECT (SELECT count(*) FROM message), (SELECT coalesce(max(id), 0) FROM message), "
        "(SELECT coalesce(sum(rev), 0) FROM message), (SELECT count(*) FROM timelineentry), "
        "(SELECT coalesce(sum(rev), 0) FROM timelineentry)").one()
    return tuple(int(v) for v in row)
