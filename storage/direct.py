"""Core statements run straight on the driver's cursor, in the connection's transaction.

A chat turn and a rebuild point run some twenty small statements (docs/performance.md).
Through SQLAlchemy's execution path each costs ~15 us of Python around
sqlite3's ~3 us, and more when rows come back (a ``Row`` each, type processing per
value): measured on this machine, reading the Timeline Index's 50 lines took 145 us that
way and 75 us here. So the statements of the repositories (``storage/rows.py``) are compiled once by
SQLAlchemy, from the same Core constructs (the SQL stays portable), and run here:

- binds are positional, each through its type's bind processor, as SQLAlchemy does;
  constants in the statement (a constant ``IN`` list too) are bound once; an ``IN`` list
  given at run time is spelt out there, as many placeholders as it holds values;
- an insert's Python-side scalar defaults are bound as constants;
- result values go through their types' result processors (a ``bool`` column comes back
  as ``bool``, an enum column as its member).

A statement needing anything else (a callable default, ``executemany`` with
``RETURNING``) runs through SQLAlchemy as before: ``execute`` answers the same either way.
Driver errors become SQLAlchemy's, so ``Database`` explains them in plain words as it did.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

Processor = Callable[[Any], Any] | None


class _Unsupported(Exception):
    """The statement needs SQLAlchemy's own execution."""


class _Plan:
    """A statement compiled once: its SQL and how to bind and read its values."""

    __slots__ = ("expanding", "results", "slots", "sql", "statement")

    def __init__(self, statement: Any, conn: Connection, keys: tuple[str, ...]) -> None:
        self.statement = statement  # held, so that the plan's key (its id) stays its own
        dialect = conn.dialect
        compiled = statement.compile(dialect=dialect, column_keys=keys)
        if getattr(compiled, "update_prefetch", None):
            raise _Unsupported("an update with Python-side defaults")
        defaults: dict[str, Any] = {}
        for column in getattr(compiled, "insert_prefetch", None) or ():
            default = column.default
            if default is None or not default.is_scalar:
                raise _Unsupported(f"the default of {column.key}")
            defaults[column.key] = default.arg
        self.sql: str = compiled.string
        #: per placeholder: (parameter name, or None for a constant; the constant; the
        #: bind processor; the name of an expanding list's placeholder in the SQL, or None)
        self.slots: list[tuple[str | None, Any, Processor, str | None]] = []
        self.expanding = False
        for name in compiled.positiontup or ():
            bind = compiled.binds[name]
            if bind.callable is not None:
                raise _Unsupported(f"a callable bind {name}")
            processor = bind.type._cached_bind_processor(dialect)
            given = bind.key in keys or bind.required
            if bind.expanding and not given:  # a constant list: spelt out once, here
                items = list(bind.value)
                if not items:
                    raise _Unsupported("an empty IN list")
                self.sql = self.sql.replace(f"__[POSTCOMPILE_{name}]",
                                            ", ".join("?" * len(items)), 1)
                for item in items:
                    self.slots.append((None, processor(item) if processor else item, None, None))
            elif bind.expanding:
                self.expanding = True
                self.slots.append((bind.key, None, processor, name))
            elif given:
                self.slots.append((bind.key, None, processor, None))
            else:  # a constant of the statement, or a column's default
                value = defaults[bind.key] if bind.key in defaults else bind.value
                self.slots.append((None, processor(value) if processor else value, None, None))
        columns = getattr(compiled, "_result_columns", None) or []
        processors = [(i, c.type._cached_result_processor(dialect, None))
                      for i, c in enumerate(columns)]
        #: (column index, result processor) of the columns that have one, or None
        self.results: list[tuple[int, Callable[[Any], Any]]] | None = [
            (i, p) for i, p in processors if p is not None] or None

    def values(self, params: Mapping[str, Any]) -> tuple[str, list[Any]]:
        """The SQL (its ``IN`` lists spelt out) and the positional values for ``params``."""
        sql = self.sql
        out: list[Any] = []
        for name, constant, processor, placeholder in self.slots:
            if placeholder is not None:  # an IN list: as many values as it holds
                assert name is not None  # (a constant list was spelt out in the plan)
                items = list(params[name])
                if not items:
                    raise _Unsupported("an empty IN list")
                sql = sql.replace(f"__[POSTCOMPILE_{placeholder}]",
                                  ", ".join("?" * len(items)), 1)
                out.extend([processor(v) for v in items] if processor else items)
            elif name is None:
                out.append(constant)
            else:
                value = params[name]
                out.append(processor(value) if processor else value)
        return sql, out


class Rows:
    """What a statement answered (the part of SQLAlchemy's result the queries use). The
    rows are fetched at once: sqlite3 reads a row when it is fetched, and a damaged page
    met then must raise SQLAlchemy's error too, so that it is explained like any other."""

    __slots__ = ("_cursor", "_results", "_sql", "_values")

    def __init__(self, cursor: sqlite3.Cursor,
                 results: list[tuple[int, Callable[[Any], Any]]] | None,
                 sql: str, values: Sequence[Any]) -> None:
        self._cursor = cursor
        self._results = results
        self._sql = sql
        self._values = values

    def _convert(self, row: tuple[Any, ...]) -> tuple[Any, ...]:
        assert self._results is not None
        values = list(row)
        for index, processor in self._results:
            values[index] = processor(values[index])
        return tuple(values)

    def _fetch(self, one: bool) -> list[tuple[Any, ...]]:
        try:
            if one:
                row = self._cursor.fetchone()
                self._cursor.close()
                rows = [] if row is None else [row]
            else:
                rows = self._cursor.fetchall()
        except sqlite3.Error as exc:
            raise DBAPIError.instance(self._sql, self._values, exc, sqlite3.Error) from exc
        if self._results is None:
            return rows
        return [self._convert(row) for row in rows]

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self._fetch(one=False))

    def all(self) -> list[tuple[Any, ...]]:
        return self._fetch(one=False)

    def first(self) -> tuple[Any, ...] | None:
        rows = self._fetch(one=True)
        return rows[0] if rows else None

    def scalar(self) -> Any:
        row = self.first()
        return None if row is None else row[0]

    def scalars(self) -> Iterator[Any]:
        return (row[0] for row in self._fetch(one=False))

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        return self._cursor.lastrowid


_PLANS: dict[tuple[Any, ...], _Plan | None] = {}


def _plan(conn: Connection, statement: Any, keys: tuple[str, ...]) -> _Plan | None:
    """The statement's plan for these parameter names (compiled at its first run, as
    SQLAlchemy compiles a statement for the names it is given), or None."""
    key = (id(statement), keys)
    try:
        return _PLANS[key]
    except KeyError:
        pass
    try:
        plan: _Plan | None = _Plan(statement, conn, keys)
    except _Unsupported:
        plan = None
    _PLANS[key] = plan
    if plan is None:  # keep the statement alive with its key even so
        _KEPT.append(statement)
    return plan


_KEPT: list[Any] = []


def _driver(conn: Connection) -> Any:
    return conn.connection.driver_connection


class Portable:
    """What SQLAlchemy answered on another server (PostgreSQL), with the new row's id as
    ``lastrowid`` (from the insert's RETURNING), as sqlite3's cursor gives it."""

    __slots__ = ("_result",)

    def __init__(self, result: Any) -> None:
        self._result = result

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
        key = self._result.inserted_primary_key
        return None if not key else int(key[0])


def execute(conn: Connection, statement: Any, params: Mapping[str, Any] | None = None) -> Any:
    """Run ``statement`` with ``params`` (one row of values); answers like SQLAlchemy."""
    params = params or {}
    if conn.dialect.name != "sqlite":  # (SQLAlchemy's own path, with its compiled cache)
        return Portable(conn.execute(statement, dict(params)))
    plan = _plan(conn, statement, tuple(sorted(params)))
    if plan is not None:
        try:
            sql, values = plan.values(params)
        except _Unsupported:
            plan = None
    if plan is None:
        return conn.execute(statement, dict(params))
    try:
        cursor = _driver(conn).execute(sql, values)
    except sqlite3.Error as exc:
        raise DBAPIError.instance(sql, values, exc, sqlite3.Error) from exc
    return Rows(cursor, plan.results, sql, values)


def execute_many(conn: Connection, statement: Any, rows: Sequence[Mapping[str, Any]]) -> None:
    """Run ``statement`` once for each row of values (no rows back)."""
    if not rows:
        return
    if conn.dialect.name != "sqlite":
        conn.execute(statement, [dict(row) for row in rows])
        return
    keys = tuple(sorted(rows[0]))
    plan = _plan(conn, statement, keys)
    if plan is None or plan.expanding or plan.results is not None \
            or any(tuple(sorted(row)) != keys for row in rows[1:]):
        conn.execute(statement, [dict(row) for row in rows])
        return
    sql = plan.sql
    values = [plan.values(row)[1] for row in rows]
    try:
        _driver(conn).executemany(sql, values)
    except sqlite3.Error as exc:
        raise DBAPIError.instance(sql, values, exc, sqlite3.Error) from exc
