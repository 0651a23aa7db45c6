"""The transcript view: a ``QListView`` that hit-tests code blocks' Copy and the action
buttons, tracks the mouse over rows, copies, and lays the selectable editor over a row for
mouse and keys."""

from __future__ import annotations

from PySide6.QtCore import (
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import (
    QColor,
    QCursor,
    QFocusEvent,
    QGuiApplication,
    QHelpEvent,
    QHideEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QResizeEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QFrame,
    QListView,
    QStyledItemDelegate,
    QToolButton,
    QToolTip,
    QWidget,
)

from ui.items import MessageRow
from ui.transcript.delegate import MessageDelegate
from ui.transcript.editor import MessageEditor
from ui.transcript.layout import (
    ActionButton,
    ActionProvider,
    CodeBlock,
    RowLayout,
    action_keys,
    plain_label,
)
from ui.transcript.model import ROW_ROLE, _Index, is_growing

#: Pixels from the end that still count as "at the end" (a rounding, a last layout step).
_END_SLACK = 4
#: How long the scroll range must stay still before the view moves to the new end.
_SETTLE_MS = 30


class TranscriptView(QListView):
    notice = Signal(str)  # something to tell the person briefly ("Copied")
    message_action = Signal(int, str)  # an action button chosen: (row in the model, action)
    file_opened = Signal(int, int)  # a file's thumbnail or chip clicked: (row, which file)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.empty_text = ""
        self._delegate = MessageDelegate(self)
        self.setItemDelegate(self._delegate)
        self.setVerticalScrollMode(QListView.ScrollMode.ScrollPerPixel)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        # New rows (another day, a tab) and a new width are laid out in batches, each well
        # under a frame, so a long day never freezes the window; once every row has its
        # height, a reply that grows or a row that changes is laid out in one pass from
        # the remembered heights. (A batched pass starts from the top and pulls the view
        # there for its duration: during a streamed reply that was a flicker, and the
        # place of someone reading higher up was lost.)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(32)
        self._batching = True
        self.setUniformItemSizes(False)
        self.setWordWrap(True)
        self.setSelectionMode(QListView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setMouseTracking(True)
        self.verticalScrollBar().setSingleStep(24)
        self._drag_target: QWidget | None = None  # the editor a press on the row went to
        self._forwarding = False
        self._armed: tuple[QPersistentModelIndex, int] | None = None  # a pressed Copy
        self._armed_action: tuple[QPersistentModelIndex, str] | None = None  # a pressed action
        self._armed_file: tuple[QPersistentModelIndex, int] | None = None  # a pressed file
        self._delegate.thumbnails.ready.connect(lambda _path: self.viewport().update())
        self.verticalScrollBar().valueChanged.connect(self._rows_moved)
        #: Keep the newest row in view (set by ``follow_end``): the rows are laid out in
        #: batches after they are set, so the end moves down for a while; a reply grows.
        #: Scrolling away from the end stops it, as in any chat.
        self._following = False
        self._last_value = 0
        #: A row shown on purpose (a search hit, a TI line), kept in view the same way
        #: until the person scrolls, clicks or types in the transcript.
        self._target: QPersistentModelIndex | None = None
        self._target_hint = QAbstractItemView.ScrollHint.PositionAtCenter
        self._settled = QTimer(self)  # the end or the target is shown again once settled
        self._settled.setSingleShot(True)
        self._settled.setInterval(_SETTLE_MS)
        self._settled.timeout.connect(self._show_again)
        self.verticalScrollBar().rangeChanged.connect(self._range_changed)
        self.verticalScrollBar().valueChanged.connect(self._value_changed)
        self.verticalScrollBar().sliderPressed.connect(self._person_moves)
        # an arrow, a page click or a wheel on the scroll bar (the person's moves only)
        self.verticalScrollBar().actionTriggered.connect(lambda _action: self._person_moves())
        self._copied_timer = QTimer(self)
        self._copied_timer.setSingleShot(True)
        self._copied_timer.setInterval(1600)
        self._copied_timer.timeout.connect(self._copied_done)
        # "Jump to latest": over the transcript's foot whenever the end is out of sight
        # (a reply streaming below the view, the person reading higher up)
        self.jump_button = QToolButton(self)
        self.jump_button.setObjectName("jumpToLatest")
        self.jump_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # typing stays where it is
        self.jump_button.setCursor(Qt.CursorShape.PointingHandCursor)
        self.jump_button.clicked.connect(self.follow_end)
        self.jump_button.hide()
        self._name_jump()

    @property
    def delegate(self) -> MessageDelegate:
        return self._delegate

    # ----- the end of the conversation ---------------------------------------------------
    def follow_end(self) -> None:
        """Show the newest row now and keep it in view while rows are laid out or a reply
        grows, until the person scrolls away from the end."""
        self._following, self._target = True, None
        self._last_value = self.verticalScrollBar().value()
        self.scrollToBottom()
        self._place_jump()

    def _name_jump(self) -> None:
        self.jump_button.setText(self.tr("↓ Latest"))
        self.jump_button.setToolTip(self.tr("Jump to the latest message"))
        palette = self.palette()
        self.jump_button.setStyleSheet(
            "#jumpToLatest { border-radius: 14px; padding: 4px 14px; font-weight: 600;"
            f" background: {palette.color(QPalette.ColorRole.Button).name()};"
            f" color: {palette.color(QPalette.ColorRole.ButtonText).name()};"
            f" border: 1px solid {palette.color(QPalette.ColorRole.Mid).name()}; }}")
        self.jump_button.adjustSize()

    def at_end(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - _END_SLACK

    def _place_jump(self) -> None:
        """The button shows while the end is out of sight and is not being followed."""
        model = self.model()
        show = (model is not None and model.rowCount() > 0 and not self._following
                and not self.at_end())
        if show:
            area = self.viewport().geometry()
            size = self.jump_button.sizeHint()
            self.jump_button.setGeometry(area.center().x() - size.width() // 2,
                                         area.bottom() - size.height() - 12,
                                         size.width(), size.height())
            self.jump_button.raise_()
        self.jump_button.setVisible(show)

    def stop_following(self) -> None:
        """Neither the end nor a chosen row is kept in view any more."""
        self._following, self._target = False, None

    def reveal(self, index: QModelIndex) -> None:
        """Make ``index`` the current row and show it, again once the rows before it are
        laid out (a row past the first batch has no place yet)."""
        self.setCurrentIndex(index)
        self._hold(index, QAbstractItemView.ScrollHint.PositionAtCenter)

    def top_row(self) -> int:
        """The row at the top of the view (-1 when there is none)."""
        return self.indexAt(self.viewport().rect().topLeft()).row()

    def keep_at_top(self, row: int) -> None:
        """Keep ``row`` at the top of the view (the place of someone reading higher up),
        again once new rows or a new width are laid out."""
        index = self.model().index(row, 0) if row >= 0 else QModelIndex()
        if index.isValid():
            self._hold(index, QAbstractItemView.ScrollHint.PositionAtTop)

    def _hold(self, index: QModelIndex, hint: QAbstractItemView.ScrollHint) -> None:
        self._following = False
        self._target, self._target_hint = QPersistentModelIndex(index), hint
        self.scrollTo(index, hint)
        self._settled.start()

    def _person_moves(self) -> None:
        self._target = None  # (following the end stops only when they leave it)

    @property
    def following(self) -> bool:
        return self._following

    @property
    def settled(self) -> bool:
        """No layout in batches under way and no move to the end or a held row still to
        come: what the view shows now is where it stays until something changes."""
        return not self._batching and not self._settled.isActive()

    def _range_changed(self, _minimum: int, maximum: int) -> None:
        """The rows' extent changed (batches laid out, a reply's new line): the end, or the
        row held, is shown again once the range has been still for a moment and the
        batches, if any, are done."""
        if self._following or self._target is not None or self._batching:
            self._settled.start()
        self._place_jump()

    def _lay_out_in_batches(self) -> None:
        self._batching = True
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self._settled.start()

    def reset(self) -> None:
        """New rows: laid out in batches (a long day takes a second or two)."""
        self._lay_out_in_batches()
        super().reset()

    def _heights_change(self) -> None:
        """Every row's height changes (a new width: the window, a pane, the scroll bar
        appearing; a new palette or font): the rows are laid out in batches again, keeping
        the place of someone reading higher up."""
        if not self._following and self._target is None and self.top_row() >= 0:
            self.keep_at_top(self.top_row())
        self._lay_out_in_batches()

    def _laid_out(self) -> bool:
        """Has the batched layout reached the last row? (The scroll range changes only at
        its start and its end, so a quiet range alone does not say it is done.)"""
        rows = self.model().rowCount() if self.model() is not None else 0
        return rows == 0 or self.visualRect(self.model().index(rows - 1, 0)).isValid()

    def _show_again(self) -> None:
        if self._batching:
            if not self._laid_out():
                self._settled.start()  # batches still to come
                return
            self._batching = False  # from now on, one pass from the remembered heights
            self.setLayoutMode(QListView.LayoutMode.SinglePass)
        if self._following:
            self.scrollToBottom()
        elif self._target is not None and self._target.isValid():
            self.scrollTo(self.model().index(self._target.row(), 0), self._target_hint)

    def _value_changed(self, value: int) -> None:
        # The view only moves itself down, to the end; a range that shrinks for a moment
        # (Qt's batched layout does) pulls it up but leaves it at the end. A move up that
        # leaves the end is the person's.
        moved_up = value < self._last_value
        if self._following and moved_up and value < self.verticalScrollBar().maximum() - _END_SLACK:
            self._following = False
        self._last_value = value
        self._place_jump()

    # ----- what is where -----------------------------------------------------------------
    def _plain(self, index: _Index) -> QModelIndex:
        if isinstance(index, QModelIndex):
            return index
        model = self.model()
        return model.index(index.row(), index.column()) if model is not None else QModelIndex()

    def _row(self, index: _Index) -> MessageRow | None:
        row = index.data(ROW_ROLE) if index.isValid() else None
        return row if isinstance(row, MessageRow) else None

    def row_layout(self, index: _Index) -> RowLayout | None:
        row = self._row(index)
        if row is None:
            return None
        width = self.visualRect(self._plain(index)).width() or self.viewport().width()
        return self._delegate.layout(row, width, self.font(), self.palette())

    def code_blocks(self, index: _Index) -> list[CodeBlock]:
        """The code blocks of a row, their rectangles relative to the viewport."""
        laid = self.row_layout(index)
        if laid is None:
            return []
        origin = QPointF(self.visualRect(self._plain(index)).topLeft()) + laid.body.topLeft()
        return [CodeBlock(c.rect.translated(origin), c.language, c.code, c.copy.translated(origin))
                for c in laid.codes]

    def copy_button_at(self, pos: QPoint) -> tuple[QModelIndex, int] | None:
        """The row and code block whose Copy button is at ``pos`` (viewport coordinates)."""
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        for number, code in enumerate(self.code_blocks(index)):
            if code.copy.adjusted(-2, -2, 2, 2).contains(QPointF(pos)):
                return index, number
        return None

    def file_at(self, pos: QPoint) -> tuple[QModelIndex, int] | None:
        """The row and file (its number in the row) whose thumbnail or chip is at
        ``pos`` (viewport coordinates)."""
        index = self.indexAt(pos)
        laid = self.row_layout(index) if index.isValid() else None
        if laid is None or not laid.files:
            return None
        origin = QPointF(self.visualRect(index).topLeft())
        for tile in laid.files:
            if tile.rect.translated(origin).contains(QPointF(pos)):
                return index, tile.number
        return None

    def _hover_file(self, hit: tuple[QModelIndex, int] | None) -> None:
        """The ring around the file under the mouse."""
        row = self._row(hit[0]) if hit is not None else None
        lit = (row.id, hit[1]) if row is not None and hit is not None else None
        if lit != self._delegate.hovered_file:
            self._delegate.hovered_file = lit
            self.viewport().update()

    def set_action_provider(self, provider: ActionProvider) -> None:
        """Who says what can be done with a message: ``provider(row)`` gives (action, label)
        pairs in order, ``[]`` for none. A row that offers actions keeps a strip for their
        buttons under its text, so it should keep offering some (Copy, say) while its
        other actions come and go: the strip follows only when the rows are laid out
        again, what the buttons say follows at once."""
        self._delegate.provider = provider
        self._delegate.shown = None
        self.scheduleDelayedItemsLayout()
        self.viewport().update()

    def refresh_actions(self) -> None:
        """The provider's answers changed (the window's state did): show them."""
        self.viewport().update()

    def action_buttons(self, index: _Index) -> list[ActionButton]:
        """A row's action buttons, their rectangles relative to the viewport (shown or not:
        they show while the mouse is over the row)."""
        row = self._row(index)
        laid = self.row_layout(index)
        if row is None or laid is None or laid.actions is None:
            return []
        actions = self._delegate.provider(row)
        rects = self._delegate.action_rects(laid, row, actions, self.font())
        keys = action_keys(actions)
        origin = QPointF(self.visualRect(self._plain(index)).topLeft())
        return [ActionButton(name, plain_label(label), rect.translated(origin),
                             keys.get(name, QKeySequence()))
                for (name, label), rect in zip(actions, rects, strict=False)]

    def action_button_at(self, pos: QPoint) -> tuple[QModelIndex, ActionButton] | None:
        """The row and action button at ``pos`` (viewport coordinates)."""
        index = self.indexAt(pos)
        laid = self.row_layout(index) if index.isValid() else None
        if laid is None or laid.actions is None:
            return None
        top = self.visualRect(index).top() + laid.actions.top()
        if not top <= pos.y() < top + laid.actions.height():
            return None
        for button in self.action_buttons(index):
            if button.rect.contains(QPointF(pos)):
                return index, button
        return None

    def _track(self, pos: QPoint | None) -> ActionButton | None:
        """Which row shows its buttons and which button is lit, for the mouse at ``pos``
        (None: it left); repaints only the rows that change. Returns the button there."""
        delegate = self._delegate
        index = self.indexAt(pos) if pos is not None else QModelIndex()
        laid = self.row_layout(index) if index.isValid() else None
        shown = delegate.shown
        before = shown.row() if shown is not None and shown.isValid() else -1
        after = index.row() if laid is not None and laid.actions is not None else -1
        dirty: set[int] = set()
        if before != after:
            delegate.shown = QPersistentModelIndex(index) if after >= 0 else None
            dirty |= {before, after}
        hit = self.action_button_at(pos) if pos is not None and after >= 0 else None
        row = self._row(hit[0]) if hit is not None else None
        lit = (row.id, row.text, hit[1].name) if row is not None and hit is not None else None
        if lit != delegate.hovered_action:
            delegate.hovered_action = lit
            dirty |= {before, after}
        self._update_rows(dirty)
        return hit[1] if hit is not None else None

    def _update_rows(self, rows: set[int]) -> None:
        model = self.model()
        if model is None:
            return
        for number in rows:
            if 0 <= number < model.rowCount():
                self.viewport().update(self.visualRect(model.index(number, 0)))

    def _rows_moved(self) -> None:
        """Scrolled under a still mouse: another row is under it now."""
        if self.viewport().underMouse():
            self._track(self.viewport().mapFromGlobal(QCursor.pos()))

    def _activate(self, index: _Index, name: str) -> None:
        """An action button chosen: a copied message says so on its button for a moment;
        the window does the rest."""
        row = self._row(index)
        if row is None:
            return
        if name == "copy":
            self._delegate.copied_action = (row.id, row.text)
            self._copied_timer.start()
            self._update_rows({index.row()})
        self.message_action.emit(index.row(), name)

    def _action_for_key(self, event: QKeyEvent) -> str | None:
        """The current row's action whose key (Alt and a letter) ``event`` is; none for
        a current row scrolled out of sight (the person could not see what they act
        on)."""
        if event.modifiers() != Qt.KeyboardModifier.AltModifier:
            return None
        row = self._row(self.currentIndex())
        if row is None or not self._delegate.offers_actions(row) \
                or not self._in_sight(self.currentIndex()):
            return None
        pressed = QKeySequence(event.keyCombination())
        for name, key in action_keys(self._delegate.provider(row)).items():
            if key.matches(pressed) == QKeySequence.SequenceMatch.ExactMatch:
                return name
        return None

    def _in_sight(self, index: _Index) -> bool:
        return index.isValid() and self.visualRect(self._plain(index)).intersects(
            self.viewport().rect())

    def focusInEvent(self, event: QFocusEvent) -> None:
        """Focus from the keyboard (Tab, Shift+Tab, a shortcut) lands on a row in sight:
        the current one if it is shown, else the lowest one shown (the newest in view),
        marked as the current row; the view does not move."""
        if event.reason() != Qt.FocusReason.MouseFocusReason \
                and not self._in_sight(self.currentIndex()):
            area = self.viewport().rect()
            index = QModelIndex()
            for y in range(area.bottom() - 2, area.top(), -8):  # (the gap between rows)
                index = self.indexAt(QPoint(area.center().x(), y))
                if index.isValid():
                    break
            if index.isValid():
                bar = self.verticalScrollBar()
                kept = bar.value()
                self.selectionModel().setCurrentIndex(
                    index, self.selectionModel().SelectionFlag.NoUpdate)
                bar.setValue(kept)
        super().focusInEvent(event)

    def can_select_text(self, index: _Index) -> bool:
        row = self._row(index)
        return row is not None and not is_growing(row)

    # ----- copying -----------------------------------------------------------------------
    def copy_code(self, index: _Index, number: int) -> str:
        """Put code block ``number`` of a row on the clipboard and say so."""
        codes = self.code_blocks(index)
        row = self._row(index)
        if row is None or not 0 <= number < len(codes):
            return ""
        QGuiApplication.clipboard().setText(codes[number].code)
        self._delegate.copied = (row.id, row.text, number)
        self._copied_timer.start()
        self.viewport().update()
        self.notice.emit(self.tr("Copied"))
        return codes[number].code

    def copy_message(self) -> None:
        """The whole current message, as its Markdown."""
        row = self._row(self.currentIndex())
        if row is None:
            return
        QGuiApplication.clipboard().setText(row.text)
        self.notice.emit(self.tr("Message copied"))

    def _copied_done(self) -> None:
        self._delegate.copied = None
        self._delegate.copied_action = None
        self.viewport().update()

    # ----- the selectable editor ---------------------------------------------------------
    def open_editor(self, index: _Index, keyboard: bool = False) -> MessageEditor | None:
        """Lay the selectable copy of a message over its row (not for the growing reply)."""
        if not self.can_select_text(index):
            return None
        index = self._plain(index)
        # Choosing the row and opening its editor would scroll a partly hidden row into
        # view; under the mouse that moves the text away from the press, and the drag
        # would select other words. The mouse keeps the view where it is.
        bar = self.verticalScrollBar()
        kept = bar.value()
        if self.currentIndex() != index:
            self.setCurrentIndex(index)
        editor = self._delegate.editor
        if editor is None or not self._delegate.is_editing(index):
            self.edit(index)
            editor = self._delegate.editor
        if not keyboard and bar.value() != kept:
            bar.setValue(kept)
            self.updateEditorGeometries()
        if editor is None:
            return None
        editor.selectable(keyboard)
        editor.copied_all = lambda: self.notice.emit(self.tr("Message copied"))
        editor.menu_elsewhere = self._menu_from_editor
        editor.viewport().installEventFilter(self)
        editor.setFocus(Qt.FocusReason.MouseFocusReason if not keyboard
                        else Qt.FocusReason.OtherFocusReason)
        self.viewport().update()
        return editor

    def close_editor(self) -> None:
        editor = self._delegate.editor
        if editor is not None:
            self.closeEditor(editor, QStyledItemDelegate.EndEditHint.NoHint)
            self.setFocus()

    def _menu_from_editor(self, pos: QPoint) -> bool:
        editor = self._delegate.editor
        if editor is None or self.contextMenuPolicy() != Qt.ContextMenuPolicy.CustomContextMenu:
            return False
        self.customContextMenuRequested.emit(editor.viewport().mapTo(self.viewport(), pos))
        return True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Copy buttons stay buttons under an open editor, and the wheel scrolls the
        transcript, not the editor (which never needs to scroll)."""
        editor = self._delegate.editor
        if editor is None or watched is not editor.viewport():
            return super().eventFilter(watched, event)
        if isinstance(event, QWheelEvent):
            self.wheelEvent(event)
            return True
        if isinstance(event, QMouseEvent):
            pos = editor.viewport().mapTo(self.viewport(), event.position().toPoint())
            hit = self.copy_button_at(pos)
            if event.type() == QEvent.Type.MouseMove and not event.buttons():
                self._track(pos)
                self._hover(hit, editor.viewport())
                if hit is not None:
                    return True  # the editor would set its own cursor back
            if (event.type() == QEvent.Type.MouseButtonPress and hit is not None
                  and event.button() == Qt.MouseButton.LeftButton):
                self.copy_code(*hit)
                return True
        return super().eventFilter(watched, event)

    def _forward(self, event: QMouseEvent) -> None:
        """Hand a mouse event on the row to the editor laid over it."""
        target = self._drag_target
        editor = self._delegate.editor
        if target is None or editor is None or editor.viewport() is not target:
            self._drag_target = None  # the editor closed under the drag (a reload)
            return
        local = QPointF(target.mapFrom(self.viewport(), event.position().toPoint()))
        forwarded = QMouseEvent(event.type(), local, event.globalPosition(),
                                event.button(), event.buttons(), event.modifiers())
        # what the editor ignores comes back up to this viewport (its parent): once only
        self._forwarding = True
        try:
            QApplication.sendEvent(target, forwarded)
        finally:
            self._forwarding = False

    # ----- mouse and keys ----------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        pos = event.position().toPoint()
        if event.button() == Qt.MouseButton.LeftButton:
            hit = self.copy_button_at(pos)
            if hit is not None:
                self._armed = (QPersistentModelIndex(hit[0]), hit[1])
                event.accept()
                return
            file = self.file_at(pos)
            if file is not None:  # opened on release, over the same file
                self.setCurrentIndex(file[0])  # (Alt+F then acts on this message)
                self._armed_file = (QPersistentModelIndex(file[0]), file[1])
                event.accept()
                return
            action = self.action_button_at(pos)
            if action is not None:  # a button, not the text: no editor, no selection
                index, button = action
                row = self._row(index)
                self._armed_action = (QPersistentModelIndex(index), button.name)
                if row is not None:
                    self._delegate.pressed_action = (row.id, row.text, button.name)
                self._track(pos)
                self._update_rows({index.row()})
                event.accept()
                return
            index = self.indexAt(pos)
            if self.can_select_text(index):
                editor = self.open_editor(index)
                if editor is not None:
                    self._drag_target = editor.viewport()
                    self._forward(event)
                    event.accept()
                    return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self.action_button_at(event.position().toPoint()) is not None \
                or self.file_at(event.position().toPoint()) is not None:
            event.accept()  # the first click did it; a second would do it again
            return
        if self._delegate.editor is not None and event.button() == Qt.MouseButton.LeftButton:
            index = self.indexAt(event.position().toPoint())
            if self._delegate.is_editing(index) and self.copy_button_at(
                event.position().toPoint()
            ) is None:
                self._drag_target = self._delegate.editor.viewport()
                self._forward(event)
                event.accept()
                return
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self._drag_target is not None:
            self._forward(event)
            event.accept()
            return
        if self._armed_action is not None:  # a button held down: no rows get selected
            event.accept()
            return
        if self._armed_file is not None:
            event.accept()
            return
        if not event.buttons():
            pos = event.position().toPoint()
            hit = self.copy_button_at(pos)
            self._hover(hit, self.viewport())
            file = self.file_at(pos)
            self._hover_file(file)
            if self._track(pos) is not None or file is not None:
                self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
            elif hit is None:  # text reads as text: the I-beam over what can be selected
                index = self.indexAt(pos)
                laid = self.row_layout(index) if self.can_select_text(index) else None
                over = laid is not None and laid.body.translated(
                    QPointF(self.visualRect(index).topLeft())).contains(QPointF(pos))
                if over:
                    self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
                else:
                    self.viewport().unsetCursor()
        super().mouseMoveEvent(event)

    def leaveEvent(self, event: QEvent) -> None:
        self._hover(None, self.viewport())
        self._hover_file(None)
        self._track(None)
        super().leaveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:
        """The buttons hide when the mouse leaves the rows; over one, its tooltip says its
        key. A wheel or a click is the person moving: a revealed row is no longer held."""
        if event.type() in (QEvent.Type.Wheel, QEvent.Type.MouseButtonPress):
            self._person_moves()
        elif (event.type() == QEvent.Type.Resize and isinstance(event, QResizeEvent)
              and event.size().width() != event.oldSize().width()):
            self._heights_change()
        if event.type() == QEvent.Type.Leave:
            self._track(None)
        elif event.type() == QEvent.Type.ToolTip and isinstance(event, QHelpEvent):
            file = self.file_at(event.pos())
            row = self._row(file[0]) if file is not None else None
            if row is not None and file is not None:
                shown = row.files[file[1]]
                QToolTip.showText(event.globalPos(), f"{shown.name}\n"
                                  f"{self._delegate.file_detail(shown)}", self.viewport())
                return True
            hit = self.action_button_at(event.pos())
            if hit is not None:
                button = hit[1]
                tip = button.label
                if not button.key.isEmpty():
                    shortcut = button.key.toString(QKeySequence.SequenceFormat.NativeText)
                    tip = f"{tip} ({shortcut})"
                QToolTip.showText(event.globalPos(), tip, self.viewport(),
                                  button.rect.toAlignedRect())
                return True
        return super().viewportEvent(event)

    def event(self, event: QEvent) -> bool:
        """Alt and a button's letter belongs to the current message, not the menus."""
        if (event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent)
                and self._action_for_key(event) is not None):
            event.accept()
            return True
        return super().event(event)

    def _hover(self, hit: tuple[QModelIndex, int] | None, surface: QWidget) -> None:
        """The pointing hand and a light fill on the Copy button under the mouse."""
        row = self._row(hit[0]) if hit is not None else None
        hovered = (row.id, row.text, hit[1]) if row is not None and hit is not None else None
        if hovered == self._delegate.hovered:
            return
        self._delegate.hovered = hovered
        if hovered is not None:
            surface.setCursor(Qt.CursorShape.PointingHandCursor)
        elif surface is not self.viewport():
            surface.setCursor(Qt.CursorShape.IBeamCursor)
        self.viewport().update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._forwarding:
            event.accept()
            return
        if self._armed_file is not None:
            armed_file, number = self._armed_file
            self._armed_file = None
            file = self.file_at(event.position().toPoint())
            if file is not None and armed_file.isValid() \
                    and file == (self._plain(armed_file), number):
                self.file_opened.emit(file[0].row(), number)
            event.accept()
            return
        if self._armed_action is not None:
            armed, name = self._armed_action
            self._armed_action = None
            self._delegate.pressed_action = None
            self._update_rows({armed.row()})
            action = self.action_button_at(event.position().toPoint())
            if (action is not None and armed.isValid() and action[0] == self._plain(armed)
                    and action[1].name == name):
                self._activate(action[0], name)
            event.accept()
            return
        if self._armed is not None:
            index, number = self._armed
            self._armed = None
            hit = self.copy_button_at(event.position().toPoint())
            if hit is not None and index.isValid() and hit == (self._plain(index), number):
                self.copy_code(index, number)
            event.accept()
            return
        if self._drag_target is not None:
            self._forward(event)
            self._drag_target = None
            event.accept()
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        self._person_moves()
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_message()
            event.accept()
            return
        name = self._action_for_key(event)
        if name is not None:
            self._activate(self.currentIndex(), name)
            event.accept()
            return
        keys = (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_F2)
        if event.key() in keys and self.can_select_text(self.currentIndex()):
            self.open_editor(self.currentIndex(), keyboard=True)
            event.accept()
            return
        super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        """A hidden transcript (the window closing) keeps no editor open."""
        editor = self._delegate.editor
        if editor is not None:
            self.closeEditor(editor, QStyledItemDelegate.EndEditHint.NoHint)
        super().hideEvent(event)

    # ----- painting ----------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.FontChange,
                            QEvent.Type.StyleChange):
            self._delegate.clear()  # documents carry palette colours and the font
            self._heights_change()
            self.scheduleDelayedItemsLayout()
            if event.type() == QEvent.Type.PaletteChange:
                self._name_jump()
        elif event.type() == QEvent.Type.LanguageChange:
            self._name_jump()
        super().changeEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place_jump()

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

