"""Starting the desktop app: the Qt application, its palette and language, the window,
and a shutdown that keeps what a reply in flight had said (``monet`` with no command).

One window per data folder (``monet_app.single_instance``): a second launch on the same
home brings the running window forward, says so on stderr and exits with 0, without
building a second controller (two would disagree about what is pending).
"""

from __future__ import annotations

import signal
import sys
from pathlib import Path

from PySide6.QtCore import Qt, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication, QWidget

from monet_app.app import AppController
from monet_app.single_instance import Answer, SingleInstance
from monet_app.wiring import standin_model
from ui.look import apply_palette, follow_system, install_translator

#: How long quitting waits for work still running (a reply being stopped, a librarian pass).
SHUTDOWN_WAIT_MS = 10_000


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
    """The sentence a second launch prints on stderr (plain English: it is the CLI)."""
    if answer is Answer.SHOWN:
        return (f"MONET is already running on this data folder ({home}); "
                "its window was brought forward.")
    return (f"MONET is already running on this data folder ({home}) but did not answer; "
            "it may be starting or closing. No second window was opened.")


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


def run_app(home: Path, demo_url: str | None = None) -> int:
    """The window on ``home``. ``demo_url``: the demo's stand-in server; replies come
    from it (any key), and the window says it is a demo."""
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    instance = SingleInstance(home)
    if not instance.claim():
        print(already_running(home, instance.answer), file=sys.stderr)
        return 0
    try:
        apply_palette(app)
        install_translator(app)
        app.setApplicationName("MONET")
        if demo_url is None:
            controller = AppController(home)
        else:
            controller = AppController(home, model_factory=standin_model(demo_url),
                                       needs_key=False, demo=True)
        apply_palette(app, controller.core.settings.theme)
        follow_system(app, lambda: controller.core.settings.theme)
        instance.activated.connect(lambda: bring_forward(controller.window))
        close_on_signals(controller.window)
        controller.window.show()
        controller.window.focus_composer()
        code = app.exec()
        controller.stream.cancel()  # a reply in flight keeps what arrived, marked incomplete
        QThreadPool.globalInstance().waitForDone(SHUTDOWN_WAIT_MS)
        controller.close()
        return int(code)
    finally:
        # Released only once the home is: a launch during shutdown is told MONET is
        # still running rather than opening beside a closing window.
        instance.close()
