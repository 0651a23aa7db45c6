"""The head schema as SQL, so a new home is created in milliseconds rather than by running
every migration (~0.2 s with alembic's import, paid by each new home: a first start, a
replay, each test).

``schema.sql`` is what the migrations produce, dumped from ``sqlite_master``; the migrations
stay the one source of truth: ``tests/test_storage.py`` builds a home both ways and
compares their schemas, so a new migration without a new dump fails there, with this
command in its message::

    python -m storage.write_schema   # writes storage/schema.sql from the migrations

An existing home is still upgraded by alembic (``Database.migrate``).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

SCHEMA_FILE = Path(__file__).parent / "schema.sql"
#: The tables SQLite makes by itself for each FTS5 table (never created by hand).
_FTS5_SHADOWS = ("_data", "_idx", "_content", "_docsize", "_config")


def statements(text: str) -> list[str]:
    """The SQL statements of ``text``, whole (a trigger's body keeps its semicolons)."""
    found: list[str] = []
    buffer = ""
    for line in text.splitlines(keepends=True):
        if not buffer and (not line.strip() or line.startswith("--")):
            continue
        buffer += line
        if sqlite3.complete_statement(buffer):
            found.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        raise ValueError(f"An unfinished statement ends {SCHEMA_FILE.name}: {buffer[:80]!r}")
    return found


def create(dbapi_connection: Any, revision: str) -> None:
    """Create the head schema on an empty database, inside the caller's transaction."""
    cursor = dbapi_connection.cursor()
    try:
        if not dbapi_connection.in_transaction:
            cursor.execute("BEGIN")  # all of it or none (the driver opens none for DDL)
        for statement in statements(SCHEMA_FILE.read_text(encoding="utf-8")):
            cursor.execute(statement)
        cursor.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (revision,))
    finally:
        cursor.close()


def dump(path: Path) -> str:
    """The schema of the database at ``path`` as SQL, in the order it was created."""
    connection = sqlite3.connect(path)
    try:
        rows = connection.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY rowid"
        ).fetchall()
    finally:
        connection.close()
    virtual = [name for _type, name, sql in rows if sql.upper().startswith("CREATE VIRTUAL")]
    shadows = {f"{name}{suffix}" for name in virtual for suffix in _FTS5_SHADOWS}
    kept = [sql for _type, name, sql in rows
            if name not in shadows and not name.startswith("sqlite_")]
    return "".join(f"{sql};\n\n" for sql in kept)
