"""The daily backup while the window is open (``monet_app.services.backup``): checked soon after
start and every hour; a backup is made when the newest is a day old, off the GUI thread,
and the oldest automatic ones beyond ``backup_keep`` are removed. ``made`` and
``failed`` are emitted on the GUI thread, so the window can say when the last one was
made, and say loudly when one failed."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from monet_app.services import backup
from monet_app.services.wiring import Core
from monet_app.window.run import run_op

CHECK_MS = 60 * 60_000
FIRST_CHECK_MS = 30_000  # not in the way of the first paint and the first reply
EVERY = timedelta(days=1)


def daily_backup(core: Core) -> datetime:
    """One automatic backup and the rotation; returns when it was made."""
    now = core.clock.now()
    backup.make_backup(core.home, now, auto=True)
    backup.rotate(core.home, core.settings.backup_keep)
    return now


class BackupSchedule(QObject):
    made = Signal(object)  # datetime of the backup
    failed = Signal(str)  # the problem, in words

    def __init__(self, core: Core, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.busy = False
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.check)
        self._first = QTimer(self, singleShot=True)
        self._first.timeout.connect(self.check)

    def start(self) -> None:
        self._timer.start(CHECK_MS)
        self._first.start(FIRST_CHECK_MS)

    def stop(self) -> None:
        self._timer.stop()
        self._first.stop()

    def due(self) -> bool:
        if self.core.settings.backup_keep <= 0 or self.core.db.read_only:
            return False
        last = backup.last_backup(self.core.home)
        return last is None or self.core.clock.now() - last >= EVERY

    def check(self) -> None:
        if self.due():
            self.run_now()

    def run_now(self) -> None:
        if self.busy:
            return
        self.busy = True
        run_op(partial(daily_backup, self.core), self._done, self._failed)

    def _done(self, when: datetime) -> None:
        self.busy = False
        self.made.emit(when)

    def _failed(self, problem: str) -> None:
        self.busy = False
        self.failed.emit(problem)
