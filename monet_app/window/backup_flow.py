"""Backups in the window: when the last one was made, a failure said loudly, and a
restore that waits for running work (``monet_app.operations.backups``).

A restore enters the gate at once (``Work.RESTORE``: refused while a reply or a deletion
runs, and no new work starts), waits on a worker for a librarian pass or a backup already
under way to end, and only then lets go of the database, restores and opens it again
(``AppController.reopen``): nothing writes to a database being replaced.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from monet_app.operations import backups
from monet_app.services import backup
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from monet_app.window.run import run_inline
from monet_app.window.words import Words
from storage.errors import BusyError
from ui.background import run_in_background
from ui.main_window import MainWindow


class BackupFlow(QObject):
    restored = Signal()  # the restore is over (done or not); the core was opened again

    def __init__(self, window: MainWindow, core: Callable[[], Core],
                 reopen: Callable[[], None], closed: Callable[[], bool],
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.core = core
        self.reopen = reopen  # build the core again (same gate), refresh all
        self.closed = closed  # the window was closed while the restore waited
        self._words = Words(self)

    def show_last(self) -> None:
        home = self.core().home
        self.window.set_backup_folder(str(home / backup.BACKUP_FOLDER))
        when = backup.last_backup(home)
        self.window.status_line.set_backup_status(
            self.tr("No backup yet") if when is None
            else self.tr("Backed up {when}").format(when=when.strftime("%Y-%m-%d %H:%M")),
            failed=False)

    def made(self, when: datetime) -> None:
        self.show_last()
        self.window.status_line.notify(self.tr("Backup made ({when}) in {folder}.").format(
            when=when.strftime("%H:%M"), folder=self.core().home / backup.BACKUP_FOLDER))

    def failed(self, problem: str) -> None:
        """Said loudly: a failed backup is a risk the person must know about."""
        self.window.status_line.set_backup_status(self.tr("Backup failed"), failed=True)
        self.window.show_error(self.tr(
            "The backup failed: {problem} Your conversation is unchanged; MONET tries again "
            "in an hour (or MONET → Back up now).").format(problem=problem), can_retry=False)

    def restore(self, archive: str) -> None:
        """Replace this home's database with a backup, once nothing else runs."""
        core = self.core()
        try:
            ticket = core.gate.enter(Work.RESTORE)
        except BusyError as exc:
            self.window.show_error(self._words.busy(exc), can_retry=False)
            return
        if core.gate.busy(Work.LIBRARIAN, Work.BACKUP):
            self.window.status_line.notify(
                self.tr("Restoring once the librarian or the backup finishes…"))
        run_in_background(core.gate.wait_for_background,
                          lambda _ok: self._restore_now(Path(archive), ticket),
                          lambda _exc: self._restore_now(Path(archive), ticket))

    def _restore_now(self, archive: Path, ticket: Ticket) -> None:
        if self.closed():
            ticket.leave()  # (closed while waiting: the core is closed, nothing restored)
            return
        core = self.core()
        try:
            core.close()  # nothing runs now: the gate held every other kind of work off
            done, problem = run_inline(partial(
                backups.restore, core.home, archive, core.clock.now(), force=True,
                gate=core.gate, ticket=ticket), self._words.problem)
            self.reopen()
        finally:
            ticket.leave()
        self.restored.emit()
        if done is None:
            self.window.show_error(problem or self._words.bug().format(kind="restore"),
                                   can_retry=False)
            return
        result = done.value
        kept = f" {result.replaced[0].name}" if result.replaced else ""
        self.window.status_line.notify(self.tr(
            "Restored {n} messages from {file}; the replaced database is kept as{kept}.")
            .format(n=result.messages, file=archive.name, kept=kept))
