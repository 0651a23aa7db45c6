"""A person's history is a diary: only its owner can read what MONET writes (issue 41).

Two parts, both on POSIX systems (Linux, macOS):

- ``keep_private()`` sets the process's umask to 077, so everything this process creates
  from then on is its owner's alone, whoever creates it: SQLite's database, its journal,
  WAL and shared-memory files (SQLite gives them the database file's mode), monet.log,
  attachments, backups, exports, device.json, the lock files. Whatever umask the person's
  session has, MONET's files are 0600 and its folders 0700.
- ``private_folder(home)`` makes the data folder (0700) and tightens an older one, made
  before this rule or by hand: when the folder or any entry at its top is open to other
  accounts, every folder below it becomes 0700 and every file 0600 (symbolic links are
  not followed). It says how many it tightened, once: a tightened folder is closed, and
  the next open finds nothing to do.

On Windows a file's POSIX mode does not decide who reads it: the data folder lives in the
person's profile (``%LOCALAPPDATA%``), which Windows' access lists keep to that account
and its administrators, and MONET leaves those lists as they are.
"""

from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

log = logging.getLogger(__name__)
#: What this process tightened, by folder, until the window has said so (``take_tightened``).
_TIGHTENED: dict[Path, int] = {}

PRIVATE_UMASK = 0o077
FOLDER_MODE = 0o700
FILE_MODE = 0o600
_OTHERS = stat.S_IRWXG | stat.S_IRWXO


def applies() -> bool:
    """Whether POSIX modes decide who reads a file here (not on Windows)."""
    return os.name == "posix"


def keep_private() -> None:
    """Every file and folder this process creates from now on is its owner's alone."""
    if applies():
        os.umask(PRIVATE_UMASK)


def _open_to_others(path: Path) -> bool:
    try:
        return bool(path.lstat().st_mode & _OTHERS) and not path.is_symlink()
    except OSError:
        return False


def private_folder(home: Path) -> int:
    """Make ``home`` (0700) if it is not there, keep this process's files private, and
    tighten what an older MONET (or a hand) left open to other accounts. The number of
    folders and files tightened (0 when there was nothing to do)."""
    keep_private()
    home.mkdir(parents=True, exist_ok=True)
    if not applies():
        return 0
    try:
        top = [home, *home.iterdir()]
    except OSError:
        return 0  # not ours to list: opening the database says why
    if not any(_open_to_others(path) for path in top):
        return 0
    tightened, refused = 0, 0
    for folder, folders, files in os.walk(home, followlinks=False):
        for name in [None, *files]:
            path = Path(folder) if name is None else Path(folder) / name
            try:
                mode = path.lstat().st_mode
                if stat.S_ISLNK(mode) or not mode & _OTHERS:
                    continue
                os.chmod(path, FOLDER_MODE if stat.S_ISDIR(mode) else FILE_MODE)
                tightened += 1
            except OSError:  # another account's file, a read-only disk: left, and said
                refused += 1
        folders[:] = [f for f in folders if not (Path(folder) / f).is_symlink()]
    if refused:
        log.warning("%d folders and files of %s are open to other accounts and could not "
                    "be made private", refused, home)
    if tightened:
        _TIGHTENED[home.resolve()] = _TIGHTENED.get(home.resolve(), 0) + tightened
        log.warning("the data folder %s was open to other accounts; %d of its folders and "
                    "files were made private (0700 / 0600)", home, tightened)
    return tightened


def take_tightened(home: Path) -> int:
    """How many folders and files of ``home`` this process made private and has not yet
    told the person about (the window says it once, whoever opened the folder first)."""
    return _TIGHTENED.pop(home.resolve(), 0)


def tightened_sentence(home: Path, count: int) -> str:
    """What the person is told when an older folder was tightened."""
    return (f"{home} could be read by other accounts of this computer; MONET made it "
            f"private ({count} folders and files, now readable by you alone).")
