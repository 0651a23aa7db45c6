"""The librarian while the window is open: a pass soon after start, then every interval.

Each pass runs off the GUI thread (``monet_app.operations.librarian``) and enters the
gate (``Work.LIBRARIAN``: one at a time, never during a restore). ``busy`` is only what
the window shows: a pass is in flight and its lines are not yet shown.
``passed`` is emitted on the GUI thread after a pass, so the window can show the new
Timeline Index lines and the librarian's queue. It is safe beside ``monet librarian``
processes (leases, ``cms/librarian/runner.py``).
"""

from __future__ import annotations

import logging
from functools import partial

from PySide6.QtCore import QObject, QTimer, Signal

from cms.librarian.runner import LibrarianReport
from monet_app.operations.changes import Done
from monet_app.operations.librarian import librarian_pass
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from monet_app.window.run import run_op

log = logging.getLogger("monet.librarian")

FIRST_PASS_MS = 2_000  # placeholders left by an earlier session: soon, not in 5 minutes


class LibrarianSchedule(QObject):
    passed = Signal()

    def __init__(self, core: Core, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.busy = False
        self._interval = QTimer(self)
        self._interval.timeout.connect(lambda: self.run_now(when_due=True))
        self._first = QTimer(self, singleShot=True)
        self._first.timeout.connect(self.run_now)

    def start(self, *, first_pass_soon: bool = False) -> None:
        """(Re)start the interval from the settings; at app start the first pass comes soon."""
        self._interval.start(self.core.settings.librarian_interval_minutes * 60_000)
        if first_pass_soon:
            self._first.start(FIRST_PASS_MS)

    def stop(self) -> None:
        self._first.stop()
        self._interval.stop()

    def run_now(self, when_due: bool = False) -> None:
        """A pass now (``when_due``: only if one is due: the interval's ticks, so the
        librarian backs off while the model keeps failing)."""
        if self.busy or self.core.gate.busy(Work.LIBRARIAN, Work.RESTORE):
            return  # (the next interval tries again)
        self.busy = True
        run_op(partial(librarian_pass, self.core, when_due=when_due), self._done,
               self._failed)

    def _done(self, _done: Done[LibrarianReport]) -> None:
        self.busy = False
        self.passed.emit()

    def _failed(self, problem: str) -> None:
        self.busy = False
        log.error("librarian pass failed: %s", problem)
