"""The daily backup while the window is open (``monet_app.operations.backups``): checked
soon after start and every hour; a backup is made when the newest is a day old, off the
GUI thread, and the oldest automatic ones beyond ``backup_keep`` are removed. ``made``
and ``failed`` are emitted on the GUI thread, so the window can say when the last one was
made, and say loudly when one failed. The backup enters the gate (``Work.BACKUP``: one
at a time, never during a restore); ``busy`` is only what the window shows."""

from __future__ import annotations

from datetime import datetime
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from monet_app.operations import backups
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from monet_app.window.run import run_op
from monet_app.window.words import Words

CHECK_MS = 60 * 60_000
FIRST_CHECK_MS = 30_000  # not in the way of the first paint and the first reply


class BackupSchedule(QObject):
    made = Signal(object)  # datetime of the backup
    failed = Signal(str)  # the problem, in words

    def __init__(self, core: Core, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.busy = False
        self._words = Words(self)  # (the problem, in the window's language)
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
        return backups.backup_due(self.core)

    def check(self) -> None:
        if self.due():
            self.run_now()

    def run_now(self) -> None:
        """The daily backup now (also MONET → Back up now), off the GUI thread."""
        core = self.core
        if self.busy or core.gate.busy(Work.BACKUP, Work.RESTORE):
            return
        self.busy = True
        when = core.clock.now()
        job = partial(backups.back_up, core.home, when, auto=True,
                      keep=core.settings.backup_keep, gate=core.gate)
        run_op(job, lambda _done: self._done(when), self._failed, self._words.problem)

    def _done(self, when: datetime) -> None:
        self.busy = False
        self.made.emit(when)

    def _failed(self, problem: str) -> None:
        self.busy = False
        self.failed.emit(problem)
