"""The librarian while the window is open: a pass soon after start, then every interval.

Each pass runs off the GUI thread (``monet_app.operations.librarian``) and enters the
gate (``Work.LIBRARIAN``: one at a time, never during a restore). ``busy`` is only what
the window shows: a pass is in flight and its lines are not yet shown. After each pass
the messages' vectors are made as a step of their own (``embedding``).
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
from monet_app.operations.librarian import embed_messages, librarian_pass
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from monet_app.window.run import run_op

log = logging.getLogger("monet.librarian")

#: Between two embedding steps while messages wait for their vectors.
NEXT_EMBEDDING_MS = 1_000
FIRST_PASS_MS = 2_000  # placeholders left by an earlier session: soon, not in 5 minutes


class LibrarianSchedule(QObject):
    passed = Signal()

    def __init__(self, core: Core, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.core = core
        self.busy = False
        self.embedding = False  # the messages' vectors, after a pass (``embed_messages``)
        self._stopped = False
        self._pass_waiting = False  # asked for during an embedding step
        self._pass_when_due = True  # ... and only if due (every request was a tick's)
        self._interval = QTimer(self)
        self._interval.timeout.connect(lambda: self.run_now(when_due=True))
        self._first = QTimer(self, singleShot=True)
        self._first.timeout.connect(self.run_now)
        self._next_embedding = QTimer(self, singleShot=True)
        self._next_embedding.timeout.connect(self._embed)

    def start(self, *, first_pass_soon: bool = False) -> None:
        """(Re)start the interval from the settings; at app start the first pass comes soon."""
        self._stopped = False
        self._interval.start(self.core.settings.librarian_interval_minutes * 60_000)
        if first_pass_soon:
            self._first.start(FIRST_PASS_MS)

    def stop(self) -> None:
        """No pass or embedding step starts again, and one still running ends silently
        (the window may be gone when it does)."""
        self._stopped = True
        self._next_embedding.stop()
        self._first.stop()
        self._interval.stop()

    def run_now(self, when_due: bool = False) -> None:
        """A pass now (``when_due``: only if one is due: the interval's ticks, so the
        librarian backs off while the model keeps failing)."""
        if self.embedding and not self._stopped:  # the pass right after this step
            self.busy = True  # (asked for: its lines are not shown yet)
            self._pass_waiting = True
            self._pass_when_due = when_due and self._pass_when_due
            return
        if self.busy or self.core.gate.busy(Work.LIBRARIAN, Work.RESTORE):
            return  # (the next interval tries again)
        self.busy = True
        run_op(partial(librarian_pass, self.core, when_due=when_due, embed=False),
               self._done, self._failed)

    def _done(self, _done: Done[LibrarianReport]) -> None:
        """The new lines are shown; then the messages' vectors, as a step of their own
        (``EMBED_SECONDS`` at most: a year's history or a new model takes several)."""
        self.busy = False
        if self._stopped:
            return
        self.passed.emit()
        self._embed()

    def _embed(self) -> None:
        if self._stopped or self.embedding or self.busy \
                or self.core.gate.busy(Work.LIBRARIAN, Work.RESTORE):
            return
        self.embedding = True
        run_op(partial(embed_messages, self.core), self._embedded, self._embed_failed)

    def _embedded(self, done: Done[LibrarianReport]) -> None:
        """More to embed (a year's history, a new model): the next step soon, not at the
        next pass; each is short, so a quit or a restore never waits long for one."""
        self.embedding = False
        if self._stopped:
            self.busy = self._pass_waiting = False
            return
        self.passed.emit()
        if self._pass_waiting:  # a pass asked for meanwhile goes first
            self._run_waiting_pass()
        elif done.value.embedded and done.value.unembedded:
            self._next_embedding.start(NEXT_EMBEDDING_MS)

    def _embed_failed(self, problem: str) -> None:
        self.embedding = False
        log.error("embedding failed: %s", problem)
        if self._pass_waiting:
            if self._stopped:
                self.busy = self._pass_waiting = False
            else:
                self._run_waiting_pass()

    def _run_waiting_pass(self) -> None:
        when_due, self._pass_waiting, self._pass_when_due = self._pass_when_due, False, True
        self.busy = False
        self.run_now(when_due=when_due)

    def _failed(self, problem: str) -> None:
        self.busy = False
        log.error("librarian pass failed: %s", problem)
