"""A whole history copied from one store to another (issue 31): a SQLite data folder into
a PostgreSQL database, a PostgreSQL history back into a data folder, and the backups of a
server (``monet_app/services/backup.py`` makes its archive from such a copy).

Every table is copied row for row with its ids, in one transaction on the target (all of
it or nothing), from one consistent read of the source, which is never written. The
target must be empty. The search's indexes and token counts are made by the target's own
triggers as the messages arrive. What is left out: ``rev`` (a random number each store
draws anew for a row it writes: it only says "changed since you read it") and the
server's derived columns.

``verify`` compares the two: per table, the number of rows and a SHA-256 over its rows in
id order (every column but ``rev``), so a copy that lost, doubled or altered a row is
caught before anyone uses it.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Table, bindparam, text
from sqlmodel import Session, SQLModel

import storage.models  # noqa: F401  (the tables)
from storage import attachments
from storage.database import Database
from storage.errors import DatabaseError

#: The tables in an order that meets their foreign keys, then the vectors (raw SQL).
ORDER = ("thread", "fold", "segment", "message", "timelineentry", "usagerecord", "event",
         "promptstate", "setting", "contextsummary", "presummary", "memoryitem",
         "reply_version", "attachment")
VECTOR_COLUMNS = ("id", "message_id", "piece", "model", "bits", "vec")
#: Never compared or carried: drawn anew by each store (migration 0019's server baseline).
SKIPPED = frozenset({"rev"})
BATCH = 1_000


@dataclass
class CopyReport:
    rows: dict[str, int] = field(default_factory=dict)  # per table
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def messages(self) -> int:
        return self.rows.get("message", 0)


def _table(name: str) -> Table:
    return SQLModel.metadata.tables[name]


def _columns(name: str) -> list[str]:
    if name == "message_vector":
        return list(VECTOR_COLUMNS)
    return [c.name for c in _table(name).columns if c.name not in SKIPPED]


def _key(name: str) -> str:
    return "key" if name == "setting" else "id"


def _rows(conn: Any, name: str) -> list[dict[str, Any]]:
    columns = _columns(name)
    quoted = ", ".join(f'"{c}"' for c in columns)
    result = conn.execute(text(f'SELECT {quoted} FROM {name} ORDER BY "{_key(name)}"'))
    return [dict(zip(columns, row, strict=True)) for row in result]


def _canonical(value: Any) -> Any:
    if isinstance(value, memoryview):
        value = bytes(value)
    if isinstance(value, bytes):
        return {"bytes": value.hex()}
    if isinstance(value, bool):
        return int(value)
    return value


def digest(rows: list[dict[str, Any]]) -> str:
    """A SHA-256 over ``rows`` as canonical JSON (bytes as hex, booleans as 0/1)."""
    hashed = hashlib.sha256()
    for row in rows:
        hashed.update(json.dumps({k: _canonical(v) for k, v in row.items()},
                                 ensure_ascii=False, sort_keys=True).encode("utf-8"))
        hashed.update(b"\n")
    return hashed.hexdigest()


def measure(db: Database) -> CopyReport:
    """Rows and digest of every table of ``db``'s history."""
    report = CopyReport()
    with db.engine.connect() as conn:
        for name in (*ORDER, "message_vector"):
            rows = _rows(conn, name)
            report.rows[name] = len(rows)
            report.digests[name] = digest(rows)
    return report


def _empty(db: Database) -> bool:
    with db.engine.connect() as conn:
        return all(not conn.execute(text(f"SELECT count(*) FROM {name}")).scalar()
                   for name in ("message", "event", "timelineentry", "memoryitem",
                                "usagerecord"))


def _self_references(name: str) -> list[str]:
    """The columns of table ``name`` that name a row of the same table."""
    if name == "message_vector":
        return []
    table = _table(name)
    return [fk.parent.name for fk in table.foreign_keys if fk.column.table is table]


def _copy_files(read: Session, write: Session, source: Database, target: Database) -> None:
    """The attached files' bytes go with the rows: from the source's folder (a file
    history) or its ``attachment_blob`` (a server) into the target's folder or its
    ``attachment_blob`` (``storage/attachments.py``). Folder to folder is the caller's
    (``monet_app/operations/moving.py`` copies the files themselves)."""
    if target.server and not source.server:
        attachments.upload_folder(write, source.home)
    elif target.server:
        after = ""
        while True:  # a few files at a time: a year of pictures is gigabytes
            batch = {str(sha): bytes(data) for sha, data in read.execute(text(
                "SELECT sha256, data FROM attachment_blob WHERE sha256 > :after "
                "ORDER BY sha256 LIMIT :n"), {"n": attachments.FETCH_BATCH, "after": after})}
            attachments.keep_on_server(write, batch)
            if len(batch) < attachments.FETCH_BATCH:
                break
            after = max(batch)
    elif source.server:
        attachments.fetch_missing(read, target.home)


def copy_history(source: Database, target: Database) -> CopyReport:
    """Copy every row of ``source`` into the empty ``target``; returns what was copied."""
    if not _empty(target):
        raise DatabaseError(
            "{where} already holds a history; MONET copies only into an empty one "
            "(a new database, a new data folder). Nothing was copied.", where=target.where)
    report = CopyReport()
    with source.engine.connect() as read, target.engine.begin() as write:
        if source.server:  # one consistent read of the whole history
            read.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        write.execute(text("DELETE FROM promptstate"))  # (made empty by the schema)
        for name in (*ORDER, "message_vector"):
            rows = _rows(read, name)
            report.rows[name] = len(rows)
            report.digests[name] = digest(rows)
            if not rows:
                continue
            columns = _columns(name)
            quoted = ", ".join(f'"{c}"' for c in columns)
            named = ", ".join(f":{c}" for c in columns)
            statement: Any = (_table(name).insert() if name != "message_vector"
                              else text(f"INSERT INTO {name} ({quoted}) VALUES ({named})"))
            # a column naming a row of its own table (a Timeline Index line's roll-up) may
            # name a later row: written empty first, then set once every row is there
            later = _self_references(name)
            inserted = [{**row, **dict.fromkeys(later)} for row in rows] if later else rows
            for start in range(0, len(rows), BATCH):
                write.execute(statement, inserted[start:start + BATCH])
            for column in later:
                table = _table(name)
                values = [{"row_id": row["id"], "value": row[column]} for row in rows
                          if row[column] is not None]
                if values:
                    write.execute(table.update().where(table.c.id == bindparam("row_id"))
                                  .values({column: bindparam("value")}), values)
        with Session(bind=read) as reading, Session(bind=write) as writing:
            _copy_files(reading, writing, source, target)
        given = _top_message_id(read, source)
        if target.server:  # the next ids follow the copied ones, as SQLite's rowids do
            for name in (*[n for n in ORDER if n != "setting"], "message_vector"):
                write.exec_driver_sql(
                    f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                    f"coalesce((SELECT max(id) FROM {name}), 0) + 1, false)")
            write.exec_driver_sql(  # and never a message id the source gave (0021)
                "SELECT setval(pg_get_serial_sequence('message', 'id'), greatest("
                "(SELECT max(id) FROM message), %(given)s, 0) + 1, false)", {"given": given})
        else:
            write.exec_driver_sql(
                "INSERT INTO id_floor (name, top) VALUES ('message', ?) ON CONFLICT (name) "
                "DO UPDATE SET top = max(top, excluded.top)", (given,))
    if target.server:  # the planner's statistics, and index-only scans of the new rows
        with target.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    return report


def _top_message_id(read: Any, source: Database) -> int:
    """The largest message id the source ever gave (deleted ones included)."""
    if source.server:
        sequence = read.exec_driver_sql("SELECT pg_get_serial_sequence('message', 'id')"
                                        ).scalar()
        return int(read.exec_driver_sql(
            "SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END FROM "
            f"{sequence}").scalar() or 0)
    return int(read.exec_driver_sql(
        "SELECT max(coalesce((SELECT max(id) FROM message), 0), "
        "coalesce((SELECT top FROM id_floor WHERE name = 'message'), 0))").scalar() or 0)


def verify(source: CopyReport, target: Database) -> list[str]:
    """What differs between the copy made and ``target`` as it now reads ([] if nothing)."""
    found = measure(target)
    return [f"{name}: {source.rows[name]} rows / {found.rows.get(name)}"
            for name in source.rows
            if (source.rows[name], source.digests[name])
            != (found.rows.get(name), found.digests.get(name))]


def copy_checked(source: Database, target: Database) -> CopyReport:
    """``copy_history``, then ``verify``: a copy that does not match its source is said
    (and must not be used)."""
    report = copy_history(source, target)
    problems = verify(report, target)
    if problems:
        raise DatabaseError("The copy in {where} does not match its source ({problems}); "
                            "do not use it.", where=target.where, problems="; ".join(problems))
    return report
