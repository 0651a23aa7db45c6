"""What every repository of ``storage`` runs on: the one session type
(``Db``), Core statements built once and run by SQLAlchemy
(``run``, answering plain tuples), rows inserted in bulk, and a reader that keeps the rows
of its last reads until their revisions change (``KeptRows``).

The queries a chat turn runs (committing the message, reading today's talk, storing the
reply and its usage) are SQLAlchemy Core statements built once, and today's talk comes
back as plain ``Talk`` values rather than ORM objects: measured on this machine, a Core
statement inside a transaction costs ~15 us and an ORM ``get`` ~100 us, and a turn made
of ORM sessions spent most of its time there (docs/performance.md). The ORM stays for
everything else. Portable SQLAlchemy only: what differs on PostgreSQL is spelt for both.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

from sqlalchemy import insert
from sqlalchemy.engine import Connection
from sqlmodel import Session

#: What every repository function takes: a session in its transaction
#: (``Database.transaction``, ``Database.session``).
Db = Session


_Kept = TypeVar("_Kept")


def connection_of(db: Db) -> Connection:
    """The session's connection, for Core statements (inside storage only)."""
    return db.connection()


class Answer:
    """What a statement answered, its rows as plain tuples, and the new row's id as
    ``lastrowid`` on either store (from the insert's RETURNING on a server)."""

    __slots__ = ("_result", "_server")

    def __init__(self, result: Any, server: bool) -> None:
        self._result = result
        self._server = server

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.all())

    def all(self) -> list[tuple[Any, ...]]:
        return [tuple(row) for row in self._result.all()]

    def first(self) -> tuple[Any, ...] | None:
        row = self._result.first()
        return None if row is None else tuple(row)

    def scalar(self) -> Any:
        return self._result.scalar()

    def scalars(self) -> Iterator[Any]:
        return iter(self._result.scalars().all())

    @property
    def rowcount(self) -> int:
        return int(self._result.rowcount)

    @property
    def lastrowid(self) -> int | None:
        if not self._server:
            return self._result.lastrowid  # type: ignore[no-any-return]
        key = self._result.inserted_primary_key
        return None if not key else int(key[0])


def execute(conn: Connection, statement: Any, params: dict[str, Any] | None = None) -> Answer:
    """Run a Core statement with one row of values on ``conn``, in its transaction."""
    return Answer(conn.execute(statement, dict(params or {})), conn.dialect.name != "sqlite")


def run(db: Db, statement: Any, params: dict[str, Any] | None = None) -> Answer:
    """Run a Core statement (built once, a module's constant, or built for this call) on a
    connection or a session's; rows come back as tuples."""
    return execute(connection_of(db), statement, params)


def run_many(db: Db, statement: Any, rows: Sequence[dict[str, Any]]) -> None:
    """Run ``statement`` once for each row of values (no rows back)."""
    if rows:
        connection_of(db).execute(statement, [dict(row) for row in rows])


#: How many different reads (by query and parameters: a day's talk, each thread's) a
#: reader keeps the rows of: the thread model reads the talk of the thread the person is
#: in, and coming back to a thread finds its rows still held instead of reading them all
#: again.
KEPT_READS = 8


class KeptRows(Generic[_Kept]):
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
            return self._read_locked(connection_of(db), query, params, still)

    def _read_locked(self, conn: Connection, query: Any, params: dict[str, Any],
                     still: Callable[[_Kept], bool]) -> list[_Kept]:
        revs = execute(conn, query, params).all()
        key = (id(query), *sorted(params.items()))
        held = self._held.pop(key, {})
        missing = [i for i, rev in revs if (held.get(i) or (-1, None))[0] != rev]
        if missing:
            # a second read: without a read transaction the database may change between
            # the two, so a row read here must still be one the first read asked for, and
            # one gone meanwhile is no longer held
            gone = set(missing)
            for row in execute(conn, self._by_ids, {"ids": missing}):
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
    each: for the few rows of a fold, the ids need no matching.)"""
    return [insert_row(db, model, **row) for row in rows]


def insert_many(db: Db, model: type[Any], rows: Sequence[dict[str, Any]]) -> None:
    """Insert these rows of ``model``'s table with one statement."""
    if rows:
        run_many(db, _insert_of(model), rows)
