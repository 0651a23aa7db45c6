"""The composer at the bottom: the message field with Send (Stop while a reply streams),
the model for the next replies, files waiting to be sent as chips, the edit banner, and
each tab's own unsent text (a draft per tab, kept while an edit borrows the field)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QPushButton,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ui.attach_chips import AttachChips
from ui.banners import banner
from ui.composer import Composer
from ui.settings_dialog import MODELS, model_label

DRAFT_SAVE_MS = 600


class ComposePane(QWidget):
    send_requested = Signal(str)
    stop_requested = Signal()
    edit_cancelled = Signal()
    model_chosen = Signal(str)  # the model picked beside the field
    files_chosen = Signal(list)  # local paths to attach (the + button, a paste, a drop)
    image_pasted = Signal(QImage)  # a picture pasted into the message field
    attachment_removed = Signal(int)  # a chip's ✕: its position
    drafts_changed = Signal(dict)  # {tab: unsent text}, every tab's draft

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._read_only = False
        self._editing = False
        # the unsent text of each tab (the field holds the shown tab's); while an edit is
        # open, the field holds the message being edited and the tab's own draft waits here
        self._drafts: dict[str, str] = {}
        self._draft_tab = ""
        self.edit_bar = banner("editBanner", "#2f5d8a")
        self.edit_bar.setText(self.tr(
            "Editing your last message: Enter sends it in place of the old one and its "
            "reply; Esc cancels."))
        self.edit_bar.setVisible(False)
        self.field = Composer()
        self.field.setObjectName("composer")
        self.field.setFixedHeight(96)
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
        # files to send with the message: a + button, a paste or a drop on the field;
        # each shown as a chip above the field until sent or taken off
        self.attach_button = QToolButton()
        self.attach_button.setText("+")  # (no emoji: not every system has their glyphs)
        self.attach_button.setObjectName("attachButton")
        self.attach_button.setToolTip(self.tr(
            "Attach pictures or documents (Ctrl+Shift+A); pasting or dropping them on the "
            "message field works too"))
        self.attach_button.clicked.connect(self.choose_files)
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
        row = QHBoxLayout()
        row.addWidget(self.attach_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.field, 1)
        row.addLayout(buttons)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.edit_bar)
        layout.addWidget(self.chips)
        layout.addLayout(row)
        self._draft_timer = QTimer(self)
        self._draft_timer.setSingleShot(True)
        self._draft_timer.setInterval(DRAFT_SAVE_MS)
        self._draft_timer.timeout.connect(self.save_draft)
        self.field.submitted.connect(self._submit)
        self.field.textChanged.connect(self._draft_timer.start)
        self.send_button.clicked.connect(self._submit)
        self.stop_button.clicked.connect(self.stop_requested)
        self.stop_button.clicked.connect(self.field.setFocus)
        self.field.files_given.connect(self.files_chosen)
        self.field.image_given.connect(self.image_pasted)

    # ----- what the person does ---------------------------------------------------------
    def _submit(self) -> None:
        text = self.field.toPlainText()
        if (text.strip() or self.chips.count) and self.send_button.isEnabled():
            self.send_requested.emit(text)

    def choose_files(self) -> None:
        paths, _filter = QFileDialog.getOpenFileNames(
            self, self.tr("Attach pictures or documents"), "",
            self.tr("Pictures and documents (*.png *.jpg *.jpeg *.gif *.webp *.pdf *.txt "
                    "*.md);;All files (*)"))
        if paths:
            self.files_chosen.emit(list(paths))
        self.field.setFocus()

    def pick_model(self) -> None:
        self.model_box.setFocus()
        self.model_box.showPopup()

    @property
    def streaming(self) -> bool:
        """A reply is being written (Stop is shown)."""
        return self.stop_button.isVisible()

    @property
    def editing(self) -> bool:
        return self._editing

    # ----- state ------------------------------------------------------------------------
    def set_busy(self, busy: bool) -> None:
        # hiding the focused Stop button would hand the focus to the next widget (the
        # search box): the field gets it back, so typing goes on where it belongs
        stop_had_focus = self.stop_button.hasFocus()
        self.send_button.setEnabled(not busy)
        self.stop_button.setVisible(busy)
        if not busy and stop_had_focus:
            self.field.setFocus()

    def set_read_only(self, read_only: bool) -> None:
        self._read_only = read_only
        self.field.setPlaceholderText(
            self.tr("Sending returns to today") if read_only
            else self.tr("Message (Enter sends, Shift+Enter adds a line)"))
        self.field.viewport().update()  # the hint shows now, not at the next click

    def set_send_tab(self, label: str) -> None:
        """In the all-tabs view, say which tab a message typed now goes to."""
        if not self._read_only:
            self.field.setPlaceholderText(
                self.tr("Message to {tab} (Enter sends, Shift+Enter adds a line)")
                .format(tab=label))
            self.field.viewport().update()

    def set_attachments(self, chips: list[tuple[str, str, QImage | None]]) -> None:
        """The files waiting to be sent, as (label, tooltip, a picture's small copy)
        (``ui/attach_chips.py``)."""
        self.chips.set_chips(chips)

    def set_model(self, model: str) -> None:
        """Show ``model`` as the one replies use (a name typed in Settings is added)."""
        index = self.model_box.findData(model)
        if index < 0:
            self.model_box.addItem(model_label(model), model)
            index = self.model_box.count() - 1
        self.model_box.setCurrentIndex(index)

    def focus(self) -> None:
        self.field.setFocus()

    # ----- drafts and edits -------------------------------------------------------------
    def text(self) -> str:
        return self.field.toPlainText()

    def set_text(self, text: str) -> None:
        """Put text in the field as the shown tab's draft, cursor at its end."""
        self._put(text)
        self.save_draft()

    def _put(self, text: str) -> None:
        self.field.setPlainText(text)
        self.field.moveCursor(self.field.textCursor().MoveOperation.End)
        self._draft_timer.stop()  # (started by the change: nothing was typed)

    def switch_draft(self, tab: str) -> None:
        """Each tab keeps its own unsent text: what was typed stays with the tab it was
        typed in (Enter files a message under the tab shown)."""
        if tab == self._draft_tab:
            return
        if self._draft_tab:
            self._drafts[self._draft_tab] = self.field.toPlainText()
        self._draft_tab = tab
        self._put(self._drafts.get(tab, ""))

    def set_drafts(self, drafts: dict[str, str], tab: str) -> None:
        """The drafts kept from the last run; ``tab``'s (the tab shown) goes in the field."""
        self._drafts = dict(drafts)
        self._draft_tab = tab
        self._put(self._drafts.get(tab, ""))

    def drafts(self) -> dict[str, str]:
        return dict(self._drafts)

    def save_draft(self) -> None:
        """Keep what the field holds as the shown tab's draft and report every tab's."""
        self._draft_timer.stop()
        if not self._editing:  # (the message being edited is not a draft)
            self._drafts[self._draft_tab] = self.field.toPlainText()
        self.drafts_changed.emit({tab: text for tab, text in self._drafts.items()
                                  if text.strip()})

    def begin_edit(self, text: str) -> None:
        """Edit and resend: the message goes in the field; the tab's draft waits."""
        if not self._editing:
            self._drafts[self._draft_tab] = self.field.toPlainText()
        self._editing = True
        self._put(text)
        self.edit_bar.setVisible(True)
        self.field.setFocus()

    def end_edit(self) -> None:
        """The edit was sent or cancelled: the tab's draft comes back."""
        self._editing = False
        self.edit_bar.setVisible(False)
        self._put(self._drafts.get(self._draft_tab, ""))
        self.field.setFocus()

    def message_sent(self) -> None:
        """What the field held was stored: an edit gives the tab's draft back; a typed
        message leaves the field empty."""
        if self._editing:
            self.end_edit()
        else:
            self._put("")
            self.save_draft()
