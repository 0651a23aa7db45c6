"""The files waiting to be sent with the next message, as chips above the message field
(issue 30): a chip each, its ✕ takes it off (``removed``: its position). The window shows
what the controller prepared; it reads no file itself."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QIcon, QImage, QPixmap
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget


class AttachChips(QWidget):
    removed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("attachmentChips")
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(0, 0, 0, 0)
        self._row.setSpacing(6)
        self.count = 0
        self.setVisible(False)

    def set_chips(self, chips: list[tuple[str, str, QImage | None]]) -> None:
        """The files as (label, tooltip, a picture's small copy or None); hidden when there
        are none."""
        while self._row.count():
            item = self._row.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        for position, (label, tip, image) in enumerate(chips):
            chip = QToolButton()
            chip.setText(f"{label}  ✕")
            if image is not None:  # the picture itself, small, before its name
                chip.setIcon(QIcon(QPixmap.fromImage(image)))
                chip.setIconSize(QSize(image.width() // 2, image.height() // 2))
                chip.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
            chip.setToolTip(tip)
            chip.setAccessibleName(self.tr("Remove {name}").format(name=label))
            chip.clicked.connect(lambda _checked=False, p=position: self.removed.emit(p))
            self._row.addWidget(chip)
        self._row.addStretch(1)
        self.count = len(chips)
        self.setVisible(bool(chips))
