"""A history shared between devices (a PostgreSQL server) or processes (one SQLite file):
how far it has come, for the window to follow another's writes (``SharedWatch``), and this
device's copies of its attached files brought up to date. Both read the history only."""

from __future__ import annotations

from monet_app.operations.changes import Done
from monet_app.services.wiring import Core
from storage import attachments as attachment_files
from storage import talk


def generation(core: Core, stamp: tuple[int, ...] | None = None
               ) -> Done[tuple[tuple[int, ...], tuple[int, ...] | None]]:
    """How far the history has come: the SQLite file's ``stamp`` and its messages' and
    Timeline Index lines' counts, newest ids and revisions. Another device's or process's
    write changes it (``SharedWatch``). On a SQLite file whose stamp is still ``stamp``
    nothing was committed since: the counts are not asked (None)."""
    now = core.db.stamp()
    if now and now == stamp:
        return Done((now, None))
    with core.db.transaction() as conn:
        return Done((now, talk.generation(conn)))


def shared_files(core: Core) -> Done[int]:
    """A shared history's attached files in this device's folder as the history names them
    now (``storage/attachments.py``): another device's fetched, a forgotten one's removed.
    Writes nothing of the history; returns how many files changed. Nothing on a SQLite
    file: its folder is the history's own (a file is written there before its message's
    transaction, and must not be swept in between)."""
    if not core.db.server:
        return Done(0)
    with core.db.unlocked_reads() as conn:  # (the other devices' sends do not wait on it)
        fetched = attachment_files.fetch_missing(conn, core.db.home)
        gone = attachment_files.sweep_folder(conn, core.db.home)
    return Done(fetched + gone)
