"""Starting the desktop app: the Qt application, its palette and language, the window,
and a shutdown that keeps what a reply in flight had said (``monet`` with no command).

One window per data folder (``monet_app.window.single_instance``): a second launch on the same
home brings the running window forward, says so on stderr and exits with 0, without
building a second controller (two would disagree about what is pending).

``monet --smoke`` (also with ``--demo``) is a check for packagers: the window opens as
usual (``QT_QPA_PLATFORM=offscreen`` works), and after its first paint the time since
the process started is printed, with the language and one translated word, then the
window closes as Ctrl+Q does and the exit code is 0 (1 when nothing painted in time).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from cms.tokens import preload as preload_tokens
from monet_app.services.wiring import standin_model
from monet_app.window.app import AppController
from monet_app.window.single_instance import Answer, SingleInstance
from ui.look import app_icon, apply_palette, follow_system, install_translator, ui_language

#: How long quitting waits for work still running (a reply being stopped, a librarian pass).
SHUTDOWN_WAIT_MS = 10_000
#: ``--smoke``: how long the window may take to paint before the check fails.
SMOKE_TIMEOUT_MS = 60_000

#: ``monet --smoke`` asked for (``request_smoke``): the ``time.perf_counter()`` of the
#: command's start (its imports not counted), used where the process's own start time
#: cannot be read.
_smoke_since: float | None = None


def request_smoke(since: float) -> None:
    """Make the next ``run_app`` a smoke check (``monet --smoke``, ``monet --demo --smoke``:
    the demo reaches ``run_app`` through ``monet_app.demo.run_demo``)."""
    global _smoke_since
    _smoke_since = since


def process_age_ms() -> float | None:
    """Milliseconds since this process started, where the system says (Linux's /proc;
    10 ms resolution), else None."""
    try:
        stat = Path("/proc/self/stat").read_text()
        start_ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22, starttime
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return (uptime - start_ticks / os.sysconf("SC_CLK_TCK")) * 1000
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class FirstPaint(QObject):
    """Calls ``then`` once, right after the first paint of any widget of ``window``
    (an application-wide event filter, removed as soon as it has seen it)."""

    def __init__(self, window: QWidget, then: Callable[[], None]) -> None:
        super().__init__(window)
        self._window = window
        self._then = then
        self._seen = False
        app = QCoreApplication.instance()
        assert app is not None
        app.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (not self._seen and event.type() == QEvent.Type.Paint
                and isinstance(watched, QWidget) and watched.window() is self._window):
            self._seen = True
            app = QCoreApplication.instance()
            if app is not None:
                app.removeEventFilter(self)
            QTimer.singleShot(0, self._then)  # after this paint has been drawn
        return False


def smoke_check(window: QWidget, since: float) -> QTimer:
    """After ``window``'s first paint: print how long it took and close the window.
    Returns the timer that fails the check (exit code 1) when no paint comes in time."""
    app = QCoreApplication.instance()
    assert app is not None
    timeout = QTimer(window)
    timeout.setSingleShot(True)

    def painted() -> None:
        timeout.stop()
        age = process_age_ms()
        if age is None:
            age, origin = (time.perf_counter() - since) * 1000, "the command's start"
        else:
            origin = "process start"
        send = QCoreApplication.translate("MainWindow", "Send")
        print(f"window painted in {age:.0f} ms (from {origin}); language "
              f"{ui_language()}, Send = {send}", flush=True)
        window.close()

    def too_slow() -> None:
        print(f"monet: the window did not paint within {SMOKE_TIMEOUT_MS // 1000} s.",
              file=sys.stderr, flush=True)
        app.exit(1)

    FirstPaint(window, painted)
    timeout.timeout.connect(too_slow)
    timeout.start(SMOKE_TIMEOUT_MS)
    return timeout


def bring_forward(window: QWidget) -> None:
    """Shows ``window`` as it was before it was minimized (a maximized window stays
    maximized), on top and active. Some window managers only flash it in the task bar
    instead of giving it the focus; that is their rule against focus stealing."""
    state = window.windowState()
    window.setWindowState(
        (state & ~Qt.WindowState.WindowMinimized) | Qt.WindowState.WindowActive)
    window.show()
    window.raise_()
    window.activateWindow()


def already_running(home: Path, answer: Answer | None) -> str:
    """The sentence a second launch prints on stderr, in the window's language."""
    def tr(text: str) -> str:
        return QCoreApplication.translate("SingleInstance", text)

    if answer is Answer.SHOWN:
        return tr("MONET is already running on this data folder ({home}); its window was "
                  "brought forward.").format(home=home)
    return tr("MONET is already running on this data folder ({home}) but did not answer; "
              "it may be starting or closing. No second window was opened.").format(home=home)


def close_on_signals(window: QWidget) -> QTimer:
    """SIGTERM and SIGINT (a logout, ``kill``, Ctrl+C in the terminal) close the window
    as Ctrl+Q does: the unsent draft is kept, a reply in flight keeps what arrived, the
    socket of the single instance is removed. Python runs its signal handlers only when
    it holds the interpreter, so a timer hands it the control twice a second."""
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda _signum, _frame: window.close())
    ticker = QTimer(window)
    ticker.timeout.connect(lambda: None)
    ticker.start(500)
    return ticker


def shared_where(home: Path) -> str | None:
    """Where this device's history is when it is on a server (the URL without its
    password), else None: the file in the data folder."""
    from storage.where import database_url, redact_url

    url = database_url(home)
    return None if url is None else redact_url(url)


def run_app(home: Path, demo_url: str | None = None, *, smoke: bool | None = None) -> int:
    """The window on ``home``. ``demo_url``: the demo's stand-in server; replies come
    from it (any key), and the window says it is a demo. ``smoke``: close the window
    after its first paint, saying how long it took (default: as ``request_smoke`` asked)."""
    since = _smoke_since if _smoke_since is not None else time.perf_counter()
    if smoke is None:
        smoke = _smoke_since is not None
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    install_translator(app)  # (a second launch says so in the window's language)
    instance = SingleInstance(home)
    if not instance.claim():
        print(already_running(home, instance.answer), file=sys.stderr)
        return 0
    try:
        apply_palette(app)
        app.setApplicationName("MONET")
        app.setWindowIcon(app_icon())
        app.setDesktopFileName("monet")  # monet install-desktop's entry (Wayland's app id)
        if demo_url is None and (where := shared_where(home)) is not None:
            from monet_app.window.reach import reach_history

            if not reach_history(home, where):  # cancelled, or Quit after the reason
                return 0
        if demo_url is None:
            controller = AppController(home)
        else:
            controller = AppController(home, model_factory=standin_model(demo_url),
                                       needs_key=False, demo=True)
        apply_palette(app, controller.core.settings.theme)
        follow_system(app, lambda: controller.core.settings.theme)
        instance.activated.connect(lambda: bring_forward(controller.window))
        close_on_signals(controller.window)
        if smoke:
            smoke_check(controller.window, since)
        controller.window.show()
        controller.window.compose.focus()
        # the token counter's encoding loads meanwhile, ready for the first message
        threading.Thread(target=preload_tokens, name="tiktoken-preload", daemon=True).start()
        code = app.exec()
        controller.stream.cancel()  # a reply in flight keeps what arrived, marked incomplete
        QThreadPool.globalInstance().waitForDone(SHUTDOWN_WAIT_MS)
        controller.close()
        return int(code)
    finally:
        # Released only once the home is: a launch during shutdown is told MONET is
        # still running rather than opening beside a closing window.
        instance.close()
