"""The main window: tabs over the day's conversation, days (or threads) on the left,
the Timeline Index on the right, the composer at the bottom, and a status bar.

Widgets only. The window shows what it is given and reports what the person does by
signal and offers methods for everything it shows; ``monet_app.app.AppController``
decides what happens and never reaches into the window's children.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPushButton,
    QSplitter,
    QStatusBar,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from ui.composer import Composer
from ui.items import (
    DayItem,
    MemoryRow,
    MessageRow,
    SearchItem,
    SettingsValues,
    StatusFigures,
    ThreadItem,
    TimelineItem,
)
from ui.memory_dialog import MemoryDialog
from ui.promote_dialog import PromoteDialog
from ui.settings_dialog import SettingsDialog
from ui.transcript import TranscriptModel, TranscriptView

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2


def _banner(name: str, color: str) -> QLabel:
    """A coloured line of text above the transcript (read-only day, an error)."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet(
        f"#{name} {{ background: {color}; color: white; padding: 6px; border-radius: 4px; }}"
    )
    return label


class MainWindow(QMainWindow):
    send_requested = Signal(str)
    stop_requested = Signal()
    retry_requested = Signal()
    tab_changed = Signal(str)
    day_selected = Signal(str)
    thread_selected = Signal(int)
    new_thread_requested = Signal()
    settings_requested = Signal()
    promote_requested = Signal()
    memory_requested = Signal()
    incognito_today_toggled = Signal(bool)
    delete_day_requested = Signal(str)
    delete_message_requested = Signal(int)
    timeline_activated = Signal(str, int)
    search_requested = Signal(str)
    message_activated = Signal(int)

    def __init__(self, tabs: list[tuple[str, str]]) -> None:
        super().__init__()
        self.setWindowTitle("MONET")
        self.resize(1180, 760)
        self._tab_ids: list[str] = []
        self._read_only = False

        # --- left: days or threads ---
        self.side_title = QLabel()
        self.side_list = QListWidget()
        self.side_list.setObjectName("sideList")
        self.new_thread_button = QPushButton(self.tr("New thread"))
        self.new_thread_button.setVisible(False)
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(6, 6, 0, 6)
        left_layout.addWidget(self.side_title)
        left_layout.addWidget(self.side_list)
        left_layout.addWidget(self.new_thread_button)

        # --- centre: tabs, read-only banner, transcript, error banner, composer ---
        self.tab_bar = QTabBar()
        self.tab_bar.setExpanding(False)
        self.banner = _banner("readOnlyBanner", "#6b5b2a")
        self.banner.setVisible(False)
        self.model = TranscriptModel(self)
        self.view = TranscriptView()
        self.view.setModel(self.model)
        self.error_label = _banner("errorBanner", "#8b2e2e")
        self.retry_button = QPushButton(self.tr("Retry"))
        self.error_box = QFrame()
        error_layout = QHBoxLayout(self.error_box)
        error_layout.setContentsMargins(0, 0, 0, 0)
        error_layout.addWidget(self.error_label, 1)
        error_layout.addWidget(self.retry_button)
        self.error_box.setVisible(False)
        self.composer = Composer()
        self.composer.setObjectName("composer")
        self.composer.setFixedHeight(96)
        self.send_button = QPushButton(self.tr("Send"))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setVisible(False)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        composer_row = QHBoxLayout()
        composer_row.addWidget(self.composer, 1)
        composer_row.addLayout(buttons)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(6, 6, 6, 6)
        centre_layout.addWidget(self.tab_bar)
        centre_layout.addWidget(self.banner)
        centre_layout.addWidget(self.view, 1)
        centre_layout.addWidget(self.error_box)
        centre_layout.addLayout(composer_row)

        # --- right: the Timeline Index ---
        self.timeline_title = QLabel(self.tr("What Claude remembers (Timeline Index)"))
        self.timeline_title.setWordWrap(True)
        self.timeline_list = QListWidget()
        self.timeline_list.setWordWrap(True)
        self.search_box = QLineEdit()
        self.search_box.setObjectName("searchBox")
        self.search_box.setPlaceholderText(self.tr("Search all days (Ctrl+F)"))
        self.search_box.setClearButtonEnabled(True)
        self.search_results = QListWidget()
        self.search_results.setObjectName("searchResults")
        self.search_results.setWordWrap(True)
        self.search_results.setVisible(False)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 6, 6, 6)
        right_layout.addWidget(self.search_box)
        right_layout.addWidget(self.search_results)
        right_layout.addWidget(self.timeline_title)
        right_layout.addWidget(self.timeline_list)

        splitter = QSplitter()
        splitter.addWidget(left)
        splitter.addWidget(centre)
        splitter.addWidget(right)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([190, 700, 290])
        self.setCentralWidget(splitter)

        # --- status bar ---
        self.librarian_label = QLabel()
        self.last_reply_label = QLabel()
        self.today_label = QLabel()
        status = QStatusBar()
        status.addWidget(self.librarian_label)
        status.addWidget(self.last_reply_label, 1)
        status.addPermanentWidget(self.today_label)
        self.setStatusBar(status)

        settings_action = QAction(self.tr("Settings…"), self)
        # the platform's Preferences key where it has one, and Ctrl+, everywhere
        settings_action.setShortcuts(
            [*QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences),
             QKeySequence("Ctrl+,")]
        )
        self.addAction(settings_action)
        settings_action.triggered.connect(self.settings_requested)
        menu = self.menuBar().addMenu(self.tr("&MONET"))
        menu.addAction(settings_action)
        memory_action = QAction(self.tr("What MONET remembers…"), self)
        memory_action.triggered.connect(self.memory_requested)
        menu.addAction(memory_action)
        self.incognito_action = QAction(self.tr("Incognito today (nothing becomes a memory)"), self)
        self.incognito_action.setCheckable(True)
        self.incognito_action.toggled.connect(self.incognito_today_toggled)
        menu.addAction(self.incognito_action)
        promote_action = QAction(self.tr("Promote to lasting memory…"), self)
        promote_action.triggered.connect(self.promote_requested)
        menu.addAction(promote_action)
        find_action = QAction(self.tr("Search…"), self)
        find_action.setShortcut(QKeySequence.StandardKey.Find)
        find_action.triggered.connect(self.focus_search)
        menu.addAction(find_action)
        self.addAction(find_action)
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)

        self.set_tabs(tabs)
        self.tab_bar.currentChanged.connect(self._on_tab)
        self.composer.submitted.connect(self._submit)
        self.send_button.clicked.connect(self._submit)
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.clicked.connect(self.composer.setFocus)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.activated.connect(self._escape)
        self.retry_button.clicked.connect(self.retry_requested)
        self.side_list.itemClicked.connect(self._on_side)
        self.new_thread_button.clicked.connect(self.new_thread_requested)
        self.timeline_list.itemClicked.connect(self._on_timeline)
        self.search_box.returnPressed.connect(self._on_search)
        self.search_box.textChanged.connect(self._on_search_text)
        self.search_results.itemClicked.connect(self._on_result)
        self.side_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.side_list.customContextMenuRequested.connect(self._side_menu)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._message_menu)
        self.composer.setFocus()

    # ----- what the person does ---------------------------------------------------------
    def _submit(self) -> None:
        text = self.composer.toPlainText()
        if text.strip() and self.send_button.isEnabled():
            self.send_requested.emit(text)

    def _on_tab(self, index: int) -> None:
        if 0 <= index < len(self._tab_ids):
            self.tab_changed.emit(self._tab_ids[index])

    def _on_side(self, item: QListWidgetItem) -> None:
        value = item.data(ENTRY_ROLE)
        if isinstance(value, DayItem):
            self.day_selected.emit(value.day)
        elif isinstance(value, ThreadItem):
            self.thread_selected.emit(value.id)

    def _on_timeline(self, item: QListWidgetItem) -> None:
        entry: TimelineItem = item.data(ENTRY_ROLE)
        self.timeline_activated.emit(entry.day, entry.first_message_id)

    def _side_menu(self, pos: QPoint) -> None:
        item = self.side_list.itemAt(pos)
        value = item.data(ENTRY_ROLE) if item is not None else None
        if not isinstance(value, DayItem):
            return
        menu = QMenu(self)
        action = menu.addAction(self.tr("Delete this day…"))
        if menu.exec(self.side_list.mapToGlobal(pos)) is action and self.confirm(
            self.tr("Delete everything said on {day}? Claude will not see it again.")
            .format(day=value.day)
        ):
            self.delete_day_requested.emit(value.day)

    def _message_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        row = self.model.rows[index.row()]
        if row.id == 0:
            return
        menu = QMenu(self)
        action = menu.addAction(self.tr("Delete this message…"))
        if menu.exec(self.view.viewport().mapToGlobal(pos)) is action and self.confirm(
            self.tr("Delete this message and what was drawn from it?")
        ):
            self.delete_message_requested.emit(row.id)

    def confirm(self, question: str) -> bool:
        """A destructive question: No is the default, so Enter never deletes."""
        answer = QMessageBox.question(
            self, "MONET", question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def focus_search(self) -> None:
        self.search_box.setFocus()
        self.search_box.selectAll()

    def _on_search(self) -> None:
        query = self.search_box.text().strip()
        if query:
            self.search_requested.emit(query)

    def _on_search_text(self, text: str) -> None:
        if not text.strip():
            self.show_search_results(None)

    def _on_result(self, item: QListWidgetItem) -> None:
        found: SearchItem = item.data(ENTRY_ROLE)
        self.message_activated.emit(found.message_id)

    # ----- what the controller shows ----------------------------------------------------
    def show_search_results(self, items: list[SearchItem] | None) -> None:
        """Results replace the Timeline Index panel until the search box is cleared."""
        searching = items is not None
        self.search_results.setVisible(searching)
        self.timeline_list.setVisible(not searching)
        self.timeline_title.setVisible(not searching)
        self.search_results.clear()
        if items is None:
            return
        if not items:
            self.search_results.addItem(self.tr("No message matches."))
        for found in items:
            who = self.tr("You") if found.role == "user" else "Claude"
            row = QListWidgetItem(f"{found.where} {who}: {found.snippet}")
            row.setData(ENTRY_ROLE, found)
            self.search_results.addItem(row)

    def set_tabs(self, tabs: list[tuple[str, str]], current: str | None = None) -> None:
        self.tab_bar.blockSignals(True)
        while self.tab_bar.count():
            self.tab_bar.removeTab(0)
        self._tab_ids = [t for t, _ in tabs]
        for _tab_id, label in tabs:
            self.tab_bar.addTab(label)
        if current in self._tab_ids:
            self.tab_bar.setCurrentIndex(self._tab_ids.index(current))
        self.tab_bar.blockSignals(False)

    def current_tab(self) -> str:
        index = self.tab_bar.currentIndex()
        return self._tab_ids[index] if 0 <= index < len(self._tab_ids) else ""

    def select_tab(self, tab: str) -> None:
        if tab in self._tab_ids:
            self.tab_bar.setCurrentIndex(self._tab_ids.index(tab))

    def set_days(self, days: list[DayItem], selected: str) -> None:
        self.side_title.setText(self.tr("Days"))
        self.new_thread_button.setVisible(False)
        self.side_list.clear()
        for item in days:
            label = self.tr("Today") if item.today else item.day
            shown = f"{label} · {item.day}" if item.today else label
            text = f"{shown}  ({item.count})"
            row = QListWidgetItem(text)
            row.setData(ENTRY_ROLE, item)
            self.side_list.addItem(row)
            if item.day == selected:
                row.setSelected(True)
                self.side_list.setCurrentItem(row)

    def set_threads(self, threads: list[ThreadItem]) -> None:
        self.side_title.setText(self.tr("Threads"))
        self.new_thread_button.setVisible(True)
        self.side_list.clear()
        for item in threads:
            row = QListWidgetItem(f"{item.title}  ({item.count})")
            row.setData(ENTRY_ROLE, item)
            self.side_list.addItem(row)
            if item.current:
                self.side_list.setCurrentItem(row)

    def set_read_only(self, read_only: bool, day: str = "") -> None:
        self._read_only = read_only
        self.banner.setVisible(read_only)
        if read_only:
            self.banner.setText(
                self.tr("{day} is a past day, shown read-only. Sending posts to today.")
                .format(day=day)
            )
            self.composer.setPlaceholderText(self.tr("Sending returns to today"))
        else:
            self.composer.setPlaceholderText(
                self.tr("Message (Enter sends, Shift+Enter adds a line)")
            )

    @property
    def read_only(self) -> bool:
        return self._read_only

    def set_messages(self, rows: list[MessageRow], scroll_to_end: bool = True) -> None:
        self.view.empty_text = (
            self.tr("Nothing in this tab on this day.") if self._read_only
            else self.tr("Nothing in this tab yet today. Write below; Claude sees every tab.")
        )
        self.model.set_rows(rows)
        if scroll_to_end:
            self.view.scrollToBottom()

    def set_timeline(self, items: list[TimelineItem]) -> None:
        self.timeline_list.clear()
        for item in items:
            row = QListWidgetItem(item.text)
            row.setData(ENTRY_ROLE, item)
            if item.pending:
                font = row.font()
                font.setItalic(True)
                row.setFont(font)
            self.timeline_list.addItem(row)
        self.timeline_list.scrollToBottom()

    def set_busy(self, busy: bool) -> None:
        # hiding the focused Stop button would hand the focus to the next widget (the
        # search box): the composer gets it back, so typing goes on where it belongs
        stop_had_focus = self.stop_button.hasFocus()
        self.send_button.setEnabled(not busy)
        self.stop_button.setVisible(busy)
        if not busy and stop_had_focus:
            self.composer.setFocus()

    def _escape(self) -> None:
        """Esc stops a reply while one streams."""
        if self.stop_button.isVisible():
            self.stop_requested.emit()
            self.composer.setFocus()

    def show_error(self, text: str, can_retry: bool = True) -> None:
        self.error_label.setText(text)
        self.retry_button.setVisible(can_retry)
        self.error_box.setVisible(True)
        self.composer.setFocus()  # what was typed is kept; the person can go on

    def clear_error(self) -> None:
        self.error_box.setVisible(False)

    def notify(self, text: str) -> None:
        self.statusBar().showMessage(text, 8000)

    def set_status(self, figures: StatusFigures) -> None:
        """The librarian's queue, the last reply's tokens and dollars, today's total."""
        self.librarian_label.setText(
            self.tr("Summarizing {n}").format(n=figures.pending) if figures.pending
            else self.tr("Librarian: nothing pending")
        )
        last = figures.last_reply
        last_text = self.tr(
            "Last reply: in {inp:,} · cache read {read:,} · "
            "cache write {write:,} · out {out:,} · ${usd:.4f}"
        )
        self.last_reply_label.setText("" if last is None else last_text.format(
            inp=last.input_tokens, read=last.cache_read, write=last.cache_write,
            out=last.output_tokens, usd=last.dollars,
        ))
        self.today_label.setText(self.tr("Today ${usd:.4f}").format(usd=figures.today_dollars))

    # ----- the composer and the streaming row -------------------------------------------
    def clear_composer(self) -> None:
        self.composer.clear()

    def focus_composer(self) -> None:
        self.composer.setFocus()

    def append_streaming_row(self, row: MessageRow) -> None:
        """The reply being written, as one more row at the end."""
        self.model.append(row)
        self.view.scrollToBottom()

    def update_streaming_text(self, text: str) -> None:
        self.model.update_last_text(text)
        self.view.scrollToBottom()

    def reveal_message(self, message_id: int) -> None:
        """Select and scroll to a message of the transcript (from the TI or a search)."""
        index = self.model.index(self.model.row_of_message(message_id))
        self.view.setCurrentIndex(index)
        self.view.scrollTo(index)

    def selected_message_text(self) -> str:
        selected = self.view.currentIndex()
        return self.model.rows[selected.row()].text if selected.isValid() else ""

    def set_incognito(self, on: bool) -> None:
        """Show today's incognito mark without reporting it as a change."""
        self.incognito_action.blockSignals(True)
        self.incognito_action.setChecked(on)
        self.incognito_action.blockSignals(False)

    # ----- dialogs ----------------------------------------------------------------------
    def edit_settings(self, values: SettingsValues, key_source: str,
                      apply: Callable[[SettingsValues], str | None]) -> None:
        """The settings dialog; ``apply`` returns a problem to show, or None when done."""
        dialog = SettingsDialog(values, key_source, self)
        while dialog.exec():
            problem = apply(dialog.values())
            if problem is None:
                return
            dialog.show_problem(problem)

    def edit_promotion(self, promote: Callable[[str, str], str | None]) -> None:
        """The promotion form, prefilled with the selected message."""
        dialog = PromoteDialog(self, self.selected_message_text())
        while dialog.exec():
            problem = promote(*dialog.values())
            if problem is None:
                return
            dialog.error.setText(problem)

    def show_memory(self, load: Callable[[], list[MemoryRow]],
                    edit: Callable[[int, str], str | None],
                    delete: Callable[[int, bool], str | None]) -> None:
        MemoryDialog(load, edit, delete, self).exec()
