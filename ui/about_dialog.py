"""About MONET: the version, the data folder (selectable, and a button that opens it in
the file manager) and the database's schema revision, with the Qt and Python versions
(worth pasting into a bug report). Shown from the MONET menu (About MONET…; on macOS
the application menu's About item).

It is given plain strings (``ui`` reads no database): the controller passes the
installed version, ``Core.home`` and ``Database.schema_revision()``.
"""

from __future__ import annotations

import platform

import PySide6
from PySide6.QtCore import QSize, Qt, QUrl, qVersion
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.look import app_icon

_SELECTABLE = (Qt.TextInteractionFlag.TextSelectableByMouse
               | Qt.TextInteractionFlag.TextSelectableByKeyboard)


class AboutDialog(QDialog):
    def __init__(self, version: str, home: str, revision: str | None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("About MONET"))
        self._home = home
        layout = QVBoxLayout(self)

        top = QHBoxLayout()
        icon = QLabel()
        icon.setPixmap(app_icon().pixmap(QSize(64, 64)))
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        heading = QLabel(f"<b>MONET</b> {version}")
        heading.setObjectName("aboutVersion")
        heading.setTextFormat(Qt.TextFormat.RichText)
        heading.setTextInteractionFlags(_SELECTABLE)
        blurb = QLabel(self.tr(
            "One continuous conversation with Claude per day, with a Timeline Index that "
            "keeps the prompt cache hitting."))
        blurb.setWordWrap(True)
        words = QVBoxLayout()
        words.addWidget(heading)
        words.addWidget(blurb)
        top.addLayout(words, 1)
        layout.addLayout(top)
        layout.addSpacing(8)

        grid = QGridLayout()
        self.folder = QLabel(home)
        self.folder.setObjectName("aboutFolder")
        self.folder.setTextFormat(Qt.TextFormat.PlainText)
        self.folder.setTextInteractionFlags(_SELECTABLE)
        self.folder.setWordWrap(True)
        self.open_button = QPushButton(self.tr("Open the data folder"))
        self.open_button.setToolTip(self.tr("Show the data folder in the file manager"))
        self.open_button.clicked.connect(self.open_folder)
        shown_revision = revision if revision else self.tr("none (a new database)")
        self.revision = QLabel(shown_revision)
        self.revision.setObjectName("aboutRevision")
        self.revision.setTextFormat(Qt.TextFormat.PlainText)
        self.revision.setTextInteractionFlags(_SELECTABLE)
        self.runtime = QLabel(
            f"Qt {qVersion()}, PySide6 {PySide6.__version__}, "
            f"Python {platform.python_version()}, {platform.system()} {platform.machine()}")
        self.runtime.setTextFormat(Qt.TextFormat.PlainText)
        self.runtime.setTextInteractionFlags(_SELECTABLE)
        grid.addWidget(QLabel(self.tr("Data folder:")), 0, 0, Qt.AlignmentFlag.AlignTop)
        grid.addWidget(self.folder, 0, 1)
        grid.addWidget(self.open_button, 1, 1, Qt.AlignmentFlag.AlignLeft)
        grid.addWidget(QLabel(self.tr("Database schema:")), 2, 0)
        grid.addWidget(self.revision, 2, 1)
        grid.addWidget(QLabel(self.tr("Running on:")), 3, 0)
        grid.addWidget(self.runtime, 3, 1)
        grid.setColumnStretch(1, 1)
        layout.addLayout(grid)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(self.tr("Close"))
        layout.addWidget(buttons)
        self.setMinimumWidth(460)

    def open_folder(self) -> bool:
        """The data folder in the system's file manager. Whether the system took it."""
        return bool(QDesktopServices.openUrl(QUrl.fromLocalFile(self._home)))
