"""A one-line label that gives up its width: the status bar's texts.

A plain ``QLabel`` asks for its whole text's width as its minimum, so a long status (the
last reply's figures, a backup's time, a notice) set the window's minimum width and
could push it wider than the screen. ``ElidedLabel`` asks for its whole text as its
preferred width but for a few characters as its minimum; when there is less room it
draws the text cut with "…", and the whole text is in its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QStyle, QStyleOption, QWidget

#: The fewest characters' room a status label keeps when the window is narrow.
MIN_CHARS = 6


class ElidedLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        self.setTextFormat(Qt.TextFormat.PlainText)

    def setText(self, text: str) -> None:
        super().setText(text)
        self.setToolTip(text)
        self.updateGeometry()

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        if not self.text():
            return QSize(0, hint.height())
        room = self.fontMetrics().averageCharWidth() * MIN_CHARS
        return QSize(min(hint.width(), room), hint.height())

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        # a style sheet's background and border (the demo's mark)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_Widget, option, painter, self)
        rect = self.contentsRect()
        text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             rect.width())
        self.style().drawItemText(painter, rect, int(self.alignment()), option.palette,
                                  self.isEnabled(), text, self.foregroundRole())
        painter.end()

    def is_cut(self) -> bool:
        """Whether the text does not fit and is drawn cut."""
        return self.fontMetrics().horizontalAdvance(self.text()) > self.contentsRect().width()

