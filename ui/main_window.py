"""The main window: tabs over the day's conversation, days (or threads) on the left,
the Timeline Index and search on the right, the composer at the bottom, a status bar.

Widgets only. Each pane is its own object with its own signals and methods:
``days`` (``ui/days_pane.py``), ``transcript`` (``ui/transcript_pane.py``), ``compose``
(``ui/compose_pane.py``), ``recall`` (``ui/recall_pane.py``) and ``status_line``
(``ui/status_line.py``). The window itself holds what spans them: the tabs, the menus and
keys, the banners (a past day, an error, a notice, the key box), which panes are shown,
the window's geometry and the dialogs. ``monet_app.window.app.AppController`` decides
what happens; it calls the window's and the panes' methods (``PANES``) and never reaches
into a pane's widgets (tests/test_parts.py keeps it so).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QEvent, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QPushButton,
    QSplitter,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from ui.ask import confirm
from ui.banners import banner, banner_row
from ui.compose_pane import ComposePane
from ui.composer import local_files
from ui.days_pane import DaysPane
from ui.items import ALL_TABS, MemoryRow, SettingsValues
from ui.key_box import KeyBox
from ui.memory_dialog import MemoryDialog
from ui.promote_dialog import PromoteDialog
from ui.recall_pane import RecallPane
from ui.settings_dialog import SettingsDialog
from ui.status_line import StatusLine
from ui.transcript_pane import TranscriptPane

#: Below these window widths the side panes fold away, so the conversation stays the
#: widest pane; they come back when the window widens again (or by View menu / keys).
NARROW_RIGHT = 980
NARROW_LEFT = 720

#: The window's panes, by attribute, and their classes: what the controller may call on
#: each is the class's own methods, signals and properties (tests/test_parts.py).
PANES: dict[str, type] = {"days": DaysPane, "transcript": TranscriptPane,
                          "compose": ComposePane, "recall": RecallPane,
                          "status_line": StatusLine}

#: Visible keyboard focus on every list and field, in the palette's highlight colour. The
#: border and padding add up to the same width focused or not, so focusing the transcript
#: never changes its width (which would lay every message out again).
FOCUS_STYLE = """
QListView, QListWidget, QPlainTextEdit, QLineEdit {
    border: 1px solid palette(mid); border-radius: 4px; padding: 1px;
}
QListView:focus, QListWidget:focus, QPlainTextEdit:focus, QLineEdit:focus {
    border: 2px solid palette(highlight); padding: 0px;
}
QTabBar::tab:focus { text-decoration: underline; }
"""


class MainWindow(QMainWindow):
    tab_changed = Signal(str)
    retry_requested = Signal()
    settings_requested = Signal()
    check_mixing_requested = Signal()  # Settings → Check topic mixing…
    promote_requested = Signal()
    memory_requested = Signal()
    incognito_today_toggled = Signal(bool)
    key_submitted = Signal(str)
    demo_requested = Signal()
    backup_requested = Signal()
    about_requested = Signal()
    restore_requested = Signal(str)  # the backup file chosen
    closing = Signal()
    geometry_changed = Signal(str)  # the window's geometry (base64), at close

    def __init__(self, tabs: list[tuple[str, str]]) -> None:
        super().__init__()
        self.setWindowTitle("MONET")
        self.resize(1180, 760)
        self.setStyleSheet(FOCUS_STYLE)
        self._tab_ids: list[str] = []
        self._tab_labels: dict[str, str] = {}
        self._read_only = False
        self._backup_folder = ""
        self.setAcceptDrops(True)  # files dropped anywhere are attached (``dropEvent``)
        self._auto_hidden: set[str] = set()
        self._styled_for = QGuiApplication.palette().cacheKey()
        self._last_width = 0

        self.days = DaysPane()
        self.transcript = TranscriptPane()
        self.compose = ComposePane()
        self.recall = RecallPane()
        self.status_line = StatusLine()

        # --- centre: tabs, banners, transcript, composer ---
        self.tab_bar = QTabBar()
        self.tab_bar.setExpanding(False)
        self.tab_bar.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.banner = banner("readOnlyBanner", "#6b5b2a")
        self.banner.setVisible(False)
        self.key_box = KeyBox()
        self.key_box.setVisible(False)
        self.error_label = banner("errorBanner", "#8b2e2e")
        self.retry_button = QPushButton(self.tr("Retry"))
        self.error_box = banner_row(self.error_label, self.retry_button)
        # a notice that is no failure (an older folder made private): said once, neutral,
        # until the person has read it
        self.info_label = banner("infoBanner", "#3b5566")
        self.info_ok = QPushButton(self.tr("OK"))
        self.info_ok.setToolTip(self.tr("Close this notice"))
        self.info_ok.clicked.connect(self.clear_notice)
        self.info_box = banner_row(self.info_label, self.info_ok)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(6, 6, 6, 6)
        centre_layout.addWidget(self.tab_bar)
        centre_layout.addWidget(self.banner)
        centre_layout.addWidget(self.key_box)
        centre_layout.addWidget(self.transcript, 1)
        centre_layout.addWidget(self.info_box)
        centre_layout.addWidget(self.error_box)
        centre_layout.addWidget(self.compose)

        self.splitter = QSplitter()
        self.splitter.addWidget(self.days)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.recall)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(1, False)
        self.splitter.setSizes([190, 700, 290])
        self.setCentralWidget(self.splitter)
        self.setStatusBar(self.status_line)

        self._build_menus()
        self.set_tabs(tabs)
        self.compose.switch_draft(self.current_tab())
        self.tab_bar.currentChanged.connect(self._on_tab)
        self.days.threads_shown.connect(lambda threads: self.tab_bar.setVisible(not threads))
        self.transcript.notice.connect(self.status_line.notify)
        QShortcut(QKeySequence("Ctrl+Shift+M"), self).activated.connect(self.compose.pick_model)
        QShortcut(QKeySequence("Ctrl+Shift+A"), self).activated.connect(
            self.compose.choose_files)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.activated.connect(self._escape)
        self.retry_button.clicked.connect(self.retry_requested)
        self.key_box.submitted.connect(self.key_submitted)
        self.key_box.demo_requested.connect(self.demo_requested)
        self.compose.focus()

    def _build_menus(self) -> None:
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
        menu.addSeparator()
        backup_action = QAction(self.tr("Back up now"), self)
        backup_action.triggered.connect(self.backup_requested)
        menu.addAction(backup_action)
        restore_action = QAction(self.tr("Restore from a backup…"), self)
        restore_action.triggered.connect(self._choose_restore)
        menu.addAction(restore_action)
        demo_action = QAction(self.tr("Open the demo…"), self)
        demo_action.triggered.connect(self.demo_requested)
        menu.addAction(demo_action)
        about_action = QAction(self.tr("About MONET…"), self)
        about_action.setMenuRole(QAction.MenuRole.AboutRole)  # macOS: the application menu
        about_action.triggered.connect(self.about_requested)
        menu.addAction(about_action)
        menu.addSeparator()
        quit_action = QAction(self.tr("Quit"), self)
        quit_action.setShortcut(QKeySequence.StandardKey.Quit)
        quit_action.triggered.connect(self.close)
        menu.addAction(quit_action)
        self.addAction(quit_action)

        view = self.menuBar().addMenu(self.tr("&View"))
        self.days_action = QAction(self.tr("Days pane"), self)
        self.days_action.setCheckable(True)
        self.days_action.setChecked(True)
        self.days_action.setShortcut(QKeySequence("Ctrl+B"))
        self.days_action.toggled.connect(lambda on: self._show_pane("left", on))
        self.memory_pane_action = QAction(self.tr("Timeline and search pane"), self)
        self.memory_pane_action.setCheckable(True)
        self.memory_pane_action.setChecked(True)
        self.memory_pane_action.setShortcut(QKeySequence("Ctrl+Shift+B"))
        self.memory_pane_action.toggled.connect(lambda on: self._show_pane("right", on))
        next_tab = QAction(self.tr("Next tab"), self)
        next_tab.setShortcuts([QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")])
        next_tab.triggered.connect(lambda: self._step_tab(1))
        previous_tab = QAction(self.tr("Previous tab"), self)
        previous_tab.setShortcuts([QKeySequence("Ctrl+Shift+Tab"), QKeySequence("Ctrl+PgUp")])
        previous_tab.triggered.connect(lambda: self._step_tab(-1))
        composer_action = QAction(self.tr("Go to the message field"), self)
        composer_action.setShortcut(QKeySequence("Ctrl+L"))
        composer_action.triggered.connect(self.compose.focus)
        days_list_action = QAction(self.tr("Go to the days"), self)
        days_list_action.setShortcut(QKeySequence("Ctrl+Shift+D"))
        days_list_action.triggered.connect(self.focus_days)
        for action in (self.days_action, self.memory_pane_action, next_tab, previous_tab,
                       composer_action, days_list_action):
            view.addAction(action)
            self.addAction(action)
        for number in range(1, 10):
            jump = QShortcut(QKeySequence(f"Ctrl+{number}"), self)
            jump.activated.connect(lambda n=number: self._jump_tab(n))

    # ----- tabs -------------------------------------------------------------------------
    def _on_tab(self, index: int) -> None:
        if 0 <= index < len(self._tab_ids):
            tab = self._tab_ids[index]
            if self.compose.editing:
                self.compose.edit_cancelled.emit()  # the edit belongs to the tab being left
            self.compose.switch_draft(tab)
            self.tab_changed.emit(tab)

    def _step_tab(self, step: int) -> None:
        count = self.tab_bar.count()
        if count:
            self.tab_bar.setCurrentIndex((self.tab_bar.currentIndex() + step) % count)

    def _jump_tab(self, number: int) -> None:
        """Ctrl+1…9: that tab; Ctrl+9 is the last one (all tabs), as in browsers."""
        count = self.tab_bar.count()
        if number == 9 or number > count:
            number = count if number == 9 else 0
        if number:
            self.tab_bar.setCurrentIndex(number - 1)

    def set_tabs(self, tabs: list[tuple[str, str]], current: str | None = None) -> None:
        """The person's tabs and, last, the whole day across every tab."""
        self.tab_bar.blockSignals(True)
        while self.tab_bar.count():
            self.tab_bar.removeTab(0)
        shown = [*tabs, (ALL_TABS, self.tr("All tabs"))]
        self._tab_ids = [t for t, _ in shown]
        self._tab_labels = dict(shown)
        for number, (_tab_id, label) in enumerate(shown, start=1):
            index = self.tab_bar.addTab(label)
            key = "9" if _tab_id == ALL_TABS else str(number)
            self.tab_bar.setTabToolTip(index, f"{label} (Ctrl+{key})")
        if current in self._tab_ids:
            self.tab_bar.setCurrentIndex(self._tab_ids.index(current))
        self.tab_bar.blockSignals(False)

    def set_tab_marks(self, counts: dict[str, int], unread: set[str]) -> None:
        """Each tab with today's message count and a dot when a reply arrived unseen."""
        for index, tab in enumerate(self._tab_ids):
            label = self._tab_labels[tab]
            count = sum(counts.values()) if tab == ALL_TABS else counts.get(tab, 0)
            text = f"{label} {count}" if count else label
            self.tab_bar.setTabText(index, f"{text} ●" if tab in unread else text)

    def current_tab(self) -> str:
        index = self.tab_bar.currentIndex()
        return self._tab_ids[index] if 0 <= index < len(self._tab_ids) else ""

    def select_tab(self, tab: str) -> None:
        if tab in self._tab_ids:
            self.tab_bar.setCurrentIndex(self._tab_ids.index(tab))

    # ----- what spans the panes ---------------------------------------------------------
    def set_read_only(self, read_only: bool, day: str = "") -> None:
        """A past day shown (read-only, said in a banner) or today."""
        self._read_only = read_only
        self.banner.setVisible(read_only)
        if read_only:
            self.banner.setText(
                self.tr("{day} is a past day, shown read-only. Sending posts to today.")
                .format(day=day)
            )
        self.compose.set_read_only(read_only)
        self.transcript.set_state(read_only=read_only)

    @property
    def read_only(self) -> bool:
        return self._read_only

    def set_busy(self, busy: bool) -> None:
        """A reply streaming: Stop instead of Send, no edit or regenerate meanwhile."""
        self.compose.set_busy(busy)
        self.transcript.set_state(busy=busy)

    def set_drafts(self, drafts: dict[str, str]) -> None:
        """The drafts kept from the last run; the shown tab's goes in the composer."""
        self.compose.set_drafts(drafts, self.current_tab())

    def confirm(self, question: str) -> bool:
        """A destructive question: No is the default, so Enter never deletes."""
        return confirm(self, question)

    def focus_days(self) -> None:
        """The days (or threads) list, shown if it was folded away: ↑ ↓ and Enter open a
        past day."""
        self._show_pane("left", True)
        self.days.focus()

    def focus_search(self) -> None:
        self._show_pane("right", True)
        self.recall.focus_search()

    def _escape(self) -> None:
        """Esc stops a reply while one streams; otherwise it cancels an edit, or leaves
        the search results."""
        if self.compose.streaming:
            self.compose.stop_requested.emit()
            self.compose.focus()
        elif self.compose.editing:
            self.compose.edit_cancelled.emit()
        elif self.recall.searching():
            self.recall.leave_search()
            self.compose.focus()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        """Files dropped anywhere on the window are attached, as on the message field."""
        if local_files(event.mimeData()):
            event.acceptProposedAction()
            return
        super().dragEnterEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:
        files = local_files(event.mimeData())
        if files:
            event.acceptProposedAction()
            self.compose.files_chosen.emit(files)
            self.compose.focus()
            return
        super().dropEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.compose.save_draft()  # what was typed and not sent is there next time
        self.geometry_changed.emit(bytes(self.saveGeometry().toBase64().data()).decode())
        self.closing.emit()
        super().closeEvent(event)

    # ----- banners ----------------------------------------------------------------------
    def show_key_box(self, first_run: bool, keyring: bool) -> None:
        self.key_box.show_for(first_run, keyring)

    def hide_key_box(self) -> None:
        self.key_box.setVisible(False)
        self.key_box.field.clear()

    def show_error(self, text: str, can_retry: bool = True) -> None:
        self.error_label.setText(text)
        self.retry_button.setVisible(can_retry)
        self.error_box.setVisible(True)
        self.compose.focus()  # what was typed is kept; the person can go on

    def clear_error(self) -> None:
        self.error_box.setVisible(False)

    def error_text(self) -> str:
        """The error banner's sentence ("" when none is shown)."""
        return self.error_label.text() if self.error_box.isVisibleTo(self) else ""

    def show_notice(self, text: str) -> None:
        """A notice to read, not a failure: neutral, above the transcript, until OK."""
        self.info_label.setText(text)
        self.info_box.setVisible(True)

    def clear_notice(self) -> None:
        self.info_box.setVisible(False)
        self.compose.focus()

    # ----- which panes are shown --------------------------------------------------------
    def _show_pane(self, which: str, on: bool) -> None:
        pane = self.days if which == "left" else self.recall
        action = self.days_action if which == "left" else self.memory_pane_action
        self._auto_hidden.discard(which)  # the person's choice holds
        if on and self.width() < NARROW_RIGHT:
            # narrow: one side pane at a time, so the conversation stays readable
            other = "right" if which == "left" else "left"
            other_pane = self.recall if other == "right" else self.days
            other_action = self.memory_pane_action if other == "right" else self.days_action
            if other_pane.isVisibleTo(self):
                other_pane.setVisible(False)
                self._auto_hidden.add(other)
                other_action.blockSignals(True)
                other_action.setChecked(False)
                other_action.blockSignals(False)
        pane.setVisible(on)
        action.blockSignals(True)
        action.setChecked(on)
        action.blockSignals(False)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = event.size().width()
        for which, limit in (("right", NARROW_RIGHT), ("left", NARROW_LEFT)):
            pane = self.days if which == "left" else self.recall
            action = self.days_action if which == "left" else self.memory_pane_action
            if width < limit <= self._last_width or (width < limit and not self._last_width):
                if pane.isVisibleTo(self):
                    pane.setVisible(False)
                    self._auto_hidden.add(which)
            elif width >= limit > self._last_width and which in self._auto_hidden:
                pane.setVisible(True)
                self._auto_hidden.discard(which)
            action.blockSignals(True)
            action.setChecked(pane.isVisibleTo(self))
            action.blockSignals(False)
        self._last_width = width

    def changeEvent(self, event: QEvent) -> None:
        """A new palette (Settings → Appearance, or the system turning dark): widgets under
        a style sheet keep the colours they were polished with, so the sheet is set again
        and every widget takes the new palette."""
        super().changeEvent(event)
        if event.type() not in (QEvent.Type.PaletteChange,
                                QEvent.Type.ApplicationPaletteChange):
            return
        self.restyle()

    def restyle(self) -> None:
        """Set the style sheet again if the application's palette is new since the last
        time (once per palette: the events the sheet itself causes pass through)."""
        key = QGuiApplication.palette().cacheKey()
        if key != self._styled_for:
            self._styled_for = key
            self.setStyleSheet("")
            self.setStyleSheet(FOCUS_STYLE)

    # ----- the window as a whole --------------------------------------------------------
    def set_shared(self, where: str) -> None:
        """A history on a server, shared with this person's other devices: said in the
        title and, on hover, how windows and devices go together."""
        self.setWindowTitle(self.tr("MONET — shared history on {where}").format(where=where))
        self.setToolTip("")
        self.status_line.set_shared()

    def set_demo(self) -> None:
        """The demo: said in the title and, permanently, in the status bar."""
        self.setWindowTitle(self.tr("MONET — demo"))
        self.status_line.set_demo()

    def set_incognito(self, on: bool) -> None:
        """Show today's incognito mark without reporting it as a change."""
        self.incognito_action.blockSignals(True)
        self.incognito_action.setChecked(on)
        self.incognito_action.blockSignals(False)

    def restore_geometry(self, saved: str) -> None:
        """The size and place the window had when it was closed (if it still fits)."""
        if saved:
            self.restoreGeometry(QByteArray.fromBase64(saved.encode()))
        self.fit_screen()

    def fit_screen(self) -> None:
        """Never larger than the screen's free area (a size kept from a larger screen, the
        default size on a small one)."""
        screen = self.screen()
        if screen is None:
            return
        room = screen.availableGeometry()
        frame = self.frameGeometry().size() - self.size()  # the title bar and borders
        width = min(self.width(), room.width() - frame.width())
        height = min(self.height(), room.height() - frame.height())
        if (width, height) != (self.width(), self.height()):
            self.resize(max(width, self.minimumSizeHint().width()), height)

    # ----- dialogs ----------------------------------------------------------------------
    def _choose_restore(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, self.tr("Restore from a backup"), self._backup_folder,
            self.tr("MONET backups (*.zip)"))
        if path and self.confirm(self.tr(
            "Replace everything in this data folder with the backup {file}? The current "
            "database is kept beside it as a dated copy.").format(file=path)
        ):
            self.restore_requested.emit(path)

    def set_backup_folder(self, folder: str) -> None:
        self._backup_folder = folder

    def show_about(self, version: str, home: str, revision: str | None) -> None:
        """About MONET: the version, the data folder and the database's schema revision."""
        from ui.about_dialog import AboutDialog

        AboutDialog(version, home, revision, self).exec()

    def edit_settings(self, values: SettingsValues, key_source: str,
                      apply: Callable[[SettingsValues], str | None],
                      keyring: bool = True) -> None:
        """The settings dialog; ``apply`` returns a problem to show, or None when done."""
        dialog = SettingsDialog(values, key_source, self, keyring=keyring)
        dialog.check_mixing_requested.connect(self.check_mixing_requested)
        while dialog.exec():
            problem = apply(dialog.values())
            if problem is None:
                return
            dialog.show_problem(problem)

    def edit_promotion(self, promote: Callable[[str, str], str | None]) -> None:
        """The promotion form, prefilled with the selected message."""
        dialog = PromoteDialog(self, self.transcript.selected_message_text())
        while dialog.exec():
            problem = promote(*dialog.values())
            if problem is None:
                return
            dialog.error.setText(problem)

    def show_memory(self, load: Callable[[], list[MemoryRow]],
                    edit: Callable[[int, str], str | None],
                    delete: Callable[[int, bool], str | None],
                    add: Callable[[str], str | None] | None = None,
                    keep: Callable[[int], str | None] | None = None) -> None:
        dialog = MemoryDialog(load, edit, delete, self, add=add, keep=keep)
        dialog.exec()
        dialog.finish_pending()  # a Forget still waiting for its Undo is carried out
