"""One MONET per data folder (issue 12, defect 13): a second launch on the same home
brings the running window forward and exits, saying so; another home runs beside it; a
socket left by a crash does not block the next start."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtNetwork import QLocalServer, QLocalSocket
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from monet_app.window.desktop import already_running, bring_forward
from monet_app.window.single_instance import Answer, SingleInstance, server_name
from tests.helpers import monet_command, monet_env, run_monet

REPO = Path(__file__).resolve().parents[1]
#: In one process the first instance cannot answer while the second waits (one thread).
QUICK_MS = 50


@pytest.fixture
def instances() -> Iterator[Callable[[Path], SingleInstance]]:
    made: list[SingleInstance] = []

    def make(home: Path) -> SingleInstance:
        instance = SingleInstance(home, answer_timeout_ms=QUICK_MS)
        made.append(instance)
        return instance

    yield make
    for instance in made:
        instance.close()


def test_the_name_follows_the_folder_not_the_spelling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a = tmp_path / "a"
    a.mkdir()
    (tmp_path / "link").symlink_to(a)
    monkeypatch.chdir(tmp_path)
    assert server_name(Path("a")) == server_name(a) == server_name(tmp_path / "link")
    assert server_name(tmp_path / "x" / ".." / "a") == server_name(a)
    assert server_name(tmp_path / "b") != server_name(a)
    assert len(server_name(a)) < 100  # fits a Unix socket path


def test_second_launch_on_the_same_home_asks_the_first_and_does_not_start(
        qtbot: QtBot, tmp_path: Path, instances: Callable[[Path], SingleInstance]) -> None:
    first = instances(tmp_path / "a")
    assert first.claim() is True
    assert first.listening
    second = instances(tmp_path / "a")
    with qtbot.waitSignal(first.activated, timeout=5_000):
        assert second.claim() is False
    assert not second.listening
    assert second.answer is Answer.SILENT  # the first could not answer: same thread

    other = instances(tmp_path / "b")
    assert other.claim() is True, "another data folder runs beside the first"
    assert other.listening

    first.close()
    again = instances(tmp_path / "a")
    assert again.claim() is True
    assert again.listening
    with qtbot.waitSignal(again.activated, timeout=5_000):
        assert instances(tmp_path / "a").claim() is False


def test_each_later_launch_brings_it_forward_again(
        qtbot: QtBot, tmp_path: Path, instances: Callable[[Path], SingleInstance]) -> None:
    first = instances(tmp_path / "a")
    assert first.claim()
    for _ in range(3):
        with qtbot.waitSignal(first.activated, timeout=5_000):
            assert not instances(tmp_path / "a").claim()


def test_a_connection_that_does_not_ask_to_show_changes_nothing(
        qtbot: QtBot, tmp_path: Path, instances: Callable[[Path], SingleInstance]) -> None:
    first = instances(tmp_path / "a")
    assert first.claim()
    stranger = QLocalSocket()
    stranger.connectToServer(first.name)
    assert stranger.waitForConnected(1_000)
    stranger.write(b"hello\n")
    stranger.flush()
    with qtbot.assertNotEmitted(first.activated, wait=500):
        pass
    stranger.abort()
    with qtbot.waitSignal(first.activated, timeout=5_000):
        assert not instances(tmp_path / "a").claim()


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX") or sys.platform == "win32",
                    reason="a stale socket file is a Unix matter")
def test_a_socket_left_by_a_crash_does_not_block_the_next_start(
        qtbot: QtBot, tmp_path: Path, instances: Callable[[Path], SingleInstance]) -> None:
    home = tmp_path / "a"
    path = Path(server_name(home))
    crashed = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    crashed.bind(str(path))  # bound, never listening, never unlinked: what a crash leaves
    crashed.close()
    try:
        assert path.exists()
        instance = instances(home)
        assert instance.claim() is True
        assert instance.listening, "the stale socket file was not cleared"
        with qtbot.waitSignal(instance.activated, timeout=5_000):
            assert instances(home).claim() is False
    finally:
        QLocalServer.removeServer(server_name(home))  # had the claim failed


@pytest.mark.skipif(not hasattr(os, "getuid"), reason="Unix sockets and owners")
def test_another_user_listening_first_on_the_shared_name_does_not_block_monet(
        qtbot: QtBot, tmp_path: Path, instances: Callable[[Path], SingleInstance]) -> None:
    """The socket used to be ``<temp>/monet-<uid>-<digest>``: anyone could listen there
    first (and answer "ok"), and MONET would exit as if already running."""
    import hashlib

    home = tmp_path / "a"
    digest = hashlib.sha256(str(home.resolve()).encode()).hexdigest()[:16]
    squatter = QLocalServer()
    squatter.setSocketOptions(QLocalServer.SocketOption.WorldAccessOption)
    assert squatter.listen(f"monet-{os.getuid()}-{digest}")
    squatter.newConnection.connect(lambda: squatter.nextPendingConnection().write(b"ok\n"))
    try:
        instance = instances(home)
        assert instance.claim() is True and instance.listening
        folder = Path(instance.name).parent
        assert folder.stat().st_uid == os.getuid() and folder.stat().st_mode & 0o077 == 0
    finally:
        squatter.close()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                    reason="making a folder another user owns needs root")
def test_a_socket_folder_someone_else_made_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    run = tmp_path / "run"
    (run / "monet").mkdir(parents=True)
    os.chown(run / "monet", 65534, 65534)  # planted by another user
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(run))
    assert not server_name(tmp_path / "a").startswith(str(run))
    os.chown(run / "monet", os.getuid(), os.getgid())
    (run / "monet").chmod(0o777)  # ours, but opened to everyone: closed again
    assert server_name(tmp_path / "a").startswith(str(run / "monet"))
    assert (run / "monet").stat().st_mode & 0o777 == 0o700


@pytest.mark.qt_log_ignore("This plugin does not support raise")  # offscreen: no stacking
def test_bring_forward_restores_a_minimized_window_keeping_it_maximized(qtbot: QtBot) -> None:
    window = QWidget()
    qtbot.addWidget(window)
    window.setWindowState(Qt.WindowState.WindowMaximized | Qt.WindowState.WindowMinimized)
    window.show()
    assert window.isMinimized()
    bring_forward(window)
    assert not window.isMinimized()
    assert window.windowState() & Qt.WindowState.WindowMaximized
    assert window.isVisible()


def test_the_sentence_says_what_happened(tmp_path: Path) -> None:
    shown = already_running(tmp_path, Answer.SHOWN)
    assert shown.startswith("MONET is already running on this data folder")
    assert str(tmp_path) in shown and "brought forward" in shown
    silent = already_running(tmp_path, Answer.SILENT)
    assert "already running" in silent and "brought forward" not in silent


RACER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from PySide6.QtCore import QCoreApplication
    from monet_app.window.single_instance import SingleInstance

    app = QCoreApplication([])
    instance = SingleInstance(Path(sys.argv[1]))
    start = float(sys.argv[2])
    while time.time() < start:
        pass
    print("first" if instance.claim() else "second", flush=True)
    end = time.monotonic() + float(sys.argv[3])
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    instance.close()
""")


@pytest.mark.slow
def test_launches_started_at_the_same_instant_elect_one(tmp_path: Path) -> None:
    home = tmp_path / "a"
    for _ in range(2):
        start = time.time() + 2  # every racer has imported Qt by then
        racers = [subprocess.Popen([sys.executable, "-c", RACER, str(home), str(start), "1.5"],
                                   cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True) for _ in range(8)]
        results = [racer.communicate(timeout=60) for racer in racers]
        said = sorted(out.strip() for out, _err in results)
        assert said == ["first"] + ["second"] * 7, results
        assert all(racer.returncode == 0 for racer in racers), results


# -- the real app under Xvfb ----------------------------------------------------------

needs_x = pytest.mark.skipif(
    not (shutil.which("Xvfb") and shutil.which("xdotool")),
    reason="Xvfb and xdotool are not installed (apt-get install xvfb xdotool)",
)


def windows(env: dict[str, str]) -> list[str]:
    done = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^MONET$"],
                          env=env, capture_output=True, text=True, timeout=30, check=False)
    return done.stdout.split()


@pytest.mark.slow
@needs_x
def test_a_second_monet_on_the_same_home_exits_and_the_first_window_stays_alone(
        display: str, tmp_path: Path) -> None:
    home = tmp_path / "home"
    changes = {"DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "MONET_LANG": "en"}
    dropped = ("ANTHROPIC_API_KEY", "MONET_HOME")
    env = monet_env(changes, without=dropped)
    output = tmp_path / "first-output.txt"
    out = output.open("wb")
    first = subprocess.Popen(monet_command("--home", home),
                             cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while not windows(env) and time.monotonic() < deadline:
            assert first.poll() is None, output.read_text(errors="replace")
            time.sleep(0.3)
        assert windows(env), "the MONET window did not appear"

        started = time.monotonic()
        second = run_monet("--home", home / "." / ".." / "home", cwd=REPO, env=changes,
                           without=dropped, timeout=20)
        assert second.returncode == 0, second
        assert time.monotonic() - started < 20
        assert "MONET is already running on this data folder" in second.stderr, second
        assert "its window was brought forward" in second.stderr, second
        # the second launch has exited: no window of its own can be left; the first one
        # answered "shown" after bringing its window forward, and opened no other
        assert len(windows(env)) == 1
        assert first.poll() is None, output.read_text(errors="replace")
    finally:
        first.terminate()
        try:
            first.wait(timeout=10)
        except subprocess.TimeoutExpired:
            first.kill()
            first.wait(timeout=10)
        out.close()
        QLocalServer.removeServer(server_name(home))  # SIGTERM leaves the socket file
