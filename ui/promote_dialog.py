"""The promotion form (docs/design.md §5): choose a category, paste the statement, promote."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPlainTextEdit,
    QWidget,
)

CATEGORY_LABELS = [
    ("values", "価値観・判断基準"),
    ("decisions", "重要な決定事項"),
    ("facts", "永続的な事実"),
]


class PromoteDialog(QDialog):
    def __init__(self, parent: QWidget | None = None, text: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Promote to lasting memory"))
        form = QFormLayout(self)
        hint = QLabel(self.tr(
            "Claude reads promoted statements in every request, from the next message on."
        ))
        hint.setWordWrap(True)
        self.category = QComboBox()
        for key, label in CATEGORY_LABELS:
            self.category.addItem(label, key)
        self.statement = QPlainTextEdit(text)
        self.statement.setObjectName("promoteText")
        self.error = QLabel()
        self.error.setStyleSheet("color: #c0392b;")
        self.error.setWordWrap(True)
        form.addRow(hint)
        form.addRow(self.tr("Category"), self.category)
        form.addRow(self.tr("Statement"), self.statement)
        form.addRow(self.error)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(self.tr("Promote"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def values(self) -> tuple[str, str]:
        return str(self.category.currentData()), self.statement.toPlainText()
