"""The files beside the database: written atomically, read as UTF-8, measured before
they are read; the locks between MONET's processes; a restore's swap of the folder's
files as one step (``commit_swap``)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from storage.private import keep_private

LOCK_WAIT_SECONDS = 120


@contextmanager
def process_lock(home: Path, name: str) -> Iterator[None]:
    """A lock across processes with nothing but SQLite: an exclusive transaction on a small
    lock database ``.{name}.lock`` in the data folder. Works wherever SQLite does (Linux,
    macOS, Windows), needs no extra package, and is released if the process dies."""
    keep_private()
    home.mkdir(parents=True, exist_ok=True)
    lock = sqlite3.connect(home / f".{name}.lock", timeout=LOCK_WAIT_SECONDS,
                           isolation_level=None)
    try:
        lock.execute("BEGIN EXCLUSIVE")
        yield
    finally:
        lock.close()  # ends the transaction, and with it the lock


#: Held (shared) by every MONET process while it has a data folder's database open.
IN_USE_FILE = ".in-use.lock"


class InUse:
    """A shared hold on a data folder while this process has its database open (a window,
    ``monet librarian``, a replay, any command): a read transaction on the small lock
    database ``.in-use.lock``, which any number of processes hold at once and SQLite
    releases if a process dies. A restore asks for the folder alone (``sole_use``) and is
    refused while any hold stands; a process opening the folder during a restore waits for
    it to end. Works wherever SQLite does."""

    def __init__(self, home: Path) -> None:
        self._lock = sqlite3.connect(home / IN_USE_FILE, timeout=LOCK_WAIT_SECONDS,
                                     isolation_level=None, check_same_thread=False)
        try:
            self._lock.execute("BEGIN")
            self._lock.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except BaseException:
            self._lock.close()
            raise

    def release(self) -> None:
        self._lock.close()  # ends the read transaction, and with it the hold


class FolderInUse(Exception):
    """Another MONET (or this process's own open database) holds the folder."""


@contextmanager
def sole_use(home: Path) -> Iterator[None]:
    """The data folder for this process alone, at once, or ``FolderInUse``: no MONET has
    its database open, and none opens it until the body ends (openers wait)."""
    with only_one(home, IN_USE_FILE.removeprefix(".").removesuffix(".lock")):
        yield


@contextmanager
def only_one(home: Path, name: str) -> Iterator[None]:
    """This process alone does ``name`` in the data folder, or ``FolderInUse`` at once
    (not after a wait): an exclusive transaction on ``.{name}.lock``, released if the
    process dies."""
    keep_private()
    home.mkdir(parents=True, exist_ok=True)
    lock = sqlite3.connect(home / f".{name}.lock", timeout=0, isolation_level=None)
    try:
        try:
            lock.execute("BEGIN EXCLUSIVE")
        except sqlite3.OperationalError as exc:
            raise FolderInUse(str(exc)) from None
        yield
    finally:
        lock.close()


#: A restore's commit point (issue 42): which staged files replace the data folder's.
SWAP_FILE = ".restore-swap.json"


def commit_swap(home: Path, staged: Path, put: Sequence[str], remove: Sequence[str]) -> None:
    """Replace the data folder's files ``put`` with those of ``staged`` (a folder inside
    ``home``, on the same file system) and remove ``remove``, as one step: the plan is
    written first, atomically (the commit point), then carried out by ``finish_swap``. A
    process killed before the plan is written changed nothing; one killed after it is
    finished by the next ``finish_swap``, which every opening of the folder runs. Put the
    database last: its write-ahead log and shared memory go just before it is replaced
    (they belong to the database being replaced)."""
    plan = {"staged": staged.name, "put": list(put), "remove": list(remove)}
    write_text_atomic(home / SWAP_FILE, json.dumps(plan))
    finish_swap(home)


def finish_swap(home: Path) -> bool:
    """Carry out a swap whose plan was written (``commit_swap``), all of it or the rest of
    it: each step is done only if it is still to do, so a second kill midway changes
    nothing more. The caller holds the folder's ``migrating`` lock. Whether there was
    one."""
    marker = home / SWAP_FILE
    if not marker.is_file():
        return False
    plan = json.loads(marker.read_text("utf-8"))
    staged = home / str(plan["staged"])
    for name in plan["remove"]:
        (home / name).unlink(missing_ok=True)
    for name in plan["put"]:
        source, target = staged / name, home / name
        if source.exists():  # (else: moved in before a kill)
            for suffix in ("-wal", "-shm"):
                (home / (name + suffix)).unlink(missing_ok=True)
            os.replace(source, target)
    marker.unlink()
    shutil.rmtree(staged, ignore_errors=True)
    return True


def read_text(path: Path) -> str:
    try:
        return path.read_text("utf-8")
    except FileNotFoundError:
        return ""


def write_text_atomic(path: Path, text: str) -> None:
    """Write to a temporary file and rename over ``path``: never half a file."""
    keep_private()
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


class NotAFile(ValueError):
    """A device, FIFO or socket where a file was expected."""


class TooLarge(ValueError):
    """A file larger than what may be read of it: ``size`` bytes by its size (None: it
    grew while it was read), ``limit`` the most that may be read."""

    def __init__(self, message: str, *, size: int | None, limit: int) -> None:
        super().__init__(message)
        self.size = size
        self.limit = limit


def read_measured(path: Path, limit: int, what: str = "file") -> bytes:
    """The bytes of the regular file at ``path``, measured before they are read (issue 41):
    a device, FIFO or socket is refused without reading (opened non-blocking, so a FIFO
    cannot hang), a file larger than ``limit`` bytes by its size is refused, and the read
    itself stops at ``limit`` + 1 bytes (a file that grows meanwhile, or lies about its
    size, is refused too). ``NotAFile`` or ``TooLarge`` says why in a sentence; ``OSError`` when the
    file cannot be opened."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    fd = os.open(path, flags)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotAFile(f"{path.name} is not a regular file (a device, pipe or socket); "
                             f"MONET reads only files.")
        if info.st_size > limit:
            raise TooLarge(f"{path.name} is {info.st_size / 1e6:,.1f} MB; a {what} can be "
                           f"at most {limit / 1e6:,.0f} MB.", size=info.st_size, limit=limit)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:
            raise TooLarge(f"{path.name} is larger than {limit / 1e6:,.0f} MB (it grew while "
                           f"it was read); a {what} can be at most that.", size=None, limit=limit)
        return b"".join(chunks)
    finally:
        os.close(fd)
