"""A SQLite history as a file, for backups and restores (``monet_app/services/backup.py``):
checked, copied at one consistent moment, made one file, compacted, and read for what a
backup holds, each on its own short connection to a file no MONET has open, or read-only
(issue 42: backups drove ``sqlite3`` themselves).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

#: What reading a file that is not a sound SQLite database raises.
Damaged = sqlite3.DatabaseError


def _read_only(path: Path, timeout: float = 5.0) -> sqlite3.Connection:
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=timeout)


def integrity(path: Path) -> tuple[str, str, int]:
    """(integrity_check's answer, the schema revision, the number of messages); the
    answer says so when the file is no MONET database."""
    conn = _read_only(path)
    try:
        verdict = str(conn.execute("PRAGMA integrity_check").fetchone()[0])
        revision = conn.execute("SELECT version_num FROM alembic_version").fetchone()
        messages = conn.execute("SELECT count(*) FROM message").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return f"not a MONET database ({exc})", "", 0
    finally:
        conn.close()
    return verdict, str(revision[0]) if revision else "", int(messages)


def copy(source: Path, target: Path) -> None:
    """SQLite's online backup: pages copied in steps, restarted if a writer changes one,
    so the copy is one consistent moment of the database (its WAL included). Raises
    ``Damaged`` when the source cannot be read."""
    src = _read_only(source, timeout=30)
    dst = sqlite3.connect(target)
    try:
        src.backup(dst, pages=1024)
    finally:
        dst.close()
        src.close()


def attachment_hashes(path: Path) -> list[str]:
    """The SHA-256 names of the attached files the rows name, originals and what was sent
    (none before migration 0019)."""
    conn = _read_only(path)
    try:
        rows = conn.execute("SELECT sha256 FROM attachment UNION "
                            "SELECT sent_sha256 FROM attachment").fetchall()
    except sqlite3.OperationalError:
        return []
    finally:
        conn.close()
    return [str(r[0]) for r in rows]


def texts_of(path: Path, ids: Sequence[int]) -> dict[int, str]:
    """The texts of these messages that the file holds, by id."""
    if not ids:
        return {}
    conn = _read_only(path)
    try:
        return {int(i): str(text) for i, text in conn.execute(
            f"SELECT id, text FROM message WHERE id IN ({','.join('?' * len(ids))})",
            list(ids))}
    finally:
        conn.close()


def one_file(path: Path, *, compact: bool = False) -> None:
    """The database whole in its main file (WAL checkpointed, rollback journal mode), to
    be moved or zipped; ``compact``: rebuilt too, so no byte of a deleted row is left in
    a free page."""
    conn = sqlite3.connect(path)
    try:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        conn.execute("PRAGMA journal_mode=DELETE")
        if compact:
            conn.execute("VACUUM")
    finally:
        conn.close()
