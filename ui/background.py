"""The one helper for background work (after Anki's QueryOp and calibre's LLM chat).

``run_in_background(fn, on_done, on_error)`` runs ``fn`` on the thread pool and delivers
the result on the main thread through a queued signal. Workers never touch widgets.
``Streamer`` runs a reply on its own thread and reports pieces of text, the result or the
error by signal, each stamped with its request id so a stale result can be dropped.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot


class _Bridge(QObject):
    done = Signal(object)
    failed = Signal(object)


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], bridge: _Bridge) -> None:
        super().__init__()
        self.fn = fn
        self.bridge = bridge

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as exc:  # noqa: BLE001 - reported to the main thread
            exc.__monet_traceback__ = traceback.format_exc()  # type: ignore[attr-defined]
            self._report(self.bridge.failed, exc)
        else:
            self._report(self.bridge.done, result)

    @staticmethod
    def _report(signal: Any, value: Any) -> None:
        try:
            signal.emit(value)
        except RuntimeError:
            pass  # the application quit meanwhile (its objects are gone): nobody to tell


_alive: set[_Bridge] = set()


def run_in_background(
    fn: Callable[[], Any],
    on_done: Callable[[Any], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    pool: QThreadPool | None = None,
    *,
    own_thread: bool = False,
) -> None:
    """``own_thread``: run on a daemon thread of its own rather than the pool, for a call
    that may hang on something outside MONET (the OS keyring): it never holds a pool
    thread that replies and searches need, nor delays quitting."""
    bridge = _Bridge()
    _alive.add(bridge)

    def finish_ok(result: Any) -> None:
        _alive.discard(bridge)
        if on_done is not None:
            on_done(result)

    def finish_err(exc: BaseException) -> None:
        _alive.discard(bridge)
        if on_error is not None:
            on_error(exc)

    bridge.done.connect(finish_ok)
    bridge.failed.connect(finish_err)
    task = _Task(fn, bridge)
    if own_thread:
        threading.Thread(target=task.run, name="monet-background", daemon=True).start()
    else:
        (pool or QThreadPool.globalInstance()).start(task)


class Streamer(QObject):
    """Runs one reply in the background; ``cancel()`` stops it cooperatively."""

    piece = Signal(int, str)  # request id, text
    finished = Signal(int, object)  # request id, result
    failed = Signal(int, object)  # request id, exception

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.request_id = 0
        self.cancel_event = threading.Event()
        self.busy = False

    def start(self, job: Callable[[Callable[[str], None], threading.Event], Any]) -> int:
        self.request_id += 1
        request_id = self.request_id
        self.cancel_event = threading.Event()
        cancel = self.cancel_event
        self.busy = True

        def work() -> Any:
            return job(lambda text: self.piece.emit(request_id, text), cancel)

        run_in_background(
            work,
            lambda result: self._done(request_id, result),
            lambda exc: self._failed(request_id, exc),
        )
        return request_id

    def cancel(self) -> None:
        self.cancel_event.set()

    @Slot()
    def _done(self, request_id: int, result: Any) -> None:
        self.busy = False
        self.finished.emit(request_id, result)

    @Slot()
    def _failed(self, request_id: int, exc: BaseException) -> None:
        self.busy = False
        self.failed.emit(request_id, exc)
