"""``monet migrate-to``: a history copied to another store (issue 31, docs/postgresql.md).

A SQLite data folder's history goes into an empty PostgreSQL database, or a server's
history back into a new data folder; the source is only read. The copy is checked table
by table (rows and a SHA-256 of them, ``storage/copy.py``) before it is reported done.
The core text goes with it (a file in a data folder, the history's own row on a server),
and so do the attached files when the target is a data folder. With ``switch``, this
device's ``device.json`` then names the new store, so MONET opens it from now on.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from cms.context.core_prompt import CORE_KEY, core_path, read_core
from monet_app.operations.changes import Done
from storage import Database, queries
from storage import attachments as attachment_files
from storage.copy import CopyReport, copy_checked
from storage.errors import DatabaseError
from storage.files import write_text_atomic
from storage.where import write_device


@dataclass(frozen=True)
class Moved:
    report: CopyReport
    target: str  # the server (without its password) or the folder
    files: int  # attached files copied


def migrate_to(home: Path, target: str, *, switch: bool = False) -> Done[Moved]:
    """Copy the history of ``home`` (where it is now) to ``target``: a ``postgresql://``
    URL (an empty database) or a folder (a new data folder, its history a SQLite file)."""
    server = target.startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))
    source = Database(home)
    try:
        if server and source.url == target:
            raise DatabaseError("The history is already on that server; nothing was copied.")
        destination = (Database(home / ".migrate-to", url=target) if server
                       else Database(Path(target).expanduser(), url=""))
        try:
            report = copy_checked(source, destination)
            core = read_core(source)
            if core:  # (after the check: on a server it is one more setting row)
                if destination.server:
                    with destination.session() as session:
                        queries.write_value(session, CORE_KEY, core)
                else:
                    write_text_atomic(core_path(destination.home), core)
            files = 0
            if not destination.server:
                files = _copy_files(home, destination.home)
            where = destination.where
        finally:
            destination.close()
        if server:
            shutil.rmtree(home / ".migrate-to", ignore_errors=True)
    finally:
        source.close()
    if switch:
        write_device(home, "database_url", target if server else "")
    return Done(Moved(report, where, files))


def _copy_files(home: Path, into: Path) -> int:
    """The attached files the history names, into the new data folder."""
    source = attachment_files.folder(home)
    if not source.is_dir():
        return 0
    target = attachment_files.folder(into)
    target.mkdir(parents=True, exist_ok=True)
    copied = 0
    for path in source.iterdir():
        if attachment_files.SHA.fullmatch(path.name):
            shutil.copyfile(path, target / path.name)
            copied += 1
    return copied
