"""The window's parts below the widgets: operations, the navigator, the throttle."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest

from cms.clock import ManualClock, parse_ts
from monet_app.services.wiring import build_core
from monet_app.window.navigator import Navigator
from monet_app.window.run import describe, run_inline
from storage.errors import EmptyMessageError

pytest.importorskip("pytestqt")


def test_a_sentence_is_shown_as_it_is_and_a_bug_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    assert describe(EmptyMessageError("The message is empty; nothing was sent.")) == (
        "The message is empty; nothing was sent."
    )
    with caplog.at_level(logging.ERROR):
        sentence = describe(KeyError("thread"))
    assert "KeyError" in sentence and "monet.log" in sentence
    assert "KeyError" in caplog.text
    assert run_inline(lambda: 7) == (7, None)
    result, problem = run_inline(lambda: 1 / 0)
    assert result is None and problem is not None and "ZeroDivisionError" in problem


def test_the_navigator_filters_by_tab_and_shows_past_days_read_only(tmp_path: Path) -> None:
    clock = ManualClock(parse_ts("2026-03-01T10:00:00+09:00"))
    core = build_core(tmp_path / "home", clock=clock, summarizer="offline")
    try:
        core.context.commit_user_message("yesterday in chat", "chat")
        clock.set(parse_ts("2026-03-02T10:00:00+09:00"))
        core.context.commit_user_message("today in work", "work")
        core.context.commit_user_message("today in chat", "chat")
        nav = Navigator(core)
        assert nav.today() == "2026-03-02" and not nav.read_only
        nav.switch_tab("chat")
        assert [r.text for r in nav.rows()] == ["today in chat"]
        assert [(d.day, d.count, d.today) for d in nav.days()] == [
            ("2026-03-02", 2, True), ("2026-03-01", 1, False)]
        nav.open_day("2026-03-01")
        assert nav.read_only and [r.text for r in nav.rows()] == ["yesterday in chat"]
        assert not nav.showing("chat")  # a reply to today would not be drawn here
        clock.set(parse_ts("2026-03-01T12:00:00+09:00"))  # the clock went back
        assert nav.today() == "2026-03-02"  # a past day is never reopened
    finally:
        core.close()


def test_the_navigator_rows_show_a_tool_round_as_one_line_and_keep_status(
    tmp_path: Path,
) -> None:
    """The rows are read as plain strings (no enum members): what they carry is what the
    transcript needs, a tool round as one line, a cut reply, a forgotten message."""
    import json

    from cms.memory.forget import hide_messages
    from storage.models import MessageStatus

    clock = ManualClock(parse_ts("2026-03-02T10:00:00+09:00"))
    core = build_core(tmp_path / "home", clock=clock, summarizer="offline")
    try:
        asked = core.context.commit_user_message("what did I say about ramen?", "chat")
        call = [{"type": "tool_use", "id": "t1", "name": "search_history",
                 "input": {"query": "ラーメン"}}]
        result = [{"type": "tool_result", "tool_use_id": "t1",
                   "content": json.dumps({"results": [{"day": "2026-02-01"}] * 3})}]
        core.context.record_tool_round(call, result, "", "chat")  # type: ignore[arg-type]
        core.context.record_reply("You liked the one in Kyoto", "chat",
                                  status=MessageStatus.INCOMPLETE)
        hide_messages(core.db, [asked.id], clock.now())
        nav = Navigator(core)
        rows = nav.rows()
        assert [(r.role, r.text, r.status, r.hidden) for r in rows] == [
            ("user", "what did I say about ramen?", "complete", True),
            ("tool", "🔎 search_history «ラーメン» → 3", "complete", False),
            ("assistant", "You liked the one in Kyoto", "incomplete", False),
        ]
        assert all(type(r.role) is str and type(r.status) is str for r in rows)
        assert rows[0].time == "10:00" and rows[0].tab_label
    finally:
        core.close()


def test_the_throttle_runs_at_once_then_collapses_calls(qtbot) -> None:  # type: ignore[no-untyped-def]
    from ui.throttle import Throttle

    calls: list[float] = []
    throttle = Throttle(lambda: calls.append(time.monotonic()), 80)
    throttle.call()
    assert len(calls) == 1  # the first call is not delayed
    for _ in range(50):
        throttle.call()
    assert len(calls) == 1
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=2000)  # one trailing call
    qtbot.wait(200)
    assert len(calls) == 2
    throttle.call()
    throttle.call()
    throttle.cancel()  # a pending call can be dropped
    qtbot.wait(200)
    assert len(calls) == 3


def test_deleting_a_day_runs_off_the_gui_thread(qtbot, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from monet_app.operations import memory
    from monet_app.window.app import AppController

    threads: list[threading.Thread] = []
    real = memory.delete_day

    def watched(core, day):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread())
        return real(core, day)

    monkeypatch.setattr(memory, "delete_day", watched)
    c = AppController(tmp_path / "home", clock=ManualClock(parse_ts("2026-03-02T10:00:00+09:00")))
    qtbot.addWidget(c.window)
    try:
        c.core.context.commit_user_message("to be deleted", "chat")
        c.delete_day("2026-03-02")
        qtbot.waitUntil(lambda: bool(threads), timeout=5000)
        qtbot.waitUntil(lambda: c.nav.days()[0].count == 0, timeout=5000)
        assert threads[0] is not threading.main_thread()
    finally:
        c.close()
