"""The composer: Enter sends, Shift+Enter adds a line, Ctrl+Enter also sends, and Enter
never sends while an input method is composing (Japanese conversion). A picture pasted
(Ctrl+V) or files pasted or dropped on it are handed on to be attached (``files_given``:
file paths; ``image_given``: a pasted picture), never inserted as text."""

from __future__ import annotations

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QImage, QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget


def local_files(mime: QMimeData) -> list[str]:
    """The local files a paste or a drop carries (none for text or web links)."""
    if not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]


class Composer(QPlainTextEdit):
    submitted = Signal()
    files_given = Signal(list)  # local file paths, pasted or dropped
    image_given = Signal(QImage)  # a picture pasted from the clipboard

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._composing = False
        self.setTabChangesFocus(True)
        self.setAttribute(Qt.WidgetAttribute.WA_InputMethodEnabled, True)

    @property
    def composing(self) -> bool:
        return self._composing

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        self._composing = bool(event.preeditString())
        super().inputMethodEvent(event)

    def canInsertFromMimeData(self, source: QMimeData) -> bool:
        return bool(local_files(source)) or source.hasImage() or super().canInsertFromMimeData(
            source)

    def insertFromMimeData(self, source: QMimeData) -> None:
        files = local_files(source)
        if files:
            self.files_given.emit(files)
        elif source.hasImage() and not source.hasText():
            image = source.imageData()
            if isinstance(image, QImage) and not image.isNull():
                self.image_given.emit(image)
        else:
            super().insertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if local_files(event.mimeData()):
            event.ignore()  # files go to the window, which attaches them (not as text)
            return
        super().dragEnterEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            # Enter confirms a conversion while the input method composes: never a send,
            # never a new line. A held-down Enter does not send again and again either.
            if self._composing or event.isAutoRepeat():
                event.accept()
                return
            modifiers = event.modifiers()
            if modifiers & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                return
            self.submitted.emit()
            return
        super().keyPressEvent(event)
