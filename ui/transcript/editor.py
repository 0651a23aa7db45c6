"""The selectable editor: a read-only ``QTextBrowser`` with a message's document, laid
exactly over its painted row so part of the text can be selected and copied."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QContextMenuEvent,
    QDesktopServices,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QFrame, QTextBrowser, QWidget

from ui.items import MessageRow
from ui.transcript.colors import RowColors


class MessageEditor(QTextBrowser):
    """A message's text, selectable, laid exactly over its painted row: read-only, no frame,
    transparent (the delegate still paints the bubble, code backgrounds and quote bars
    under it), links open in the browser."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.markdown = ""  # the message's Markdown, what Ctrl+C copies with nothing selected
        self.copied_all: Callable[[], None] | None = None
        self.menu_elsewhere: Callable[[QPoint], bool] | None = None
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setReadOnly(True)
        self.setOpenLinks(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setViewportMargins(0, 0, 0, 0)
        self.setContentsMargins(0, 0, 0, 0)
        self.setAutoFillBackground(False)
        self.viewport().setAutoFillBackground(False)
        self.selectable(keyboard=False)
        self.anchorClicked.connect(self._open_link)

    def selectable(self, keyboard: bool) -> None:
        """Selectable by mouse; by keyboard too (with a caret) when opened from the keys."""
        flags = (Qt.TextInteractionFlag.TextSelectableByMouse
                 | Qt.TextInteractionFlag.LinksAccessibleByMouse
                 | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        if keyboard:
            flags |= Qt.TextInteractionFlag.TextSelectableByKeyboard
        self.setTextInteractionFlags(flags)

    def show_message(self, row: MessageRow, doc: QTextDocument, colors: RowColors) -> None:
        self.markdown = row.text
        palette = QPalette(self.palette())
        clear = QColor(0, 0, 0, 0)
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive):
            palette.setColor(group, QPalette.ColorRole.Base, clear)
            palette.setColor(group, QPalette.ColorRole.Window, clear)
            palette.setColor(group, QPalette.ColorRole.Text,
                             colors.muted if row.role == "tool" else colors.text)
        self.setPalette(palette)
        copy = doc.clone(self)
        self.setDocument(copy)

    @staticmethod
    def _open_link(url: QUrl) -> None:
        if url.scheme() in ("http", "https", "mailto"):
            QDesktopServices.openUrl(url)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy) and not self.textCursor().hasSelection():
            QGuiApplication.clipboard().setText(self.markdown)
            if self.copied_all is not None:
                self.copied_all()
            event.accept()
            return
        super().keyPressEvent(event)

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        """With text selected (or on a link): Copy and Select All; elsewhere the view's own
        menu for the message."""
        on_text = self.textCursor().hasSelection() or bool(self.anchorAt(event.pos()))
        if not on_text and self.menu_elsewhere is not None and self.menu_elsewhere(event.pos()):
            event.accept()
            return
        super().contextMenuEvent(event)
