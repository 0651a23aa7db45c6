"""A real window on a virtual X screen, driven by keystrokes alone, the way a person
would: type, press Enter; the message and Claude's reply (from a local stand-in server
at ANTHROPIC_BASE_URL, any key) are stored. Needs Xvfb and xdotool (.ci/run installs
them; see the README's Linux notes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from monet_app.standin_server import StandInServer
from storage import Database
from storage.models import Message

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="Xvfb and xdotool are not installed (apt-get install xvfb xdotool)",
)]


@pytest.fixture
def display() -> Iterator[str]:
    read, write = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp"],
        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        chunk = os.read(read, 16)
        if not chunk:
            break
        number += chunk
    os.close(read)
    try:
        yield f":{number.decode().strip()}"
    finally:
        xvfb.terminate()
        xvfb.wait(timeout=10)


def xdotool(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                          timeout=30, check=False)
    return done.stdout.strip()


def test_keystrokes_in_a_real_window_store_message_and_reply(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with StandInServer() as server:
        env = {
            **os.environ,
            "DISPLAY": display,
            "QT_QPA_PLATFORM": "xcb",
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "any-key",
            "MONET_LANG": "en",
        }
        output = tmp_path / "app-output.txt"
        out = output.open("wb")
        app = subprocess.Popen(
            [sys.executable, "-m", "monet_app.cli", "--home", str(home)],
            env=env, stdout=out, stderr=subprocess.STDOUT,
        )
        try:
            window = ""
            deadline = time.monotonic() + 60
            while not window and time.monotonic() < deadline:
                assert app.poll() is None, output.read_text(errors="replace")
                window = xdotool(env, "search", "--onlyvisible", "--name", "^MONET$").split("\n")[0]
                time.sleep(0.3)
            assert window, "the MONET window did not appear"
            xdotool(env, "windowfocus", "--sync", window)
            time.sleep(0.5)
            xdotool(env, "type", "--delay", "30", "Hello from the keyboard")
            xdotool(env, "key", "Return")
            stored: list[tuple[str, str]] = []
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                db = Database(home)
                with db.session() as session:
                    stored = [(m.role, m.text) for m in session.exec(select(Message)).all()]
                db.close()
                if len(stored) >= 2:
                    break
                time.sleep(0.3)
            assert stored[0] == ("user", "Hello from the keyboard")
            assert stored[1][0] == "assistant" and "stand-in" in stored[1][1]
            assert len(server.requests) == 1
        finally:
            app.terminate()
            try:
                app.wait(timeout=10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait(timeout=10)
            out.close()
