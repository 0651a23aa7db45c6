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
