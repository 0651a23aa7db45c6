"""The fault matrix, what a person could lose (issue: nothing lost on restore or
regenerate): a failed or killed regenerate, edit and resend, reused message ids, a backup
written over the data folder's own files. Each fault is injected from outside: the
API's error from the stand-in server, a process killed, the command line."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from sqlmodel import select

from cms.settings import Settings
from storage.models import MemoryItem, Message
from tests.helpers import World, run_monet
from tests.test_app import messages, type_and_enter, wait_idle

pytest.importorskip("pytestqt")


def _shown(c) -> list[tuple[str, str, bool]]:
    return [(m.role, m.text, m.hidden) for m in messages(c)]


def test_a_failed_regenerate_gives_the_old_answer_back(qtbot, app_for, server) -> None:
    """A 500 while regenerating used to leave the person with no answer at all."""
    c = app_for()
    type_and_enter(qtbot, c, "what is the capital of Australia?")
    wait_idle(qtbot, c)
    before = _shown(c)
    server.failures.append({"status": 500, "type": "api_error"})
    c.window.transcript.act_on_message(c.window.transcript.model.rows[-1], "regenerate")
    qtbot.waitUntil(lambda: c.window.error_label.text() != "", timeout=10_000)
    wait_idle(qtbot, c)
    assert _shown(c) == before  # the old answer, whole and seen by Claude again
    server.replies.append("Canberra.")
    c.window.transcript.act_on_message(c.window.transcript.model.rows[-1], "regenerate")
    qtbot.waitUntil(lambda: _shown(c)[-1][1] == "Canberra.", timeout=10_000)
    wait_idle(qtbot, c)
    assert [m[1] for m in _shown(c)] == [before[0][1], "Canberra."]  # replaced once stored


def test_a_failed_edit_and_resend_keeps_the_old_exchange(qtbot, app_for, server) -> None:
    c = app_for()
    type_and_enter(qtbot, c, "what is 2+2?")
    wait_idle(qtbot, c)
    old = _shown(c)
    c.window.transcript.act_on_message(c.window.transcript.model.rows[0], "edit")
    c.window.compose.field.clear()
    server.failures.append({"status": 529, "type": "overloaded_error"})
    type_and_enter(qtbot, c, "what is 3+3?")
    qtbot.waitUntil(lambda: c.window.error_label.text() != "", timeout=10_000)
    wait_idle(qtbot, c)
    assert _shown(c)[:2] == old  # the old exchange is back
    assert _shown(c)[2] == ("user", "what is 3+3?", False)  # and what was typed is kept


def test_a_regenerate_killed_mid_reply_loses_nothing(qtbot, app_for, tmp_path: Path) -> None:
    """kill -9 while the new answer is on its way: the old one comes back at the next
    start (it used to be deleted before the request left)."""
    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "tell me about Kyoto")
    wait_idle(qtbot, c)
    before = [(role, text) for role, text, _hidden in _shown(c)]
    c.close()
    killed = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import os
        from cms.clock import ManualClock
        from datetime import datetime
        from monet_app.operations import conversation, versions
        from monet_app.services.wiring import build_core, no_model
        core = build_core({str(home)!r}, clock=ManualClock(datetime.now().astimezone()),
                          model_factory=no_model, summarizer="offline")
        with core.db.session() as session:
            from sqlmodel import select
            from storage.models import Message
            answer = [m.id for m in session.exec(select(Message)) if m.role == "assistant"]
        versions.regenerate(core, answer)
        os.kill(os.getpid(), 9)  # the reply was on its way
    """)], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    again = app_for(home)
    assert [(role, text) for role, text, hidden in _shown(again) if not hidden] == before


@pytest.mark.heavy
def test_a_regenerate_killed_a_second_into_the_new_stream_sends_one_reply(
        qtbot, app_for, tmp_path: Path) -> None:
    """kill -9 after part of the new answer arrived (its draft saved, as the turn runner
    does every second): the old answer comes back alone; the half new one is kept only as
    a version that is not current, and Claude's next request carries one reply (issue 41:
    both came back, in one assistant turn)."""
    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "tell me about Kyoto")
    wait_idle(qtbot, c)
    before = [(role, text) for role, text, _hidden in _shown(c)]
    c.close()
    killed = subprocess.run([sys.executable, "-c", textwrap.dedent(f"""
        import os
        from cms.clock import ManualClock
        from datetime import datetime
        from monet_app.operations import versions
        from monet_app.services.wiring import build_core, no_model
        core = build_core({str(home)!r}, clock=ManualClock(datetime.now().astimezone()),
                          model_factory=no_model, summarizer="offline")
        with core.db.session() as session:
            from sqlmodel import select
            from storage.models import Message
            answer = [m.id for m in session.exec(select(Message)) if m.role == "assistant"]
        versions.regenerate(core, answer)
        core.context.save_draft(core.context.newest_message_id(), "chat", "HALF NEW answer")
        os.kill(os.getpid(), 9)  # a second into the new reply
    """)], capture_output=True, text=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    again = app_for(home)
    assert [(role, text) for role, text, hidden in _shown(again)] == before
    body = again.core.context.prepare_request().body
    sent = json.dumps(body["messages"], ensure_ascii=False)
    assert "HALF NEW" not in sent and sent.count(before[1][1][:30]) == 1
    with again.core.db.session() as session:
        from storage.talk import reply_versions

        asked = messages(again)[0].id
        assert asked is not None
        versions = reply_versions(session, asked)
    assert [(v.text, v.current) for v in versions] == [(before[1][1], True),
                                                       ("HALF NEW answer", False)]


def test_a_request_to_remember_after_the_newest_messages_were_forgotten(
    tmp_path: Path,
) -> None:
    """SQLite reuses the ids of the newest rows once they are deleted; the memory scan's
    mark is an id, so what was said next was never read for memories."""
    from cms.memory.forget import delete_messages

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("今日は天気がいい")
    w.later().turn("明日は雨らしい")
    w.librarian.run_pass()
    with w.db.session() as session:
        newest = [m.id for m in session.exec(select(Message)).all() if m.id is not None][-2:]
    delete_messages(w.db, newest, w.clock.now())  # the newest exchange, forgotten
    w.later().turn("覚えておいて: 自転車の鍵の番号は9911")
    w.librarian.run_pass()
    with w.db.session() as session:
        facts = [m.fact for m in session.exec(select(MemoryItem)).all()]
    assert any("9911" in fact for fact in facts), facts


@pytest.mark.slow
@pytest.mark.parametrize("name", ["monet.db", "system_prompt_core.txt", "monet.db-wal"])
def test_a_backup_never_replaces_the_data_folders_own_files(tmp_path: Path, name: str) -> None:
    from storage import Database

    home = tmp_path / "home"
    Database(home).close()
    (home / "system_prompt_core.txt").write_text("# mine\n", "utf-8")
    before = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
    done = run_monet("backup", "--out", home / name, home=home)
    assert done.returncode == 2, done.stderr
    assert "own files" in done.stderr
    after = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if k in before} == before


@pytest.mark.parametrize("cut", [{"break_after_chars": 30}, {"end_after_chars": 30}])
def test_monet_usage_equals_what_the_server_reported_through_a_cut_stream(
    tmp_path: Path, cut: dict[str, int],
) -> None:
    """The server reports usage as a stream starts; a reply cut mid-stream is billed. The
    ledger used to drop its line, so ``monet usage`` read less than the bill."""
    import json
    import threading
    from datetime import datetime

    from cms.clock import ManualClock
    from cms.model.errors import ModelError
    from monet_app.cli.main import main
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer
    from monet_app.services.wiring import build_core

    home = tmp_path / "home"
    with StandInServer(chunk_chars=6) as server:
        core = build_core(home, clock=ManualClock(datetime.now().astimezone()),
                          summarizer="offline", model_factory=lambda s: AnthropicModel(
                              make_client("sk-ant-test-000", base_url=server.url,
                                          max_retries=0)))
        try:
            core.chat_model()
            for text in ("first, whole", "second, cut", "third, whole"):
                core.context.commit_user_message(text, "chat")
                if "cut" in text:
                    server.replies.append("a long answer that breaks off " * 4)
                    server.failures.append(dict(cut))
                    with pytest.raises(ModelError):
                        core.runner.resume("chat", None, threading.Event())
                else:
                    core.runner.resume("chat", None, threading.Event())
        finally:
            core.close()
        reported = list(server.reported)
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["usage", "--json", "--home", str(home)]) == 0
    totals = json.loads(out.getvalue())["totals"]
    assert len(reported) == 3 == totals["requests"]
    assert totals["cache_read_tokens"] == sum(r.get("cache_read_input_tokens", 0) for r in reported)
    assert totals["input_tokens"] == sum(r.get("input_tokens", 0) for r in reported)


@pytest.mark.slow
def test_the_librarian_backs_off_while_the_api_is_down(tmp_path: Path) -> None:
    """Against a server that answers every request with an error, a librarian ticking
    every interval (the window's timer, ``--watch``) sends at most 20 requests in 18
    intervals, the SDK's own retries included: one round until the breaker opens, then
    one probe a pass, the wait doubling. It used to send a fresh round every tick."""
    from datetime import timedelta

    from cms.librarian.summarizer import ClaudeSummarizer
    from monet_app.operations.librarian import librarian_pass
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer

    with StandInServer() as server:
        server.failures.extend({"status": 500, "type": "api_error"} for _ in range(1000))
        model = AnthropicModel(make_client("sk-ant-test-000", base_url=server.url,
                                           max_retries=2))
        w = World(tmp_path / "home", Settings(librarian_interval_minutes=1),
                  summarizer=ClaudeSummarizer(model, "claude-haiku-4-5"))
        for day in (2, 3, 4):
            w.at(f"2026-03-0{day}T09:00:00+09:00").turn(f"day {day}: a talk about tea")
            w.later(40).turn(f"day {day}: another talk about coffee")
        start = w.clock.now()
        server.requests.clear()
        for tick in range(18):  # the first 18 intervals of the outage
            w.clock.set(start + timedelta(minutes=tick))
            librarian_pass(w.core, when_due=True)
        assert 0 < len(server.requests) <= 20, len(server.requests)
        assert w.librarian.pending_count() > 0  # the placeholders wait, nothing is lost


def test_a_forgotten_day_leaves_no_copy_in_the_stored_prompt(tmp_path: Path) -> None:
    """The rendered blocks are stored (prompt state) and were rendered again only at the
    next request: a backup taken between a forget and that request held the fact."""
    from cms.summaries import OfflineSummarizer
    from monet_app.operations import memory
    from storage.models import PromptState

    w = World(tmp_path / "home", Settings(), summarizer=OfflineSummarizer())
    w.at("2026-03-02T09:00:00+09:00").turn("My locker code at the gym is 4417, by the way.")
    w.later().turn("The gym opens at seven on Sundays.")
    w.at("2026-03-03T09:00:00+09:00").turn("Good morning.")  # sunset: the fold
    w.librarian.run_pass()
    w.later().turn("What is new?")

    def stored() -> str:
        with w.db.session() as session:
            state = session.exec(select(PromptState)).one()
            return state.ti_text + state.ti_head_text + state.context_text

    assert "4417" in stored()
    memory.delete_day(w.core, "2026-03-02")
    assert "4417" not in stored()
    w.later().turn("And now?")
    assert "4417" not in json.dumps(w.bodies[-1], ensure_ascii=False)


def test_a_new_message_s_id_is_above_every_id_ever_given(tmp_path: Path) -> None:
    """Forgetting the two newest messages and then sending gave their ids again (issue
    41): an id kept from an earlier export then named, and deleted, a different message."""
    from cms.memory.forget import delete_messages

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("first")
    w.later().turn("second")
    with w.db.session() as session:
        given = [m.id for m in session.exec(select(Message)).all() if m.id is not None]
    delete_messages(w.db, given[-2:], w.clock.now())
    w.later().turn("third")
    w.db.close()
    again = World(tmp_path / "home", Settings())  # across a restart too
    again.later().turn("fourth")
    with again.db.session() as session:
        now = [m.id for m in session.exec(select(Message)).all() if m.id is not None]
    assert now[:2] == given[:2] and min(now[2:]) > max(given)
    assert len(set(now)) == len(now)


@pytest.mark.sqlite_only
def test_a_copy_of_the_history_keeps_its_ids_above_the_deleted_ones(tmp_path: Path) -> None:
    from cms.memory.forget import delete_messages
    from tests.helpers import run_monet

    w = World(tmp_path / "home", Settings())
    w.at("2026-03-02T09:00:00+09:00").turn("first")
    w.later().turn("second")
    with w.db.session() as session:
        given = [m.id for m in session.exec(select(Message)).all() if m.id is not None]
    delete_messages(w.db, given[-2:], w.clock.now())
    w.db.close()
    run_monet("migrate-to", tmp_path / "copy", home=tmp_path / "home", check=True)
    copy = World(tmp_path / "copy", Settings())
    copy.later().turn("third")
    with copy.db.session() as session:
        now = [m.id for m in session.exec(select(Message)).all() if m.id is not None]
    assert min(now[2:]) > max(given)


@pytest.mark.heavy
def test_the_window_follows_a_deletion_made_in_a_terminal(qtbot, app_for, tmp_path: Path) -> None:
    """`monet forget --day` (today) in another process while the window is open: the
    deleted messages leave the window within seconds (they stayed on screen, issue 41)."""
    from tests.helpers import run_monet

    home = tmp_path / "home"
    c = app_for(home)
    type_and_enter(qtbot, c, "a message to forget")
    wait_idle(qtbot, c)
    assert any(row.text == "a message to forget" for row in c.window.transcript.model.rows)
    today = c.nav.days()[0].day
    done = run_monet("forget", "--day", today, home=home)
    assert done.returncode == 0, done.stderr
    qtbot.waitUntil(lambda: not any(row.text == "a message to forget"
                                    for row in c.window.transcript.model.rows), timeout=15_000)


@pytest.mark.heavy
def test_the_watch_leaves_the_window_as_it_is_after_its_own_writes(qtbot, app_for, tmp_path: Path) -> None:
    """The window's own send moves the history too: the watch reads it again, finds the
    same rows and lines, and the transcript is not reset (an open editor, the selection
    and pictures being read stay; the day list and the Timeline Index keep their
    scroll)."""
    c = app_for(tmp_path / "home")
    type_and_enter(qtbot, c, "a message that stays")
    wait_idle(qtbot, c)
    resets: list[int] = []
    c.window.transcript.model.modelReset.connect(lambda: resets.append(1))
    days_before = c.window.days.list.item(0)
    qtbot.waitUntil(lambda: c.watch._seen is not None and c.watch._seen[0] == 2,
                    timeout=15_000)
    assert resets == []
    assert c.window.days.list.item(0) is days_before  # (not rebuilt)
