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


def back_up(core: Core, out: Path | None = None, *,
            auto: bool = False) -> Done[backup.BackupResult]:
    """A backup of the data folder now (``auto``: the daily one, and the automatic
    backups beyond ``backup_keep`` are removed)."""
    with core.gate.hold(Work.BACKUP):
        made = backup.make_backup(core.home, core.clock.now(), out, auto=auto)
        if auto:
            backup.rotate(core.home, core.settings.backup_keep)
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
    """Put ``archive`` back into ``home``; what it replaces is kept beside it. With a
    ``gate`` (a process that had the home open), only under its ``RESTORE`` ticket, the
    database closed and no background work running."""
    if gate is None:
        return Done(backup.restore(archive, home, now, force=force), EVERYTHING)
    with gate.hold(Work.RESTORE, ticket):
        if not gate.wait_for_background(timeout=0):
            raise AssertionError("a restore must wait for the background work first")
        return Done(backup.restore(archive, home, now, force=force), EVERYTHING)
