"""The window in daily use (issue 29 and after): never frozen, never too wide, drafts that
stay put, keyboard focus, reply versions, attached files and their thumbnails."""

from __future__ import annotations

import threading
import time

from PySide6.QtCore import Qt

from cms.settings import Settings
from monet_app.services.gateway import AnthropicModel, make_client
from tests.test_app import messages, type_and_enter, wait_idle


def ctrl(qtbot, c, number: int) -> None:
    """Ctrl+number from the composer, as the person presses it (shortcuts need the
    window active)."""
    c.window.activateWindow()
    c.window.compose.field.setFocus()
    qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)
    qtbot.keyClick(c.window.compose.field, Qt.Key(Qt.Key.Key_0 + number),
                   Qt.KeyboardModifier.ControlModifier)


# ----- 2: the first send never waits for the SDK on the GUI thread -----------------------
def test_the_first_send_paints_before_the_model_is_made(qtbot, app_for, server) -> None:
    """The chat model (the SDK's import, the key) is made on the reply's worker: the
    message is in the transcript while making it still takes its time."""
    release = threading.Event()
    made_on: list[threading.Thread] = []

    def slow(settings: Settings) -> AnthropicModel:
        made_on.append(threading.current_thread())
        release.wait(10)
        return AnthropicModel(make_client("sk-ant-test-key-123456", base_url=server.url,
                                          max_retries=0))

    c = app_for(factory=slow)
    type_and_enter(qtbot, c, "hello on a fresh start")
    assert [r.text for r in c.window.transcript.model.rows if r.role == "user"] == ["hello on a fresh start"]
    assert c.window.compose.field.toPlainText() == ""
    qtbot.waitUntil(lambda: bool(made_on), timeout=5000)
    assert made_on[0] is not threading.main_thread()
    started = time.perf_counter()
    qtbot.wait(50)  # the event loop turns while the model is being made
    assert time.perf_counter() - started < 1.0
    release.set()
    wait_idle(qtbot, c)
    assert messages(c)[-1].role == "assistant"


def test_a_missing_key_on_the_first_send_is_said_and_the_message_kept(qtbot, app_for) -> None:
    from cms.model.errors import ModelError

    def no_key(settings: Settings) -> AnthropicModel:
        raise ModelError("No API key.", code="missing_key")

    c = app_for(factory=no_key)
    type_and_enter(qtbot, c, "typed before any key")
    qtbot.waitUntil(lambda: c.window.error_box.isVisible(), timeout=5000)
    assert "API" in c.window.error_label.text()
    assert [m.text for m in messages(c)] == ["typed before any key"]
    assert not c.stream.busy and c.window.compose.send_button.isEnabled()


# ----- 3 and 4: drafts per tab; Continue and edit-and-resend keep the draft ---------------
def test_drafts_stay_with_the_tab_they_were_typed_in(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    c = app_for(home)
    c.window.compose.field.setFocus()
    qtbot.keyClicks(c.window.compose.field, "for chat")
    ctrl(qtbot, c, 2)
    assert c.window.current_tab() == "research"
    assert c.window.compose.field.toPlainText() == ""  # Enter would not file it under Research
    qtbot.keyClicks(c.window.compose.field, "for research")
    ctrl(qtbot, c, 1)
    assert c.window.compose.field.toPlainText() == "for chat"
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert [(m.tab, m.text) for m in messages(c) if m.role == "user"] == [("chat", "for chat")]
    ctrl(qtbot, c, 2)
    assert c.window.compose.field.toPlainText() == "for research"
    c.window.close()
    c.close()
    again = app_for(home)
    again.window.select_tab("chat")
    assert again.window.compose.field.toPlainText() == ""  # sent
    again.window.select_tab("research")
    assert again.window.compose.field.toPlainText() == "for research"  # kept across quitting


def test_an_older_single_draft_goes_to_the_tab_shown(qtbot, app_for, tmp_path) -> None:
    from storage import Database
    from storage.settings import write_value

    home = tmp_path / "home"
    db = Database(home)
    with db.session() as session:
        write_value(session, "composer_draft", "kept by an older MONET")
    db.close()
    c = app_for(home)
    assert c.window.compose.field.toPlainText() == "kept by an older MONET"


def test_a_draft_survives_edit_and_resend(qtbot, app_for) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "what is 2+2?")
    wait_idle(qtbot, c)
    qtbot.keyClicks(c.window.compose.field, "a thought for later")
    c.window.transcript.act_on_message(c.window.transcript.model.rows[0], "edit")
    assert c.window.compose.field.toPlainText() == "what is 2+2?"
    c.window.compose.field.selectAll()
    qtbot.keyClicks(c.window.compose.field, "what is 3+3?")
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    assert c.window.compose.field.toPlainText() == "a thought for later"
    assert not c.window.compose.edit_bar.isVisible()
    qtbot.waitUntil(lambda: len(messages(c)) == 2 and messages(c)[-1].role == "assistant",
                    timeout=10_000)
    wait_idle(qtbot, c)
    assert [m.text for m in messages(c) if m.role == "user"] == ["what is 3+3?"]
    assert c.window.compose.field.toPlainText() == "a thought for later"


def test_a_draft_survives_continue(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "tell me a long story")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.compose.stop_button.click()
    wait_idle(qtbot, c)
    qtbot.keyClicks(c.window.compose.field, "half a question")
    c.window.transcript.act_on_message(c.window.transcript.model.rows[-1], "continue")
    wait_idle(qtbot, c)
    assert messages(c)[-1].status == "complete"
    assert c.window.compose.field.toPlainText() == "half a question"


def test_switching_tabs_during_an_edit_cancels_it(qtbot, app_for) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "what is 2+2?")
    wait_idle(qtbot, c)
    qtbot.keyClicks(c.window.compose.field, "chat draft")
    c.window.transcript.act_on_message(c.window.transcript.model.rows[0], "edit")
    ctrl(qtbot, c, 2)
    assert not c.window.compose.edit_bar.isVisible() and c.window.compose.field.toPlainText() == ""
    ctrl(qtbot, c, 1)
    assert c.window.compose.field.toPlainText() == "chat draft"
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert [m.text for m in messages(c) if m.role == "user"] == ["what is 2+2?", "chat draft"]


# ----- 1: narrow windows ------------------------------------------------------------------
def test_long_status_texts_never_set_the_window_width(qtbot, app_for) -> None:
    c = app_for()
    w = c.window
    w.status_line.set_backup_status("Backed up at 2026-12-01 23:59 to /a/very/long/folder/name/" * 3, False)
    w.status_line.notify("A notice that goes on and on about something that happened just now " * 2)
    w.status_line.librarian_label.setText("Summarizing 12 · Indexing by meaning: 123,456 to go")
    assert w.minimumSizeHint().width() <= 640
    w.resize(640, 600)
    qtbot.wait(50)
    assert w.width() <= 660
    assert w.status_line.backup_label.toolTip().startswith("Backed up")  # the whole text, on hover


# ----- 5: Alt+C/E/R/O act on a row the person can see -------------------------------------
def _long_day(qtbot, app_for):
    """A window on a day of 40 messages, more than a screen, shown at its end."""
    from monet_app.operations.changes import EVERYTHING

    c = app_for()
    for n in range(40):
        c.core.context.commit_user_message(f"note {n}: " + "a line of text " * 8, "chat")
    c.refresh(EVERYTHING)
    view = c.window.transcript.view
    qtbot.waitUntil(lambda: view.verticalScrollBar().maximum() > 0, timeout=5000)
    view.follow_end()
    qtbot.wait(300)
    return c


def test_keyboard_focus_lands_on_a_row_in_sight_and_alt_keys_need_one(qtbot, app_for) -> None:
    from PySide6.QtGui import QGuiApplication

    c = _long_day(qtbot, app_for)
    view = c.window.transcript.view
    c.window.activateWindow()
    c.window.compose.field.setFocus()
    qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)
    view.setCurrentIndex(view.model().index(0, 0))  # an old current row, far above
    view.verticalScrollBar().setValue(view.verticalScrollBar().maximum())
    c.window.compose.field.setFocus()
    view.setFocus(Qt.FocusReason.BacktabFocusReason)  # Shift+Tab into the transcript
    current = view.currentIndex()
    assert view.visualRect(current).intersects(view.viewport().rect())
    assert current.row() >= 30  # the newest in view, not the day's first message
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)
    assert QGuiApplication.clipboard().text() == c.window.transcript.model.rows[current.row()].text
    view.verticalScrollBar().setValue(0)  # the current row scrolled out of sight
    QGuiApplication.processEvents()  # the scroll applied
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.AltModifier)
    assert QGuiApplication.clipboard().text() == ""  # nothing done to a row not seen


# ----- the chat apps' reading comforts: code coloured, headings sized ----------------------
def _styled(markdown: str, theme: str = "light"):
    from PySide6.QtGui import QFont, QTextDocument

    from ui.look import palette_for
    from ui.transcript.colors import row_colors
    from ui.transcript.markdown import _style_document, keep_line_breaks

    doc = QTextDocument()
    font = QFont()
    font.setPointSizeF(11)
    doc.setDefaultFont(font)
    doc.setMarkdown(keep_line_breaks(markdown))
    _style_document(doc, markdown, font, row_colors(palette_for(theme)))
    return doc


def _format_at(doc, word: str):
    from PySide6.QtGui import QTextCursor

    at = doc.toPlainText().index(word)
    cursor = QTextCursor(doc)
    cursor.setPosition(at + 1)
    return cursor.charFormat()


def test_code_is_coloured_by_its_language_in_both_palettes(qapp) -> None:
    from ui.transcript.syntax import PALETTE

    source = "Try:\n\n```python\ndef total(xs):\n    return sum(xs)  # all of them\n```\n"
    for theme, column in (("light", 0), ("dark", 1)):
        doc = _styled(source, theme)
        assert _format_at(doc, "def").foreground().color().name() == PALETTE["keyword"][column]
        assert _format_at(doc, "# all").foreground().color().name() == PALETTE["comment"][column]
        assert _format_at(doc, "total").foreground().color().name() == PALETTE["function"][column]
    plain = _styled("```\ndef total(xs): pass\n```\n")  # no language named: left plain
    assert _format_at(plain, "def").foreground().color().name() not in {
        light for light, _dark in PALETTE.values()}


def test_syntax_colours_read_at_4_5_to_1_on_code_backgrounds(qapp) -> None:
    from PySide6.QtGui import QColor

    from ui.look import palette_for
    from ui.transcript.colors import contrast_ratio, row_colors
    from ui.transcript.syntax import PALETTE

    for theme, column in (("light", 0), ("dark", 1)):
        for role in ("assistant", "user"):
            code = row_colors(palette_for(theme), role).code
            for kind, colours in PALETTE.items():
                ratio = contrast_ratio(QColor(colours[column]), code)
                assert ratio >= 4.5, (theme, role, kind, round(ratio, 2))


def test_headings_are_a_step_larger_per_level(qapp) -> None:
    doc = _styled("# Big\n\n## Middle\n\n### Small\n\nbody text")
    # the size the layout uses (the format's font), not only the property set on it
    sizes = [_format_at(doc, word).font().pointSizeF() for word in ("Big", "Middle", "Small")]
    body = _format_at(doc, "body").font().pointSizeF()
    assert sizes[0] > sizes[1] > sizes[2] > body
    assert sizes[0] >= body * 1.4
    plain = _styled("Big\n\nMiddle\n\nSmall\n\nbody text")
    doc.setTextWidth(400)
    plain.setTextWidth(400)
    assert doc.size().height() > plain.size().height()  # laid out larger, not just labelled


def test_jump_to_latest_shows_while_the_end_is_out_of_sight(qtbot, app_for) -> None:
    c = _long_day(qtbot, app_for)
    view = c.window.transcript.view
    assert not view.jump_button.isVisible()  # at the end: nothing to jump to
    view.verticalScrollBar().triggerAction(view.verticalScrollBar().SliderAction.SliderToMinimum)
    qtbot.waitUntil(lambda: view.jump_button.isVisible(), timeout=3000)
    assert view.jump_button.text() in ("↓ Latest", "↓ 最新へ")
    assert view.viewport().geometry().contains(view.jump_button.geometry().center())
    qtbot.mouseClick(view.jump_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: view.at_end() and not view.jump_button.isVisible(), timeout=3000)


def test_the_model_is_chosen_beside_the_composer(qtbot, app_for, server) -> None:
    c = app_for()
    box = c.window.compose.model_box
    assert box.currentData() == c.core.settings.model and box.currentText() == "Sonnet 4.6"
    index = box.findData("claude-haiku-4-5")
    box.activated.emit(index)  # as a pick from the list does
    assert c.core.settings.model == "claude-haiku-4-5"
    type_and_enter(qtbot, c, "which model answers?")
    wait_idle(qtbot, c)
    assert server.requests[-1]["model"] == "claude-haiku-4-5"
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "a long answer please")
    qtbot.waitUntil(lambda: c.stream.busy, timeout=5000)
    box.activated.emit(box.findData("claude-opus-4-8"))  # refused mid-reply, and said
    assert c.core.settings.model == "claude-haiku-4-5"
    assert box.currentData() == "claude-haiku-4-5" and c.window.error_box.isVisible()
    wait_idle(qtbot, c)


# ----- reply versions: regenerate keeps the earlier reply to flip back to -----------------
def _latest_reply_row(c):
    return next(r for r in reversed(c.window.transcript.model.rows) if r.role == "assistant")


def test_regenerated_replies_are_versions_to_flip_between(qtbot, app_for, server) -> None:
    import json

    from storage.talk import reply_versions

    c = app_for()
    server.replies.append("the first answer")
    type_and_enter(qtbot, c, "what should I cook?")
    wait_idle(qtbot, c)
    assert not {"older", "newer"} & set(c.window.transcript.message_actions(_latest_reply_row(c)))
    for answer in ("the second answer", "the third answer"):
        server.replies.append(answer)
        sent = len(server.requests)
        c.window.transcript.act_on_message(_latest_reply_row(c), "regenerate")
        qtbot.waitUntil(lambda sent=sent: len(server.requests) == sent + 1, timeout=5000)
        wait_idle(qtbot, c)
        qtbot.waitUntil(lambda a=answer: _latest_reply_row(c).text == a, timeout=5000)
    reply = _latest_reply_row(c)
    actions = c.window.transcript.message_actions(reply)
    assert "older" in actions and "newer" not in actions
    labels = dict(c.window.transcript.view.delegate.provider(reply))
    assert labels["older"] == "◀ 3/3"
    c.window.transcript.act_on_message(reply, "older")
    qtbot.waitUntil(lambda: _latest_reply_row(c).text == "the second answer", timeout=5000)
    c.window.transcript.act_on_message(_latest_reply_row(c), "older")
    qtbot.waitUntil(lambda: _latest_reply_row(c).text == "the first answer", timeout=5000)
    assert dict(c.window.transcript.view.delegate.provider(_latest_reply_row(c)))["newer"] == "1/3 ▶"
    stored = messages(c)
    assert [m.role for m in stored] == ["user", "assistant"]  # one reply in the conversation
    server.replies.append("noted")
    type_and_enter(qtbot, c, "and for dessert?")
    wait_idle(qtbot, c)
    body = json.dumps(server.requests[-1]["messages"], ensure_ascii=False)
    assert "the first answer" in body  # Claude reads the version shown, only it
    assert "the second answer" not in body and "the third answer" not in body
    asked = stored[0].id
    assert asked is not None
    with c.core.db.session() as session:
        assert len(reply_versions(session, asked)) == 3


def test_forgetting_a_message_takes_its_reply_versions_with_it(tmp_path) -> None:
    from sqlmodel import select

    from storage import Database
    from storage.models import Message, MessageRole, ReplyVersion

    db = Database(tmp_path / "home")
    with db.session() as session:
        from storage.talk import day_thread_id

        thread = day_thread_id(session, "2026-12-01", "2026-12-01T09:00:00+00:00")
        person = Message(thread_id=thread, day="2026-12-01", tab="chat", tab_label="Chat",
                         role=MessageRole.USER, text="hi", ts="2026-12-01T09:00:00+00:00",
                         token_estimate=1)
        session.add(person)
        session.flush()
        assert person.id is not None
        for number in (1, 2):
            session.add(ReplyVersion(user_message_id=person.id, number=number,
                                     text=f"answer {number}", ts=person.ts,
                                     current=number == 2))
        session.commit()
        person_id = person.id
    from datetime import UTC, datetime

    from cms.memory import forget

    forget.hide_messages(db, [person_id], datetime(2026, 12, 1, tzinfo=UTC))  # forgotten
    with db.session() as session:
        assert session.exec(select(ReplyVersion)).all() == []
    db.close()


def test_a_silent_wait_for_the_first_words_is_said(qtbot, app_for, server) -> None:
    """While the SDK retries a busy API (or the first words are slow), the growing row
    says it is waiting rather than showing a bare '…'."""
    c = app_for()
    c.stream._waiting.setInterval(100)
    server.failures.append({"sleep": 1.0})
    type_and_enter(qtbot, c, "are you there?")
    qtbot.waitUntil(lambda: c.window.transcript.model.rows[-1].text == c.stream.waiting_text(),
                    timeout=3000)
    wait_idle(qtbot, c)
    assert messages(c)[-1].role == "assistant"


# ----- the low list -----------------------------------------------------------------------
def test_the_memory_panel_opens_on_its_first_item_and_delete_forgets(qtbot) -> None:
    from tests.test_window_parts import Memories
    from ui.memory_dialog import MemoryDialog

    m = Memories()
    dialog = MemoryDialog(m.load, m.edit, m.delete)
    qtbot.addWidget(dialog)
    assert dialog.items.currentRow() == 0 and dialog.delete_button.isEnabled()
    assert all(not dialog.items.item(i).text().startswith("You asked")
               for i in range(dialog.items.count()))
    dialog.show()
    dialog.items.setFocus()
    qtbot.waitUntil(lambda: dialog.items.hasFocus(), timeout=3000)
    qtbot.keyClick(dialog.items, Qt.Key.Key_Delete)
    assert not dialog.undo_bar.isHidden()
    assert dialog.undo_label.text().endswith("my bike is green")


def test_a_one_message_timeline_line_shows_one_time() -> None:
    from monet_app.window.navigator import _span
    from storage.models import TimelineEntry, TimelineLevel

    one = TimelineEntry(level=TimelineLevel.SEGMENT, day_from="2026-12-01",
                        day_to="2026-12-01", start_ts="2026-12-01T09:00:00+09:00",
                        end_ts="2026-12-01T09:00:30+09:00", tabs="chat",
                        first_message_id=1)
    assert _span(one) == "09:00"
    one.end_ts = "2026-12-01T09:40:00+09:00"
    assert _span(one) == "09:00–09:40"


def test_the_thread_model_hides_the_tabs_and_lists_threads_newest_first(qtbot, app_for) -> None:
    from dataclasses import replace

    c = app_for()
    assert c.apply_settings(replace(c.settings_values(), sunset_model=False)) is None
    type_and_enter(qtbot, c, "in the first thread")
    wait_idle(qtbot, c)
    qtbot.mouseClick(c.window.days.new_thread_button, Qt.MouseButton.LeftButton)
    type_and_enter(qtbot, c, "in the second thread")
    wait_idle(qtbot, c)
    assert not c.window.tab_bar.isVisible()
    threads = [c.window.days.list.item(i).data(Qt.ItemDataRole.UserRole + 2)
               for i in range(c.window.days.list.count())]
    ids = [t.id for t in threads]
    assert ids == sorted(ids, reverse=True)  # newest first, as the days
    assert c.apply_settings(replace(c.settings_values(), sunset_model=True)) is None
    assert c.window.tab_bar.isVisible()


# ----- issue 30 in the window: files by the 📎 button, a paste, a drop -------------------
def test_files_attached_in_the_window_go_with_the_message(qtbot, app_for, server, tmp_path) -> None:
    from tests.test_attachments import pdf, png

    (tmp_path / "menu.png").write_bytes(png(2000, 1500))
    (tmp_path / "letter.pdf").write_bytes(pdf(2))
    (tmp_path / "notes.zip").write_bytes(b"PK\x03\x04\x00\x00binary")
    c = app_for()
    w = c.window
    qtbot.keyClicks(w.compose.field, "what do these say?")
    w.compose.files_chosen.emit([str(tmp_path / "menu.png"), str(tmp_path / "letter.pdf")])
    qtbot.waitUntil(lambda: len(c.attach.pending) == 2 and w.compose.chips.isVisible(), timeout=10_000)
    w.compose.files_chosen.emit([str(tmp_path / "notes.zip")])  # refused, in words; nothing lost
    qtbot.waitUntil(lambda: w.error_box.isVisible(), timeout=10_000)
    assert "notes.zip" in w.error_label.text() and len(c.attach.pending) == 2
    assert w.compose.field.toPlainText() == "what do these say?"
    qtbot.keyClick(w.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert not w.compose.chips.isVisible() and c.attach.pending == []
    user_row = next(r for r in w.transcript.model.rows if r.role == "user")
    assert [f.name for f in user_row.files] == ["menu.png", "letter.pdf"]
    content = server.requests[-1]["messages"][0]["content"]
    assert [b["type"] for b in content] == ["image", "document", "text"]


def test_a_pasted_picture_becomes_a_chip_that_can_be_taken_off(qtbot, app_for) -> None:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QColor, QImage

    c = app_for()
    w = c.window
    image = QImage(64, 48, QImage.Format.Format_RGB32)
    image.fill(QColor("orange"))
    mime = QMimeData()
    mime.setImageData(image)
    w.compose.field.insertFromMimeData(mime)
    qtbot.waitUntil(lambda: len(c.attach.pending) == 1, timeout=10_000)
    assert c.attach.pending[0].media_type == "image/png"
    assert c.attach.pending[0].name.startswith("pasted-")
    assert w.compose.field.toPlainText() == ""  # not pasted as text
    w.compose.attachment_removed.emit(0)
    assert c.attach.pending == [] and not w.compose.chips.isVisible()


def test_a_picture_alone_can_be_sent(qtbot, app_for, server, tmp_path) -> None:
    from tests.test_attachments import png

    (tmp_path / "photo.png").write_bytes(png(40, 30))
    c = app_for()
    c.window.compose.files_chosen.emit([str(tmp_path / "photo.png")])
    qtbot.waitUntil(lambda: len(c.attach.pending) == 1, timeout=10_000)
    c.window.compose.field.setFocus()
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert [m.role for m in messages(c)] == ["user", "assistant"]
    assert [b["type"] for b in server.requests[-1]["messages"][0]["content"]] == ["image",
                                                                                  "text"]


def test_shift_tab_from_the_field_still_reaches_the_transcript(qtbot, app_for) -> None:
    """The + button sits left of the field but out of the Tab order (Ctrl+Shift+A)."""
    c = app_for()
    c.window.activateWindow()
    c.window.compose.field.setFocus()
    qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Backtab, Qt.KeyboardModifier.ShiftModifier)
    assert not c.window.compose.attach_button.hasFocus()
    assert c.window.transcript.view.hasFocus()


def _sent_with_files(qtbot, c, server, folder):
    """A picture, a second picture and a PDF sent with a message; its row."""
    from tests.test_attachments import pdf, png

    (folder / "menu.png").write_bytes(png(2000, 1000))
    (folder / "receipt.png").write_bytes(png(300, 600, (20, 90, 200)))
    (folder / "letter.pdf").write_bytes(pdf(2))
    w = c.window
    w.compose.files_chosen.emit([str(folder / n) for n in ("menu.png", "letter.pdf", "receipt.png")])
    qtbot.waitUntil(lambda: len(c.attach.pending) == 3, timeout=10_000)
    qtbot.keyClicks(w.compose.field, "what do these say?")
    qtbot.keyClick(w.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    return next(i for i, r in enumerate(w.transcript.model.rows) if r.files)


def test_the_transcript_shows_thumbnails_and_chips_that_open(qtbot, app_for, server,
                                                             tmp_path) -> None:
    from PySide6.QtCore import QPointF

    c = app_for()
    w = c.window
    number = _sent_with_files(qtbot, c, server, tmp_path)
    row = w.transcript.model.rows[number]
    assert [f.name for f in row.files] == ["menu.png", "letter.pdf", "receipt.png"]
    menu = row.files[0]
    assert (menu.width, menu.height) == (1568, 784)  # the preview is what was sent
    index = w.transcript.model.index(number)
    w.transcript.view.scrollTo(index)
    laid = w.transcript.view.row_layout(index)
    assert laid is not None and [t.number for t in laid.files] == [0, 1, 2]
    thumb = laid.files[0].rect
    assert thumb.width() <= 260 and thumb.height() <= 150
    assert abs(thumb.width() / thumb.height() - 2.0) < 0.05  # the picture's shape
    assert laid.bubble is not None and laid.bubble.top() >= thumb.bottom()  # words below
    delegate = w.transcript.view.delegate
    w.transcript.view.viewport().repaint()
    qtbot.waitUntil(lambda: any(k[0] == menu.preview for k in delegate.thumbnails._images),
                    timeout=10_000)
    [read] = [image for k, image in delegate.thumbnails._images.items() if k[0] == menu.preview]
    assert (read.width(), read.height()) == (int(thumb.width()), int(thumb.height()))
    seen = read.pixelColor(read.width() // 2, read.height() // 2)
    assert max(abs(seen.red() - 200), abs(seen.green() - 80), abs(seen.blue() - 40)) < 8
    # a click on the picture shows it large; → the row's next picture; Esc closes
    origin = QPointF(w.transcript.view.visualRect(index).topLeft())
    qtbot.mouseClick(w.transcript.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=(thumb.center() + origin).toPoint())
    viewer = w.transcript.picture_viewer
    assert viewer is not None
    qtbot.waitUntil(viewer.isVisible, timeout=3000)
    qtbot.waitUntil(lambda: viewer._image is not None, timeout=10_000)
    assert viewer.shown.path == menu.path != menu.preview  # the original, not the preview
    screen = viewer.screen().availableGeometry()  # read to fit the screen
    assert viewer._image.width() == min(2000, screen.width(), 2 * screen.height())
    qtbot.keyClick(viewer, Qt.Key.Key_Right)
    assert viewer.shown.name == "receipt.png"
    qtbot.keyClick(viewer, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not viewer.isVisible(), timeout=3000)
    # a click on the document asks the system's viewer for it
    asked: list[object] = []
    w.transcript.file_open_requested.disconnect()
    w.transcript.file_open_requested.connect(asked.append)
    chip = laid.files[1].rect
    qtbot.mouseClick(w.transcript.view.viewport(), Qt.MouseButton.LeftButton,
                     pos=(chip.center() + origin).toPoint())
    assert asked == [row.files[1]]


def test_a_document_opens_under_a_safe_name_in_a_private_folder(tmp_path) -> None:
    import stat

    from cms.attachments import viewer_name
    from monet_app.operations.attaching import file_to_open
    from tests.test_attachments import pdf

    stored = tmp_path / ("ab" * 32)  # as the data folder names it: by its hash
    stored.write_bytes(pdf(1))
    copy = file_to_open(str(stored), "../school letter?.pdf", "application/pdf").value
    assert copy.name == "school letter_.pdf" and copy.read_bytes() == stored.read_bytes()
    folder = copy.parent.parent
    assert folder.name.startswith("monet-open-") and tmp_path not in copy.parents
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700  # this user's only
    # what the bytes are decides the suffix: a text never opens as a program
    assert viewer_name("run.bat", "text/plain") == "run.bat.txt"
    assert viewer_name("photo.JPEG", "image/jpeg") == "photo.JPEG"
    assert viewer_name("evil\u202egnp.exe", "image/png") == "evil_gnp.exe.png"
    assert viewer_name("..", "application/pdf") == "file.pdf"
    long = viewer_name("長" * 200 + ".pdf", "application/pdf")
    assert len(long.encode()) <= 255 and long.endswith(".pdf")


def test_the_files_button_by_keys_and_a_past_day_shows_its_files(qtbot, app_for, server,
                                                                 tmp_path) -> None:
    import json

    from monet_app.services.replay import replay
    from tests.test_attachments import png

    (tmp_path / "photo.png").write_bytes(png(400, 300))
    trace = tmp_path / "t.jsonl"
    trace.write_text(json.dumps({
        "ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "my bike",
        "assistant": "Nice bike.", "attachments": ["photo.png"]}) + "\n", "utf-8")
    home = tmp_path / "home"
    replay(trace, home, tmp_path / "log.jsonl", meaning=False)
    c = app_for(home)
    w = c.window
    w.days.day_selected.emit("2026-03-02")
    qtbot.waitUntil(lambda: any(r.files for r in w.transcript.model.rows), timeout=10_000)
    number = next(i for i, r in enumerate(w.transcript.model.rows) if r.files)
    row = w.transcript.model.rows[number]
    assert [f.name for f in row.files] == ["photo.png"]
    assert "edit" not in w.transcript.message_actions(row) and "files" in w.transcript.message_actions(row)
    w.transcript.view.setFocus()
    w.transcript.view.setCurrentIndex(w.transcript.model.index(number))
    w.transcript.view.scrollTo(w.transcript.model.index(number))
    qtbot.keyClick(w.transcript.view, Qt.Key.Key_F, Qt.KeyboardModifier.AltModifier)
    viewer = w.transcript.picture_viewer
    assert viewer is not None and viewer.shown.name == "photo.png"
    qtbot.waitUntil(viewer.isVisible, timeout=3000)
    viewer.reject()
