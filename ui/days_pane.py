"""The pane on the left: the days (or, in the thread model, the threads), each with its
message count; a click or Enter opens one, a right click on a day offers to delete it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.ask import confirm
from ui.items import DayItem, ThreadItem

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2


class DaysPane(QWidget):
    day_selected = Signal(str)
    thread_selected = Signal(int)
    new_thread_requested = Signal()
    delete_day_requested = Signal(str)
    #: True when the pane lists threads (the tab bar has nothing to do then), False for days
    threads_shown = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._shown_day = ""  # the day the transcript shows (marked in the list)
        self._days: list[DayItem] = []  # the days the list shows (set_days)
        self.title = QLabel()
        self.list = QListWidget()
        self.list.setObjectName("sideList")
        self.new_thread_button = QPushButton(self.tr("New thread"))
        self.new_thread_button.setVisible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.addWidget(self.title)
        layout.addWidget(self.list)
        layout.addWidget(self.new_thread_button)
        self.list.itemClicked.connect(self._on_item)
        self.list.itemActivated.connect(self._on_item)
        self.new_thread_button.clicked.connect(self.new_thread_requested)
        self.list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.list.customContextMenuRequested.connect(self._menu)

    def _on_item(self, item: QListWidgetItem) -> None:
        value = item.data(ENTRY_ROLE)
        if isinstance(value, DayItem):
            self.day_selected.emit(value.day)
        elif isinstance(value, ThreadItem):
            self.thread_selected.emit(value.id)

    def _menu(self, pos: QPoint) -> None:
        item = self.list.itemAt(pos)
        value = item.data(ENTRY_ROLE) if item is not None else None
        if not isinstance(value, DayItem):
            return
        menu = QMenu(self)
        action = menu.addAction(self.tr("Delete this day…"))
        if menu.exec(self.list.mapToGlobal(pos)) is action and confirm(
            self,
            self.tr("Delete everything said on {day}? Claude will not see it again.")
            .format(day=value.day),
        ):
            self.delete_day_requested.emit(value.day)
            return
        self.select_day(self._shown_day)  # (the right click marked the day it was on)

    def set_days(self, days: list[DayItem], selected: str) -> None:
        """The list of days; the same days again only move the mark (the list keeps its
        scroll and focus)."""
        if days == self._days and self.new_thread_button.isHidden() and self.select_day(
                selected):
            return
        self._days = list(days)
        self._shown_day = selected
        self.threads_shown.emit(False)
        self.title.setText(self.tr("Days"))
        self.new_thread_button.setVisible(False)
        self.list.clear()
        for item in days:
            label = self.tr("Today") if item.today else item.day
            shown = f"{label} · {item.day}" if item.today else label
            row = QListWidgetItem(f"{shown}  ({item.count})")
            row.setData(ENTRY_ROLE, item)
            self.list.addItem(row)
            if item.day == selected:
                row.setSelected(True)
                self.list.setCurrentItem(row)

    def select_day(self, day: str) -> bool:
        """Mark ``day`` as the one shown, without rebuilding the list (a year of days);
        False when the list does not hold it."""
        self._shown_day = day
        for index in range(self.list.count()):
            row = self.list.item(index)
            value = row.data(ENTRY_ROLE)
            if isinstance(value, DayItem) and value.day == day:
                self.list.setCurrentItem(row)
                row.setSelected(True)
                return True
        return False

    def set_threads(self, threads: list[ThreadItem]) -> None:
        self._days = []
        self.threads_shown.emit(True)
        self.title.setText(self.tr("Threads"))
        self.new_thread_button.setVisible(True)
        self.list.clear()
        for item in threads:
            row = QListWidgetItem(f"{item.title}  ({item.count})")
            row.setData(ENTRY_ROLE, item)
            self.list.addItem(row)
            if item.current:
                self.list.setCurrentItem(row)

    def focus(self) -> None:
        self.list.setFocus()
