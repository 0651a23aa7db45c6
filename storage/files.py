"""The text files beside the database: written atomically, read as UTF-8."""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

LOCK_WAIT_SECONDS = 120


@contextmanager
def process_lock(home: Path, name: str) -> Iterator[None]:
    """A lock across processes with nothing but SQLite: an exclusive transaction on a small
    lock database ``.{name}.lock`` in the data folder. Works wherever SQLite does (Linux,
    macOS, Windows), needs no extra package, and is released if the process dies."""
    home.mkdir(parents=True, exist_ok=True)
    lock = sqlite3.connect(home / f".{name}.lock", timeout=LOCK_WAIT_SECONDS,
                           isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        lock.close()  # ends the transaction, and with it the lock


def read_text(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""


def write_text_atomic(path: Path, text: str) -> None:
    """Write to a temporary file and rename over ``path``: never half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
