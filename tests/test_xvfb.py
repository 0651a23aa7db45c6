"""A real window on a virtual X screen, driven by keystrokes alone, the way a person
would: type, press Enter; the message and Claude's reply (from a local stand-in server
at ANTHROPIC_BASE_URL, any key) are stored. Needs Xvfb and xdotool (.ci/run installs
them; see the README's Linux notes)."""

from __future__ import annotations

import shutil
import subprocess
import time
from pathlib import Path

import pytest
from sqlmodel import select

from monet_app.services.standin_server import StandInServer
from storage import Database
from storage.models import Message
from tests.helpers import monet_command, monet_env

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="Xvfb and xdotool are not installed (apt-get install xvfb xdotool)",
)]


def xdotool(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                          timeout=30, check=False)
    return done.stdout.strip()


class RealApp:
    """MONET started as a person starts it, on the virtual screen, with its window."""

    def __init__(self, display: str, home: Path, server: StandInServer, log: Path, *,
                 lang: str = "en", args: tuple[str, ...] | None = None,
                 title: str = "^MONET$") -> None:
        self.home = home
        self.env = monet_env({
            "DISPLAY": display,
            "QT_QPA_PLATFORM": "xcb",
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "any-key",
            "MONET_LANG": lang,
        })
        self.log = log
        self._wait_for_the_screen()
        self._out = log.open("ab")
        self.process = subprocess.Popen(
            monet_command(*(args if args is not None else ("--home", str(home)))),
            env=self.env, stdout=self._out, stderr=subprocess.STDOUT,
        )
        try:
            self.window = ""
            deadline = time.monotonic() + 60
            while not self.window and time.monotonic() < deadline:
                assert self.process.poll() is None, log.read_text(errors="replace")
                found = xdotool(self.env, "search", "--onlyvisible", "--name", title)
                self.window = found.split("\n")[0]
                time.sleep(0.3)
            assert self.window, "the MONET window did not appear"
        except BaseException:
            self.stop()
            raise
        xdotool(self.env, "windowfocus", "--sync", self.window)
        time.sleep(0.8)

    def _wait_for_the_screen(self) -> None:
        """The virtual screen answers before MONET is started on it."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            done = subprocess.run(["xdotool", "getdisplaygeometry"], env=self.env,
                                  capture_output=True, timeout=30, check=False)
            if done.returncode == 0:
                return
            time.sleep(0.2)
        raise AssertionError(f"the virtual screen {self.env['DISPLAY']} does not answer")

    def type(self, text: str) -> None:
        xdotool(self.env, "type", "--delay", "30", text)

    def key(self, *keys: str) -> None:
        xdotool(self.env, "key", "--delay", "60", *keys)

    def size(self) -> tuple[int, int]:
        """The window's width and height on the screen."""
        out = xdotool(self.env, "getwindowgeometry", self.window)
        width, height = out.split("Geometry:")[1].split()[0].split("x")
        return int(width), int(height)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._out.close()


def stored(home: Path, count: int, timeout: float = 30) -> list[Message]:
    """The stored messages once there are ``count`` of them (or whatever is there)."""
    found: list[Message] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        db = Database(home)
        with db.session() as session:
            found = list(session.exec(select(Message).order_by(Message.id)).all())  # type: ignore[arg-type]
        db.close()
        if len(found) >= count:
            break
        time.sleep(0.3)
    return found


def test_keystrokes_in_a_real_window_store_message_and_reply(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("Hello from the keyboard")
            app.key("Return")
            rows = stored(home, 2)
            assert (rows[0].role, rows[0].text) == ("user", "Hello from the keyboard")
            assert rows[1].role == "assistant" and "stand-in" in rows[1].text
            assert len(server.requests) == 1
        finally:
            app.stop()


def test_shift_enter_esc_and_the_next_message_by_keys_alone(display: str, tmp_path: Path) -> None:
    """Shift+Enter keeps the line break; Esc stops a streaming reply; what is typed next
    and Enter is sent as a message (the focus is back in the composer)."""
    home = tmp_path / "home"
    with StandInServer(chunk_chars=4) as server:
        server.failures.append({"chunk_delay": 0.15})  # a reply slow enough to stop
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("first line")
            app.key("shift+Return")
            app.type("second line")
            app.key("Return")
            deadline = time.monotonic() + 20
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(0.8)  # some of the reply has arrived
            app.key("Escape")
            rows = stored(home, 2)
            assert rows[0].text == "first line\nsecond line"
            assert rows[1].role == "assistant" and rows[1].status == "incomplete"
            time.sleep(0.5)
            app.type("after the stop")
            app.key("Return")
            rows = stored(home, 4)
            assert [m.text for m in rows if m.role == "user"] == [
                "first line\nsecond line", "after the stop"]
            assert rows[-1].role == "assistant" and rows[-1].status == "complete"
        finally:
            app.stop()


def test_a_draft_survives_ctrl_q_and_reopening(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("not sent yet")
            app.key("ctrl+q")
            app.process.wait(timeout=30)
        finally:
            app.stop()
        assert stored(home, 0, timeout=1) == []  # nothing was sent
        again = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            again.key("End")
            again.type(" and finished")
            again.key("Return")
            rows = stored(home, 2)
            assert rows[0].text == "not sent yet and finished"
        finally:
            again.stop()


def test_sigterm_closes_like_ctrl_q_keeping_the_draft(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("typed before a logout")
            time.sleep(0.3)
            app.process.terminate()  # SIGTERM, as a session logout sends
            assert app.process.wait(timeout=30) == 0
        finally:
            app.stop()
        db = Database(home)
        with db.session() as session:
            from storage.settings import read_value

            assert read_value(session, "composer_drafts") is None  # not the history's
        from storage.where import read_device

        assert read_device(home)["composer_drafts"] == {"chat": "typed before a logout"}
        db.close()


# ----- issue 29: narrow windows, the demo on its screen, drafts per tab -------------------
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_window_goes_down_to_700_px_after_a_reply_in_both_languages(
        display: str, tmp_path: Path, lang: str) -> None:
    """With the status bar full (the last reply's figures, the librarian, today's cost),
    the window can still be made narrow: no status text sets its minimum width."""
    home = tmp_path / "home"
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt", lang=lang)
        try:
            app.type("a question to fill the status bar")
            app.key("Return")
            stored(home, 2)
            time.sleep(1.0)  # the reply's figures are in the status bar
            xdotool(app.env, "windowsize", app.window, "560", "480")
            time.sleep(1.0)
            width, _height = app.size()
            assert width <= 700, f"the window stays {width} px wide"
        finally:
            app.stop()


def test_the_demo_never_opens_wider_than_the_screen(display: str, tmp_path: Path) -> None:
    with StandInServer() as server:
        app = RealApp(display, tmp_path / "unused", server, tmp_path / "app-output.txt",
                      args=("--demo",), title="^MONET")
        try:
            time.sleep(3.0)  # the backup and cost labels have changed meanwhile
            width, height = app.size()
            assert width <= 1280 and height <= 800, (width, height)  # the screen (conftest)
        finally:
            app.stop()


def test_drafts_stay_with_their_tab_by_keys_alone(display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("for chat")
            app.key("ctrl+2")
            app.type("for research")
            app.key("ctrl+1")
            app.key("Return")
            rows = stored(home, 2)
            assert [(m.tab, m.text) for m in rows if m.role == "user"] == [("chat", "for chat")]
            time.sleep(0.5)
            app.key("ctrl+2")
            app.key("Return")
            rows = stored(home, 4)
            assert [(m.tab, m.text) for m in rows if m.role == "user"] == [
                ("chat", "for chat"), ("research", "for research")]
        finally:
            app.stop()


def test_a_draft_survives_edit_and_resend_and_continue_by_keys_alone(
        display: str, tmp_path: Path) -> None:
    """Shift+Tab into the transcript lands on the newest message in sight; Alt+E edits
    the person's message, Alt+O continues a stopped reply; the words typed and not sent
    before either are still in the field afterwards (Enter then sends them)."""
    home = tmp_path / "home"
    with StandInServer(chunk_chars=4) as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            app.type("what is 2+2?")
            app.key("Return")
            stored(home, 2)
            time.sleep(0.8)
            app.type("kept draft")
            app.key("shift+Tab", "Up", "alt+e")  # the reply, then the message above it
            time.sleep(0.5)
            app.key("ctrl+a")
            app.type("what is 3+3?")
            app.key("Return")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                rows = stored(home, 2, timeout=1)
                if [m.text for m in rows if m.role == "user"] == ["what is 3+3?"] \
                        and rows[-1].role == "assistant":
                    break
                time.sleep(0.3)
            # the next reply: long and slow (~15 s), so Esc surely stops it midway
            server.replies.append("a long answer that keeps coming " * 15)
            server.failures.append({"chunk_delay": 0.15})
            app.key("Return")  # sends the kept draft
            rows = stored(home, 3)
            assert [m.text for m in rows if m.role == "user"] == ["what is 3+3?", "kept draft"]
            time.sleep(1.0)
            app.key("Escape")  # stopped: the reply can be continued
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                rows = stored(home, 4, timeout=1)
                if rows[-1].role == "assistant" and rows[-1].status == "incomplete":
                    break
                time.sleep(0.2)
            time.sleep(1.0)  # the window has shown it, with its Continue
            app.type("second draft")
            app.key("shift+Tab")
            time.sleep(0.5)
            app.key("alt+o")
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                rows = stored(home, 1, timeout=1)
                if any("continue" in m.text.lower() for m in rows if m.role == "user") \
                        and rows[-1].role == "assistant" and rows[-1].status == "complete":
                    break
                time.sleep(0.3)
            time.sleep(1.0)  # the continued reply has ended in the window too
            app.key("ctrl+l", "Return")  # back in the field: the draft is still there
            deadline = time.monotonic() + 20
            users: list[str] = []
            while time.monotonic() < deadline:
                users = [m.text for m in stored(home, 1, timeout=1) if m.role == "user"]
                if users and users[-1] == "second draft":
                    break
                time.sleep(0.3)
            assert users[-1] == "second draft", users
            assert any(m.role == "user" and m.text != "second draft" and "continue" in
                       m.text.lower() for m in stored(home, 1, timeout=1))
        finally:
            app.stop()


# ----- issue 30: a picture pasted, a PDF dropped, sent; a past day's files -------------------
class Helper:
    """``tests/x11_helper.py`` on the same screen: the clipboard's owner, a drag's source
    and the camera."""

    def __init__(self, display: str, log: Path) -> None:
        import sys

        self._log = log.open("ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.x11_helper"], cwd=Path(__file__).parents[1],
            env=monet_env({"DISPLAY": display, "QT_QPA_PLATFORM": "xcb"}),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True)
        assert self.process.stdout is not None and self.process.stdin is not None
        assert self.process.stdout.readline().strip() == "ready", log.read_text()

    def do(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline().strip()

    def shot(self, path: Path) -> Path:
        assert self.do(f"shot {path}") == "ok"
        return path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.do("quit")
            self.process.wait(timeout=10)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()
        self._log.close()


def _changed(a: Path, b: Path) -> int:
    """How many pixels differ between two screenshots."""
    from PIL import Image, ImageChops

    with Image.open(a) as first, Image.open(b) as second:
        gray = ImageChops.difference(first.convert("RGB"), second.convert("RGB")).convert("L")
        return sum(gray.point(lambda v: 255 if v > 16 else 0).histogram()[255:])


def _pixels_of(shot: Path, colour: tuple[int, int, int], slack: int = 12) -> int:
    """How many pixels of the screenshot are ``colour`` (give or take ``slack`` a
    channel: a scaled picture's edges, JPEG)."""
    import numpy as np
    from PIL import Image

    with Image.open(shot) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.int16)
    near = np.abs(pixels - np.array(colour, dtype=np.int16)).max(axis=2) <= slack
    return int(near.sum())


def _settled_after(helper: Helper, before: Path, out: Path, timeout: float = 30) -> int:
    """Screenshots until the screen differs from ``before`` by more than a caret's blink
    and has stopped changing (what the window was asked to do is on screen); the last one
    is kept as ``out``. Returns how many pixels differ from ``before``."""
    previous = helper.shot(out.with_suffix(".0.png"))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.4)
        current = helper.shot(out)
        if _changed(before, current) > 400 and _changed(previous, current) < 60:
            return _changed(before, current)
        previous.write_bytes(current.read_bytes())
    return _changed(before, out)


def test_a_pasted_picture_and_a_dropped_pdf_sent_from_a_real_window(display: str,
                                                                    tmp_path: Path) -> None:
    """Under Xvfb, as a person does it: a picture copied in another program is pasted
    (Ctrl+V), a PDF dragged from another program is dropped on the window, the message is
    typed and sent with Enter; then a past day with its picture is opened by keys
    (Ctrl+Shift+D, ↓, Enter). Screenshots of the field, the transcript and the past day
    are taken on the way (kept in $MONET_XVFB_SHOTS when set)."""
    import json
    import os

    from monet_app.services.replay import replay
    from storage.models import Attachment
    from tests.test_attachments import pdf, png

    shots = Path(os.environ.get("MONET_XVFB_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    picture, letter = tmp_path / "copied.png", tmp_path / "letter.pdf"
    picture.write_bytes(png(900, 600, (230, 120, 30)))
    letter.write_bytes(pdf(2))
    (tmp_path / "bike.png").write_bytes(png(500, 400, (40, 120, 200)))
    trace = tmp_path / "past.jsonl"
    trace.write_text("".join(json.dumps(turn) + "\n" for turn in [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "my new bike",
         "assistant": "A fine blue bike.", "attachments": ["bike.png"]},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "good morning",
         "assistant": "Morning!"}]), "utf-8")
    home = tmp_path / "home"
    replay(trace, home, tmp_path / "replay-log.jsonl", meaning=False)
    before = len(stored(home, 4))
    helper = Helper(display, tmp_path / "helper-output.txt")
    with StandInServer() as server:
        app = RealApp(display, home, server, tmp_path / "app-output.txt")
        try:
            start = helper.shot(shots / "xvfb-0-start.png")
            assert helper.do(f"clip {picture}") == "ok"
            xdotool(app.env, "windowfocus", "--sync", app.window)
            app.key("ctrl+v")
            assert _settled_after(helper, start, shots / "xvfb-1-pasted.png") > 400
            orange, blue = (230, 120, 30), (40, 120, 200)
            # the pasted picture's chip shows it (a 28 px copy)
            assert _pixels_of(shots / "xvfb-1-pasted.png", orange) > 300
            assert helper.do(f"source {letter}") == "ok"
            source = ""
            deadline = time.monotonic() + 20
            while not source and time.monotonic() < deadline:
                source = xdotool(app.env, "search", "--onlyvisible", "--name",
                                 "monet-drag-source").split("\n")[0]
                time.sleep(0.2)
            geometry = xdotool(app.env, "getwindowgeometry", app.window)
            x, y = (int(v) for v in geometry.split("Position:")[1].split()[0].split(","))
            width, height = app.size()
            xdotool(app.env, "mousemove", "--window", source, "70", "45")
            xdotool(app.env, "mousedown", "1")
            time.sleep(0.3)
            for step in range(1, 11):  # the drag crosses the screen to the window
                # onto the message field (bottom of the middle column): the field hands
                # files to the window, which attaches them (a drop elsewhere works too)
                xdotool(app.env, "mousemove", str(70 + (x + width * 2 // 5 - 70) * step // 10),
                        str(45 + (y + height - 60 - 45) * step // 10))
                time.sleep(0.08)
            time.sleep(0.3)
            xdotool(app.env, "mouseup", "1")
            xdotool(app.env, "windowfocus", "--sync", app.window)
            assert _settled_after(helper, shots / "xvfb-1-pasted.png",
                                  shots / "xvfb-2-field.png") > 400  # the PDF's chip
            app.key("ctrl+l")
            app.type("what do these say?")
            app.key("Return")
            rows = stored(home, before + 2)
            [asked] = [m for m in rows[before:] if m.role == "user"]
            assert asked.text == "what do these say?"
            db = Database(home)
            with db.session() as session:
                files = list(session.exec(select(Attachment).where(
                    Attachment.message_id == asked.id).order_by(Attachment.position)))  # type: ignore[arg-type]
            db.close()
            assert [f.media_type for f in files] == ["image/png", "application/pdf"]
            assert files[0].name.startswith("pasted-") and files[1].name == "letter.pdf"
            assert (files[0].width, files[0].height) == (900, 600)
            content = server.requests[-1]["messages"][-1]["content"]
            assert [b["type"] for b in content] == ["image", "document", "text"]
            assert _settled_after(helper, shots / "xvfb-2-field.png",
                                  shots / "xvfb-3-sent.png") > 400
            assert _pixels_of(shots / "xvfb-3-sent.png", orange) > 20_000  # the thumbnail
            app.key("ctrl+shift+d", "Down", "Down", "Return")  # the oldest day
            assert _settled_after(helper, shots / "xvfb-3-sent.png",
                                  shots / "xvfb-4-past-day.png") > 400
            past = shots / "xvfb-4-past-day.png"
            assert _pixels_of(past, blue) > 20_000  # the past day's photo, as a thumbnail
            assert _pixels_of(past, orange) < 300  # (today's is no longer shown)
        finally:
            app.stop()
            helper.stop()
