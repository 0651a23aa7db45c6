"""Showing a reply while it streams (after calibre's LLM chat and Orange's workers).

``StreamPresenter`` runs one reply on a worker (``ui.background.Streamer``), collects its
pieces, and shows them as one growing row at the end of the transcript, redrawn at most
every 50 ms (``ui.throttle.Throttle``). The reply lands in today's conversation whatever
the window shows meanwhile: the row is drawn only while the transcript shows today's talk
in the reply's tab. A result stamped with an older request id is dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from cms.context.turn import TurnResult
from monet_app.operations.changes import Done
from monet_app.window.navigator import Navigator
from ui.background import Streamer
from ui.items import MessageRow
from ui.main_window import MainWindow
from ui.throttle import Throttle

REDRAW_MS = 50
#: After this long with no text, the growing row says it is waiting (the SDK may be
#: retrying a busy API, ~4 s for its two retries): never a silent "…".
WAITING_MS = 2500

#: The work of one reply: given ``on_text`` and a cancel flag, returns the result.
ReplyJob = Callable[[Callable[[str], None], threading.Event], Done[TurnResult]]


class StreamPresenter(QObject):
    finished = Signal(object)  # Done[TurnResult]
    failed = Signal(object)  # the exception

    def __init__(self, window: MainWindow, navigator: Navigator,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.navigator = navigator
        self.streamer = Streamer(self)
        self.throttle = Throttle(self._redraw, REDRAW_MS, self)
        self.tab = ""
        self.day = ""
        self.buffer = ""
        self._row_shown = False
        self._waiting = QTimer(self)
        self._waiting.setSingleShot(True)
        self._waiting.setInterval(WAITING_MS)
        self._waiting.timeout.connect(self._say_waiting)
        self.streamer.piece.connect(self._on_piece)
        self.streamer.finished.connect(self._on_finished)
        self.streamer.failed.connect(self._on_failed)

    @property
    def busy(self) -> bool:
        return self.streamer.busy

    def start(self, tab: str, job: ReplyJob, time_text: str, tab_label: str) -> None:
        self.tab = tab
        self.day = self.navigator.today()  # the day the reply lands in, read once per reply
        self.buffer = ""
        self._row_shown = False
        if self.navigator.showing(tab):
            self._show_row(time_text, tab_label, "…")
        self._waiting.start()
        self.streamer.start(job)

    def waiting_text(self) -> str:
        return self.tr("*Waiting for Claude… When the API is busy, MONET tries again by "
                       "itself.*")

    def _say_waiting(self) -> None:
        if self.busy and not self.buffer and self._row_shown \
                and self.navigator.showing(self.tab, self.day):
            self.window.transcript.update_streaming_text(self.waiting_text())

    def cancel(self) -> None:
        """Stop the reply; what arrived is kept, marked incomplete."""
        self.streamer.cancel()

    def transcript_reloaded(self, time_text: str, tab_label: str) -> None:
        """The transcript was rebuilt from the database: put the growing row back."""
        self._row_shown = False
        if self.busy and self.navigator.showing(self.tab):
            waited = not self.buffer and not self._waiting.isActive()
            self._show_row(time_text, tab_label,
                           self.buffer or (self.waiting_text() if waited else "…"))

    def _show_row(self, time_text: str, tab_label: str, text: str) -> None:
        self.window.transcript.append_streaming_row(
            MessageRow(0, "assistant", self.tab, tab_label, time_text, text, "streaming")
        )
        self._row_shown = True

    def _on_piece(self, request_id: int, text: str) -> None:
        if request_id != self.streamer.request_id:
            return  # a stale reply
        self.buffer += text
        self._waiting.stop()
        self.throttle.call()

    def _redraw(self) -> None:
        if self._row_shown and self.navigator.showing(self.tab, self.day):
            self.window.transcript.update_streaming_text(self.buffer)

    def _on_finished(self, request_id: int, result: Any) -> None:
        if request_id == self.streamer.request_id:
            self.throttle.cancel()
            self._waiting.stop()
            self.finished.emit(result)

    def _on_failed(self, request_id: int, exc: BaseException) -> None:
        if request_id == self.streamer.request_id:
            self.throttle.cancel()
            self._waiting.stop()
            self.failed.emit(exc)
