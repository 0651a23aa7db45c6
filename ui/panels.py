"""The side panels beside the conversation: what Claude remembers (the Timeline Index,
grouped under its days) and search results (highlighted, with their speaker).

Both are lists of small rich-text rows painted by one delegate, so a year of lines stays
cheap: each row's document is laid out once per width. Day headers are rows too, but
they cannot be chosen; Enter or a click on a line opens its day.
"""

from __future__ import annotations

import html
import re
from collections import OrderedDict
from datetime import date

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QPainter,
    QPalette,
    QShowEvent,
    QTextDocument,
)
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QVBoxLayout,
    QWidget,
)

from ui.items import SearchItem, TimelineItem
from ui.transcript.colors import contrast_ratio, mix

HTML_ROLE = Qt.ItemDataRole.UserRole + 10
#: Search results laid out at once; the rest follow a page at a time ("more").
PAGE = 40
MORE = "more"
ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
_Index = QModelIndex | QPersistentModelIndex
_PAD = 6


class RichRowDelegate(QStyledItemDelegate):
    """Paints a row's HTML (``HTML_ROLE``) wrapped to the list's width."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._docs: OrderedDict[tuple[str, int], QTextDocument] = OrderedDict()

    def _document(self, text: str, width: int, option: QStyleOptionViewItem) -> QTextDocument:
        key = (text, width)
        doc = self._docs.get(key)
        if doc is None:
            while len(self._docs) >= 1000:
                self._docs.popitem(last=False)
            doc = QTextDocument()
            doc.setDefaultFont(option.font)
            doc.setDocumentMargin(0)
            doc.setHtml(text)
            doc.setTextWidth(max(40, width - 2 * _PAD))
            self._docs[key] = doc
        return doc

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        width = option.rect.width()
        if width <= 0:
            parent = self.parent()
            width = parent.width() if isinstance(parent, QWidget) else 260
        doc = self._document(str(index.data(HTML_ROLE) or ""), width, option)
        return QSize(width, int(doc.size().height()) + 2 * _PAD)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        painter.save()
        palette: QPalette = option.palette
        rect = option.rect
        state = option.state
        if state & QStyle.StateFlag.State_Selected:
            fill = QColor(palette.color(QPalette.ColorRole.Highlight))
            fill.setAlpha(60)  # a tint: the text keeps its own colour, readable in both palettes
            painter.fillRect(rect, fill)
        if state & QStyle.StateFlag.State_HasFocus:
            pen = QColor(palette.color(QPalette.ColorRole.Highlight))
            painter.setPen(pen)
            painter.drawRect(rect.adjusted(0, 0, -1, -1))
        doc = self._document(str(index.data(HTML_ROLE) or ""), rect.width(), option)
        painter.translate(rect.left() + _PAD, rect.top() + _PAD)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette = palette
        doc.documentLayout().draw(painter, context)
        painter.restore()


def _rich_list(name: str) -> QListWidget:
    view = QListWidget()
    view.setObjectName(name)
    view.setItemDelegate(RichRowDelegate(view))
    view.setVerticalScrollMode(QListWidget.ScrollMode.ScrollPerPixel)
    view.setResizeMode(QListWidget.ResizeMode.Adjust)
    view.setUniformItemSizes(False)
    view.setWordWrap(True)
    return view


def _muted(palette: QPalette) -> str:
    """Secondary text (day headers, where a line comes from): the text colour moved
    toward the background, but never below 4.5:1 against it."""
    base = palette.color(QPalette.ColorRole.Base)
    text = palette.color(QPalette.ColorRole.Text)
    for share in (0.62, 0.68, 0.74, 0.8, 0.9):
        color = mix(base, text, share)
        if contrast_ratio(color, base) >= 4.6:  # (a margin over 4.5 for rounding)
            return color.name()
    return text.name()


def day_heading(day: str, today: str, labels: tuple[str, str, tuple[str, ...]]) -> str:
    """"Today", "Yesterday", or the date with its weekday ("2026-11-28 Sat")."""
    today_text, yesterday_text, weekdays = labels
    try:
        when = date.fromisoformat(day)
        now = date.fromisoformat(today)
    except ValueError:
        return day
    delta = (now - when).days
    if delta == 0:
        return f"{today_text} · {day}"
    if delta == 1:
        return f"{yesterday_text} · {day}"
    return f"{day} ({weekdays[when.weekday()]})"


class TimelinePanel(QWidget):
    """The Timeline Index as the person reads it: lines under day headers, newest at the
    bottom and in view, tab names as the person named them, pending lines in italics."""

    activated = Signal(str, int)  # day, first message id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown: tuple[list[TimelineItem], str, str] | None = None  # what set_items drew
        self.title = QLabel(self.tr("What Claude remembers (Timeline Index)"))
        self.title.setWordWrap(True)
        self.title.setObjectName("panelTitle")
        self.list = _rich_list("timelineList")
        self.list.setToolTip(self.tr("Click a line, or press Enter, to open its day."))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.title)
        layout.addWidget(self.list, 1)
        self.list.itemClicked.connect(self._open)
        self.list.itemActivated.connect(self._open)

    def _open(self, item: QListWidgetItem) -> None:
        entry = item.data(ENTRY_ROLE)
        if isinstance(entry, TimelineItem):
            self.activated.emit(entry.day, entry.first_message_id)

    def lines(self) -> list[TimelineItem]:
        found = (self.list.item(i).data(ENTRY_ROLE) for i in range(self.list.count()))
        return [entry for entry in found if isinstance(entry, TimelineItem)]

    def set_items(self, items: list[TimelineItem], today: str) -> None:
        """The lines, grouped by day, the newest in view; the same lines again change
        nothing (the person's scroll stays)."""
        muted = _muted(self.palette())
        names = (self.tr("Today"), self.tr("Yesterday"), (
            self.tr("Mon"), self.tr("Tue"), self.tr("Wed"), self.tr("Thu"), self.tr("Fri"),
            self.tr("Sat"), self.tr("Sun")))
        pending_text = self.tr("being summarized…")
        drawn = (list(items), today, f"{muted} {names} {pending_text}")  # (colours, language)
        if drawn == self._shown:
            return
        self._shown = drawn
        self.list.setUpdatesEnabled(False)
        self.list.clear()
        heading = ""
        for item in items:
            label = item.day if not item.day_to or item.day_to == item.day \
                else f"{item.day} – {item.day_to}"
            if label != heading:
                heading = label
                shown = day_heading(item.day, today, names) if label == item.day else label
                head = QListWidgetItem(shown)  # the plain text is what screen readers say
                head.setData(HTML_ROLE, f"<b>{html.escape(shown)}</b>")
                head.setFlags(Qt.ItemFlag.NoItemFlags)  # a header: never chosen
                self.list.addItem(head)
            where = " · ".join(part for part in (item.span, ", ".join(item.tabs)) if part)
            body = (f"<i style='color:{muted}'>{html.escape(pending_text)}</i>" if item.pending
                    else html.escape(item.text))
            row = QListWidgetItem(f"{where}: {item.text or pending_text}")
            row.setData(HTML_ROLE, f"<span style='color:{muted}'>{html.escape(where)}</span>"
                                   f"<br>{body}")
            row.setData(ENTRY_ROLE, item)
            row.setToolTip(item.text or pending_text)
            self.list.addItem(row)
        if not items:
            empty = QListWidgetItem()
            empty.setData(HTML_ROLE, f"<span style='color:{muted}'>" + html.escape(self.tr(
                "Nothing yet. Earlier days are summarized here, one line per stretch of talk."
            )) + "</span>")
            empty.setFlags(Qt.ItemFlag.NoItemFlags)
            self.list.addItem(empty)
        self.list.setUpdatesEnabled(True)
        self.list.doItemsLayout()  # rows have their heights before scrolling
        self.list.scrollToBottom()  # the newest line in view
        QTimer.singleShot(0, self.list.scrollToBottom)  # and again once the pane is shown

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        QTimer.singleShot(0, self.list.scrollToBottom)


_MARKUP = re.compile(r"`+|\*\*|__|^#{1,6}\s+|^>\s?|\[([^\]]*)\]\([^)]*\)", re.MULTILINE)


def plain(text: str) -> str:
    """A snippet as it reads, without Markdown's marks (backticks, emphasis, heading and
    quote marks; a link keeps its words)."""
    return _MARKUP.sub(lambda m: m.group(1) or "", text)


def highlight(text: str, terms: tuple[str, ...]) -> str:
    """HTML of ``text`` with each search term in bold on a tint (case-insensitive)."""
    text = plain(text)
    wanted = sorted({t for t in terms if t.strip()}, key=len, reverse=True)
    if not wanted:
        return html.escape(text)
    pattern = re.compile("|".join(re.escape(t) for t in wanted), re.IGNORECASE)
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        out.append(html.escape(text[last:match.start()]))
        out.append(f"<b style='background-color:rgba(255,200,0,90)'>"
                   f"{html.escape(match.group(0))}</b>")
        last = match.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


class SearchPanel(QWidget):
    """Search results in their own panel above the Timeline Index: how many, each with
    its day, tab, speaker and the matching words highlighted."""

    activated = Signal(int)  # message id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.count_label = QLabel()
        self.count_label.setObjectName("searchCount")
        self._waiting: list[SearchItem] = []
        self.list = _rich_list("searchResults")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.count_label)
        layout.addWidget(self.list, 1)
        self.list.itemClicked.connect(self._open)
        self.list.itemActivated.connect(self._open)

    def _open(self, item: QListWidgetItem) -> None:
        found = item.data(ENTRY_ROLE)
        if isinstance(found, SearchItem):
            self.activated.emit(found.message_id)
        elif found == MORE:
            self._add_page()

    def set_results(self, items: list[SearchItem], limit: int) -> None:
        related = sum(1 for item in items if item.related)
        count = len(items) - related  # messages holding the words
        if count == 0:
            text = self.tr("No message has these words") if related else self.tr(
                "No message matches.")
        elif count + related >= limit:
            text = self.tr("The best {n} matches").format(n=count)
        else:
            text = self.tr("1 match") if count == 1 else self.tr("{n} matches").format(n=count)
        if related:  # found by meaning, marked in the list
            text += " · " + self.tr("{n} related by meaning").format(n=related)
        self.count_label.setText(text)
        self.list.clear()
        self._waiting = list(items)
        self._add_page()
        if items:
            self.list.setCurrentRow(0)

    def _add_page(self) -> None:
        """The next ``PAGE`` results: each is a laid-out rich-text row, so a long list is
        shown a page at a time (a "more" row at its end), not all at once."""
        muted = _muted(self.palette())
        last = self.list.count() - 1
        if last >= 0 and self.list.item(last).data(ENTRY_ROLE) == MORE:
            self.list.takeItem(last)
        page, self._waiting = self._waiting[:PAGE], self._waiting[PAGE:]
        self.list.setUpdatesEnabled(False)
        for found in page:
            who = self.tr("You") if found.role == "user" else "Claude"
            marks = [self.tr("related") if found.related else "",
                     self.tr("hidden from Claude") if found.hidden else ""]
            mark = "".join(f" · {m}" for m in marks if m)
            row = QListWidgetItem(f"{found.where} {who}{mark}: {found.snippet}")
            row.setData(HTML_ROLE, f"<span style='color:{muted}'>{html.escape(found.where)} · "
                                   f"<b>{html.escape(who)}</b>{html.escape(mark)}</span><br>"
                                   f"{highlight(found.snippet, found.terms)}")
            row.setData(ENTRY_ROLE, found)
            self.list.addItem(row)
        if self._waiting:
            more = QListWidgetItem()
            label = self.tr("Show {n} more…").format(n=len(self._waiting))
            more.setText(label)
            more.setData(HTML_ROLE, f"<b>{html.escape(label)}</b>")
            more.setData(ENTRY_ROLE, MORE)
            self.list.addItem(more)
        self.list.setUpdatesEnabled(True)
