"""The transcript as a conversation: speakers, code blocks with Copy, quotes, selection
colours, partial text selection and copying, and a long day (pytest-qt, offscreen)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QImage,
    QMouseEvent,
    QPalette,
    QTextCursor,
    QWheelEvent,
)
from PySide6.QtWidgets import QApplication

from ui.items import MessageRow
from ui.transcript import (
    DOC_CACHE,
    MessageDelegate,
    TranscriptModel,
    TranscriptView,
    action_keys,
    code_groups,
    contrast_ratio,
    plain_label,
    quote_level,
    reading_font,
    row_colors,
)

CODE = 'def greet(name):\n    return f"hello {name}"\n\nprint(greet("MONET"))'
REPLY = (
    "Here is the function:\n\n```python\n" + CODE + "\n```\n\n"
    "> Quoted wisdom stays quoted.\n\nAnd a closing line."
)


def row(id_: int, role: str, text: str, status: str = "complete") -> MessageRow:
    return MessageRow(id_, role, "chat", "Chat", "09:30", text, status)


@pytest.fixture
def view(qtbot) -> Iterator[TranscriptView]:
    model = TranscriptModel()
    widget = TranscriptView()
    widget.setModel(model)
    widget.resize(760, 700)
    qtbot.addWidget(widget)
    widget.show()
    qtbot.waitExposed(widget)
    QGuiApplication.clipboard().clear()
    yield widget


def show(view: TranscriptView, rows: list[MessageRow]) -> TranscriptModel:
    model = view.model()
    assert isinstance(model, TranscriptModel)
    model.set_rows(rows)
    view.doItemsLayout()
    QApplication.processEvents()
    return model


def image(view: TranscriptView) -> QImage:
    QApplication.processEvents()
    return view.viewport().grab().toImage()


def body_point(view: TranscriptView, row_number: int, dx: float = 2, dy: float = 4) -> QPoint:
    """A point on the text of a row (viewport coordinates)."""
    index = view.model().index(row_number, 0)
    laid = view.row_layout(index)
    assert laid is not None
    top_left = QPointF(view.visualRect(index).topLeft()) + laid.body.topLeft()
    return (top_left + QPointF(dx, dy)).toPoint()


# ----- speakers, code blocks, quotes ---------------------------------------------------------

def test_the_person_and_claude_are_painted_differently(view: TranscriptView) -> None:
    show(view, [row(1, "user", "A short question?"), row(2, "assistant", "A plain answer.")])
    user = view.row_layout(view.model().index(0, 0))
    claude = view.row_layout(view.model().index(1, 0))
    assert user is not None and claude is not None
    assert user.bubble is not None and claude.bubble is None
    # the bubble hugs the short message and sits on the right of the column
    assert user.bubble.width() < claude.card.width() / 2
    assert user.bubble.right() > claude.card.center().x()
    colors = row_colors(view.palette(), "user")
    shot = image(view)
    top = view.visualRect(view.model().index(0, 0)).top()
    bubble = user.bubble.translated(0, top)
    inside = QPointF(bubble.left() + 5, bubble.center().y()).toPoint()  # padding, no text
    assert QColor(shot.pixel(inside)) == colors.bubble
    assert colors.bubble != view.palette().color(QPalette.ColorRole.Base)


def test_a_code_block_gets_a_background_its_language_and_a_copy_button(
    view: TranscriptView,
) -> None:
    show(view, [row(1, "assistant", REPLY)])
    index = view.model().index(0, 0)
    [code] = view.code_blocks(index)
    assert code.language == "python"
    assert code.code == CODE
    colors = row_colors(view.palette(), "assistant")
    assert colors.code != colors.card and colors.code_head != colors.card
    shot = image(view)
    rect = code.rect.toAlignedRect()
    # the body of the block (its bottom padding, no text there) and the label strip
    assert QColor(shot.pixel(rect.left() + 6, rect.bottom() - 5)) == colors.code
    assert QColor(shot.pixel(rect.left() + 4, rect.top() + 4)) == colors.code_head
    # something is written at the left of the strip (the language) and in the Copy button
    strip = [QColor(shot.pixel(x, y)) for x in range(rect.left() + 8, rect.left() + 70)
             for y in range(rect.top() + 6, rect.top() + 24)]
    assert any(c != colors.code_head for c in strip)
    button = code.copy.toAlignedRect()
    inked = [QColor(shot.pixel(x, y)) for x in range(button.left(), button.right())
             for y in range(button.top(), button.bottom())]
    assert any(c != colors.code_head for c in inked)
    # found from the document: one block per line, in one group
    laid = view.row_layout(index)
    assert laid is not None
    assert [[b.text() for b in group] for group in code_groups(laid.doc)] == [CODE.split("\n")]
    # monospace code, proportional prose
    block = laid.doc.findBlock(laid.doc.toPlainText().index("def greet"))
    assert block.charFormat().fontFixedPitch() or block.begin().fragment().charFormat().fontFixedPitch()


def test_clicking_copy_puts_exactly_the_code_on_the_clipboard(qtbot, view: TranscriptView) -> None:
    show(view, [row(1, "assistant", REPLY)])
    index = view.model().index(0, 0)
    [code] = view.code_blocks(index)
    with qtbot.waitSignal(view.notice, timeout=1000) as said:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=code.copy.center().toPoint())
    assert QGuiApplication.clipboard().text() == CODE
    assert said.args == ["Copied"]
    assert view.delegate.editor is None  # a click on Copy is not a click on the text
    assert view.delegate.copied == (1, REPLY, 0)  # the button says Copied for a moment
    qtbot.waitUntil(lambda: view.delegate.copied is None, timeout=5000)
    # the mouse over the button: a pointing hand; over the text: an I-beam
    qtbot.mouseMove(view.viewport(), pos=code.copy.center().toPoint())
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    assert view.delegate.hovered == (1, REPLY, 0)
    qtbot.mouseMove(view.viewport(), pos=body_point(view, 0))
    assert view.viewport().cursor().shape() == Qt.CursorShape.IBeamCursor
    assert view.delegate.hovered is None
    # under an open editor the button still copies
    QGuiApplication.clipboard().clear()
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 0))
    editor = view.delegate.editor
    assert editor is not None
    inside = editor.viewport().mapFrom(view.viewport(), code.copy.center().toPoint())
    with qtbot.waitSignal(view.notice, timeout=1000):
        qtbot.mouseClick(editor.viewport(), Qt.MouseButton.LeftButton, pos=inside)
    assert QGuiApplication.clipboard().text() == CODE


def test_two_code_blocks_copy_each_their_own(qtbot, view: TranscriptView) -> None:
    text = "First:\n\n```sh\nls -la\n```\n\nThen:\n\n```\necho done\n```"
    show(view, [row(1, "user", "run what?"), row(2, "assistant", text)])
    first, second = view.code_blocks(view.model().index(1, 0))
    assert (first.language, second.language) == ("sh", "")
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=second.copy.center().toPoint())
    assert QGuiApplication.clipboard().text() == "echo done"
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=first.copy.center().toPoint())
    assert QGuiApplication.clipboard().text() == "ls -la"


def test_a_blockquote_is_drawn_as_a_quote(view: TranscriptView) -> None:
    show(view, [row(1, "assistant", REPLY)])
    laid = view.row_layout(view.model().index(0, 0))
    assert laid is not None
    doc = laid.doc
    quoted = doc.findBlock(doc.toPlainText().index("Quoted wisdom"))
    plain = doc.findBlock(doc.toPlainText().index("And a closing"))
    assert quote_level(quoted) == 1 and quote_level(plain) == 0
    [bar] = laid.quote_bars
    text_rect = doc.documentLayout().blockBoundingRect(quoted)
    assert bar.top() <= text_rect.top() and bar.bottom() >= text_rect.bottom()
    assert bar.right() < quoted.layout().lineAt(0).x()  # the bar is left of the text
    colors = row_colors(view.palette(), "assistant")
    shown = quoted.begin().fragment().charFormat().foreground().color()
    assert shown == colors.quote_text != colors.text
    shot = image(view)
    origin = QPointF(view.visualRect(view.model().index(0, 0)).topLeft()) + laid.body.topLeft()
    assert QColor(shot.pixel(bar.translated(origin).center().toPoint())) == colors.quote_bar


# ----- selection and focus -----------------------------------------------------------------

@pytest.fixture
def dark() -> QPalette:
    from ui.look import palette_for

    return palette_for("dark")


@pytest.mark.parametrize("role", ["assistant", "user"])
def test_a_selected_row_stays_readable_in_the_dark_palette(
    qtbot, dark: QPalette, role: str
) -> None:
    colors = row_colors(dark, role, selected=True)
    assert contrast_ratio(colors.text, colors.card) >= 4.5
    assert contrast_ratio(colors.text, colors.surface) >= 4.5
    assert contrast_ratio(colors.muted, colors.card) >= 4.5
    # what the old delegate did: HighlightedText (white) on Highlight.lighter(170)
    old_fill = dark.color(QPalette.ColorRole.Highlight).lighter(170)
    assert contrast_ratio(dark.color(QPalette.ColorRole.HighlightedText), old_fill) < 4.5
    # and the painting really uses them: the selected row's fill and its darkest/lightest ink
    view = TranscriptView()
    qtbot.addWidget(view)
    view.setPalette(dark)
    view.setModel(TranscriptModel())
    view.resize(760, 400)
    view.show()
    qtbot.waitExposed(view)
    show(view, [row(1, role, "Readable when selected, in the dark too."), row(2, "assistant", "x")])
    index = view.model().index(0, 0)
    view.setCurrentIndex(index)
    view.clearFocus()
    shot = image(view)
    laid = view.row_layout(index)
    assert laid is not None
    top = view.visualRect(index).top()
    surface = laid.bubble if laid.bubble is not None else laid.card
    padding = QPointF(surface.left() + 5, surface.center().y()).toPoint()
    assert QColor(shot.pixel(padding + QPoint(0, top))) == colors.surface
    body = laid.body.translated(0, top).toAlignedRect()
    ink = max((QColor(shot.pixel(x, y)) for x in range(body.left(), body.right())
               for y in range(body.top(), body.bottom())),
              key=lambda c: contrast_ratio(c, colors.surface))
    assert contrast_ratio(ink, colors.surface) >= 4.5


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("role", ["assistant", "user", "tool"])
@pytest.mark.parametrize("selected", [False, True])
def test_every_text_colour_is_readable_on_what_it_is_drawn_on(
    qtbot, theme: str, role: str, selected: bool
) -> None:
    from ui.look import palette_for

    c = row_colors(palette_for(theme), role, selected)
    assert contrast_ratio(c.text, c.surface) >= 4.5
    assert contrast_ratio(c.text, c.code) >= 4.5
    assert contrast_ratio(c.muted, c.card) >= 4.5  # the header
    assert contrast_ratio(c.name, c.card) >= 4.5
    assert contrast_ratio(c.code_label, c.code_head) >= 4.5  # language and Copy
    assert contrast_ratio(c.quote_text, c.surface) >= 4.5
    assert contrast_ratio(c.action, c.card) >= 4.5  # a message's action buttons at rest
    assert contrast_ratio(c.text, c.action_fill) >= 4.5  # the one under the mouse
    assert contrast_ratio(c.text, c.action_press) >= 4.5  # the one pressed


def test_the_current_row_shows_a_focus_ring_when_the_view_has_focus(qtbot, view: TranscriptView) -> None:
    show(view, [row(1, "assistant", "one"), row(2, "assistant", "two")])
    index = view.model().index(1, 0)
    view.setCurrentIndex(index)
    laid = view.row_layout(index)
    assert laid is not None
    card = laid.card.translated(0, view.visualRect(index).top())
    edge = QPointF(card.center().x(), card.top() + 1).toPoint()
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    focused = QColor(image(view).pixel(edge))
    assert focused == view.palette().color(QPalette.ColorRole.Highlight)
    view.clearFocus()
    qtbot.waitUntil(lambda: not view.hasFocus())
    assert QColor(image(view).pixel(edge)) != focused


# ----- selecting part of a message, copying --------------------------------------------------

def test_pressing_on_a_message_opens_a_selectable_copy_of_it(qtbot, view: TranscriptView) -> None:
    text = "Hello there, this part is what I want."
    show(view, [row(1, "user", "question"), row(2, "assistant", text)])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 1))
    editor = view.delegate.editor
    assert editor is not None and editor.isVisible()
    assert view.currentIndex().row() == 1
    assert editor.document().toPlainText() == text
    assert editor.isReadOnly()
    cursor = editor.textCursor()
    start = text.index("this part")
    cursor.setPosition(start)
    cursor.setPosition(start + len("this part"), QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)
    qtbot.keyClick(editor, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "this part"
    # Esc closes it; the view keeps the focus and the row
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert view.delegate.editor is None
    assert view.currentIndex().row() == 1


def test_a_drag_on_a_message_selects_part_of_its_text(qtbot, view: TranscriptView) -> None:
    text = "Drag across these words to select them"
    show(view, [row(1, "assistant", text)])
    start = body_point(view, 0, dx=1, dy=6)
    end = start + QPoint(120, 0)
    qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(view.viewport(), pos=start + QPoint(40, 0))
    qtbot.mouseMove(view.viewport(), pos=end)
    qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton, pos=end)
    editor = view.delegate.editor
    assert editor is not None
    selected = editor.textCursor().selectedText()
    assert selected and text.startswith(selected) and selected != text


def test_pressing_on_a_partly_hidden_message_does_not_scroll_the_view(qtbot, view: TranscriptView) -> None:
    """Found under Xvfb: a press on a reply whose top was above the view scrolled it into
    view, so the drag that followed selected words of another message."""
    long = "\n\n".join(f"paragraph {i} of a long answer" for i in range(40))
    show(view, [row(1, "user", "tell me"), row(2, "assistant", long), row(3, "user", "ok")])
    view.scrollToBottom()
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.value() > 0)
    index = view.model().index(1, 0)
    assert view.visualRect(index).top() < 0  # its top is hidden above the view
    before = bar.value()
    press = QPoint(view.visualRect(index).center().x(), 20)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=press)
    assert view.delegate.editor is not None
    assert bar.value() == before


def test_the_open_editor_looks_exactly_like_the_painted_row(qtbot, view: TranscriptView) -> None:
    show(view, [row(1, "user", "ありがとう！\n二行目"), row(2, "assistant", REPLY)])
    for number in (0, 1):
        index = view.model().index(number, 0)
        view.setCurrentIndex(index)
        view.clearFocus()
        before = image(view)
        editor = view.open_editor(index)
        assert editor is not None
        view.clearFocus()
        qtbot.waitUntil(lambda: not view.hasFocus())
        after = image(view)
        area = editor.geometry()
        assert editor.document().size() == view.row_layout(index).doc.size()  # type: ignore[union-attr]
        changed = [(x, y) for x in range(area.left(), area.right() + 1)
                   for y in range(area.top(), area.bottom() + 1)
                   if before.pixel(x, y) != after.pixel(x, y)]
        assert changed == []
        view.close_editor()


def test_choosing_another_row_closes_the_editor(qtbot, view: TranscriptView) -> None:
    model = show(view, [row(1, "user", "one"), row(2, "assistant", "two"), row(3, "user", "three")])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 0))
    first = view.delegate.editor
    assert first is not None and first.markdown == "one"
    view.setCurrentIndex(model.index(2, 0))
    assert view.delegate.editor is None
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 1))
    assert view.delegate.editor is not None and view.delegate.editor.markdown == "two"


def test_ctrl_c_on_the_view_copies_the_whole_message(qtbot, view: TranscriptView) -> None:
    text = "A **whole** message\n\n- with a list"
    model = show(view, [row(1, "user", "q"), row(2, "assistant", text)])
    view.setCurrentIndex(model.index(1, 0))
    view.setFocus()
    assert view.delegate.editor is None
    with qtbot.waitSignal(view.notice, timeout=1000) as said:
        qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == text
    assert said.args == ["Message copied"]
    # Enter opens the selectable copy from the keyboard; Ctrl+C with nothing selected there
    # copies the whole message too
    qtbot.keyClick(view, Qt.Key.Key_Return)
    editor = view.delegate.editor
    assert editor is not None and editor.hasFocus()
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(editor, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == text


def test_the_streaming_reply_opens_no_editor(qtbot, view: TranscriptView) -> None:
    model = show(view, [row(1, "user", "q"), row(0, "assistant", "partial answer", "streaming")])
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 1))
    assert view.delegate.editor is None
    assert view.currentIndex().row() == 1  # it is still selected like any row
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_Return)
    qtbot.keyClick(view, Qt.Key.Key_F2)
    assert view.delegate.editor is None
    assert not model.flags(model.index(1, 0)) & Qt.ItemFlag.ItemIsEditable
    assert model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable
    model.update_last_text("partial answer, longer now")
    assert model.rows[-1].text == "partial answer, longer now"


def test_the_wheel_over_an_open_editor_scrolls_the_transcript(qtbot, view: TranscriptView) -> None:
    model = show(view, [row(i + 1, "assistant" if i % 2 else "user", f"message {i}")
                        for i in range(60)])
    last = model.index(59, 0)
    qtbot.waitUntil(lambda: view.visualRect(last).isValid())  # laid out in batches
    view.scrollToBottom()
    qtbot.waitUntil(lambda: view.viewport().rect().contains(view.visualRect(last)))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 59))
    editor = view.delegate.editor
    assert editor is not None
    before = view.verticalScrollBar().value()
    pos = QPointF(editor.viewport().rect().center())
    wheel = QWheelEvent(pos, QPointF(editor.viewport().mapToGlobal(pos.toPoint())), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(editor.viewport(), wheel)
    assert view.verticalScrollBar().value() < before


# ----- what the delegate kept --------------------------------------------------------------

def test_header_notes_and_tool_rows_are_kept() -> None:
    delegate = MessageDelegate()
    assert delegate.header_parts(row(1, "assistant", "x", "incomplete")) == (
        "Claude", " · Chat · 09:30  (incomplete)")
    assert delegate.header_parts(row(0, "assistant", "x", "streaming"))[1].endswith("…")
    hidden = MessageRow(2, "user", "chat", "Chat", "09:31", "x", hidden=True)
    assert delegate.header_parts(hidden) == (
        "You", " · Chat · 09:31  (forgotten: Claude no longer sees this)")
    assert delegate.header_parts(row(3, "tool", "q → 2 hits"))[0] == "Tool"


def test_a_long_day_of_five_thousand_messages(qtbot, view: TranscriptView) -> None:
    rows = [row(i + 1, "user" if i % 2 == 0 else "assistant",
                f"message {i}\n\n```python\nx = {i}\n```" if i % 7 == 0 else f"message **{i}**")
            for i in range(5000)]
    model = show(view, rows)
    assert model.rowCount() == 5000
    last = model.index(4999, 0)
    qtbot.waitUntil(lambda: view.visualRect(last).isValid(), timeout=60_000)  # laid out in batches
    view.scrollToBottom()
    qtbot.waitUntil(lambda: view.visualRect(last).intersects(view.viewport().rect()))
    image(view)
    assert len(view.delegate._docs) <= DOC_CACHE
    model.append(row(0, "assistant", "", "streaming"))
    model.update_last_text("growing")
    image(view)
    assert model.row_of_message(4999) == 4998


def test_esc_closes_the_editor_first_and_reaches_the_window_after(qtbot) -> None:
    """The window's Esc stops a streaming reply: with a message open for selection, the
    first Esc only closes it."""
    from PySide6.QtGui import QKeySequence, QShortcut
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    window = QWidget()
    qtbot.addWidget(window)
    view = TranscriptView()
    QVBoxLayout(window).addWidget(view)
    stops: list[int] = []
    QShortcut(QKeySequence(Qt.Key.Key_Escape), window).activated.connect(lambda: stops.append(1))
    model = TranscriptModel()
    view.setModel(model)
    model.set_rows([row(1, "user", "hello")])
    window.resize(600, 400)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    editor = view.open_editor(model.index(0, 0))
    assert editor is not None
    qtbot.waitUntil(editor.hasFocus)
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert view.delegate.editor is None and stops == []
    assert view.hasFocus()
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert stops == [1]


def test_right_click_on_an_open_message_offers_the_message_menu(qtbot, view: TranscriptView) -> None:
    from PySide6.QtGui import QContextMenuEvent

    model = show(view, [row(1, "user", "q"), row(2, "assistant", "an answer to delete")])
    view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
    editor = view.open_editor(model.index(1, 0))
    assert editor is not None
    asked: list[QPoint] = []
    view.customContextMenuRequested.connect(asked.append)
    pos = QPoint(3, 3)
    QApplication.sendEvent(editor.viewport(), QContextMenuEvent(
        QContextMenuEvent.Reason.Mouse, pos, editor.viewport().mapToGlobal(pos)))
    [where] = asked
    assert view.indexAt(where).row() == 1


def test_the_size_cache_does_not_keep_every_version_of_a_growing_reply(view: TranscriptView) -> None:
    model = show(view, [row(1, "user", "q"), row(0, "assistant", "", "streaming")])
    for n in range(50):
        model.update_last_text("word " * n)
        image(view)
    growing = [key for key in view.delegate._sizes if key[0] == 0]
    assert growing == []


def test_a_new_font_or_palette_lays_the_messages_out_again(qtbot, view: TranscriptView) -> None:
    from PySide6.QtGui import QFont

    from ui.look import palette_for

    show(view, [row(1, "assistant", REPLY)])
    index = view.model().index(0, 0)
    before = view.row_layout(index)
    assert before is not None
    assert before.doc.defaultFont().pointSizeF() == reading_font(view.font()).pointSizeF()
    assert reading_font(view.font()).pointSizeF() > view.font().pointSizeF()
    bigger = QFont(view.font())
    bigger.setPointSizeF(view.font().pointSizeF() + 4)
    view.setFont(bigger)
    qtbot.waitUntil(lambda: view.sizeHintForRow(0) > before.height)
    after = view.row_layout(index)
    assert after is not None and after.doc.defaultFont().pointSizeF() == reading_font(bigger).pointSizeF()
    dark = palette_for("dark")
    view.setPalette(dark)
    QApplication.processEvents()
    laid = view.row_layout(index)
    assert laid is not None
    quoted = laid.doc.findBlock(laid.doc.toPlainText().index("Quoted wisdom"))
    assert quoted.begin().fragment().charFormat().foreground().color() == row_colors(dark).quote_text


# ----- action buttons under a message --------------------------------------------------------

LABELS = {"copy": "Copy", "edit": "Edit", "regenerate": "Regenerate", "continue": "Continue"}


def offers(message: MessageRow) -> list[tuple[str, str]]:
    """Like the window's: Claude's replies copy, regenerate and continue, the person's
    messages copy and edit, tool rows nothing."""
    names = {"assistant": ["copy", "regenerate", "continue"], "user": ["copy", "edit"]}
    return [(name, LABELS[name]) for name in names.get(message.role, [])]


def with_actions(view: TranscriptView, rows: list[MessageRow]) -> TranscriptModel:
    model = show(view, rows)
    view.set_action_provider(offers)
    view.doItemsLayout()
    view.clearFocus()  # no current row showing its buttons: only the mouse does
    QApplication.processEvents()
    return model


def button_area(view: TranscriptView, number: int) -> list[QPoint]:
    """Every pixel of a row's action buttons (viewport coordinates)."""
    buttons = view.action_buttons(view.model().index(number, 0))
    assert buttons
    return [QPoint(x, y) for b in buttons for r in [b.rect.toAlignedRect()]
            for x in range(r.left(), r.right()) for y in range(r.top(), r.bottom())]


def inks(shot: QImage, points: list[QPoint]) -> set[int]:
    """The colours (RGB) at ``points``."""
    return {shot.pixel(p) & 0xFFFFFF for p in points}


def rgb(color: QColor) -> int:
    return color.rgb() & 0xFFFFFF


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_hovering_a_message_shows_its_action_buttons(
    qtbot, view: TranscriptView, theme: str
) -> None:
    from ui.look import palette_for

    view.setPalette(palette_for(theme))
    with_actions(view, [row(1, "user", "a question"), row(2, "assistant", "an answer"),
                        row(3, "user", "thanks")])
    qtbot.waitUntil(lambda: not view.hasFocus())
    reply = view.model().index(1, 0)
    buttons = view.action_buttons(reply)
    assert [(b.name, b.label) for b in buttons] == [
        ("copy", "Copy"), ("regenerate", "Regenerate"), ("continue", "Continue")]
    assert [b.name for b in view.action_buttons(view.model().index(0, 0))] == ["copy", "edit"]
    laid = view.row_layout(reply)
    assert laid is not None and laid.actions is not None
    top = view.visualRect(reply).top()
    body = laid.body.translated(0, top)
    assert all(b.rect.top() >= body.bottom() for b in buttons)  # under the text
    assert buttons[0].rect.left() < body.left() < buttons[0].rect.left() + 12  # icon aligned
    colors = row_colors(view.palette(), "assistant")
    area = button_area(view, 1)
    assert inks(image(view), area) == {rgb(colors.card)}  # nothing drawn until the mouse comes
    qtbot.mouseMove(view.viewport(), pos=body_point(view, 1))
    shot = image(view)
    drawn = inks(shot, area)
    assert len(drawn) > 1
    ink = max((QColor(c) for c in drawn), key=lambda c: contrast_ratio(c, colors.card))
    assert contrast_ratio(ink, colors.card) >= 4.5
    assert inks(shot, button_area(view, 0)) == {rgb(colors.card)}  # only the row under the mouse
    # over a button: a pointing hand and a light fill behind it
    regenerate = buttons[1].rect
    qtbot.mouseMove(view.viewport(), pos=regenerate.center().toPoint())
    assert view.viewport().cursor().shape() == Qt.CursorShape.PointingHandCursor
    assert view.delegate.hovered_action == (2, "an answer", "regenerate")
    edge = QPointF(regenerate.left() + 2, regenerate.center().y()).toPoint()
    assert QColor(image(view).pixel(edge)) == colors.action_fill
    qtbot.mouseMove(view.viewport(), pos=body_point(view, 1))
    assert view.viewport().cursor().shape() == Qt.CursorShape.IBeamCursor
    # another row under the mouse: this one's buttons go, that one's come
    qtbot.mouseMove(view.viewport(), pos=body_point(view, 2))
    shot = image(view)
    assert inks(shot, area) == {rgb(colors.card)}
    assert len(inks(shot, button_area(view, 2))) > 1


def test_clicking_an_action_button_says_which_and_opens_no_editor(qtbot, view: TranscriptView) -> None:
    with_actions(view, [row(1, "user", "a question"), row(2, "assistant", REPLY)])
    reply = view.model().index(1, 0)
    copy, regenerate, _continue = view.action_buttons(reply)
    qtbot.mouseMove(view.viewport(), pos=regenerate.rect.center().toPoint())
    with qtbot.waitSignal(view.message_action, timeout=1000) as said:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=regenerate.rect.center().toPoint())
    assert said.args == [1, "regenerate"]
    assert view.delegate.editor is None  # a button is not the text
    [_copy, edit] = view.action_buttons(view.model().index(0, 0))
    with qtbot.waitSignal(view.message_action, timeout=1000) as said:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=edit.rect.center().toPoint())
    assert said.args == [0, "edit"]
    assert view.delegate.editor is None
    # pressed on one button, released elsewhere: nothing, as with any button; and the drag
    # selects neither rows nor text
    selected = view.selectionModel().selectedIndexes()
    with qtbot.assertNotEmitted(view.message_action):
        qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=copy.rect.center().toPoint())
        assert view.delegate.pressed_action == (2, REPLY, "copy")
        qtbot.mouseMove(view.viewport(), pos=body_point(view, 0))
        qtbot.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                           pos=regenerate.rect.center().toPoint())
    assert view.delegate.editor is None and view.delegate.pressed_action is None
    assert view.selectionModel().selectedIndexes() == selected
    # Copy ticks for a moment
    with qtbot.waitSignal(view.message_action, timeout=1000) as said:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=copy.rect.center().toPoint())
    assert said.args == [1, "copy"]
    assert view.delegate.copied_action == (2, REPLY)
    qtbot.waitUntil(lambda: view.delegate.copied_action is None, timeout=5000)
    # a double click does it once
    said_twice: list[tuple[int, str]] = []
    view.message_action.connect(lambda i, n: said_twice.append((i, n)))
    at = regenerate.rect.center()
    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    for kind, buttons in ((QMouseEvent.Type.MouseButtonPress, left),
                          (QMouseEvent.Type.MouseButtonRelease, none),
                          (QMouseEvent.Type.MouseButtonDblClick, left),
                          (QMouseEvent.Type.MouseButtonRelease, none)):
        QApplication.sendEvent(view.viewport(), QMouseEvent(
            kind, at, view.viewport().mapToGlobal(at), left, buttons,
            Qt.KeyboardModifier.NoModifier))
    assert said_twice == [(1, "regenerate")]
    # the rest of the row works as before: its code block's Copy, and its text selects
    [code] = view.code_blocks(reply)
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=code.copy.center().toPoint())
    assert QGuiApplication.clipboard().text() == CODE
    assert view.delegate.editor is None
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=body_point(view, 1))
    editor = view.delegate.editor
    assert editor is not None
    # with the message open for selection, its buttons show and still work
    assert not editor.geometry().intersects(regenerate.rect.toAlignedRect())
    with qtbot.waitSignal(view.message_action, timeout=1000) as said:
        qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton,
                         pos=regenerate.rect.center().toPoint())
    assert said.args == [1, "regenerate"]


def test_rows_offering_nothing_keep_their_height_and_the_streaming_reply_has_no_buttons(
    view: TranscriptView,
) -> None:
    rows = [row(1, "user", "a question"), row(2, "assistant", REPLY),
            row(3, "tool", "search → 2 hits"), row(0, "assistant", "partial", "streaming")]
    model = show(view, rows)
    before = [view.visualRect(model.index(n, 0)).height() for n in range(4)]
    view.set_action_provider(lambda message: offers(message) if message.id == 2 else [])
    view.doItemsLayout()
    QApplication.processEvents()
    after = [view.visualRect(model.index(n, 0)).height() for n in range(4)]
    assert after[0] == before[0] and after[2] == before[2] and after[3] == before[3]
    assert 16 <= after[1] - before[1] <= 30  # a thin strip under the reply, for its buttons
    for number in (0, 2, 3):
        laid = view.row_layout(model.index(number, 0))
        assert laid is not None and laid.actions is None
        assert view.action_buttons(model.index(number, 0)) == []
    # offered to every row: the reply still being written gets none
    view.set_action_provider(lambda message: [("copy", "Copy")])
    view.doItemsLayout()
    QApplication.processEvents()
    streaming = model.index(3, 0)
    assert view.visualRect(streaming).height() == before[3]
    assert view.action_buttons(streaming) == []
    assert view.row_layout(model.index(0, 0)).actions is not None  # type: ignore[union-attr]
    # the same document serves both: no second Markdown pass for the strip
    docs = {id(laid.doc) for key, laid in view.delegate._docs.items() if key[0] == 2}
    assert len(docs) == 1


def test_hovering_never_changes_a_height(qtbot, view: TranscriptView) -> None:
    model = with_actions(view, [row(1, "user", "q"), row(2, "assistant", REPLY),
                                row(3, "user", "and?"), row(4, "assistant", "a short one")])
    rects = [view.visualRect(model.index(n, 0)) for n in range(4)]
    hints = [view.sizeHintForRow(n) for n in range(4)]
    for number in range(4):
        qtbot.mouseMove(view.viewport(), pos=body_point(view, number))
        for button in view.action_buttons(model.index(number, 0)):
            qtbot.mouseMove(view.viewport(), pos=button.rect.center().toPoint())
        image(view)
        assert [view.visualRect(model.index(n, 0)) for n in range(4)] == rects
        assert [view.sizeHintForRow(n) for n in range(4)] == hints


def test_the_current_row_of_the_focused_transcript_shows_its_buttons_and_takes_alt_keys(
    qtbot,
) -> None:
    from PySide6.QtGui import QKeySequence, QShortcut
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    window = QWidget()
    qtbot.addWidget(window)
    view = TranscriptView()
    QVBoxLayout(window).addWidget(view)
    menus: list[int] = []  # a window shortcut on the same key does not take it
    QShortcut(QKeySequence("Alt+R"), window).activated.connect(lambda: menus.append(1))
    model = TranscriptModel()
    view.setModel(model)
    model.set_rows([row(1, "user", "q"), row(2, "assistant", "an answer")])
    view.set_action_provider(offers)
    window.resize(700, 400)
    window.show()
    window.activateWindow()
    qtbot.waitActive(window)
    view.setCurrentIndex(model.index(1, 0))
    view.setFocus()
    qtbot.waitUntil(view.hasFocus)
    colors = row_colors(view.palette(), "assistant", selected=True)
    assert len(inks(image(view), button_area(view, 1))) > 1  # shown without the mouse
    assert [b.key.toString() for b in view.action_buttons(model.index(1, 0))] == [
        "Alt+C", "Alt+R", "Alt+O"]
    with qtbot.waitSignal(view.message_action, timeout=1000) as said:
        qtbot.keyClick(view, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
    assert said.args == [1, "regenerate"] and menus == []
    with qtbot.assertNotEmitted(view.message_action):
        qtbot.keyClick(view, Qt.Key.Key_E, Qt.KeyboardModifier.AltModifier)  # not offered here
    # the focus gone, so are the buttons
    view.clearFocus()
    qtbot.waitUntil(lambda: not view.hasFocus())
    assert inks(image(view), button_area(view, 1)) == {rgb(colors.card)}
    # Alt+R elsewhere in the window stays the window's
    qtbot.keyClick(window, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)
    assert menus == [1]


def test_button_labels_and_keys() -> None:
    assert plain_label("&Copy") == "Copy"
    assert plain_label("コピー(&C)") == "コピー"
    assert plain_label("Save && close") == "Save & close"
    keys = action_keys([("copy", "Copy"), ("regenerate", "Regenerate"), ("continue", "Continue"),
                        ("edit", "Edit")])
    assert {name: key.toString() for name, key in keys.items()} == {
        "copy": "Alt+C", "regenerate": "Alt+R", "continue": "Alt+O", "edit": "Alt+E"}
    assert action_keys([("continue", "Co&ntinue")])["continue"].toString() == "Alt+N"
    assert action_keys([("copy", "コピー(&C)")])["copy"].toString() == "Alt+C"


# ----- the end of the conversation ------------------------------------------------------------
def test_a_long_day_opens_at_its_newest_message_once_laid_out(qtbot, view: TranscriptView) -> None:
    """Rows are laid out in batches after they are set; the view lands on the newest one
    when that is done, not where the first batch ended."""
    model = view.model()
    assert isinstance(model, TranscriptModel)
    model.set_rows([row(i, "user" if i % 2 else "assistant", f"message {i}\n\nsecond line")
                    for i in range(1, 601)])
    view.follow_end()
    bar = view.verticalScrollBar()
    newest = model.index(599, 0)
    qtbot.waitUntil(lambda: view.visualRect(newest).intersects(view.viewport().rect())
                    and bar.value() == bar.maximum(), timeout=10000)
    assert view.following


def _long_day(view: TranscriptView, qtbot, count: int = 600) -> TranscriptModel:
    model = view.model()
    assert isinstance(model, TranscriptModel)
    model.set_rows([row(i, "user" if i % 2 else "assistant", f"message {i}\n\nmore")
                    for i in range(1, count + 1)])
    view.follow_end()
    bar = view.verticalScrollBar()
    last = model.index(count - 1, 0)
    qtbot.waitUntil(lambda: view.visualRect(last).isValid() and bar.value() == bar.maximum(),
                    timeout=10000)
    qtbot.wait(100)  # the layout settled: from here on, one pass from remembered heights
    return model


def _settle(qtbot, view: TranscriptView) -> None:
    """Until the view has made its last move: the layout Qt schedules for the next turn
    of the event loop runs first, then the batches and the held row (``settled``)."""
    from PySide6.QtWidgets import QApplication

    QApplication.processEvents()
    qtbot.waitUntil(lambda: view.settled, timeout=10000)


def test_a_reply_growing_on_a_long_day_stays_in_view_while_followed(qtbot, view: TranscriptView) -> None:
    model = _long_day(view, qtbot)
    model.append(row(0, "assistant", "…", "streaming"))
    view.follow_end()
    bar = view.verticalScrollBar()
    seen: list[tuple[int, int]] = []
    bar.valueChanged.connect(lambda value: seen.append((value, bar.maximum())))
    for k in range(1, 6):
        model.update_last_text("a reply that grows\n\n" * (3 * k))
        if view.following:
            view.scrollToBottom()
        _settle(qtbot, view)
    assert view.following and bar.value() == bar.maximum()
    # it never went back to the top of the day on the way (a batched pass would)
    assert all(value > bar.maximum() // 2 for value, _ in seen)


def test_reading_higher_up_keeps_its_place_while_a_reply_grows_and_is_stored(qtbot, view: TranscriptView) -> None:
    model = _long_day(view, qtbot)
    model.append(row(0, "assistant", "…", "streaming"))
    view.follow_end()
    bar = view.verticalScrollBar()
    bar.triggerAction(bar.SliderAction.SliderPageStepSub)  # the person pages up to read
    bar.setValue(bar.maximum() // 2)
    assert not view.following
    reading = view.top_row()
    for k in range(1, 4):
        model.update_last_text("a reply that grows\n\n" * (3 * k))
        _settle(qtbot, view)
    assert view.top_row() == reading
    # the reply is stored and the day read again (MainWindow.set_messages(..., None))
    top_id = model.rows[reading].id
    model.set_rows([*model.rows[:-1], row(601, "assistant", "the stored reply")])
    view.keep_at_top(model.row_of_message(top_id))
    qtbot.waitUntil(lambda: view.top_row() == reading, timeout=10000)
    _settle(qtbot, view)  # its last move made
    assert view.top_row() == reading and not view.following


def test_a_revealed_message_past_the_first_batch_is_shown_once_laid_out(qtbot, view: TranscriptView) -> None:
    """A search hit or a TI line opens a long day on that message, not at the top."""
    model = view.model()
    assert isinstance(model, TranscriptModel)
    model.set_rows([row(i, "user" if i % 2 else "assistant", f"message {i}\n\nsecond line")
                    for i in range(1, 601)])
    hit = model.index(550, 0)
    view.reveal(hit)
    qtbot.waitUntil(lambda: view.visualRect(hit).intersects(view.viewport().rect()),
                    timeout=10000)
    assert view.currentIndex().row() == 550 and not view.following
