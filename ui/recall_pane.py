"""The pane on the right: the search box, its results (while searching) above the Timeline
Index. Searching starts once typing pauses; Enter searches at once and goes to the first
result."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLineEdit, QSplitter, QVBoxLayout, QWidget

from ui.items import SearchItem, TimelineItem
from ui.panels import SearchPanel, TimelinePanel

SEARCH_DEBOUNCE_MS = 250
SEARCH_LIMIT = 200


class RecallPane(QWidget):
    search_requested = Signal(str)
    message_activated = Signal(int)  # a search result's message
    timeline_activated = Signal(str, int)  # a Timeline Index line: (its day, a message)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.search_box = QLineEdit()
        self.search_box.setObjectName("searchBox")
        self.search_box.setPlaceholderText(self.tr("Search all days (Ctrl+F)"))
        self.search_box.setClearButtonEnabled(True)
        self.search_panel = SearchPanel()
        self.search_panel.setVisible(False)
        self.search_results = self.search_panel.list
        self.timeline_panel = TimelinePanel()
        self.timeline_list = self.timeline_panel.list
        self.timeline_title = self.timeline_panel.title
        panels = QSplitter(Qt.Orientation.Vertical)
        panels.addWidget(self.search_panel)
        panels.addWidget(self.timeline_panel)
        panels.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 6, 6)
        layout.addWidget(self.search_box)
        layout.addWidget(panels, 1)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._timer.timeout.connect(self._search)
        self.timeline_panel.activated.connect(self.timeline_activated)
        self.search_panel.activated.connect(self.message_activated)
        self.search_box.returnPressed.connect(self._search_now)
        self.search_box.textChanged.connect(self._on_text)

    def _search_now(self) -> None:
        self._timer.stop()
        self._search()
        if self.search_results.count():
            self.search_results.setFocus()  # Enter again opens the first result

    def _search(self) -> None:
        query = self.search_box.text().strip()
        if query:
            self.search_requested.emit(query)

    def _on_text(self, text: str) -> None:
        if text.strip():
            self._timer.start()  # searched as typed, once typing pauses
        else:
            self._timer.stop()
            self.show_search_results(None)

    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

    def searching(self) -> bool:
        """The focus is in the search box or its results (where Esc leaves the search)."""
        return self.search_box.hasFocus() or self.search_results.hasFocus()

    def leave_search(self) -> None:
        self.search_box.clear()

    def show_search_results(self, items: list[SearchItem] | None) -> None:
        """Results in their own panel above the Timeline Index, until the box is cleared."""
        self.search_panel.setVisible(items is not None)
        if items is None:
            self.search_results.clear()
            return
        self.search_panel.set_results(items, SEARCH_LIMIT)

    def set_timeline(self, items: list[TimelineItem], today: str = "") -> None:
        self.timeline_panel.set_items(items, today)
