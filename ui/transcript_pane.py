"""The conversation shown: the day's messages in the transcript, what can be done with each
(copy, open its files, edit, regenerate, continue, flip between versions, delete) from its
buttons or its menu, the reply being written as it streams, and pictures shown large."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QAction, QCursor, QGuiApplication
from PySide6.QtWidgets import QMenu, QVBoxLayout, QWidget

from ui.ask import confirm
from ui.items import MessageRow
from ui.picture_viewer import PictureViewer
from ui.transcript import TranscriptModel, TranscriptView


class TranscriptPane(QWidget):
    regenerate_requested = Signal(int)  # the reply's id
    continue_requested = Signal(int)  # the interrupted reply's id
    edit_requested = Signal(int)  # the person's message id
    delete_message_requested = Signal(int)
    version_requested = Signal(int, int)  # (today's latest reply, the version to show)
    file_open_requested = Signal(object)  # a ShownFile to open in the system's viewer
    notice = Signal(str)  # a passing notice for the status bar ("Message copied")

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._read_only = False
        self._busy = False
        self._latest_user = 0
        self._latest_reply = 0
        self._can_continue = False
        self._versions = (0, 0)  # (version shown, how many) of today's latest reply
        self.picture_viewer: PictureViewer | None = None  # the picture shown large, if any
        self.model = TranscriptModel(self)
        self.view = TranscriptView()
        self.view.setObjectName("transcript")
        self.view.setModel(self.model)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._menu)
        self.view.notice.connect(self.notice)  # "Copied" from a code block's button
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

    # ----- what can be done with a message ----------------------------------------------
    def set_state(self, *, read_only: bool | None = None, busy: bool | None = None) -> None:
        """A past day (read-only) or a reply streaming (busy): no edit, regenerate or
        continue then."""
        if read_only is not None:
            self._read_only = read_only
        if busy is not None:
            self._busy = busy
        self.view.refresh_actions()

    def message_actions(self, row: MessageRow) -> list[str]:
        """What can be done with a message: copy always; open its files (any day); edit,
        regenerate and continue for today's latest exchange only; delete for anything
        stored."""
        if row.id == 0:
            return ["copy"]
        actions = ["copy", *(["files"] if row.files else [])]
        if not self._read_only and not self._busy:
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

    def _menu(self, pos: QPoint) -> None:
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
        viewer = PictureViewer(pictures, pictures.index(file), self.window())
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
            self.notice.emit(self.tr("Message copied"))
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
        elif action == "delete" and confirm(
            self, self.tr("Delete this message and what was drawn from it?")
        ):
            self.delete_message_requested.emit(row.id)

    # ----- what the controller shows ----------------------------------------------------
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
