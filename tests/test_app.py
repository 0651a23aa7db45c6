"""The desktop window, offscreen, driven the way a person uses it (pytest-qt)."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication
from sqlmodel import select

from cms.model.errors import MissingKeyError
from cms.settings import Settings
from monet_app.operations.changes import Changes
from monet_app.services.gateway import AnthropicModel
from monet_app.window.app import AppController
from storage.models import Event, Message
from tests.helpers import write_past_day

pytest.importorskip("pytestqt")


def messages(c: AppController) -> list[Message]:
    with c.core.db.session() as session:
        return list(session.exec(select(Message).order_by(Message.id)).all())  # type: ignore[arg-type]


def wait_idle(qtbot, c: AppController) -> None:
    qtbot.waitUntil(lambda: not c.stream.busy, timeout=10_000)


def type_and_enter(qtbot, c: AppController, text: str) -> None:
    c.window.compose.field.setFocus()
    qtbot.keyClicks(c.window.compose.field, text)
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)


def test_sending_stores_and_shows_the_message_and_streamed_reply(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.02})
    seen: list[str] = []
    c.stream.streamer.piece.connect(lambda _rid, text: seen.append(text))
    type_and_enter(qtbot, c, "Hello MONET, how are you today?")
    assert c.window.compose.field.toPlainText() == ""
    assert messages(c)[0].text == "Hello MONET, how are you today?"  # stored at once
    qtbot.waitUntil(lambda: c.window.transcript.model.rows and c.window.transcript.model.rows[-1].status == "streaming"
                    and len(c.window.transcript.model.rows[-1].text) > 1, timeout=5000)
    wait_idle(qtbot, c)
    assert len(seen) >= 3  # the reply arrived in pieces
    stored = messages(c)
    assert [m.role for m in stored] == ["user", "assistant"]
    rows = c.window.transcript.model.rows
    assert [r.role for r in rows] == ["user", "assistant"]
    assert rows[-1].text == stored[-1].text and rows[-1].status == "complete"
    assert "cache" in c.window.status_line.last_reply_label.text()


def test_enter_while_composing_japanese_does_not_send(qtbot, app_for, server) -> None:
    c = app_for()
    composer = c.window.compose.field
    composer.setFocus()
    composing = QInputMethodEvent("にほんご", [])
    QApplication.sendEvent(composer, composing)
    assert composer.composing
    qtbot.keyClick(composer, Qt.Key.Key_Return)
    assert messages(c) == [] and server.requests == []
    committed = QInputMethodEvent("", [])
    committed.setCommitString("日本語")
    QApplication.sendEvent(composer, committed)
    assert not composer.composing
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    composer.insertPlainText("です")  # QTest cannot type non-Latin-1 keys
    assert composer.toPlainText() == "日本語\nです" and messages(c) == []
    qtbot.keyClick(composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, c)
    assert messages(c)[0].text == "日本語\nです"


def test_switching_tabs_filters_the_view_and_sends_nothing(qtbot, app_for, server) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "chat message")
    wait_idle(qtbot, c)
    sent = len(server.requests)
    c.window.tab_bar.setCurrentIndex(2)  # 仕事 / work
    assert c.window.transcript.model.rowCount() == 0
    type_and_enter(qtbot, c, "work message")
    wait_idle(qtbot, c)
    assert c.window.transcript.model.rows[0].text == "work message"
    c.window.tab_bar.setCurrentIndex(0)
    assert c.window.transcript.model.rows[0].text == "chat message"
    assert len(server.requests) == sent + 1  # only the send went out
    with c.core.db.session() as session:
        names = [e.name for e in session.exec(select(Event)).all()]
    assert "tab_switch" in names
    # the work message was sent with the chat talk in the same body
    texts = json.dumps(server.requests[-1]["messages"], ensure_ascii=False)
    assert "chat message" in texts and "work message" in texts


def test_a_past_day_is_read_only_and_sending_posts_to_today(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    write_past_day(home)
    c = app_for(home)
    c.window.tab_bar.setCurrentIndex(0)
    items = [c.window.days.list.item(i).text() for i in range(c.window.days.list.count())]
    assert len(items) == 2 and "2025-01-05" in items[1]
    c.window.days.list.itemClicked.emit(c.window.days.list.item(1))
    assert c.window.read_only and c.window.banner.isVisible()
    assert [r.text for r in c.window.transcript.model.rows] == ["an old message from January", "an old reply"]
    type_and_enter(qtbot, c, "typed while the past day was open")
    wait_idle(qtbot, c)
    assert not c.window.read_only and c.nav.view_day == c.nav.today()
    stored = [m for m in messages(c) if m.text == "typed while the past day was open"]
    assert stored and stored[0].day == c.nav.today()
    assert c.window.transcript.model.rows[0].text == "typed while the past day was open"


def test_reply_lands_in_today_even_after_switching_tab_and_day(qtbot, app_for, server, tmp_path) -> None:
    home = tmp_path / "home"
    write_past_day(home)
    c = app_for(home)
    c.window.tab_bar.setCurrentIndex(0)
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "please answer slowly, I will wander off")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.tab_bar.setCurrentIndex(1)
    c.open_day("2025-01-05")
    wait_idle(qtbot, c)
    reply = messages(c)[-1]
    assert reply.role == "assistant" and reply.tab == "chat" and reply.day == c.nav.today()
    assert all("stand-in" not in r.text for r in c.window.transcript.model.rows)  # not in the past day


def test_stop_keeps_the_partial_reply(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.1})
    type_and_enter(qtbot, c, "a long answer please, " * 4)
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    assert c.window.compose.stop_button.isVisible()
    qtbot.mouseClick(c.window.compose.stop_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, c)
    reply = messages(c)[-1]
    assert reply.role == "assistant" and reply.status == "incomplete"
    assert c.window.transcript.model.rows[-1].status == "incomplete"


def test_api_error_shows_words_keeps_the_text_and_retry_works(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"status": 529, "type": "overloaded_error"})
    type_and_enter(qtbot, c, "are you there?")
    wait_idle(qtbot, c)
    assert c.window.error_box.isVisible() and "overloaded" in c.window.error_label.text()
    assert [m.text for m in messages(c)] == ["are you there?"]
    assert c.window.transcript.model.rows[0].text == "are you there?"
    qtbot.mouseClick(c.window.retry_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, c)
    assert not c.window.error_box.isVisible()
    assert [m.role for m in messages(c)] == ["user", "assistant"]


def test_without_a_key_the_app_opens_stores_and_says_so(qtbot, app_for) -> None:
    def no_key(settings: Settings) -> AnthropicModel:
        raise MissingKeyError("No Anthropic API key. Set ANTHROPIC_API_KEY.")

    c = app_for(factory=no_key)
    type_and_enter(qtbot, c, "offline note to self")
    qtbot.waitUntil(lambda: c.window.error_box.isVisible(), timeout=5000)  # (said by the
    assert "API key" in c.window.error_label.text()  # reply's worker, which makes the model)
    assert [m.text for m in messages(c)] == ["offline note to self"]
    assert c.window.transcript.model.rows[0].text == "offline note to self"


def test_the_flag_toggles_between_days_and_threads_losing_nothing(qtbot, app_for) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "sunset model message")
    wait_idle(qtbot, c)
    values = c.settings_values()
    from dataclasses import replace

    assert c.apply_settings(replace(values, sunset_model=False)) is None
    assert c.window.days.title.text() in ("Threads", "スレッド") and c.window.days.new_thread_button.isVisible()
    type_and_enter(qtbot, c, "thread model message")
    wait_idle(qtbot, c)
    qtbot.mouseClick(c.window.days.new_thread_button, Qt.MouseButton.LeftButton)
    type_and_enter(qtbot, c, "second thread message")
    wait_idle(qtbot, c)
    with c.core.db.session() as session:
        names = [e.name for e in session.exec(select(Event)).all()]
    assert "thread_switch_fold" in names
    assert c.apply_settings(replace(values, sunset_model=True)) is None
    assert c.window.days.title.text() in ("Days", "日付")
    texts = [r.text for r in c.window.transcript.model.rows if r.role == "user"]
    assert texts == ["sunset model message", "thread model message", "second thread message"]


def test_invalid_settings_are_refused_in_words(qtbot, app_for) -> None:
    from dataclasses import replace

    c = app_for()
    problem = c.apply_settings(replace(c.settings_values(), tabs=()))
    assert problem and "tabs" in problem
    assert c.core.settings.tabs  # unchanged


@pytest.mark.slow
def test_timeline_panel_shows_pending_lines_and_opens_their_day(qtbot, app_for, tmp_path) -> None:
    from monet_app.services.replay import replay
    from tests.conftest import TRACES

    home = tmp_path / "home"
    replay(TRACES / "synthetic-tabstorm.jsonl", home, None, librarian=False)
    c = app_for(home)
    lines = c.window.recall.timeline_panel.lines()
    assert lines and any(line.pending for line in lines)
    pending = sum(1 for line in lines if line.pending)
    assert c.window.status_line.librarian_label.text() in (f"Summarizing {pending}", f"要約作成中 {pending}件")
    item = c.window.recall.timeline_list.item(1)  # item 0 is the first day's header
    c.window.recall.timeline_list.itemClicked.emit(item)
    entry = item.data(Qt.ItemDataRole.UserRole + 2)
    assert c.nav.view_day == entry.day and c.window.read_only
    chosen = [c.window.days.list.item(i) for i in range(c.window.days.list.count())
              if c.window.days.list.item(i).isSelected()]
    assert [row.data(Qt.ItemDataRole.UserRole + 2).day for row in chosen] == [entry.day]
    assert c.window.days.list.currentItem() is chosen[0]  # the opened day, not Today
    current = c.window.transcript.view.currentIndex()
    assert current.isValid() and c.window.transcript.model.rows[current.row()].id >= entry.first_message_id
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    assert not any(line.pending for line in c.window.recall.timeline_panel.lines())


def test_painting_does_not_leak_references_to_none(qtbot, app_for) -> None:
    """PySide6 6.12.0 decrements None on every void call; on Python 3.11 a long session
    would then abort with "deallocating None". Guard the pinned Qt against it."""
    import gc
    import sys

    c = app_for()
    for i in range(30):
        c.core.context.commit_user_message(f"message {i}", "chat")
    c.refresh(Changes(messages=True))
    gc.collect()  # garbage freed meanwhile (cycles from earlier work) is not the bug
    gc.disable()
    try:
        before = sys.getrefcount(None)
        for _ in range(20):
            c.window.transcript.view.viewport().repaint()
            c.window.grab()
        after = sys.getrefcount(None)
    finally:
        gc.enable()
    assert after - before > -200


def test_japanese_ui_and_dark_palette_follow_the_system(qtbot, app_for, monkeypatch) -> None:
    from PySide6.QtGui import QPalette

    from ui.look import apply_palette, install_translator

    app = QApplication.instance()
    monkeypatch.setenv("MONET_LANG", "ja")
    monkeypatch.setenv("MONET_THEME", "dark")
    original = app.palette()  # type: ignore[union-attr]
    translator = install_translator(app)  # type: ignore[arg-type]
    apply_palette(app)  # type: ignore[arg-type]
    try:
        assert translator is not None
        c = app_for()
        assert c.window.compose.send_button.text() == "送信"
        assert c.window.days.title.text() == "日付"
        assert app.palette().color(QPalette.ColorRole.Window).lightness() < 60  # type: ignore[union-attr]
    finally:
        app.removeTranslator(translator)  # type: ignore[union-attr, arg-type]
        app.setPalette(original)  # type: ignore[union-attr]


def test_composer_has_focus_at_start(qtbot, app_for) -> None:
    c = app_for()
    c.window.activateWindow()
    qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)


def test_settings_dialog_reads_and_returns_values(qtbot, app_for) -> None:
    from ui.settings_dialog import SettingsDialog

    c = app_for()
    dialog = SettingsDialog(c.settings_values(), "none")
    qtbot.addWidget(dialog)
    assert dialog.api_key.echoMode() == dialog.api_key.EchoMode.Password
    dialog.tabs.setText("chat=雑談, work=仕事, ideas=アイデア")
    dialog.ceiling.setValue(30_000)
    dialog.sunset.setChecked(False)
    values = dialog.values()
    assert values.tabs == (("chat", "雑談"), ("work", "仕事"), ("ideas", "アイデア"))
    assert c.apply_settings(values) is None
    assert c.core.settings.ceiling_tokens == 30_000 and not c.core.settings.sunset_model
    assert [c.window.tab_bar.tabText(i) for i in range(3)] == ["雑談", "仕事", "アイデア"]
    from cms.settings import load_settings

    with c.core.db.session() as session:
        assert load_settings(session).tabs == values.tabs  # persisted


def test_promotion_form_appends_to_the_core_prompt(qtbot, app_for, server) -> None:
    from ui.promote_dialog import PromoteDialog

    c = app_for()
    dialog = PromoteDialog(c.window, "毎朝コーヒーを一杯だけ飲む")
    qtbot.addWidget(dialog)
    dialog.category.setCurrentIndex(2)  # 永続的な事実
    assert dialog.values() == ("facts", "毎朝コーヒーを一杯だけ飲む")
    assert c.promote(*dialog.values()) is None
    assert "永続的な事実" in (c.core.home / "system_prompt_core.txt").read_text("utf-8")
    assert c.promote("facts", "  ") is not None  # an empty statement is refused in words
    type_and_enter(qtbot, c, "what do I drink?")
    wait_idle(qtbot, c)
    assert "毎朝コーヒーを一杯だけ飲む" in server.requests[-1]["system"][0]["text"]


@pytest.mark.heavy
def test_memory_panel_shows_corrects_and_deletes(qtbot, app_for, server) -> None:
    from ui.memory_dialog import MemoryDialog

    c = app_for()
    type_and_enter(qtbot, c, "Please remember that my bike is green")
    wait_idle(qtbot, c)
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    dialog = MemoryDialog(c.memory_rows, c.edit_memory, c.delete_memory, c.window)
    qtbot.addWidget(dialog)
    assert dialog.items.count() == 1 and "my bike is green" in dialog.items.item(0).text()
    dialog.items.setCurrentRow(0)
    assert "Please remember that my bike is green" in dialog.source.text()
    dialog.edit_selected("my bike is dark green")
    assert "dark green" in dialog.items.item(0).text()
    type_and_enter(qtbot, c, "what colour is my bike?")
    wait_idle(qtbot, c)
    assert "my bike is dark green" in server.requests[-1]["system"][-1]["text"]
    dialog.items.setCurrentRow(0)
    dialog.delete_selected()
    assert dialog.items.count() == 0
    dialog.finish_pending()  # Forget can be undone for a moment; carry it out now
    assert dialog.close_button.isDefault()  # Enter closes the panel, never deletes
    type_and_enter(qtbot, c, "and now?")
    wait_idle(qtbot, c)
    assert "bike" not in json.dumps(server.requests[-1]["system"])


@pytest.mark.heavy
def test_forgetting_a_memory_with_its_messages_in_the_window_reaches_the_backups(
        qtbot, app_for, tmp_path) -> None:
    """With its messages, Forget deletes them in the background (it rewrites MONET's
    backups, seconds): the dialog lists the item no more at once, the messages leave the
    transcript, and the backup in the data folder no longer holds them."""
    import zipfile

    from monet_app.services import backup
    from monet_app.services.gate import Work
    from ui.memory_dialog import MemoryDialog

    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "Please remember that my bike is green")
    wait_idle(qtbot, c)
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    archive = backup.make_backup(home, c.core.clock.now(), home / "backups" / "by-hand.zip").path
    dialog = MemoryDialog(c.memory_rows, c.edit_memory, c.delete_memory, c.window)
    qtbot.addWidget(dialog)
    dialog.items.setCurrentRow(0)
    dialog.delete_selected(with_messages=True)
    dialog.finish_pending()
    assert dialog.items.count() == 0
    qtbot.waitUntil(lambda: not any("bike" in row.text for row in c.window.transcript.model.rows),
                    timeout=15_000)
    qtbot.waitUntil(lambda: not c.core.gate.busy(Work.FORGET), timeout=15_000)
    with zipfile.ZipFile(archive) as opened:
        assert b"bike is green" not in opened.read("monet.db")


def test_deleting_a_day_from_the_window(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    write_past_day(home)
    c = app_for(home)
    assert c.window.days.list.count() == 2
    c.delete_day("2025-01-05")  # off the GUI thread
    qtbot.waitUntil(lambda: c.window.days.list.count() == 1, timeout=10_000)
    assert all("January" not in m.text for m in messages(c))


def test_incognito_today_keeps_talk_out_of_memory(qtbot, app_for) -> None:
    c = app_for()
    c.window.incognito_action.setChecked(True)
    assert c.nav.today() in c.core.settings.incognito_days
    type_and_enter(qtbot, c, "Please remember that the surprise party is on Friday")
    wait_idle(qtbot, c)
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    assert c.memory_rows() == []
    c.window.incognito_action.setChecked(False)
    type_and_enter(qtbot, c, "Please remember that my bike is green")
    wait_idle(qtbot, c)
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    assert [r.fact for r in c.memory_rows()] == ["my bike is green"]


def test_the_window_writes_its_request_log_librarian_included(qtbot, app_for, tmp_path, monkeypatch) -> None:
    """MONET_REQUEST_LOG: the window's requests and events, the librarian's among them."""
    from datetime import datetime, timedelta

    from tests.helpers import World

    home = tmp_path / "home"
    earlier = (datetime.now().astimezone() - timedelta(days=2)).replace(hour=12)
    before = World(home, Settings(), start=earlier.isoformat())
    before.turn("We planned the trip to Kyoto for May 3")  # a day for the summary to read
    before.close()
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("MONET_REQUEST_LOG", str(log))
    c = app_for(home)
    type_and_enter(qtbot, c, "Please remember that my bike is green")
    wait_idle(qtbot, c)
    c.librarian.run_now()
    qtbot.waitUntil(lambda: not c.librarian.busy, timeout=10_000)
    records = [json.loads(line) for line in log.read_text("utf-8").splitlines()]
    names = [r["name"] for r in records if r["kind"] == "event"]
    assert names[0] == "app_started" and "context_summary_changed" in names
    assert [r["purpose"] for r in records if r["kind"] == "request"] == ["chat"]


def test_incognito_mid_reply_keeps_the_reply_whole(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "a slow answer please")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.incognito_action.setChecked(True)
    wait_idle(qtbot, c)
    reply = messages(c)[-1]
    assert reply.role == "assistant" and reply.status == "complete"
    assert c.nav.today() in c.core.settings.incognito_days


def test_the_streaming_row_carries_the_replys_tab(qtbot, app_for, server) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "in chat first")
    wait_idle(qtbot, c)
    c.window.tab_bar.setCurrentIndex(1)  # リサーチ / research
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "then in research")
    qtbot.waitUntil(lambda: c.window.transcript.model.rows[-1].status == "streaming", timeout=5000)
    assert c.window.transcript.model.rows[-1].tab == "research"
    assert c.window.transcript.model.rows[-1].tab_label == c.core.settings.tab_label("research")
    wait_idle(qtbot, c)


def test_nothing_is_sent_while_a_deletion_runs(qtbot, app_for, server, monkeypatch) -> None:
    import threading

    from cms.memory import forget
    from monet_app.services.gate import Work

    release = threading.Event()
    real = forget.delete_day

    def slow(db, day, now):
        release.wait(10)
        return real(db, day, now)

    monkeypatch.setattr(forget, "delete_day", slow)
    c = app_for()
    c.delete_day("2025-01-05")
    type_and_enter(qtbot, c, "typed during the deletion")
    assert messages(c) == [] and server.requests == []
    assert c.window.compose.field.toPlainText() == "typed during the deletion"  # kept
    assert c.window.error_box.isVisible()
    release.set()
    qtbot.waitUntil(lambda: not c.core.gate.busy(Work.FORGET), timeout=10_000)
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert messages(c)[0].text == "typed during the deletion"


def test_line_breaks_the_person_typed_are_kept_in_the_transcript(qtbot, app_for, server) -> None:
    from PySide6.QtWidgets import QStyleOptionViewItem

    from ui.transcript import keep_line_breaks

    assert keep_line_breaks("one\ntwo\n\nthree") == "one  \ntwo\n\nthree"
    assert keep_line_breaks("```\nx = 1\ny = 2\n```") == "```\nx = 1\ny = 2\n```"
    c = app_for()
    c.window.compose.field.setFocus()
    qtbot.keyClicks(c.window.compose.field, "first line")
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(c.window.compose.field, "second line")
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    row = next(r for r in c.window.transcript.model.rows if r.role == "user")
    assert row.text == "first line\nsecond line"
    doc = c.window.transcript.view.itemDelegate()._document(row, 600, QStyleOptionViewItem())
    shown = doc.toPlainText().replace("\u2028", "\n")
    assert shown.split("\n") == ["first line", "second line"]


def test_esc_stops_a_reply_and_typing_goes_on_in_the_composer(qtbot, app_for, server) -> None:
    c = app_for()
    c.window.activateWindow()
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "a slow answer please")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.compose.stop_button.setFocus()  # as when Stop was clicked
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Escape)
    wait_idle(qtbot, c)
    assert messages(c)[-1].status == "incomplete"
    assert QApplication.focusWidget() is c.window.compose.field
    type_and_enter(qtbot, c, "next message")
    wait_idle(qtbot, c)
    assert [m.text for m in messages(c) if m.role == "user"][-1] == "next message"


def test_a_destructive_question_defaults_to_no(qtbot, app_for) -> None:
    from PySide6.QtCore import QTimer

    c = app_for()

    def press_enter() -> None:
        box = QApplication.activeModalWidget()
        assert box is not None
        qtbot.keyClick(box, Qt.Key.Key_Return)

    QTimer.singleShot(200, press_enter)
    assert c.window.confirm("Delete everything said on 2026-03-01?") is False
