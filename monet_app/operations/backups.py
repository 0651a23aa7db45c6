"""Backing up and restoring (the window's MONET menu and daily schedule; ``monet backup``
and ``monet restore``). The mechanics are ``monet_app/services/backup.py``.

A backup is ``Work.BACKUP`` in the gate: one at a time, beside anything but a restore
(SQLite's online backup copies a consistent database while others write). A restore is
``Work.RESTORE``: it runs alone. The window enters the gate for it, waits for a librarian
pass or backup already under way (``Gate.wait_for_background``), lets go of the database
(``Core.close``) and then calls ``restore`` with its ticket; the command line, which holds
no database open, calls it directly.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from monet_app.operations.changes import EVERYTHING, Changes, Done
from monet_app.services import backup
from monet_app.services.gate import Gate, Ticket, Work
from monet_app.services.wiring import Core


def back_up(home: Path, now: datetime, out: Path | None = None, *, auto: bool = False,
            keep: int = 0, gate: Gate | None = None) -> Done[backup.BackupResult]:
    """A backup of the data folder as it is, now. ``auto``: one of the window's automatic
    backups, of which the newest ``keep`` are kept (0: none removed). The database is
    copied as the file stands: never opened through ``Database``, so never migrated first
    (a backup is the copy to go back to)."""
    with (gate or Gate()).hold(Work.BACKUP):
        made = backup.make_backup(home, now, out, auto=auto)
        if auto:
            backup.rotate(home, keep)
    return Done(made, Changes(backups=True))


def backup_due(core: Core, every_hours: float = 24) -> bool:
    """Is the daily backup due (the newest is ``every_hours`` old, backups are kept, the
    home can be written)?"""
    if core.settings.backup_keep <= 0 or core.db.read_only:
        return False
    last = backup.last_backup(core.home)
    return last is None or (core.clock.now() - last).total_seconds() >= every_hours * 3600


def restore(home: Path, archive: Path, now: datetime, *, force: bool = False,
            gate: Gate | None = None, ticket: Ticket | None = None) -> Done[backup.RestoreResult]:
    """Put ``archive`` back into ``home``; what it replaces is kept beside it. With the
    ``gate`` of a process that had the home open, only under its ``RESTORE`` ticket, the
    database closed and no background work running."""
    gate = gate or Gate()
    with gate.hold(Work.RESTORE, ticket):
        if not gate.wait_for_background(timeout=0):
            raise AssertionError("a restore must wait for the background work first")
        return Done(backup.restore(archive, home, now, force=force), EVERYTHING)
