"""Starting the desktop app: the Qt application, its palette and language, the window,
and a shutdown that keeps what a reply in flight had said (``monet`` with no command)."""

from __future__ import annotations

import sys
from pathlib import Path

from PySide6.QtCore import QThreadPool
from PySide6.QtWidgets import QApplication

from monet_app.app import AppController
from ui.look import apply_palette, install_translator

#: How long quitting waits for work still running (a reply being stopped, a librarian pass).
SHUTDOWN_WAIT_MS = 10_000


def run_app(home: Path) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    assert isinstance(app, QApplication)
    apply_palette(app)
    install_translator(app)
    app.setApplicationName("MONET")
    controller = AppController(home)
    controller.window.show()
    controller.window.focus_composer()
    code = app.exec()
    controller.stream.cancel()  # a reply in flight keeps what arrived, marked incomplete
    QThreadPool.globalInstance().waitForDone(SHUTDOWN_WAIT_MS)
    controller.close()
    return int(code)
