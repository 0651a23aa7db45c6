"""A reusable throttle (after qutebrowser's ``misc/throttle.py``).

``Throttle(fn, 50)`` calls ``fn`` at most once every 50 ms however often ``call()`` is
asked: the first call runs at once, calls inside the interval collapse into one trailing
call at its end. Streaming redraws use it, so a reply arriving in hundreds of pieces
repaints about twenty times a second.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QObject, QTimer


class Throttle(QObject):
    def __init__(self, fn: Callable[[], None], interval_ms: int,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self._interval_ms = interval_ms
        self._last = -float("inf")
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._run)

    def call(self) -> None:
        """Run now if the interval has passed, else once at its end."""
        if self._timer.isActive():
            return
        waited_ms = (time.monotonic() - self._last) * 1000
        if waited_ms >= self._interval_ms:
            self._run()
        else:
            self._timer.start(int(self._interval_ms - waited_ms))

    def cancel(self) -> None:
        """Drop a pending call."""
        self._timer.stop()

    @property
    def pending(self) -> bool:
        """Whether a trailing call is still to come."""
        return self._timer.isActive()

    def _run(self) -> None:
        self._last = time.monotonic()
        self._fn()
