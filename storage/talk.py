"""The talk's repository: the messages as ORM rows, for the user actions that change them
(forgetting, regenerating, editing, replaying, exporting) and read them whole.

A chat turn's own reads and writes (today's talk as ``Talk`` values, committing a
message, storing a reply) are Core statements built once, in ``storage.queries``; what
is here runs once per user action, not per turn, and hands back rows the caller may
change in its transaction (issue 42: these queries were built in cms and operations).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, col, func, select

from storage.models import Message, MessageRole

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


def top_id(session: Session) -> int:
    """The largest message id stored (0 when there is none)."""
    return int(session.exec(select(func.max(Message.id))).one() or 0)


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


def ids_of(conn: Connection, day: str | None = None) -> list[int]:
    """Every message's id (of ``day``), oldest first, without reading a text (an export
    then reads them in batches and can skip a damaged one)."""
    where = "WHERE day = :day" if day is not None else ""
    return [int(row[0]) for row in conn.execute(
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


def generation(conn: Connection) -> tuple[int, ...]:
    """How far the history has come, in one read: the messages' count, newest id and sum
    of revisions, the Timeline Index lines' count and sum of revisions (another device's
    or process's write changes one of them: ``SharedWatch``)."""
    row = conn.exec_driver_sql(
        "SELECT (SELECT count(*) FROM message), (SELECT coalesce(max(id), 0) FROM message), "
        "(SELECT coalesce(sum(rev), 0) FROM message), (SELECT count(*) FROM timelineentry), "
        "(SELECT coalesce(sum(rev), 0) FROM timelineentry)").one()
    return tuple(int(v) for v in row)
