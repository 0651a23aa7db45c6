"""The main window: tabs over the day's conversation, days (or threads) on the left,
the Timeline Index on the right, the composer at the bottom, and a status bar.

Widgets only. The window shows what it is given and reports what the person does by
signal and offers methods for everything it shows; ``monet_app.window.app.AppController``
decides what happens and never reaches into the window's children.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QByteArray, QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QCursor,
    QDragEnterEvent,
    QDropEvent,
    QGuiApplication,
    QImage,
    QKeySequence,
    QResizeEvent,
    QShortcut,
)
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
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
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.attach_chips import AttachChips
from ui.composer import Composer, local_files
from ui.elided import ElidedLabel
from ui.items import (
    ALL_TABS,
    DayItem,
    MemoryRow,
    MessageRow,
    SearchItem,
    SettingsValues,
    StatusFigures,
    ThreadItem,
    TimelineItem,
)
from ui.key_box import KeyBox
from ui.look import problem_color
from ui.memory_dialog import MemoryDialog
from ui.panels import SearchPanel, TimelinePanel
from ui.picture_viewer import PictureViewer
from ui.promote_dialog import PromoteDialog
from ui.settings_dialog import MODELS, SettingsDialog, model_label
from ui.transcript import TranscriptModel, TranscriptView

ENTRY_ROLE = Qt.ItemDataRole.UserRole + 2
#: Below these window widths the side panes fold away, so the conversation stays the
#: widest pane; they come back when the window widens again (or by View menu / keys).
NARROW_RIGHT = 980
NARROW_LEFT = 720
SEARCH_DEBOUNCE_MS = 250
DRAFT_SAVE_MS = 600
#: How long a passing notice ("Copied") stays in the status bar.
NOTICE_MS = 8000
SEARCH_LIMIT = 200

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


def _banner(name: str, color: str) -> QLabel:
    """A coloured line of text above the transcript (read-only day, an error)."""
    label = QLabel()
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setStyleSheet(
        f"#{name} {{ background: {color}; color: white; padding: 6px; border-radius: 4px; }}"
    )
    return label


def _banner_row(label: QLabel, button: QPushButton) -> QFrame:
    """A banner with its button at the end (an error and Retry, a notice and OK), hidden
    until shown."""
    row = QFrame()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(label, 1)
    layout.addWidget(button)
    row.setVisible(False)
    return row


class MainWindow(QMainWindow):
    send_requested = Signal(str)
    stop_requested = Signal()
    retry_requested = Signal()
    tab_changed = Signal(str)
    day_selected = Signal(str)
    thread_selected = Signal(int)
    new_thread_requested = Signal()
    settings_requested = Signal()
    check_mixing_requested = Signal()  # Settings → Check topic mixing…
    promote_requested = Signal()
    memory_requested = Signal()
    incognito_today_toggled = Signal(bool)
    delete_day_requested = Signal(str)
    delete_message_requested = Signal(int)
    timeline_activated = Signal(str, int)
    search_requested = Signal(str)
    message_activated = Signal(int)
    regenerate_requested = Signal(int)  # the reply's id
    continue_requested = Signal(int)  # the interrupted reply's id
    edit_requested = Signal(int)  # the person's message id
    edit_cancelled = Signal()
    key_submitted = Signal(str)
    demo_requested = Signal()
    backup_requested = Signal()
    about_requested = Signal()
    restore_requested = Signal(str)  # the backup file chosen
    drafts_changed = Signal(dict)  # {tab: unsent text}, every tab's draft
    model_chosen = Signal(str)  # the model picked beside the composer
    files_chosen = Signal(list)  # local paths to attach (the 📎 button, a paste, a drop)
    image_pasted = Signal(QImage)  # a picture pasted into the message field
    attachment_removed = Signal(int)  # a chip's ✕: its position
    file_open_requested = Signal(object)  # a ShownFile to open in the system's viewer
    version_requested = Signal(int, int)  # (today's latest reply, the version to show)
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
        self.picture_viewer: PictureViewer | None = None  # the picture shown large, if any
        self.setAcceptDrops(True)  # files dropped anywhere are attached (``dropEvent``)
        self._latest_user = 0
        self._latest_reply = 0
        self._can_continue = False
        self._versions = (0, 0)  # (version shown, how many) of today's latest reply
        self._editing = False
        # the unsent text of each tab (the composer holds the shown tab's); while an
        # edit is open, the composer holds the message being edited and the tab's own
        # draft waits here
        self._drafts: dict[str, str] = {}
        self._draft_tab = ""
        self._shown_day = ""  # the day the transcript shows (marked in the day list)
        self._days: list[DayItem] = []  # the days the list shows (set_days)
        self._auto_hidden: set[str] = set()
        self._styled_for = QGuiApplication.palette().cacheKey()
        self._last_width = 0

        # --- left: days or threads ---
        self.side_title = QLabel()
        self.side_list = QListWidget()
        self.side_list.setObjectName("sideList")
        self.new_thread_button = QPushButton(self.tr("New thread"))
        self.new_thread_button.setVisible(False)
        self.left = QWidget()
        left_layout = QVBoxLayout(self.left)
        left_layout.setContentsMargins(6, 6, 0, 6)
        left_layout.addWidget(self.side_title)
        left_layout.addWidget(self.side_list)
        left_layout.addWidget(self.new_thread_button)

        # --- centre: tabs, banners, transcript, composer ---
        self.tab_bar = QTabBar()
        self.tab_bar.setExpanding(False)
        self.tab_bar.setFocusPolicy(Qt.FocusPolicy.TabFocus)
        self.banner = _banner("readOnlyBanner", "#6b5b2a")
        self.banner.setVisible(False)
        self.key_box = KeyBox()
        self.key_box.setVisible(False)
        self.model = TranscriptModel(self)
        self.view = TranscriptView()
        self.view.setObjectName("transcript")
        self.view.setModel(self.model)
        self.error_label = _banner("errorBanner", "#8b2e2e")
        self.retry_button = QPushButton(self.tr("Retry"))
        self.error_box = _banner_row(self.error_label, self.retry_button)
        # a notice that is no failure (an older folder made private): said once, neutral,
        # until the person has read it
        self.info_label = _banner("infoBanner", "#3b5566")
        self.info_ok = QPushButton(self.tr("OK"))
        self.info_ok.setToolTip(self.tr("Close this notice"))
        self.info_ok.clicked.connect(self.clear_notice)
        self.info_box = _banner_row(self.info_label, self.info_ok)
        self.edit_bar = _banner("editBanner", "#2f5d8a")
        self.edit_bar.setText(self.tr(
            "Editing your last message: Enter sends it in place of the old one and its "
            "reply; Esc cancels."))
        self.edit_bar.setVisible(False)
        self.composer = Composer()
        self.composer.setObjectName("composer")
        self.composer.setFixedHeight(96)
        self.send_button = QPushButton(self.tr("Send"))
        self.stop_button = QPushButton(self.tr("Stop"))
        self.stop_button.setToolTip(self.tr("Stop the reply (Esc)"))
        self.stop_button.setVisible(False)
        # the model for the next replies, at hand as in the chat apps (also in Settings)
        self.model_box = QComboBox()
        self.model_box.setObjectName("modelBox")
        self.model_box.setToolTip(self.tr("Model for the next replies (Ctrl+Shift+M)"))
        self.model_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.model_box.setMinimumContentsLength(8)
        for model in MODELS:
            self.model_box.addItem(model_label(model), model)
        self.model_box.activated.connect(
            lambda index: self.model_chosen.emit(str(self.model_box.itemData(index))))
        # files to send with the message: a 📎 button, a paste or a drop on the field;
        # each shown as a chip above the field until sent or taken off
        self.attach_button = QToolButton()
        self.attach_button.setText("+")  # (no emoji: not every system has their glyphs)
        self.attach_button.setObjectName("attachButton")
        self.attach_button.setToolTip(self.tr(
            "Attach pictures or documents (Ctrl+Shift+A); pasting or dropping them on the "
            "message field works too"))
        self.attach_button.clicked.connect(self._choose_files)
        # out of the Tab order (Ctrl+Shift+A reaches it): Shift+Tab from the field goes
        # to the transcript, as before
        self.attach_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.chips = AttachChips()
        self.chips.removed.connect(self.attachment_removed)
        buttons = QVBoxLayout()
        buttons.addWidget(self.send_button)
        buttons.addWidget(self.stop_button)
        buttons.addStretch(1)
        buttons.addWidget(self.model_box)
        composer_row = QHBoxLayout()
        composer_row.addWidget(self.attach_button, 0, Qt.AlignmentFlag.AlignTop)
        composer_row.addWidget(self.composer, 1)
        composer_row.addLayout(buttons)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(6, 6, 6, 6)
        centre_layout.addWidget(self.tab_bar)
        centre_layout.addWidget(self.banner)
        centre_layout.addWidget(self.key_box)
        centre_layout.addWidget(self.view, 1)
        centre_layout.addWidget(self.info_box)
        centre_layout.addWidget(self.error_box)
        centre_layout.addWidget(self.edit_bar)
        centre_layout.addWidget(self.chips)
        centre_layout.addLayout(composer_row)

        # --- right: search results (while searching) above the Timeline Index ---
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
        self.right = QWidget()
        right_layout = QVBoxLayout(self.right)
        right_layout.setContentsMargins(0, 6, 6, 6)
        right_layout.addWidget(self.search_box)
        right_layout.addWidget(panels, 1)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DEBOUNCE_MS)
        self._search_timer.timeout.connect(self._on_search)
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_SAVE_MS)
        self._draft_timer.timeout.connect(self._save_draft)

        self.splitter = QSplitter()
        self.splitter.addWidget(self.left)
        self.splitter.addWidget(centre)
        self.splitter.addWidget(self.right)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setCollapsible(1, False)
        self.splitter.setSizes([190, 700, 290])
        self.setCentralWidget(self.splitter)

        # --- status bar ---
        # every status text gives up width ("…", the whole text in its tooltip), so none
        # sets the window's minimum width (ui/elided.py)
        self.notice_label = ElidedLabel()
        self.librarian_label = ElidedLabel()
        self.backup_label = ElidedLabel()
        self._backup_folder = ""
        self.last_reply_label = ElidedLabel()
        self.today_label = ElidedLabel()
        self._notice_timer = QTimer(self)
        self._notice_timer.setSingleShot(True)
        self._notice_timer.setInterval(NOTICE_MS)
        self._notice_timer.timeout.connect(lambda: self.notice_label.setText(""))
        status = QStatusBar()
        # a passing notice ("Copied") takes the free space on the left, cut rather than
        # overlapping the others; the librarian and the last reply's figures stay
        status.addWidget(self.notice_label, 1)
        status.addPermanentWidget(self.librarian_label)
        status.addPermanentWidget(self.last_reply_label)
        status.addPermanentWidget(self.backup_label)
        status.addPermanentWidget(self.today_label)
        self.setStatusBar(status)

        self._build_menus()
        self.set_tabs(tabs)
        self.tab_bar.currentChanged.connect(self._on_tab)
        self.composer.submitted.connect(self._submit)
        self.composer.textChanged.connect(self._draft_timer.start)
        self.send_button.clicked.connect(self._submit)
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.clicked.connect(self.composer.setFocus)
        QShortcut(QKeySequence("Ctrl+Shift+M"), self).activated.connect(self._pick_model)
        QShortcut(QKeySequence("Ctrl+Shift+A"), self).activated.connect(self._choose_files)
        self.composer.files_given.connect(self.files_chosen)
        self.composer.image_given.connect(self.image_pasted)
        escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        escape.activated.connect(self._escape)
        self.retry_button.clicked.connect(self.retry_requested)
        self.side_list.itemClicked.connect(self._on_side)
        self.side_list.itemActivated.connect(self._on_side)
        self.new_thread_button.clicked.connect(self.new_thread_requested)
        self.timeline_panel.activated.connect(self.timeline_activated)
        self.search_panel.activated.connect(self.message_activated)
        self.search_box.returnPressed.connect(self._search_now)
        self.search_box.textChanged.connect(self._on_search_text)
        self.key_box.submitted.connect(self.key_submitted)
        self.key_box.demo_requested.connect(self.demo_requested)
        self.side_list.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.side_list.customContextMenuRequested.connect(self._side_menu)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._message_menu)
        self.view.notice.connect(self.notify)  # "Copied" from a code block's button
        button_labels = {"copy": self.tr("Copy"), "edit": self.tr("Edit"),
                         "regenerate": self.tr("Regenerate"), "continue": self.tr("Continue"),
                         "files": self.tr("Files")}
        self.view.set_action_provider(lambda row: [
            (name, self._version_label(name) or button_labels[name])
            for name in self.message_actions(row)
            if name in button_labels or name in ("older", "newer")])
        self.view.message_action.connect(
            lambda i, name: self.act_on_message(self.model.rows[i], name))
        self.view.file_opened.connect(lambda i, n: self.open_file(self.model.rows[i], n))
        self.composer.setFocus()

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
        composer_action.triggered.connect(self.focus_composer)
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

    # ----- what the person does ---------------------------------------------------------
    def _submit(self) -> None:
        text = self.composer.toPlainText()
        if (text.strip() or self.chips.count) and self.send_button.isEnabled():
            self.send_requested.emit(text)

    def _choose_files(self) -> None:
        paths, _filter = QFileDialog.getOpenFileNames(
            self, self.tr("Attach pictures or documents"), "",
            self.tr("Pictures and documents (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt "
                    "*.md);;All files (*)"))
        if paths:
            self.files_chosen.emit(list(paths))
        self.composer.setFocus()

    def set_attachments(self, chips: list[tuple[str, str, QImage | None]]) -> None:
        """The files waiting to be sent, as (label, tooltip, a picture's small copy)
        (``ui/attach_chips.py``)."""
        self.chips.set_chips(chips)

    def _on_tab(self, index: int) -> None:
        if 0 <= index < len(self._tab_ids):
            tab = self._tab_ids[index]
            if self._editing:
                self.edit_cancelled.emit()  # the edit belongs to the tab being left
            self._switch_draft(tab)
            self.tab_changed.emit(tab)

    def _switch_draft(self, tab: str) -> None:
        """Each tab keeps its own unsent text: what was typed stays with the tab it was
        typed in (Enter files a message under the tab shown)."""
        if tab == self._draft_tab:
            return
        if self._draft_tab:
            self._drafts[self._draft_tab] = self.composer.toPlainText()
        self._draft_tab = tab
        self._put_in_composer(self._drafts.get(tab, ""))

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

    def _on_side(self, item: QListWidgetItem) -> None:
        value = item.data(ENTRY_ROLE)
        if isinstance(value, DayItem):
            self.day_selected.emit(value.day)
        elif isinstance(value, ThreadItem):
            self.thread_selected.emit(value.id)

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
            return
        self.select_day(self._shown_day)  # (the right click marked the day it was on)

    def message_actions(self, row: MessageRow) -> list[str]:
        """What can be done with a message: copy always; open its files (any day); edit,
        regenerate and continue for today's latest exchange only; delete for anything
        stored."""
        if row.id == 0:
            return ["copy"]
        actions = ["copy", *(["files"] if row.files else [])]
        if not self._read_only and self.send_button.isEnabled():
            if row.id == self._latest_user:
                actions.append("edit")
            if row.id == self._latest_reply:
                shown, count = self._versions
                if count > 1:  # ◀ 2/3 ▶: the earlier replies to flip between
                    actions += [*(["older"] if shown > 1 else []),
                                *(["newer"] if shown < count else [])]
                actions.append("regenerate")
                if self._can_continue:
                    actions.append("continue")
        return [*actions, "delete"]

    def _version_label(self, name: str) -> str:
        """◀ 2/3 and ▶ (the count goes on the ◀, or on the ▶ at the first version)."""
        shown, count = self._versions
        if name == "older":
            return f"◀ {shown}/{count}"
        if name == "newer":
            return "▶" if shown > 1 else f"{shown}/{count} ▶"
        return ""

    def _message_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid():
            return
        row = self.model.rows[index.row()]
        labels = {
            "copy": self.tr("Copy message"),
            "edit": self.tr("Edit and resend"),
            "regenerate": self.tr("Regenerate reply"),
            "continue": self.tr("Continue this reply"),
            "older": self.tr("Show the earlier version"),
            "newer": self.tr("Show the later version"),
            "delete": self.tr("Delete this message…"),
        }
        menu = QMenu(self)
        chosen: dict[QAction, str | int] = {}
        for name in self.message_actions(row):
            if name == "files":  # each file by its name
                for number, file in enumerate(row.files):
                    chosen[menu.addAction(self.tr("Open {name}").format(name=file.name))] = \
                        number
            else:
                chosen[menu.addAction(labels[name])] = name
        picked = chosen.get(menu.exec(self.view.viewport().mapToGlobal(pos)))
        if isinstance(picked, int):
            self.open_file(row, picked)
        elif picked is not None:
            self.act_on_message(row, picked)

    def open_file(self, row: MessageRow, number: int) -> None:
        """A file shown with a message: a picture large in the window (the row's other
        pictures a key away), a document in the system's viewer."""
        if not 0 <= number < len(row.files):
            return
        file = row.files[number]
        if not file.picture:
            self.file_open_requested.emit(file)
            return
        pictures = [f for f in row.files if f.picture]
        viewer = PictureViewer(pictures, pictures.index(file), self)
        viewer.open_outside.connect(self.file_open_requested)
        viewer.finished.connect(viewer.deleteLater)
        self.picture_viewer = viewer
        viewer.open()

    def _choose_file(self, row: MessageRow) -> None:
        """The Files button: its one file opened, or a menu of them under the button."""
        if len(row.files) == 1:
            self.open_file(row, 0)
            return
        menu = QMenu(self)
        chosen = {menu.addAction(file.name): number for number, file in enumerate(row.files)}
        index = self.model.index(self.model.rows.index(row)) if row in self.model.rows else None
        button = next((b for b in self.view.action_buttons(index) if b.name == "files"),
                      None) if index is not None else None
        where = (self.view.viewport().mapToGlobal(button.rect.bottomLeft().toPoint())
                 if button is not None else QCursor.pos())
        picked = chosen.get(menu.exec(where))
        if picked is not None:
            self.open_file(row, picked)

    def act_on_message(self, row: MessageRow, action: str) -> None:
        if action == "copy":
            QGuiApplication.clipboard().setText(row.text)
            self.notify(self.tr("Message copied"))
        elif action == "edit":
            self.edit_requested.emit(row.id)
        elif action == "regenerate":
            self.regenerate_requested.emit(row.id)
        elif action == "continue":
            self.continue_requested.emit(row.id)
        elif action == "files":
            self._choose_file(row)
        elif action in ("older", "newer"):
            shown = self._versions[0]
            self.version_requested.emit(row.id, shown - 1 if action == "older" else shown + 1)
        elif action == "delete" and self.confirm(
            self.tr("Delete this message and what was drawn from it?")
        ):
            self.delete_message_requested.emit(row.id)

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

    def set_backup_status(self, text: str, failed: bool) -> None:
        """When the last backup was made; in red when the last one failed."""
        self.backup_label.setText(text)
        self.backup_label.setStyleSheet(  # a red that reads at 4.5:1 in either palette
            f"color: {problem_color(self.palette())}; font-weight: bold;" if failed else "")

    def confirm(self, question: str) -> bool:
        """A destructive question: No is the default, so Enter never deletes."""
        answer = QMessageBox.question(
            self, "MONET", question,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def focus_days(self) -> None:
        """The days (or threads) list, shown if it was folded away: ↑ ↓ and Enter open a
        past day."""
        self._show_pane("left", True)
        self.side_list.setFocus()

    def focus_search(self) -> None:
        self._show_pane("right", True)
        self.search_box.setFocus()
        self.search_box.selectAll()

    def _search_now(self) -> None:
        self._search_timer.stop()
        self._on_search()
        if self.search_results.count():
            self.search_results.setFocus()  # Enter again opens the first result

    def _on_search(self) -> None:
        query = self.search_box.text().strip()
        if query:
            self.search_requested.emit(query)

    def _on_search_text(self, text: str) -> None:
        if text.strip():
            self._search_timer.start()  # searched as typed, once typing pauses
        else:
            self._search_timer.stop()
            self.show_search_results(None)

    def _save_draft(self) -> None:
        if not self._editing:  # (the message being edited is not a draft)
            self._drafts[self._draft_tab or self.current_tab()] = self.composer.toPlainText()
        self.drafts_changed.emit({tab: text for tab, text in self._drafts.items()
                                  if text.strip()})

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
            self.files_chosen.emit(files)
            self.composer.setFocus()
            return
        super().dropEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._draft_timer.stop()
        self._save_draft()  # what was typed and not sent is there next time
        self.geometry_changed.emit(bytes(self.saveGeometry().toBase64().data()).decode())
        self.closing.emit()
        super().closeEvent(event)

    def _escape(self) -> None:
        """Esc stops a reply while one streams; otherwise it cancels an edit, or leaves
        the search results."""
        if self.stop_button.isVisible():
            self.stop_requested.emit()
            self.composer.setFocus()
        elif self._editing:
            self.edit_cancelled.emit()
        elif self.search_box.hasFocus() or self.search_results.hasFocus():
            self.search_box.clear()
            self.composer.setFocus()

    # ----- panes ------------------------------------------------------------------------
    def _show_pane(self, which: str, on: bool) -> None:
        pane = self.left if which == "left" else self.right
        action = self.days_action if which == "left" else self.memory_pane_action
        self._auto_hidden.discard(which)  # the person's choice holds
        if on and self.width() < NARROW_RIGHT:
            # narrow: one side pane at a time, so the conversation stays readable
            other = "right" if which == "left" else "left"
            other_pane = self.right if other == "right" else self.left
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

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        width = event.size().width()
        for which, limit in (("right", NARROW_RIGHT), ("left", NARROW_LEFT)):
            pane = self.left if which == "left" else self.right
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

    # ----- what the controller shows ----------------------------------------------------
    def show_search_results(self, items: list[SearchItem] | None) -> None:
        """Results in their own panel above the Timeline Index, until the box is cleared."""
        self.search_panel.setVisible(items is not None)
        if items is None:
            self.search_results.clear()
            return
        self.search_panel.set_results(items, SEARCH_LIMIT)

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

    def set_days(self, days: list[DayItem], selected: str) -> None:
        """The list of days; the same days again only move the mark (the list keeps its
        scroll and focus)."""
        if days == self._days and self.new_thread_button.isHidden() and self.select_day(
                selected):
            return
        self._days = list(days)
        self._shown_day = selected
        self.tab_bar.setVisible(True)
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

    def select_day(self, day: str) -> bool:
        """Mark ``day`` as the one shown, without rebuilding the list (a year of days);
        False when the list does not hold it."""
        self._shown_day = day
        for index in range(self.side_list.count()):
            row = self.side_list.item(index)
            value = row.data(ENTRY_ROLE)
            if isinstance(value, DayItem) and value.day == day:
                self.side_list.setCurrentItem(row)
                row.setSelected(True)
                return True
        return False

    def set_threads(self, threads: list[ThreadItem]) -> None:
        self._days = []
        self.tab_bar.setVisible(False)  # a thread holds every tab; the bar would do nothing
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
        self.composer.viewport().update()  # the hint shows now, not at the next click
        self.view.refresh_actions()

    def set_send_tab(self, label: str) -> None:
        """In the all-tabs view, say which tab a message typed now goes to."""
        if not self._read_only:
            self.composer.setPlaceholderText(
                self.tr("Message to {tab} (Enter sends, Shift+Enter adds a line)")
                .format(tab=label))
            self.composer.viewport().update()

    @property
    def read_only(self) -> bool:
        return self._read_only

    def set_messages(self, rows: list[MessageRow], scroll_to_end: bool | None = True) -> None:
        """``scroll_to_end``: True, show the newest row (another day or tab, a message
        sent); False, the caller shows a row itself; None, the same rows again (a reply
        stored, a forget): the view stays where the person is reading, or at the end if it
        was there."""
        self.view.empty_text = (
            self.tr("Nothing in this tab on this day.") if self._read_only
            else self.tr("Nothing in this tab yet today. Write below; Claude sees every tab.")
        )
        top = self.view.top_row()
        top_id = self.model.rows[top].id if scroll_to_end is None and top >= 0 else 0
        stay = scroll_to_end is None and not self.view.following and top_id > 0
        if not self.model.set_rows(rows) and scroll_to_end is None:
            return  # the same rows: the view stays exactly as it is
        if stay:
            self.view.keep_at_top(self.model.row_of_message(top_id))
        elif scroll_to_end is False:
            self.view.stop_following()
        else:
            self.view.follow_end()

    def set_message_actions(self, latest_user: int, latest_reply: int,
                            can_continue: bool, versions: tuple[int, int] = (0, 0)) -> None:
        """Which of today's messages can be edited, regenerated or continued, and which
        version of a regenerated reply is shown of how many."""
        self._latest_user, self._latest_reply = latest_user, latest_reply
        self._can_continue = can_continue
        self._versions = versions
        self.view.refresh_actions()

    def set_timeline(self, items: list[TimelineItem], today: str = "") -> None:
        self.timeline_panel.set_items(items, today)

    def set_busy(self, busy: bool) -> None:
        # hiding the focused Stop button would hand the focus to the next widget (the
        # search box): the composer gets it back, so typing goes on where it belongs
        stop_had_focus = self.stop_button.hasFocus()
        self.send_button.setEnabled(not busy)
        self.stop_button.setVisible(busy)
        self.view.refresh_actions()
        if not busy and stop_had_focus:
            self.composer.setFocus()

    def show_key_box(self, first_run: bool, keyring: bool) -> None:
        self.key_box.show_for(first_run, keyring)

    def hide_key_box(self) -> None:
        self.key_box.setVisible(False)
        self.key_box.field.clear()

    def show_error(self, text: str, can_retry: bool = True) -> None:
        self.error_label.setText(text)
        self.retry_button.setVisible(can_retry)
        self.error_box.setVisible(True)
        self.composer.setFocus()  # what was typed is kept; the person can go on

    def clear_error(self) -> None:
        self.error_box.setVisible(False)

    def show_notice(self, text: str) -> None:
        """A notice to read, not a failure: neutral, above the transcript, until OK."""
        self.info_label.setText(text)
        self.info_box.setVisible(True)

    def clear_notice(self) -> None:
        self.info_box.setVisible(False)
        self.composer.setFocus()

    def notify(self, text: str) -> None:
        """A passing notice in the status bar, gone after ``NOTICE_MS``."""
        self.notice_label.setText(text)
        self._notice_timer.start()

    def set_status(self, figures: StatusFigures) -> None:
        """The librarian's queue, the last reply's tokens and dollars, today's total."""
        text = (self.tr("Summarizing {n}").format(n=figures.pending) if figures.pending
                else self.tr("Librarian: nothing pending"))
        if figures.unembedded:
            text += " · " + self.tr("Indexing by meaning: {n:,} to go").format(
                n=figures.unembedded)
        if figures.memories_offline:
            text += " · " + self.tr("Memories: offline rules (the model's proposals failed)")
        self.librarian_label.setText(text)
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

    def show_about(self, version: str, home: str, revision: str | None) -> None:
        """About MONET: the version, the data folder and the database's schema revision."""
        from ui.about_dialog import AboutDialog

        AboutDialog(version, home, revision, self).exec()

    def set_shared(self, where: str) -> None:
        """A history on a server, shared with this person's other devices: said in the
        title and, on hover, how windows and devices go together."""
        self.setWindowTitle(self.tr("MONET — shared history on {where}").format(where=where))
        self.setToolTip("")
        self.statusBar().setToolTip(self.tr(
            "This history is on a server and can be open on your other devices at the same "
            "time: their messages appear here within seconds. On each device, one window "
            "per data folder."))

    def set_demo(self) -> None:
        """The demo: said in the title and, permanently, in the status bar."""
        self.setWindowTitle(self.tr("MONET — demo"))
        mark = ElidedLabel()
        mark.setText(self.tr("DEMO: a sample history in a throwaway folder; a built-in "
                             "stand-in answers, not Claude"))
        mark.setObjectName("demoMark")
        mark.setStyleSheet("#demoMark { background: #b35c1e; color: white; padding: 2px 8px;"
                           " border-radius: 3px; font-weight: bold; }")
        self.statusBar().insertWidget(0, mark)

    # ----- the composer and the streaming row -------------------------------------------
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

    def composer_text(self) -> str:
        return self.composer.toPlainText()

    def set_composer_text(self, text: str) -> None:
        """Put text in the composer as the shown tab's draft, cursor at its end."""
        self._put_in_composer(text)
        self._save_draft()

    def _put_in_composer(self, text: str) -> None:
        self.composer.setPlainText(text)
        self.composer.moveCursor(self.composer.textCursor().MoveOperation.End)
        self._draft_timer.stop()  # (started by the change: nothing was typed)

    def set_drafts(self, drafts: dict[str, str]) -> None:
        """The drafts kept from the last run; the shown tab's goes in the composer."""
        self._drafts = dict(drafts)
        self._draft_tab = self.current_tab()
        self._put_in_composer(self._drafts.get(self._draft_tab, ""))

    def drafts(self) -> dict[str, str]:
        return dict(self._drafts)

    def set_model(self, model: str) -> None:
        """Show ``model`` as the one replies use (a name typed in Settings is added)."""
        index = self.model_box.findData(model)
        if index < 0:
            self.model_box.addItem(model_label(model), model)
            index = self.model_box.count() - 1
        self.model_box.setCurrentIndex(index)

    def _pick_model(self) -> None:
        self.model_box.setFocus()
        self.model_box.showPopup()

    def begin_edit(self, text: str) -> None:
        """Edit and resend: the message goes in the composer; the tab's draft waits."""
        if not self._editing:
            self._drafts[self._draft_tab or self.current_tab()] = self.composer.toPlainText()
        self._editing = True
        self._put_in_composer(text)
        self.edit_bar.setVisible(True)
        self.composer.setFocus()

    def end_edit(self) -> None:
        """The edit was sent or cancelled: the tab's draft comes back."""
        self._editing = False
        self.edit_bar.setVisible(False)
        self._put_in_composer(self._drafts.get(self._draft_tab or self.current_tab(), ""))
        self.composer.setFocus()

    def message_sent(self) -> None:
        """What the composer held was stored: an edit gives the tab's draft back; a
        typed message leaves the composer empty."""
        if self._editing:
            self.end_edit()
        else:
            self._put_in_composer("")
            self._save_draft()

    def focus_composer(self) -> None:
        self.composer.setFocus()

    def append_streaming_row(self, row: MessageRow) -> None:
        """The reply being written, as one more row at the end."""
        self.model.append(row)
        self.view.follow_end()

    def update_streaming_text(self, text: str) -> None:
        """The reply grows; the view follows it unless the person scrolled up to read."""
        self.model.update_last_text(text)
        if self.view.following:
            self.view.scrollToBottom()

    def reveal_message(self, message_id: int) -> None:
        """Select and scroll to a message of the transcript (from the TI or a search)."""
        index = self.model.index(self.model.row_of_message(message_id))
        self.view.reveal(index)

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
        dialog = PromoteDialog(self, self.selected_message_text())
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
