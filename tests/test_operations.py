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


def test_the_throttle_runs_at_once_then_collapses_calls(qtbot) -> None:
    from ui.throttle import Throttle

    calls: list[float] = []
    throttle = Throttle(lambda: calls.append(time.monotonic()), 80)
    throttle.call()
    assert len(calls) == 1  # the first call is not delayed
    for _ in range(50):
        throttle.call()
    assert len(calls) == 1
    qtbot.waitUntil(lambda: len(calls) == 2, timeout=2000)  # one trailing call
    assert not throttle.pending and len(calls) == 2  # and none more to come
    qtbot.waitUntil(lambda: (time.monotonic() - calls[-1]) * 1000 >= 80, timeout=2000)
    throttle.call()  # the interval has passed: at once
    assert len(calls) == 3
    throttle.call()  # inside the interval: a trailing call
    assert throttle.pending
    throttle.cancel()  # a pending call can be dropped
    assert not throttle.pending and len(calls) == 3


def test_deleting_a_day_runs_off_the_gui_thread(qtbot, tmp_path: Path, monkeypatch) -> None:
    from monet_app.operations import memory
    from monet_app.window.app import AppController

    threads: list[threading.Thread] = []
    real = memory.delete_day

    def watched(core, day, *, ticket=None):
        threads.append(threading.current_thread())
        return real(core, day, ticket=ticket)

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


# ----- the gate's races (issue: one gate for work that writes) --------------------------
def test_a_day_marked_incognito_while_the_librarian_is_being_built_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The window builds the librarian lazily, on the worker of its first pass; the person
    marks today incognito meanwhile. The pass must honour it (it read the settings of its
    build and kept them all session, so a memory was proposed from the incognito day)."""
    from monet_app.operations import librarian as librarian_ops
    from monet_app.operations import memory as memory_ops
    from monet_app.services import wiring

    clock = ManualClock(parse_ts("2026-03-02T09:00:00+09:00"))
    core = build_core(tmp_path / "home", clock=clock, summarizer="offline")
    try:
        core.context.commit_user_message("覚えておいて: 合言葉は青いりんご", "chat")
        built, go_on = threading.Event(), threading.Event()
        real = wiring.build_librarian

        def slow_build(*args, **kwargs):
            made = real(*args, **kwargs)
            built.set()
            go_on.wait(10)  # the build is slow (the gateway's import, the keyring)
            return made

        monkeypatch.setattr(wiring, "build_librarian", slow_build)
        passed: list[object] = []
        worker = threading.Thread(target=lambda: passed.append(librarian_ops.librarian_pass(core)))
        worker.start()
        assert built.wait(10)
        memory_ops.set_incognito_today(core, core.context.today(), True)  # the GUI thread
        go_on.set()
        worker.join(10)
        assert passed, "the pass did not end"
        assert [item.fact for item in memory_ops.all_items(core)] == []
        memory_ops.set_incognito_today(core, core.context.today(), False)
        core.context.commit_user_message("覚えておいて: 傘は赤い", "chat")
        librarian_ops.librarian_pass(core)  # the same librarian follows the change back
        assert [item.fact for item in memory_ops.all_items(core)] == ["傘は赤い"]
    finally:
        core.close()


def test_a_day_marked_incognito_in_the_window_holds_for_a_librarian_process(
    tmp_path: Path,
) -> None:
    """``monet librarian --watch`` keeps one core all its life; the window, another
    process, marks today incognito: the watching librarian reads it at its next batch."""
    from monet_app.operations import librarian as librarian_ops
    from monet_app.operations import memory as memory_ops

    clock = ManualClock(parse_ts("2026-03-02T09:00:00+09:00"))
    watching = build_core(tmp_path / "home", clock=clock, summarizer="offline")
    window = build_core(tmp_path / "home", clock=clock, summarizer="offline")
    try:
        assert watching.librarian is not None  # built before the change
        memory_ops.set_incognito_today(window, window.context.today(), True)
        window.context.commit_user_message("覚えておいて: 合言葉は青いりんご", "chat")
        librarian_ops.librarian_pass(watching)
        assert memory_ops.all_items(watching) == []
    finally:
        window.close()
        watching.close()


@pytest.mark.sqlite_only  # (a restore replaces a folder's history; a server's, never)
def test_a_restore_waits_for_the_librarian_pass_under_way(
    qtbot, app_for, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Restore from the window while a librarian pass is mid-way: the database is let go
    and replaced only once the pass has ended (it closed the core under the pass, which
    then wrote into the restored database or failed)."""
    from datetime import datetime

    from cms.librarian.runner import Librarian
    from monet_app.services import backup
    from storage.models import Message

    home = tmp_path / "home"
    c = app_for(home)
    archive = backup.make_backup(home, datetime.now().astimezone(), out=tmp_path / "b.zip").path
    c.core.context.commit_user_message("said after the backup", "chat")
    order: list[str] = []
    entered, release = threading.Event(), threading.Event()
    real_pass, real_restore = Librarian.run_pass, backup.restore

    def slow_pass(self, **kwargs):
        entered.set()
        release.wait(10)
        try:
            return real_pass(self, **kwargs)
        finally:
            order.append("pass ended")

    def restore(*args, **kwargs):
        order.append("restore")
        return real_restore(*args, **kwargs)

    monkeypatch.setattr(Librarian, "run_pass", slow_pass)
    monkeypatch.setattr(backup, "restore", restore)
    failed: list[str] = []
    c.librarian._failed = failed.append  # (a pass on a closed core fails)
    c.librarian.run_now()
    assert entered.wait(10)
    c.restore_backup(str(archive))
    release.set()
    qtbot.waitUntil(lambda: len(order) == 2, timeout=10_000)
    assert order == ["pass ended", "restore"]
    qtbot.waitUntil(lambda: not c.core.gate.running(), timeout=10_000)
    assert failed == []
    with c.core.db.session() as session:
        from sqlmodel import select

        assert session.exec(select(Message)).all() == []  # the backup's moment, whole


def test_the_window_and_monet_search_find_the_same(
    qtbot, app_for, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    """One search for the person, from the window and from the command line: the same
    messages in the same order, the ones hidden from Claude included and marked."""
    import json

    from cms.memory import forget
    from monet_app.cli.main import main

    home = tmp_path / "home"
    c = app_for(home)
    said = ["京都で抹茶を飲んだ", "Kyoto trip in May", "京都の紅葉がきれい", "東京は雨",
            "京都駅で待ち合わせ", "the kyoto hotel was quiet"]
    ids = [c.core.context.commit_user_message(text, "chat").id for text in said]
    forget.hide_messages(c.core.db, [ids[2]], c.core.clock.now())
    shown: list[list[object]] = []
    c.window.recall.show_search_results = lambda items: shown.append(items)
    for query in ("京都", "kyoto", "抹茶 駅"):
        shown.clear()
        c.search(query)
        qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
        window = [(item.message_id, item.hidden) for item in shown[0]]  # type: ignore[attr-defined]
        assert main(["search", query, "--home", str(home), "--json", "--limit", "200"]) == 0
        command = [(row["id"], row["hidden"]) for row in json.loads(capsys.readouterr().out)]
        assert window == command and window, query
    assert (ids[2], True) in window or query != "京都"
    shown.clear()
    c.search("京都")
    qtbot.waitUntil(lambda: bool(shown), timeout=10_000)
    assert (ids[2], True) in [(i.message_id, i.hidden) for i in shown[0]]  # type: ignore[attr-defined]


# ----- found by a second read -----------------------------------------------------------
def test_a_deletion_holds_the_gate_from_the_moment_it_is_asked(
    qtbot, app_for,
) -> None:
    """The ticket is taken on the GUI thread, not when a pool worker gets to it: a send
    pressed right after cannot slip in and carry what is being deleted."""
    from monet_app.services.gate import Work

    c = app_for()
    message = c.core.context.commit_user_message("a secret to delete", "chat")
    c.window.transcript.delete_message_requested.emit(message.id)
    assert c.core.gate.busy(Work.FORGET)  # at once, before any event is processed
    qtbot.waitUntil(lambda: not c.core.gate.busy(Work.FORGET), timeout=10_000)


def test_a_bug_between_the_commit_and_the_reply_does_not_lock_the_window(
    qtbot, app_for, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
) -> None:
    from monet_app.services.gate import Work
    from tests.test_app import type_and_enter, wait_idle

    c = app_for()
    real = c.nav.days
    broken = [True]

    def days_once():
        if broken:
            broken.clear()
            raise KeyError("a bug")
        return real()

    monkeypatch.setattr(c.nav, "days", days_once)
    with caplog.at_level(logging.ERROR):
        type_and_enter(qtbot, c, "first")
    assert not c.core.gate.busy(Work.REPLY)  # left, and said
    assert "KeyError" in c.window.error_label.text()
    type_and_enter(qtbot, c, "second")
    wait_idle(qtbot, c)
    with c.core.db.session() as session:
        from sqlmodel import select

        from storage.models import Message

        said = [m.text for m in session.exec(select(Message)).all() if m.role == "user"]
    assert said == ["first", "second"]


def test_the_incognito_mark_follows_the_day(
    qtbot, tmp_path: Path, server,
) -> None:
    """Marked incognito yesterday, the mark is off once a message starts today."""
    from cms.settings import Settings
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.window.app import AppController
    from tests.test_app import type_and_enter, wait_idle

    def standin(settings: Settings) -> AnthropicModel:
        return AnthropicModel(make_client("sk-ant-test-key-123456", base_url=server.url,
                                          max_retries=0))

    clock = ManualClock(parse_ts("2026-03-02T09:00:00+09:00"))
    c = AppController(tmp_path / "home", clock=clock, model_factory=standin)
    qtbot.addWidget(c.window)
    try:
        c.window.incognito_action.setChecked(True)
        assert c.window.incognito_action.isChecked()
        clock.set(parse_ts("2026-03-03T09:00:00+09:00"))
        type_and_enter(qtbot, c, "good morning")
        wait_idle(qtbot, c)
        assert c.core.settings.incognito_days == ("2026-03-02",)
        assert not c.window.incognito_action.isChecked()
    finally:
        c.close()


@pytest.mark.sqlite_only  # (a restore replaces a folder's history; a server's, never)
def test_monet_backup_copies_the_database_as_it_stands(tmp_path: Path) -> None:
    """A backup is the copy to go back to: not migrated first, and made even of a
    database a newer MONET wrote."""
    import sqlite3

    from monet_app.cli.main import main
    from storage import Database

    home = tmp_path / "home"
    Database(home).close()
    db = sqlite3.connect(home / "monet.db")
    db.execute("UPDATE alembic_version SET version_num = 'from-a-newer-monet'")
    db.commit()
    db.close()
    assert main(["backup", "--home", str(home), "--out", str(tmp_path / "b.zip")]) == 0
    db = sqlite3.connect(home / "monet.db")
    assert db.execute("SELECT version_num FROM alembic_version").fetchone() == (
        "from-a-newer-monet",)
    db.close()
