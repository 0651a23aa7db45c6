"""The fault matrix (issue 10): kill -9 at chosen moments, several processes on one home,
damaged files, API faults. Each case prints what it injected. Slow: real processes."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from sqlmodel import select

from monet_app.standin_server import StandInServer
from storage import Database
from storage.models import Message, Setting

pytestmark = pytest.mark.slow


def _env(server: StandInServer) -> dict[str, str]:
    return {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": "sk-ant-test-0000",
            "QT_QPA_PLATFORM": "offscreen"}


def _wait_for(predicate, seconds: float = 30.0) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


def _draft(home: Path) -> str:
    db = Database(home)
    try:
        with db.session() as session:
            row = session.get(Setting, "reply_draft")
            return json.loads(row.value_json)["text"] if row is not None else ""
    finally:
        db.close()


def test_kill_9_while_a_reply_streams_keeps_what_had_arrived(tmp_path: Path) -> None:
    reply = "これはとても長い返事です。" * 40
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps({"ts": "2026-03-02T09:00:00+09:00", "tab": "chat",
                                 "user": "長く話して", "assistant": reply},
                                ensure_ascii=False) + "\n", "utf-8")
    home = tmp_path / "home"
    with StandInServer(trace, chunk_chars=4) as server:
        server.failures.append({"chunk_delay": 0.02})  # about 3 s for the whole reply
        app = subprocess.Popen(
            [sys.executable, "-m", "monet_app.cli", "replay", str(trace), "--home", str(home),
             "--live"], env=_env(server), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            assert _wait_for(lambda: len(_draft(home)) >= 40), "no draft was written"
            os.kill(app.pid, signal.SIGKILL)
        finally:
            app.wait(timeout=30)
    arrived = _draft(home)
    print(f"injected: SIGKILL after {len(arrived)} characters of the reply had arrived")
    from cms.clock import ManualClock, parse_ts
    from monet_app.wiring import build_core, no_model

    core = build_core(home, clock=ManualClock(parse_ts("2026-03-02T09:05:00+09:00")),
                      model_factory=no_model)
    try:
        core.context.app_started()  # the next start keeps it, as Stop would
        with core.db.session() as session:
            stored = list(session.exec(select(Message).order_by(Message.id)).all())  # type: ignore[arg-type]
    finally:
        core.close()
    assert [(m.role, m.status) for m in stored] == [("user", "complete"), ("assistant", "incomplete")]
    assert stored[1].text.startswith(arrived) and reply.startswith(stored[1].text)
    assert _draft(home) == ""


def test_librarian_watch_waits_out_a_held_write_lock(tmp_path: Path) -> None:
    import sqlite3

    from cms.clock import ManualClock, parse_ts
    from monet_app.wiring import build_core, no_model

    home = tmp_path / "home"
    core = build_core(home, clock=ManualClock(parse_ts("2026-03-01T09:00:00+09:00")),
                      model_factory=no_model)
    core.context.commit_user_message("一日目の話", "chat")
    core.context.record_reply("はい", "chat")
    core.close()
    lock = sqlite3.connect(home / "monet.db", timeout=1)
    lock.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    out = tmp_path / "out.txt"
    with out.open("w") as handle:
        watcher = subprocess.Popen(
            [sys.executable, "-m", "monet_app.cli", "librarian", "--watch", "--interval", "0.5",
             "--offline", "--home", str(home)], stdout=handle, stderr=subprocess.STDOUT)
    try:
        # hold the lock until a pass has met it (two 5 s busy timeouts), then let go
        met = _wait_for(lambda: "locked" in out.read_text() or watcher.poll() is not None, 60)
        print("injected: an exclusive write lock, held until a pass met it")
        assert met and watcher.poll() is None, out.read_text()
        lock.rollback()
        lock.close()
        time.sleep(2)
        assert watcher.poll() is None, out.read_text()  # still watching
    finally:
        watcher.send_signal(signal.SIGTERM)
        code = watcher.wait(timeout=30)
    assert code == 0, out.read_text()
    assert "locked" in out.read_text()
