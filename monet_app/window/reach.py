"""Reaching a history on a server before the window is built (``docs/postgresql.md``).

A history in the data folder's file opens in milliseconds; one on a server may take as
long as the network does, and a server that does not answer holds a connection for the
10 s of its connect timeout. So a window whose history is on a server first opens it on a
worker thread (``Database``: the connection, the schema's check) while the event loop
goes on turning: after ``SHOW_AFTER_MS`` a small dialog says where it is connecting, and
Cancel ends the start. A server that cannot be reached is said in words (the password
never: ``storage.database``), with Try again and Quit, rather than a window that never
appears or a line on a terminal nobody sees.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QMessageBox, QVBoxLayout

from monet_app.window.error_words import say
from monet_app.window.words import window_language
from storage.errors import UserFacingError

#: A server that answers at once opens without a dialog flashing by.
SHOW_AFTER_MS = 300


def tr(text: str) -> str:
    return QCoreApplication.translate("Reach", text)


class _Relay(QObject):
    """Carries the worker's answer to the GUI thread (a queued signal)."""

    answered = Signal(object)  # None: reached; else the sentence saying why not


class ReachingDialog(QDialog):
    def __init__(self, where: str) -> None:
        super().__init__()
        self.setWindowTitle("MONET")
        layout = QVBoxLayout(self)
        self.label = QLabel(tr("Connecting to the shared history on {where}…").format(
            where=where))
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.setMinimumWidth(380)


def _probe(home: Path, relay: _Relay) -> None:
    from storage import Database
    from storage.server_password import drop_kept

    try:
        drop_kept()  # the keyring is asked here, on the worker, and kept for the window
        Database(home).close()
    except UserFacingError as exc:  # (in the window's language: error_words.py)
        relay.answered.emit(say(exc, window_language()))
    except Exception as exc:  # noqa: BLE001 - said in the dialog; the log has the rest
        relay.answered.emit(f"{exc.__class__.__name__}: {exc}")
    else:
        relay.answered.emit(None)


def reach_once(home: Path, where: str) -> tuple[bool, str | None]:
    """Open the history once on a worker, the event loop turning meanwhile. (reached,
    why not): (True, None); (False, the sentence); (False, None) when Cancel was pressed."""
    relay = _Relay()
    loop = QEventLoop()
    dialog = ReachingDialog(where)
    answer: dict[str, object] = {}

    def answered(problem: object) -> None:
        answer["problem"] = problem
        loop.quit()

    relay.answered.connect(answered, Qt.ConnectionType.QueuedConnection)
    dialog.rejected.connect(loop.quit)
    timer = QTimer()
    timer.setSingleShot(True)
    timer.timeout.connect(dialog.show)
    timer.start(SHOW_AFTER_MS)
    # a daemon: a server that never answers keeps it until its connect timeout, not the app
    threading.Thread(target=_probe, args=(home, relay), name="reach-history",
                     daemon=True).start()
    loop.exec()
    timer.stop()
    dialog.hide()
    dialog.deleteLater()
    if "problem" not in answer:
        return False, None  # cancelled
    problem = answer["problem"]
    return problem is None, None if problem is None else str(problem)


def reach_history(home: Path, where: str) -> bool:
    """``reach_once`` until the history is reached (True) or the person gives up: Cancel
    while connecting, or Quit after the reason is said (False)."""
    while True:
        reached, problem = reach_once(home, where)
        if reached:
            return True
        if problem is None:
            return False
        box = QMessageBox(QMessageBox.Icon.Warning, "MONET",
                          tr("MONET cannot open the shared history."))
        box.setInformativeText(problem)
        again = box.addButton(tr("Try again"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(tr("Quit"), QMessageBox.ButtonRole.RejectRole)
        box.setDefaultButton(again)
        box.exec()
        if box.clickedButton() is not again:
            return False
