"""The memory panel: what MONET remembers about the person, each item with its source,
to correct or delete (docs/design.md §6: the person controls memory)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.items import MemoryRow

ITEM_ROLE = Qt.ItemDataRole.UserRole + 3


class MemoryDialog(QDialog):
    def __init__(
        self,
        load: Callable[[], list[MemoryRow]],
        edit: Callable[[int, str], str | None],
        delete: Callable[[int, bool], str | None],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._load, self._edit, self._delete = load, edit, delete
        self.setWindowTitle(self.tr("What MONET remembers"))
        self.resize(620, 460)
        self.items = QListWidget()
        self.items.setObjectName("memoryItems")
        self.items.setWordWrap(True)
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setStyleSheet("color: #c0392b;")
        self.edit_button = QPushButton(self.tr("Correct…"))
        self.delete_button = QPushButton(self.tr("Forget"))
        self.delete_button.setToolTip(self.tr(
            "Claude forgets it; the messages it came from stay in your history, hidden from "
            "Claude."))
        self.delete_all_button = QPushButton(self.tr("Forget and delete its messages…"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.delete_all_button)
        buttons.addStretch(1)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.setDefault(True)  # Enter closes; it never deletes
        self.close_button.clicked.connect(self.accept)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr(
            "Forgetting an item removes it from every later request, with the messages it came "
            "from: they stay in your history but Claude no longer sees them (or you delete them "
            "too). Correcting an item changes what Claude reads from the next message on."
        ))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.source)
        layout.addWidget(self.problem)
        layout.addLayout(buttons)
        self.items.currentItemChanged.connect(self._show_source)
        self.edit_button.clicked.connect(self._ask_edit)
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        self.delete_all_button.clicked.connect(self._ask_delete_all)
        self.reload()

    def kind_label(self, kind: str) -> str:
        labels = {
            "preference": self.tr("Preference"),
            "promise": self.tr("Promise"),
            "shared_experience": self.tr("Done together"),
            "asked_to_remember": self.tr("You asked"),
            "fact": self.tr("Fact"),
            "persona": self.tr("About you"),
        }
        return labels.get(kind, kind)

    def reload(self) -> None:
        self.items.clear()
        for row in self._load():
            flag = {"contested": self.tr(" (contradiction: please check)")}.get(row.status, "")
            item = QListWidgetItem(f"{self.kind_label(row.kind)} · {row.fact}{flag}")
            item.setData(ITEM_ROLE, row)
            self.items.addItem(item)
        if not self.items.count():
            self.source.setText(self.tr("Nothing is remembered yet."))

    def selected(self) -> MemoryRow | None:
        item = self.items.currentItem()
        row = item.data(ITEM_ROLE) if item is not None else None
        return row if isinstance(row, MemoryRow) else None

    def _show_source(self, current: QListWidgetItem | None, _previous: object = None) -> None:
        row: MemoryRow | None = current.data(ITEM_ROLE) if current is not None else None
        self.source.setText(self.tr("From: {source}").format(source=row.source) if row else "")

    def _ask_edit(self) -> None:
        row = self.selected()
        if row is None:
            return
        text, ok = QInputDialog.getText(
            self, self.tr("Correct"), self.tr("What is true:"), text=row.fact
        )
        if ok:
            self.edit_selected(text)

    def edit_selected(self, text: str) -> None:
        row = self.selected()
        if row is not None:
            self.problem.setText(self._edit(row.id, text) or "")
            self.reload()

    def _ask_delete_all(self) -> None:
        row = self.selected()
        if row is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Delete messages"),
            self.tr("Forget this item and delete the messages it came from (and Claude's "
                    "replies to them) from your history? This cannot be undone."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # Enter never deletes
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_selected(with_messages=True)

    def delete_selected(self, with_messages: bool = False) -> None:
        row = self.selected()
        if row is not None:
            self.problem.setText(self._delete(row.id, with_messages) or "")
            self.reload()
