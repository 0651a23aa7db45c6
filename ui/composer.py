"""The composer: Enter sends, Shift+Enter adds a line, Ctrl+Enter also sends, and Enter
never sends while an input method is composing (Japanese conversion)."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QInputMethodEvent, QKeyEvent
from PySide6.QtWidgets import QPlainTextEdit, QWidget


class Composer(QPlainTextEdit):
    submitted = Signal()

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
