"""A history's server that goes away while Claude answers (issue 43, item 6): the reply
goes on, what arrived is kept on this device with its ledger line and written once the
server answers again, exactly once; the window's banner goes when it does.

On a real PostgreSQL server (a fresh database of the session's cluster, or a throwaway
cluster of the test's own where the server is stopped and started again)."""

from __future__ import annotations

import json
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from sqlmodel import col, select

from cms.settings import Settings
from storage.errors import ServerAwayError
from storage.held import HELD_FILE
from storage.models import Message, MessageStatus, UsageRecord

pytestmark = pytest.mark.heavy


def _messages(db: Any) -> list[tuple[str, str, str, str, str]]:
    with db.session() as session:
        rows = session.exec(select(Message).order_by(col(Message.id))).all()
        return [(m.role, m.text, str(m.status), m.ts, m.day) for m in rows]


def _usage_lines(db: Any) -> list[tuple[str, str, int]]:
    with db.session() as session:
        rows = session.exec(select(UsageRecord).order_by(col(UsageRecord.id))).all()
        return [(u.ts, u.day, u.output_tokens) for u in rows]


def _away_at_the_next_reply(w: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server is away when the next reply is stored (once; there after)."""
    stored = w.cm.record_reply
    calls = {"n": 0}

    def away_once(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise ServerAwayError("The database server {where} cannot be reached. Check "
                                  "that it is running and that this device can reach it.",
                                  where="nas")
        return stored(*args, **kwargs)

    monkeypatch.setattr(w.cm, "record_reply", away_once)


def test_a_reply_that_ends_while_the_server_is_away_is_kept_and_written_once(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from monet_app.operations import conversation
    from tests.helpers import World

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    w = World(tmp_path / "home", Settings())
    w.turn("first, while the server is there", reply="one")
    _away_at_the_next_reply(w, monkeypatch)
    w.later(2)
    w.model.expect("two, the whole reply that streamed while the NAS rebooted")
    result = w.runner.send("second, the server goes away", "chat")
    assert result.held and result.reply is None
    held = tmp_path / "home" / HELD_FILE
    assert stat.S_IMODE(held.stat().st_mode) == 0o600
    kept = held.read_text("utf-8")
    assert "the whole reply that streamed" in kept
    assert [m[1] for m in _messages(w.db)][-1] == "second, the server goes away"
    assert len(_usage_lines(w.db)) == 1  # (the second request's line is held)
    w.later(5)  # the server answers later: the reply keeps the instant it came
    done = conversation.write_held(w.core)
    assert done.value == 1 and not held.exists()
    held.write_text(kept, "utf-8")  # as if killed between the commit and the file's rewrite
    assert conversation.write_held(w.core).value == 0 and not held.exists()
    talk = _messages(w.db)
    replies = [m for m in talk if m[1].startswith("two, the whole reply")]
    assert len(replies) == 1
    role, _text, status, ts, day = replies[0]
    assert (role, status) == ("assistant", str(MessageStatus.COMPLETE))
    assert day == talk[-2][4] and ts == json.loads(kept)["writes"][0]["ts"] < w.cm.now_ts()
    lines = _usage_lines(w.db)
    assert len(lines) == 2 and lines[1][0] == ts and lines[1][2] > 0
    body = w.turn("third", reply="three")  # Claude reads the reply in its place
    texts = json.dumps(body["messages"], ensure_ascii=False)
    assert texts.index("second, the server goes away") < texts.index("two, the whole reply")


def test_a_streaming_draft_on_a_server_stays_on_this_device(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a server the draft written every second while a reply streams is this device's
    (no round trip a second; another device's start never takes it): a killed window's
    draft comes back as an incomplete reply at its next start, once."""
    from storage.settings import setting_json
    from tests.helpers import World

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    w = World(tmp_path / "home", Settings())
    w.turn("a question", reply="an answer")
    w.cm.save_draft(w.cm.newest_message_id(), "chat", "half of the next")
    with w.db.session() as session:
        assert setting_json(session, "reply_draft") is None
    assert "half of the next" in (tmp_path / "home" / HELD_FILE).read_text("utf-8")
    w.cm.save_draft(w.cm.newest_message_id(), "chat", "half of the next one")
    recovered = w.cm.recover_draft()
    assert recovered is not None and recovered.text == "half of the next one"
    assert recovered.status == MessageStatus.INCOMPLETE
    assert w.cm.recover_draft() is None and not (tmp_path / "home" / HELD_FILE).exists()


@pytest.mark.slow
def test_the_window_keeps_a_reply_whose_server_stopped_and_writes_it_when_it_is_back(
        qtbot, app_for, server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server stops while a reply streams (its own throwaway cluster): the reply goes
    on to its end and stays on screen, the banner says it is kept; once the server is
    back the reply is in the history once, with its ledger line, and the banner goes."""
    from tests import pg_cluster
    from tests.conftest import new_database
    from tests.test_app import type_and_enter, wait_idle

    if not pg_cluster.available():
        pytest.skip("PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="monet-pg-outage-"))
    server_url = pg_cluster.start(folder)
    try:
        monkeypatch.setenv("MONET_DATABASE_URL", new_database(server_url))
        c = app_for(tmp_path / "laptop")
        type_and_enter(qtbot, c, "first, while the server is there")
        wait_idle(qtbot, c)
        answer = "二つ目の返事です、NASが再起動しているあいだに届きました。 " * 12
        server.replies.append(answer)
        server.failures.append({"chunk_delay": 0.04})  # ~4 s of streaming
        type_and_enter(qtbot, c, "second, the server goes away")
        qtbot.waitUntil(lambda: len(c.stream.buffer) > 20, timeout=10_000)
        pg_cluster.pause(folder)
        qtbot.waitUntil(lambda: not c.stream.busy, timeout=30_000)
        assert c.window.error_box.isVisible()
        assert "kept on this device" in c.window.error_label.text()
        assert answer.strip() in c.stream.buffer  # streamed to its end
        assert any(answer.strip()[:30] in r.text for r in c.window.transcript.model.rows)
        assert (tmp_path / "laptop" / HELD_FILE).exists()
        pg_cluster.resume(folder)
        qtbot.waitUntil(lambda: not (tmp_path / "laptop" / HELD_FILE).exists(),
                        timeout=30_000)
        qtbot.waitUntil(lambda: not c.window.error_box.isVisible(), timeout=10_000)
        talk = _messages(c.core.db)
        assert [m[1].strip() for m in talk].count(answer.strip()) == 1
        assert talk[-1][0] == "assistant" and talk[-1][2] == str(MessageStatus.COMPLETE)
        assert len(_usage_lines(c.core.db)) == 2
        qtbot.waitUntil(lambda: any(r.text.strip() == answer.strip() and r.status != "streaming"
                                    for r in c.window.transcript.model.rows), timeout=10_000)
        c.window.compose.field.setFocus()
        qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Escape)
    finally:
        pg_cluster.stop(folder)


def test_a_send_after_the_server_is_back_writes_the_held_reply_first(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The person sends before the window's watch wrote the held reply: the reply goes
    in first, in its place, then the new message; a retry of the held exchange asks
    nothing (its reply is there now)."""
    from monet_app.operations import conversation
    from tests.helpers import World

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    w = World(tmp_path / "home", Settings())
    _away_at_the_next_reply(w, monkeypatch)
    w.model.expect("the held answer")
    assert w.runner.send("first question", "chat").held
    asked = w.model.calls
    retry = conversation.reply(w.core, "chat", lambda _t: None, threading.Event())
    assert retry.value.reply is None and not retry.value.held
    assert w.model.calls == asked  # (nothing asked again)
    w.later(1)
    conversation.commit(w.core, "second question", "chat")
    assert [m[1] for m in _messages(w.db)] == ["first question", "the held answer",
                                               "second question"]
