"""Questions the window asks before it does something that cannot be undone."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QWidget


def confirm(parent: QWidget, question: str) -> bool:
    """A destructive question: No is the default, so Enter never deletes."""
    answer = QMessageBox.question(
        parent, "MONET", question,
        QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        QMessageBox.StandardButton.No,
    )
    return answer == QMessageBox.StandardButton.Yes
