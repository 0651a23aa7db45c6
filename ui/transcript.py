"""The transcript: a ``QListView`` over a list model, painted by a delegate.

Each message is laid out once as a ``QTextDocument`` (Markdown and code rendered) and
cached per width; the view paints only the rows that are visible, so a day of thousands
of messages scrolls smoothly. The streaming reply is one more row whose text grows.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
)
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QPainter,
    QPaintEvent,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QListView, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from ui.items import MessageRow

_FENCE = ("```", "~~~")


def keep_line_breaks(text: str) -> str:
    """Markdown with every line break the writer typed kept: a single newline outside code
    blocks becomes a hard break (Markdown would join the two lines). Blank lines, code
    blocks and table rows are left as they are."""
    lines = text.split("\n")
    out: list[str] = []
    fenced = False
    for index, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(_FENCE):
            fenced = not fenced
        following = lines[index + 1] if index + 1 < len(lines) else ""
        hard = (
            not fenced and stripped and following.strip()
            and not stripped.startswith(("|", "#")) and not stripped.startswith(_FENCE)
            and not following.strip().startswith(_FENCE)
            and not line.endswith(("  ", "\\"))
        )
        out.append(line + "  " if hard else line)
    return "\n".join(out)

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
        if role == Qt.ItemDataRole.ToolTipRole:
            return f"{row.tab_label} {row.time}"
        return None

    def set_rows(self, rows: list[MessageRow]) -> None:
        self.beginResetModel()
        self.rows = list(rows)
        self.endResetModel()

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


DOC_CACHE = 600
_PAD = 10
_HEADER = 18


class MessageDelegate(QStyledItemDelegate):
    """Paints one message: a header line (who, tab, time) and its Markdown body."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # Least recently used first; a few screens' worth is plenty, the view keeps sizes.
        self._docs: OrderedDict[tuple[int, str, int, str], QTextDocument] = OrderedDict()

    def _document(self, row: MessageRow, width: int, option: QStyleOptionViewItem) -> QTextDocument:
        growing = row.id == 0 or row.status == "streaming"
        key = (row.id, row.text if growing else "", width, row.status)
        doc = self._docs.get(key)
        if doc is not None:
            self._docs.move_to_end(key)
        else:
            while len(self._docs) >= DOC_CACHE:
                self._docs.popitem(last=False)
            doc = QTextDocument()
            doc.setDefaultFont(option.font)
            doc.setDocumentMargin(0)
            if row.role == "tool":
                doc.setPlainText(row.text[:300])
            else:
                doc.setMarkdown(keep_line_breaks(row.text) or " ")
            doc.setTextWidth(max(50, width - 2 * _PAD))
            self._docs[key] = doc
        return doc

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        row: MessageRow = index.data(ROW_ROLE)
        width = option.rect.width() or (self.parent().width() if self.parent() else 600)  # type: ignore[union-attr]
        doc = self._document(row, width, option)
        return QSize(width, int(doc.size().height()) + _HEADER + 2 * _PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        row: MessageRow = index.data(ROW_ROLE)
        painter.save()
        rect: QRect = option.rect
        palette: QPalette = option.palette
        base = palette.color(QPalette.ColorRole.Base)
        if row.role == "user":
            fill = palette.color(QPalette.ColorRole.AlternateBase)
        else:
            fill = base
        if option.state & QStyle.StateFlag.State_Selected:
            fill = palette.color(QPalette.ColorRole.Highlight).lighter(170)
        painter.fillRect(rect.adjusted(4, 2, -4, -2), fill)
        names = {"user": self.tr("You"), "assistant": "Claude", "tool": self.tr("Tool")}
        who = names.get(row.role, row.role)
        header = f"{who} · {row.tab_label} · {row.time}"
        if row.status == "incomplete":
            header += "  " + self.tr("(incomplete)")
        elif row.status == "streaming":
            header += "  …"
        if row.hidden:
            header += "  " + self.tr("(forgotten: Claude no longer sees this)")
        muted = QColor(palette.color(QPalette.ColorRole.Text))
        muted.setAlpha(150)
        painter.setPen(muted)
        header_rect = rect.adjusted(_PAD, _PAD - 4, -_PAD, 0)
        painter.drawText(header_rect, Qt.AlignmentFlag.AlignLeft, header)
        doc = self._document(row, rect.width(), option)
        painter.translate(rect.left() + _PAD, rect.top() + _PAD + _HEADER - 4)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = palette
        if row.role == "tool":
            context.palette.setColor(QPalette.ColorRole.Text, muted)
        doc.documentLayout().draw(painter, context)
        painter.restore()


class TranscriptView(QListView):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_text = ""
        self.setItemDelegate(MessageDelegate(self))
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(100)
        self.setUniformItemSizes(False)
        self.setWordWrap(True)
        self.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(False)

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model is not None and model.rowCount() == 0 and self.empty_text:
            painter = QPainter(self.viewport())
            color = QColor(self.palette().color(QPalette.ColorRole.Text))
            color.setAlpha(120)
            painter.setPen(color)
            painter.drawText(
                self.viewport().rect(), Qt.AlignmentFlag.AlignCenter, self.empty_text
            )
            painter.end()
