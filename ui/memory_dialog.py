"""The memory panel: what MONET remembers about the person, each item with its source,
to correct or delete (docs/design.md §6: the person controls memory).

Forgetting can be undone for a moment: the item leaves the list at once and a bar says
"Forgotten: …  [Undo]" for ``UNDO_MS``; Undo (or Ctrl+Z) puts it back and nothing was
done. The deletion itself (hiding its messages, redoing summaries: heavy, irreversible)
is carried out once, by the ``delete`` callback, when the time runs out, when another
item is forgotten, or when the panel closes. A problem it reports is shown here; if the
panel was closing, it stays open to show it, and closing again closes."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QFrame,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.items import MemoryRow
from ui.look import problem_color

ITEM_ROLE = Qt.ItemDataRole.UserRole + 3

#: How long a forgotten item can be brought back before it is deleted.
UNDO_MS = 8_000


@dataclass(frozen=True)
class PendingForget:
    """An item taken off the list, not yet deleted."""

    row: MemoryRow
    with_messages: bool
    position: int  # its row in the list, to come back to


class MemoryDialog(QDialog):
    def __init__(
        self,
        load: Callable[[], list[MemoryRow]],
        edit: Callable[[int, str], str | None],
        delete: Callable[[int, bool], str | None],
        parent: QWidget | None = None,
        *,
        add: Callable[[str], str | None] | None = None,
        keep: Callable[[int], str | None] | None = None,
    ) -> None:
        super().__init__(parent)
        self._load, self._edit, self._delete, self._add = load, edit, delete, add
        self._gone: set[int] = set()  # forgotten here (listed no more, even while it runs)
        self._keep = keep
        self.setWindowTitle(self.tr("What MONET remembers"))
        self.resize(620, 460)
        self.items = QListWidget()
        self.items.setObjectName("memoryItems")
        self.items.setWordWrap(True)
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet(f"color: {problem_color(self.palette())};")
        self.pending: PendingForget | None = None
        self.undo_bar = QFrame()
        self.undo_bar.setObjectName("undoBar")
        self.undo_bar.setFrameShape(QFrame.Shape.StyledPanel)
        self.undo_label = QLabel()
        self.undo_label.setWordWrap(True)
        self.undo_button = QPushButton(self.tr("Undo"))
        self.undo_button.setAutoDefault(False)  # Enter still closes the panel
        undo_row = QHBoxLayout(self.undo_bar)
        undo_row.addWidget(self.undo_label, 1)
        undo_row.addWidget(self.undo_button)
        self.undo_bar.hide()
        self.undo_timer = QTimer(self)
        self.undo_timer.setSingleShot(True)
        self.undo_timer.timeout.connect(self.finish_pending)
        self.undo_shortcut = QShortcut(QKeySequence(QKeySequence.StandardKey.Undo), self)
        self.undo_shortcut.setEnabled(False)
        self.undo_shortcut.activated.connect(self.undo)
        self.undo_button.clicked.connect(self.undo)
        self.add_button = QPushButton(self.tr("Add…"))
        self.add_button.setToolTip(self.tr(
            "Write something MONET should remember, in your own words; it replaces what "
            "it says changed."))
        self.add_button.setVisible(add is not None)
        self.keep_button = QPushButton(self.tr("Keep this one"))
        self.keep_button.setToolTip(self.tr(
            "Of two items that contradict each other, this one is true: Claude is told it "
            "from the next message, and the other becomes its history."))
        self.keep_button.setVisible(keep is not None)
        self.edit_button = QPushButton(self.tr("Correct…"))
        self.delete_button = QPushButton(self.tr("Forget"))
        self.delete_button.setToolTip(self.tr(
            "Claude forgets it; the messages it came from stay in your history, hidden from "
            "Claude."))
        self.delete_all_button = QPushButton(self.tr("Forget and delete its messages…"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.keep_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.delete_button)
        buttons.addWidget(self.delete_all_button)
        buttons.addStretch(1)
        self.close_button = QPushButton(self.tr("Close"))
        self.close_button.setDefault(True)  # Enter closes; it never deletes
        self.close_button.clicked.connect(self.accept)
        buttons.addWidget(self.close_button)
        layout = QVBoxLayout(self)
        intro = QLabel(self.tr(
            "Forgetting an item removes it from every later request, with the messages it came "
            "from: they stay in your history but Claude no longer sees them (or you delete them "
            "too). Correcting an item changes what Claude reads from the next message on."
        ))
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(self.items, 1)
        layout.addWidget(self.source)
        layout.addWidget(self.undo_bar)
        layout.addWidget(self.problem)
        layout.addLayout(buttons)
        self.items.currentItemChanged.connect(self._show_source)
        self.items.itemSelectionChanged.connect(self._enable_buttons)
        self.edit_button.clicked.connect(self._ask_edit)
        self.keep_button.clicked.connect(self.keep_selected)
        self.add_button.clicked.connect(self._ask_add)
        self.delete_button.clicked.connect(lambda: self.delete_selected())
        self.delete_all_button.clicked.connect(self._ask_delete_all)
        forget_key = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.items)
        forget_key.setContext(Qt.ShortcutContext.WidgetShortcut)
        forget_key.activated.connect(lambda: self.delete_selected())  # Delete forgets
        self.reload()
        self._select(position=0)  # the buttons act on the first item from the start
        self._enable_buttons()

    def _enable_buttons(self) -> None:
        """Correct and Forget act on the chosen item: without one they are greyed out."""
        chosen = bool(self.items.selectedItems())
        for button in (self.edit_button, self.delete_button, self.delete_all_button):
            button.setEnabled(chosen)
        row = self.selected() if chosen else None
        # only a contradiction is settled: "Keep this one" for a contested item
        self.keep_button.setEnabled(row is not None and row.status == "contested")

    def kind_label(self, kind: str) -> str:
        labels = {
            "preference": self.tr("Preference"),
            "promise": self.tr("Promise"),
            "shared_experience": self.tr("Done together"),
            "asked_to_remember": self.tr("Asked to remember"),
            "fact": self.tr("Fact"),
            "persona": self.tr("About you"),
        }
        return labels.get(kind, kind)

    def reload(self) -> None:
        """The items as stored, less the one waiting to be deleted."""
        self.items.clear()
        waiting = self.pending.row.id if self.pending is not None else None
        for row in self._load():
            if row.id == waiting or row.id in self._gone:
                continue
            flag = {"contested": self.tr(" (contradiction: Claude is not told it until you "
                                         "keep one)")}.get(row.status, "")
            before = self.tr(" — before: {fact}").format(fact=row.history[0][0]) \
                if row.history else ""
            item = QListWidgetItem(f"{self.kind_label(row.kind)} · {row.fact}{flag}{before}")
            item.setData(ITEM_ROLE, row)
            self.items.addItem(item)
        if not self.items.count():
            self.source.setText(self.tr("Nothing is remembered yet."))

    def _select(self, *, item_id: int | None = None, position: int = 0) -> None:
        """Select the item ``item_id`` if listed, else the one now at ``position``."""
        for i in range(self.items.count()):
            row = self.items.item(i).data(ITEM_ROLE)
            if isinstance(row, MemoryRow) and row.id == item_id:
                self.items.setCurrentRow(i)
                return
        if self.items.count():
            self.items.setCurrentRow(min(position, self.items.count() - 1))

    def selected(self) -> MemoryRow | None:
        item = self.items.currentItem()
        row = item.data(ITEM_ROLE) if item is not None else None
        return row if isinstance(row, MemoryRow) else None

    def _show_source(self, current: QListWidgetItem | None, _previous: object = None) -> None:
        row: MemoryRow | None = current.data(ITEM_ROLE) if current is not None else None
        if row is None:
            self.source.setText("")
            return
        lines = [self.tr("From: {source}").format(source=row.source) if row.source
                 else self.tr("Added by you on {day}").format(day=row.created)]
        for fact, day in row.history:  # what it replaced: a fact that changed
            lines.append(self.tr("Before: {fact} (remembered {day})").format(fact=fact,
                                                                             day=day))
        self.source.setText("\n".join(lines))

    def _ask_add(self) -> None:
        text, ok = QInputDialog.getText(
            self, self.tr("Add"), self.tr("What should MONET remember about you?"))
        if ok:
            self.add_fact(text)

    def add_fact(self, text: str) -> None:
        """Add ``text`` as a memory; a problem (empty, too long) is shown here."""
        if self._add is None:
            return
        self.problem.setText(self._add(text) or "")
        self.reload()
        self._select(position=self.items.count() - 1)  # the new item is the newest

    def _ask_edit(self) -> None:
        row = self.selected()
        if row is None:
            return
        text, ok = QInputDialog.getText(
            self, self.tr("Correct"), self.tr("What is true:"), text=row.fact
        )
        if ok:
            self.edit_selected(text)

    def edit_selected(self, text: str) -> None:
        row = self.selected()
        if row is not None:
            self.problem.setText(self._edit(row.id, text) or "")
            self.reload()

    def keep_selected(self) -> None:
        """The selected contested item is the true one; the list shows it settled."""
        row = self.selected()
        if row is None or self._keep is None or row.status != "contested":
            return
        self.problem.setText(self._keep(row.id) or "")
        self.reload()
        self._select(item_id=row.id)

    def _ask_delete_all(self) -> None:
        row = self.selected()
        if row is None:
            return
        answer = QMessageBox.question(
            self, self.tr("Delete messages"),
            self.tr("Forget this item and delete the messages it came from (and Claude's "
                    "replies to them) from your history? This cannot be undone."),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,  # Enter never deletes
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.delete_selected(with_messages=True)

    def delete_selected(self, with_messages: bool = False) -> None:
        """Forget the selected item, undoably: off the list now, deleted later (see the
        module docstring). A forget still waiting is carried out first."""
        row = self.selected()
        if row is None:
            return
        if self.pending is not None:
            self.finish_pending()
            fresh = [r for r in self._listed() if r.id == row.id]
            if not fresh:
                return  # that deletion took this item with it
            row = fresh[0]
        position = self.items.currentRow()
        self.pending = PendingForget(row, with_messages, position)
        self.reload()  # and nothing selected: a double click on Forget forgets one item
        text = (self.tr("Forgotten, with its messages: {fact}") if with_messages
                else self.tr("Forgotten: {fact}"))
        self.undo_label.setText(text.format(fact=row.fact))
        self.undo_bar.show()
        self.undo_shortcut.setEnabled(True)
        self.undo_timer.start(UNDO_MS)

    def undo(self) -> None:
        """Put the forgotten item back; nothing was deleted."""
        pending = self.pending
        if pending is None:
            return
        self._clear_pending()
        self.reload()
        self._select(item_id=pending.row.id, position=pending.position)

    def finish_pending(self) -> str | None:
        """Carry out the waiting deletion, if any, exactly once; returns its problem."""
        pending = self.pending
        if pending is None:
            return None
        self._clear_pending()  # before the call: nothing can carry it out twice
        problem = self._delete(pending.row.id, pending.with_messages)
        if problem is None:  # (with its messages it is deleted in the background)
            self._gone.add(pending.row.id)
        self.problem.setText(problem or "")
        current = self.selected()
        self.reload()
        if current is not None:
            self._select(item_id=current.id, position=pending.position)
        return problem

    def _clear_pending(self) -> None:
        self.pending = None
        self.undo_timer.stop()
        self.undo_shortcut.setEnabled(False)
        self.undo_bar.hide()

    def _listed(self) -> list[MemoryRow]:
        rows = (self.items.item(i).data(ITEM_ROLE) for i in range(self.items.count()))
        return [row for row in rows if isinstance(row, MemoryRow)]

    # ----- closing carries out what is waiting --------------------------------------------
    def done(self, result: int) -> None:
        if self.finish_pending() is not None:
            return  # stay open once, so the problem is read; closing again closes
        super().done(result)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.finish_pending() is not None:
            event.ignore()
            return
        super().closeEvent(event)
