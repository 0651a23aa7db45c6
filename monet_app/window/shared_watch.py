"""Another device's writes, seen in this window (issue 31): a history on a PostgreSQL
server is shared by several devices, each with its own window. Every ``WATCH_MS`` the
window asks the server, on a worker, how far the history has come (one small query:
``sharing.generation``); when it moved and no reply is streaming here, the
transcript, the days and the Timeline Index are read again, keeping the place, after the
files another device attached are fetched into this device's folder (and the ones it
forgot removed: ``sharing.shared_files``).

On a server the watch also writes first what a reply brought while the server was away
(``conversation.write_held``), and a banner that said the server was away goes when it
answers again.

A window on a SQLite file watches the same way (issue 41): another process on this device
(``monet forget`` in a terminal, a replay) changes the history under it, and a deleted
message must not stay on screen. There the ask is first a ``stat`` of the file and its
write-ahead log (``Database.stamp``): the counts are read only after a commit. The
window's own writes move the history too; reading it again then changes nothing on
screen (the panes leave what is shown as it is when it is the same: the place, an open
thumbnail, a selection).
"""

from __future__ import annotations

from functools import partial

from PySide6.QtCore import QObject, QTimer

from monet_app.operations import conversation, sharing
from monet_app.operations.changes import TALK, Done
from monet_app.services.gate import Work
from monet_app.window.host import Host
from monet_app.window.run import run_op

#: How often the window asks (another device's message is on screen within this).
WATCH_MS = 2_000


class SharedWatch(QObject):
    def __init__(self, controller: Host, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self._seen: tuple[int, ...] | None = None
        self._stamp: tuple[int, ...] | None = None
        self._asking = False
        self._timer = QTimer(self)
        self._timer.setInterval(WATCH_MS)
        self._timer.timeout.connect(self._ask)

    def start(self) -> None:
        self._timer.start()

    def stop(self) -> None:
        self._timer.stop()

    def _ask(self) -> None:
        if self._asking or self.c.stream.busy or self.c.core.gate.busy(Work.RESTORE):
            return  # (a restore replaces the database: the window reopens after it)
        self._asking = True
        run_op(partial(sharing.generation, self.c.core, self._stamp), self._answered,
               self._failed)

    def _answered(self, done: Done[tuple[tuple[int, ...], tuple[int, ...] | None]]) -> None:
        if self.c.words.about_away(self.c.window.error_text()):
            self.c.window.clear_error()  # the server answers again
        if self.c.core.db.server and not self.c.stream.busy:
            # a reply held while it was away goes in now (the server has just answered:
            # the step never holds the reply's gate through a connect timeout)
            run_op(partial(conversation.write_held, self.c.core),
                   partial(self._held_written, done), self._failed)
            return
        self._seen_generation(done)

    def _held_written(self, asked: Done[tuple[tuple[int, ...], tuple[int, ...] | None]],
                      written: Done[int]) -> None:
        if written.value:
            self.c.refresh(written.changes, keep_place=True)
        self._seen_generation(asked)

    def _seen_generation(
            self, done: Done[tuple[tuple[int, ...], tuple[int, ...] | None]]) -> None:
        stamp, counts = done.value
        if counts is None or counts == self._seen or self.c.stream.busy:
            if counts is not None and not self.c.stream.busy:
                self._stamp = stamp
            self._asking = False
            return
        # the files another device attached (or forgot) first, then the transcript; the
        # change counts as seen only then (a failed fetch is tried again at the next ask)
        run_op(partial(sharing.shared_files, self.c.core),
               partial(self._files_done, stamp, counts), self._failed)

    def _files_done(self, stamp: tuple[int, ...], seen: tuple[int, ...],
                    _done: Done[int]) -> None:
        self._asking = False
        if not self.c.stream.busy:
            self._stamp, self._seen = stamp, seen
            self.c.refresh(TALK, keep_place=True)

    def _failed(self, _sentence: str) -> None:
        self._asking = False  # (a server away: the next send says so in words)
