"""The list model under the transcript: one ``MessageRow`` a row, the growing reply last."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QWidget

from ui.items import MessageRow

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
_Index = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractListModel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[MessageRow] = []

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        row = self.rows[index.row()]
        if role == ROW_ROLE:
            return row
        if role == Qt.ItemDataRole.DisplayRole:
            return row.text
        if role == Qt.ItemDataRole.AccessibleTextRole:  # what a screen reader says
            files = ", ".join(f.name for f in row.files)
            return f"{row.text}\n({files})" if files and row.text else files or row.text
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.tab_label} {row.time}"
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        """Rows are "editable" only in the sense that the view may lay a read-only,
        selectable copy of the text over them; the growing reply is not."""
        if not index.isValid() or index.row() >= len(self.rows):
            return Qt.ItemFlag.NoItemFlags
        flags = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled
        if not is_growing(self.rows[index.row()]):
            flags |= Qt.ItemFlag.ItemIsEditable
        return flags

    def set_rows(self, rows: list[MessageRow]) -> bool:
        """Show ``rows``; the same rows again change nothing (no reset: an open editor,
        the selection and the pictures being read stay). Whether they changed."""
        if rows == self.rows:
            return False
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()
        return True

    def append(self, row: MessageRow) -> None:
        self.beginInsertRows(QModelIndex(), len(self.rows), len(self.rows))
        self.rows.append(row)
        self.endInsertRows()

    def update_last_text(self, text: str, status: str = "streaming") -> None:
        if not self.rows:
            return
        self.rows[-1] = replace(self.rows[-1], text=text, status=status)
        index = self.index(len(self.rows) - 1)
        self.dataChanged.emit(index, index)

    def row_of_message(self, message_id: int) -> int:
        for i, row in enumerate(self.rows):
            if row.id >= message_id:
                return i
        return max(0, len(self.rows) - 1)


def is_growing(row: MessageRow) -> bool:
    """The reply still being written: its text changes, it is not selectable yet."""
    return row.id == 0 or row.status == "streaming"
