"""The window a person lives in every day (issue 12's defects), offscreen with pytest-qt.

Each test drives the window as a person would (keys, clicks, the context menu's actions)
and reads what the window shows and what the database holds.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from monet_app.window.app import AppController
from tests.test_app import messages, type_and_enter, wait_idle
from ui.items import ALL_TABS


def tab_texts(c: AppController) -> list[str]:
    return [c.window.tab_bar.tabText(i) for i in range(c.window.tab_bar.count())]


# ----- defect 5: tabs, counts, unread marks, the whole day, drafts ---------------------
def test_reopening_lands_on_the_tab_that_holds_todays_talk(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    c = app_for(home)
    c.window.select_tab("work")
    type_and_enter(qtbot, c, "a work question")
    wait_idle(qtbot, c)
    c.window.select_tab("social")  # looked at an empty tab, then quit
    c.window.close()
    c.close()
    again = app_for(home)
    assert again.window.current_tab() == "work"
    assert again.window.transcript.model.rows[0].text == "a work question"


def test_tabs_show_counts_and_a_mark_for_an_unseen_reply(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.03})
    type_and_enter(qtbot, c, "answer me in chat")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.select_tab("research")  # the reply arrives while another tab is shown
    wait_idle(qtbot, c)
    texts = tab_texts(c)
    assert texts[0].startswith(c.core.settings.tab_label("chat")) and "2" in texts[0]
    assert "●" in texts[0] and "●" not in texts[1]
    c.window.select_tab("chat")
    assert "●" not in tab_texts(c)[0]


def test_the_all_tabs_view_shows_the_whole_day_and_sends_to_the_last_tab(qtbot, app_for) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "in chat")
    wait_idle(qtbot, c)
    c.window.select_tab("work")
    type_and_enter(qtbot, c, "in work")
    wait_idle(qtbot, c)
    c.window.select_tab(ALL_TABS)
    assert [r.text for r in c.window.transcript.model.rows if r.role == "user"] == ["in chat", "in work"]
    assert {r.tab for r in c.window.transcript.model.rows} == {"chat", "work"}
    type_and_enter(qtbot, c, "typed in the all-tabs view")
    wait_idle(qtbot, c)
    assert messages(c)[-2].tab == "work"  # the last tab chosen
    assert c.window.current_tab() == ALL_TABS
    assert "typed in the all-tabs view" in [r.text for r in c.window.transcript.model.rows]


def test_an_unsent_draft_survives_quitting_with_its_line_breaks(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    c = app_for(home)
    c.window.compose.field.setFocus()
    qtbot.keyClicks(c.window.compose.field, "half a thought")
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(c.window.compose.field, "second line")
    c.window.close()  # Ctrl+Q closes the window the same way
    c.close()
    again = app_for(home)
    assert again.window.compose.field.toPlainText() == "half a thought\nsecond line"
    type_and_enter(qtbot, again, "")  # Enter sends the kept draft
    wait_idle(qtbot, again)
    assert messages(again)[0].text == "half a thought\nsecond line"
    again.window.close()
    again.close()
    third = app_for(home)
    assert third.window.compose.field.toPlainText() == ""  # a sent draft is gone


# ----- defect 12: keyboard, narrow windows, visible focus -------------------------------
def test_ctrl_tab_and_ctrl_numbers_switch_tabs_from_the_composer(qtbot, app_for) -> None:
    c = app_for()
    c.window.activateWindow()
    c.window.compose.field.setFocus()
    qtbot.waitUntil(lambda: c.window.compose.field.hasFocus(), timeout=3000)
    start = c.window.tab_bar.currentIndex()
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier)
    assert c.window.tab_bar.currentIndex() == (start + 1) % c.window.tab_bar.count()
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_3, Qt.KeyboardModifier.ControlModifier)
    assert c.window.current_tab() == "work"
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_9, Qt.KeyboardModifier.ControlModifier)
    assert c.window.current_tab() == ALL_TABS
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Backtab,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert c.window.current_tab() == "social"
    assert c.window.compose.field.hasFocus()  # typing goes on where it was


def test_a_narrow_window_keeps_the_conversation_widest(qtbot, app_for) -> None:
    c = app_for()
    w = c.window
    w.resize(640, 700)
    qtbot.waitUntil(lambda: not w.recall.isVisible() and not w.days.isVisible(), timeout=3000)
    assert not w.memory_pane_action.isChecked()
    w.focus_search()  # Ctrl+F brings the search pane back
    assert w.recall.isVisible()
    w.days_action.trigger()  # Ctrl+B
    assert w.days.isVisible()
    w.resize(1300, 800)
    qtbot.waitUntil(lambda: w.days.isVisible() and w.recall.isVisible(), timeout=3000)
    assert w.transcript.view.width() > w.days.width() and w.transcript.view.width() > w.recall.width()
    assert "palette(highlight)" in w.styleSheet()  # a focus ring on lists and fields


# ----- defect 4: the thread model shows today's talk -----------------------------------
def test_turning_the_sunset_model_off_and_on_keeps_todays_talk_in_view(qtbot, app_for) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "said before the switch")
    wait_idle(qtbot, c)
    values = c.settings_values()
    assert c.apply_settings(replace(values, sunset_model=False)) is None
    shown = [r.text for r in c.window.transcript.model.rows if r.role == "user"]
    assert shown == ["said before the switch"]  # not an empty new thread
    c.window.select_tab("work")
    type_and_enter(qtbot, c, "said in the thread model")
    wait_idle(qtbot, c)
    shown = [r.text for r in c.window.transcript.model.rows if r.role == "user"]
    assert shown == ["said before the switch", "said in the thread model"]
    assert c.apply_settings(replace(values, sunset_model=True)) is None
    c.window.select_tab(ALL_TABS)
    shown = [r.text for r in c.window.transcript.model.rows if r.role == "user"]
    assert shown == ["said before the switch", "said in the thread model"]


def test_picking_a_thread_keeps_the_timeline_panel(qtbot, app_for, tmp_path) -> None:
    from monet_app.services.replay import replay
    from tests.conftest import TRACES

    home = tmp_path / "home"
    replay(TRACES / "synthetic-actions.jsonl", home, None, librarian=False)
    c = app_for(home)
    before = len(c.window.recall.timeline_panel.lines())
    assert before > 0
    assert c.apply_settings(replace(c.settings_values(), sunset_model=False)) is None
    for i in range(c.window.days.list.count()):
        c.window.days.list.itemClicked.emit(c.window.days.list.item(i))
        assert len(c.window.recall.timeline_panel.lines()) >= before


# ----- defect 8: the Timeline Index under day headers ----------------------------------
def test_the_timeline_panel_groups_lines_under_days_with_the_tab_names(qtbot, app_for, tmp_path) -> None:
    from monet_app.services.replay import replay
    from tests.conftest import TRACES
    from ui.panels import HTML_ROLE

    home = tmp_path / "home"
    replay(TRACES / "synthetic-actions.jsonl", home, None, librarian=False)
    c = app_for(home)
    panel = c.window.recall.timeline_panel
    rows = [panel.list.item(i) for i in range(panel.list.count())]
    headers = [r for r in rows if not r.flags() & Qt.ItemFlag.ItemIsSelectable]
    lines = panel.lines()
    assert headers and len(headers) == len({line.day for line in lines})
    assert rows[0] in headers  # a day header comes first
    html = " ".join(str(r.data(HTML_ROLE)) for r in rows)
    assert "[chat]" not in html and "チャット" in html  # the person's tab names
    bar = panel.list.verticalScrollBar()
    assert bar.value() == bar.maximum()  # the newest line is in view


# ----- defect 9: search as you type, in its own panel ----------------------------------
def test_search_as_you_type_shows_count_speaker_and_highlight_beside_the_timeline(qtbot, app_for) -> None:
    from ui.panels import HTML_ROLE

    c = app_for()
    type_and_enter(qtbot, c, "my bicycle is green")
    wait_idle(qtbot, c)
    c.window.focus_search()
    qtbot.keyClicks(c.window.recall.search_box, "bicycle")  # no Enter
    qtbot.waitUntil(lambda: c.window.recall.search_panel.isVisible()
                    and c.window.recall.search_results.count() > 0, timeout=5000)
    assert c.window.recall.timeline_panel.isVisible()  # the TI stays
    n = c.window.recall.search_results.count()
    assert c.window.recall.search_panel.count_label.text() in (f"{n} matches", f"{n} 件", "1 match")
    shown = [str(c.window.recall.search_results.item(i).data(HTML_ROLE)) for i in range(n)]
    assert all("bicycle</b>" in html for html in shown)  # the match is highlighted
    assert any("<b>You</b>" in html or "<b>あなた</b>" in html for html in shown)
    qtbot.keyClick(c.window.recall.search_box, Qt.Key.Key_Return)
    assert c.window.recall.search_results.hasFocus() or not c.window.isActiveWindow()
    c.window.recall.search_box.clear()
    assert not c.window.recall.search_panel.isVisible()


# ----- defect 3: copy, edit and resend, regenerate, continue ---------------------------
def test_copy_a_message_from_its_menu(qtbot, app_for) -> None:
    c = app_for()
    c.window.compose.set_text("copy me\nwith a second line")
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    row = c.window.transcript.model.rows[0]
    assert "copy" in c.window.transcript.message_actions(row)
    c.window.transcript.act_on_message(row, "copy")
    assert QApplication.clipboard().text() == "copy me\nwith a second line"


def test_regenerate_replaces_the_latest_reply(qtbot, app_for, server) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "first question")
    wait_idle(qtbot, c)
    type_and_enter(qtbot, c, "second question")
    wait_idle(qtbot, c)
    rows = c.window.transcript.model.rows
    first_reply, last_reply = rows[1], rows[-1]
    assert "regenerate" not in c.window.transcript.message_actions(first_reply)  # only the latest
    assert "regenerate" in c.window.transcript.message_actions(last_reply)
    sent = len(server.requests)
    server.replies.append("a better answer")
    c.window.transcript.act_on_message(last_reply, "regenerate")
    qtbot.waitUntil(lambda: len(server.requests) == sent + 1, timeout=5000)
    wait_idle(qtbot, c)
    stored = messages(c)
    assert [m.role for m in stored] == ["user", "assistant", "user", "assistant"]
    assert stored[-1].text == "a better answer" != last_reply.text
    body = json.dumps(server.requests[-1]["messages"], ensure_ascii=False)
    assert body.count("second question") == 1


def test_edit_and_resend_replaces_the_exchange_and_esc_cancels(qtbot, app_for, server) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "what is 2+2?")
    wait_idle(qtbot, c)
    user_row = c.window.transcript.model.rows[0]
    assert "edit" in c.window.transcript.message_actions(user_row)
    qtbot.keyClicks(c.window.compose.field, "unsent words")
    c.window.transcript.act_on_message(user_row, "edit")
    assert c.window.compose.field.toPlainText() == "what is 2+2?" and c.window.compose.edit_bar.isVisible()
    qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Escape)
    assert not c.window.compose.edit_bar.isVisible()
    assert c.window.compose.field.toPlainText() == "unsent words"  # what was there comes back
    c.window.compose.field.clear()
    c.window.transcript.act_on_message(user_row, "edit")
    c.window.compose.field.clear()
    type_and_enter(qtbot, c, "what is 3+3?")
    qtbot.waitUntil(lambda: len(messages(c)) == 2 and messages(c)[-1].role == "assistant",
                    timeout=10_000)
    wait_idle(qtbot, c)
    assert [m.text for m in messages(c) if m.role == "user"] == ["what is 3+3?"]
    body = json.dumps(server.requests[-1]["messages"], ensure_ascii=False)
    assert "2+2" not in body and "3+3" in body


def test_a_stopped_reply_can_be_continued(qtbot, app_for, server) -> None:
    c = app_for()
    server.failures.append({"chunk_delay": 0.05})
    type_and_enter(qtbot, c, "tell me a long story")
    qtbot.waitUntil(lambda: len(c.stream.buffer) > 0, timeout=5000)
    c.window.compose.stop_button.click()
    wait_idle(qtbot, c)
    reply = c.window.transcript.model.rows[-1]
    assert reply.status == "incomplete"
    assert "continue" in c.window.transcript.message_actions(reply)
    c.window.transcript.act_on_message(reply, "continue")
    wait_idle(qtbot, c)
    stored = messages(c)
    assert stored[-2].role == "user" and stored[-1].role == "assistant"
    assert stored[-1].status == "complete"
    assert "continue" not in c.window.transcript.message_actions(c.window.transcript.model.rows[-1])


def test_a_past_day_offers_copy_but_no_edit(qtbot, app_for, tmp_path) -> None:
    from tests.helpers import write_past_day

    home = tmp_path / "home"
    write_past_day(home)
    c = app_for(home)
    c.open_day("2025-01-05")
    c.window.select_tab("chat")
    actions = c.window.transcript.message_actions(c.window.transcript.model.rows[0])
    assert "copy" in actions and "edit" not in actions and "regenerate" not in actions


# ----- defect 11: no key, a welcome that says what to do --------------------------------
def test_without_a_key_the_window_offers_a_field_for_it(qtbot, app_for, monkeypatch) -> None:
    from monet_app.services import keys
    from monet_app.services.wiring import gateway_model

    monkeypatch.setattr(keys, "_keyring", lambda: None)  # a Linux with no keyring
    monkeypatch.setattr(keys, "_session_key", None)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    c = app_for(factory=gateway_model)
    box = c.window.key_box
    qtbot.waitUntil(box.isVisible)  # asked right after the first paint
    assert "session" in box.where.text() or "セッション" in box.where.text()
    box.field.setText("sk-ant-test-key-123456")
    qtbot.keyClick(box.field, Qt.Key.Key_Return)
    assert not box.isVisible()
    assert keys.load_api_key() == ("sk-ant-test-key-123456", "session")
    keys.delete_api_key()


def test_with_a_key_no_key_box(qtbot, app_for, monkeypatch) -> None:
    from monet_app.services.wiring import gateway_model

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-key-123456")
    c = app_for(factory=gateway_model)
    qtbot.waitUntil(lambda: c.key.answers == 1, timeout=5000)  # looked for after the paint
    assert not c.window.key_box.isVisible()


class _SlowKeyring:
    """A keyring whose first answer takes its time, as a locked keychain or a slow D-Bus
    does; it answers with what it holds when asked."""

    def __init__(self) -> None:
        self.asked_on_main_thread: list[bool] = []
        self.stored: str | None = None

    def get_password(self, service_name: str, username: str) -> str | None:
        import threading
        import time

        held = self.stored
        self.asked_on_main_thread.append(threading.current_thread() is threading.main_thread())
        if len(self.asked_on_main_thread) == 1:
            time.sleep(0.4)
        return held

    def set_password(self, service_name: str, username: str, password: str) -> None:
        self.stored = password

    def delete_password(self, service_name: str, username: str) -> None:
        self.stored = None


@pytest.fixture
def slow_key_app(qtbot, app_for, monkeypatch):
    """A window with no key, whose key check at start is waiting on a slow keyring."""
    from monet_app.services import keys
    from monet_app.services.wiring import gateway_model

    ring = _SlowKeyring()
    monkeypatch.setattr(keys, "_keyring", lambda: ring)
    monkeypatch.setattr(keys, "_session_key", None)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    c = app_for(factory=gateway_model)
    qtbot.waitUntil(lambda: bool(ring.asked_on_main_thread), timeout=3000)
    return c, ring


def test_the_key_is_looked_for_off_the_gui_thread(qtbot, slow_key_app) -> None:
    from PySide6.QtCore import QTimer

    c, ring = slow_key_app
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(20)
    qtbot.waitUntil(c.window.key_box.isVisible, timeout=5000)  # no key: the box, after
    timer.stop()
    assert ring.asked_on_main_thread == [False]
    assert len(ticks) >= 3  # the window went on answering while the keyring was asked


def test_a_window_closed_before_the_keyring_answers_is_left_alone(qtbot, slow_key_app) -> None:
    c, _ring = slow_key_app
    with qtbot.waitSignal(c.key.answered, timeout=5000) as answer:
        c.close()  # quit while the keyring is still being asked
        c.window.close()
    assert answer.args == [False]  # it came to a closed controller: dropped, no error
    assert not c.window.key_box.isVisible()


def test_a_key_saved_while_the_keyring_is_slow_is_not_undone_by_the_old_answer(qtbot, slow_key_app) -> None:
    from monet_app.services import keys

    c, _ring = slow_key_app
    # Settings → a key, saved while the check at start is still waiting on the keyring
    values = replace(c.settings_values(), api_key="sk-ant-saved-meanwhile-123456")
    with qtbot.waitSignal(c.key.answered, timeout=5000) as answer:
        assert c.apply_settings(values) is None
        assert not c.window.key_box.isVisible()
    assert answer.args == [False]  # the check at start said "no key": too late, dropped
    assert not c.window.key_box.isVisible()
    assert keys.load_api_key() == ("sk-ant-saved-meanwhile-123456", "keyring")


# ----- issue 14: the daily backup and restoring from the window -------------------------
def test_the_daily_backup_is_made_and_said_and_a_failure_is_said_loudly(qtbot, app_for, tmp_path) -> None:
    from monet_app.services import backup

    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "worth keeping")
    wait_idle(qtbot, c)
    assert c.backups.due()
    with qtbot.waitSignal(c.backups.made, timeout=10_000):
        c.backups.run_now()
    assert list((home / "backups").glob("monet-auto-*.zip"))
    assert c.window.status_line.backup_label.text().startswith(("Backed up", "バックアップ済み"))
    assert not c.backups.due()  # one a day
    for old in (home / "backups").glob("*.zip"):
        old.unlink()
    (home / "backups").rmdir()
    (home / "backups").write_text("a file where the folder should be")
    with qtbot.waitSignal(c.backups.failed, timeout=10_000):
        c.backups.run_now()
    assert "failed" in c.window.status_line.backup_label.text() or "失敗" in c.window.status_line.backup_label.text()
    assert c.window.error_box.isVisible()
    assert backup.last_backup(home) is None


def test_restoring_a_backup_from_the_window_brings_that_moment_back(qtbot, app_for, tmp_path) -> None:
    from datetime import datetime

    from monet_app.services import backup

    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "before the backup")
    wait_idle(qtbot, c)
    made = backup.make_backup(home, datetime.now().astimezone(), out=tmp_path / "b.zip")
    type_and_enter(qtbot, c, "after the backup")
    wait_idle(qtbot, c)
    with qtbot.waitSignal(c.backup_flow.restored, timeout=10_000):
        c.restore_backup(str(made.path))  # (waits on a worker for background work first)
    assert [m.text for m in messages(c) if m.role == "user"] == ["before the backup"]
    assert [r.text for r in c.window.transcript.model.rows if r.role == "user"] == ["before the backup"]
    assert list(home.glob("monet.db.replaced-*"))
    type_and_enter(qtbot, c, "the window goes on after a restore")
    wait_idle(qtbot, c)
    assert messages(c)[-1].role == "assistant"


# ----- found under Xvfb (second read): appearance, placeholders, narrow panes ------------
def test_choosing_dark_in_settings_turns_every_part_of_the_window_dark(qtbot, app_for) -> None:
    from PySide6.QtGui import QPalette

    c = app_for()
    app = QApplication.instance()
    original = app.palette()  # type: ignore[union-attr]
    try:
        assert c.apply_settings(replace(c.settings_values(), theme="dark")) is None
        w = c.window
        for widget in (w.days.list, w.transcript.view, w.compose.field, w.recall.search_box):
            assert widget.palette().color(QPalette.ColorRole.Base).lightness() < 80, widget
        for label in (w.days.title, w.status_line.librarian_label, w.status_line.today_label):
            assert label.palette().color(QPalette.ColorRole.WindowText).lightness() > 160
        assert c.apply_settings(replace(c.settings_values(), theme="light")) is None
        assert w.menuBar().palette().color(QPalette.ColorRole.Window).lightness() > 160
        assert w.transcript.view.palette().color(QPalette.ColorRole.Base).lightness() > 200
    finally:
        app.setPalette(original)  # type: ignore[union-attr]


def test_the_composer_hint_says_where_a_message_goes_without_a_click(qtbot, app_for, tmp_path) -> None:
    from tests.helpers import write_past_day

    home = tmp_path / "home"
    write_past_day(home)
    c = app_for(home)
    c.window.select_tab(ALL_TABS)
    assert c.core.settings.tab_label(c.nav.send_tab) in c.window.compose.field.placeholderText()
    c.open_day("2025-01-05")
    assert c.window.compose.field.placeholderText() in ("Sending returns to today",
                                                   "送信すると今日に戻ります")


def test_in_a_narrow_window_one_side_pane_at_a_time(qtbot, app_for) -> None:
    c = app_for()
    w = c.window
    w.resize(640, 700)
    qtbot.waitUntil(lambda: not w.recall.isVisible() and not w.days.isVisible(), timeout=3000)
    w.days_action.trigger()
    assert w.days.isVisible()
    w.memory_pane_action.trigger()
    assert w.recall.isVisible() and not w.days.isVisible()  # the conversation stays readable


def test_the_window_size_is_remembered(qtbot, app_for, tmp_path) -> None:
    home = tmp_path / "home"
    c = app_for(home)
    c.window.resize(760, 540)  # the offscreen screen is 800 x 600
    qtbot.waitUntil(lambda: c.window.width() == 760)
    c.window.close()
    c.close()
    again = app_for(home)
    assert (again.window.width(), again.window.height()) == (760, 540)


def test_api_errors_are_said_in_the_windows_language(qtbot, app_for, server, monkeypatch) -> None:
    from ui.look import install_translator

    monkeypatch.setenv("MONET_LANG", "ja")
    app = QApplication.instance()
    translator = install_translator(app)  # type: ignore[arg-type]
    try:
        assert translator is not None
        c = app_for()
        for status, kind in ((529, "overloaded_error"), (500, "api_error"),
                             (429, "rate_limit_error")):
            server.failures.append({"status": status, "type": kind})
            type_and_enter(qtbot, c, f"status {status}?")
            wait_idle(qtbot, c)
            text = c.window.error_label.text()
            assert "保存" in text and "Your message" not in text, text
    finally:
        app.removeTranslator(translator)  # type: ignore[union-attr, arg-type]


def test_a_message_typed_before_the_key_is_answered_once_the_key_is_pasted(qtbot, app_for, server, monkeypatch) -> None:
    from monet_app.services import keys
    from monet_app.services.wiring import gateway_model

    monkeypatch.setattr(keys, "_keyring", lambda: None)
    monkeypatch.setattr(keys, "_session_key", None)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)  # the stand-in, never the internet
    c = app_for(factory=gateway_model)
    type_and_enter(qtbot, c, "hello before any key")
    wait_idle(qtbot, c)
    assert "API key" in c.window.error_label.text() and not server.requests
    c.window.key_box.field.setText("sk-ant-test-key-123456")
    qtbot.keyClick(c.window.key_box.field, Qt.Key.Key_Return)
    wait_idle(qtbot, c)
    assert [m.role for m in messages(c)] == ["user", "assistant"]
    assert len(server.requests) == 1 and not c.window.error_box.isVisible()
    keys.delete_api_key()


def test_small_things_from_the_second_read(qtbot, app_for) -> None:
    from ui.memory_dialog import MemoryDialog
    from ui.panels import highlight

    c = app_for()
    type_and_enter(qtbot, c, "hello")
    wait_idle(qtbot, c)
    c.window.status_line.notify("Copied")  # a notice never hides the reply's figures
    assert c.window.status_line.last_reply_label.isVisible() and c.window.status_line.librarian_label.isVisible()
    assert "`" not in highlight("use `form` and **bold**", ("form",))
    dialog = MemoryDialog(c.memory_rows, c.edit_memory, c.delete_memory, c.window)
    qtbot.addWidget(dialog)
    assert not dialog.delete_button.isEnabled() and not dialog.edit_button.isEnabled()


def test_an_english_first_run_names_the_tabs_in_english(qtbot, app_for, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MONET_LANG", "en")
    c = app_for(tmp_path / "new")
    assert tab_texts(c)[:4] == ["Chat", "Research", "Work", "Social"]
    monkeypatch.setenv("MONET_LANG", "ja")
    again = app_for(tmp_path / "another")
    assert tab_texts(again)[0] == "チャット"


def test_a_history_keeps_its_tab_names_whatever_the_language(qtbot, app_for, tmp_path, monkeypatch) -> None:
    from tests.helpers import write_past_day

    home = tmp_path / "home"
    write_past_day(home)
    monkeypatch.setenv("MONET_LANG", "en")
    c = app_for(home)
    assert tab_texts(c)[0] == "チャット"  # labels reach the prompt: never changed by themselves


def test_many_search_results_come_a_page_at_a_time(qtbot, app_for) -> None:
    from ui.items import SearchItem
    from ui.panels import ENTRY_ROLE, MORE, PAGE

    c = app_for()
    items = [SearchItem(i, f"2026-01-01 10:{i % 60:02d} [chat]", "user", f"hit {i}", ("hit",))
             for i in range(1, 2 * PAGE + 6)]
    c.window.recall.show_search_results(items)
    results = c.window.recall.search_results
    assert results.count() == PAGE + 1 and results.item(PAGE).data(ENTRY_ROLE) == MORE
    results.itemActivated.emit(results.item(PAGE))
    assert results.count() == 2 * PAGE + 1
    results.itemActivated.emit(results.item(2 * PAGE))
    assert results.count() == len(items)  # all shown, no "more" row left
    assert c.window.recall.search_panel.count_label.text().startswith(str(len(items)))


def test_the_memory_panel_adds_a_fact_in_the_persons_words_and_shows_what_it_replaced(qtbot, app_for) -> None:
    """Issue 40: Add in the person's own words; a newer value replaces the older, which
    the panel shows as its history; an empty text is refused in words, nothing changes."""
    from ui.memory_dialog import MemoryDialog

    c = app_for()
    dialog = MemoryDialog(c.memory_rows, c.edit_memory, c.delete_memory, c.window,
                          add=c.add_memory)
    qtbot.addWidget(dialog)
    assert dialog.add_button.isVisibleTo(dialog)
    dialog.add_fact("I live in Nagoya.")
    dialog.add_fact("I moved to Sendai.")
    rows = c.memory_rows()
    assert [r.fact for r in rows] == ["I moved to Sendai."]
    assert rows[0].history[0][0] == "I live in Nagoya."
    assert dialog.items.count() == 1 and "Nagoya" in dialog.items.item(0).text()
    dialog.items.setCurrentRow(0)
    assert "Nagoya" in dialog.source.text() and dialog.problem.text() == ""
    dialog.add_fact("   ")
    assert dialog.problem.text() and [r.fact for r in c.memory_rows()] == ["I moved to Sendai."]


def test_the_memory_panel_settles_a_contradiction_with_keep_this_one(qtbot, app_for) -> None:
    """Issue 40: two items MONET could not tell apart are shown as a contradiction that
    Claude is not told; "Keep this one" (only for them) settles it, the other becomes its
    history."""
    from storage.models import MemoryItem, MemoryKind, MemoryStatus
    from ui.memory_dialog import MemoryDialog

    c = app_for()
    with c.core.db.session() as session:
        for fact in ("The person keeps a jar of buttons on the desk.",
                     "The person's desk jar holds marbles."):
            session.add(MemoryItem(fact=fact, kind=MemoryKind.FACT, key="about:desk jar",
                                   source_message_ids="[]", confidence=0.8,
                                   created_ts="2026-03-02T09:00:00+09:00",
                                   status=MemoryStatus.CONTESTED))
        session.add(MemoryItem(fact="I live in Nagoya.", kind=MemoryKind.FACT,
                               key="fact:self:home", source_message_ids="[]", confidence=1.0,
                               created_ts="2026-03-02T09:00:00+09:00"))
        session.commit()
    dialog = MemoryDialog(c.memory_rows, c.edit_memory, c.delete_memory, c.window,
                          add=c.add_memory, keep=c.settle_memory)
    qtbot.addWidget(dialog)
    texts = [dialog.items.item(i).text() for i in range(dialog.items.count())]
    assert sum("contradiction" in t or "矛盾" in t for t in texts) == 2
    nagoya = next(i for i, t in enumerate(texts) if "Nagoya" in t)
    dialog.items.setCurrentRow(nagoya)
    assert not dialog.keep_button.isEnabled()  # nothing to settle about it
    marbles = next(i for i, t in enumerate(texts) if "marbles" in t)
    dialog.items.setCurrentRow(marbles)
    assert dialog.keep_button.isEnabled()
    qtbot.mouseClick(dialog.keep_button, Qt.MouseButton.LeftButton)
    rows = {r.fact: r for r in c.memory_rows()}
    assert "The person keeps a jar of buttons on the desk." not in rows
    kept = rows["The person's desk jar holds marbles."]
    assert kept.status == "active" and kept.history[0][0].startswith("The person keeps a jar")
    assert dialog.problem.text() == "" and dialog.items.count() == 2


def test_a_message_after_midnight_shows_its_own_date_and_the_day_it_counts_in(qtbot, app_for, tmp_path) -> None:
    """Issue 40: 00:55 on 3 January belongs to 2 January (the day starts at 04:00): the
    transcript shows the real date and time, and which day it counts in."""
    from cms.clock import ManualClock, parse_ts
    from cms.context.manager import ContextManager
    from cms.settings import Settings
    from cms.tokens import TiktokenEstimator
    from storage import Database

    home = tmp_path / "home"
    db = Database(home)
    clock = ManualClock(parse_ts("2025-01-02T23:50:00+09:00"))
    cm = ContextManager(db, Settings(), clock, TiktokenEstimator())
    cm.commit_user_message("before midnight", "chat")
    clock.set(parse_ts("2025-01-03T00:55:00+09:00"))
    cm.commit_user_message("after midnight", "chat")
    db.close()
    c = app_for(home)
    c.nav.open_day("2025-01-02")
    rows = {r.text: r for r in c.nav.rows()}
    assert rows["before midnight"].time == "23:50" and not rows["before midnight"].counts_in
    late = rows["after midnight"]
    assert late.time == "2025-01-03 00:55" and late.counts_in == "2025-01-02"
    from ui.transcript.delegate import MessageDelegate

    assert "2025-01-02" in MessageDelegate().header_parts(late)[1]


def test_the_status_bar_says_when_passes_are_left_to_a_librarian_service(qtbot) -> None:
    """A shared history's passes left to the service on the NAS: the status bar names its
    host and its last pass instead of a count that would seem stuck."""
    from ui.items import StatusFigures
    from ui.status_line import StatusLine

    line = StatusLine()
    qtbot.addWidget(line)
    line.set_status(StatusFigures(1, None, 0.0, service="nas", service_last="14:02"))
    text = line.librarian_label.text()
    assert "nas" in text and "14:02" in text and "Summarizing" not in text
    assert "1" in text  # what waits for it
    line.set_status(StatusFigures(0, None, 0.0, service="nas"))
    assert "no pass yet" in line.librarian_label.text() or "まだ" in line.librarian_label.text()
    line.set_status(StatusFigures(2, None, 0.0))
    assert line.librarian_label.text() in ("Summarizing 2", "要約作成中 2件")
