"""Private by default (issue 41): only the person's own account can read what MONET writes,
whatever the umask of the session that started it; an older, open folder is tightened once
and MONET says so."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from storage.private import applies
from tests.helpers import run_monet
from tests.test_attachments import png

pytestmark = pytest.mark.skipif(not applies(), reason="POSIX modes (Windows: access lists)")


@pytest.fixture
def open_umask() -> Iterator[None]:
    """The session's umask is the usual 022: what is made is readable by everyone."""
    before = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(before)


def open_to_others(home: Path) -> list[str]:
    found = []
    for path in [home, *home.rglob("*")]:
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            continue
        expected = 0o700 if stat.S_ISDIR(mode) else 0o600
        if stat.S_IMODE(mode) & 0o077 or (stat.S_ISDIR(mode) and stat.S_IMODE(mode) != expected):
            found.append(f"{path.relative_to(home)} {oct(stat.S_IMODE(mode))}")
    return found


def _replay_with_a_picture(tmp_path: Path, home: Path) -> None:
    (tmp_path / "menu.png").write_bytes(png(300, 200))
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps({
        "ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "this menu",
        "assistant": "Seen.", "attachments": ["menu.png"]}) + "\n", "utf-8")
    run_monet("replay", trace, home=home, check=True)


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_the_data_folder_and_everything_in_it_are_private_under_umask_022(
        tmp_path: Path, open_umask: None) -> None:
    home = tmp_path / "home"
    _replay_with_a_picture(tmp_path, home)
    run_monet("backup", home=home, check=True)
    run_monet("export", "--out", home / "export.jsonl", home=home, check=True)
    run_monet("export", "--attachments", home / "files", home=home, check=True)
    made = {p.name for p in home.rglob("*")}
    assert {"monet.db", "monet.log", "export.jsonl", "files", "backups"} <= made
    assert list((home / "attachments").rglob("*")) and list((home / "backups").glob("*.zip"))
    assert open_to_others(home) == []


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_an_older_open_folder_is_tightened_once_and_monet_says_so(
        tmp_path: Path, open_umask: None) -> None:
    home = tmp_path / "home"
    _replay_with_a_picture(tmp_path, home)
    for path in [home, *home.rglob("*")]:  # as an older MONET left it
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert open_to_others(home)
    done = run_monet("export", home=home, check=True)
    assert "made it private" in done.stderr
    assert open_to_others(home) == []
    again = run_monet("export", home=home, check=True)
    assert "private" not in again.stderr  # once


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_the_window_says_a_folder_was_made_private_as_a_notice_not_an_error(
        qtbot, app_for, tmp_path: Path, open_umask: None) -> None:
    """The tightened folder was said in the red failure banner: it is no failure, so it
    is a neutral notice, read until OK, and the error banner stays hidden."""
    home = tmp_path / "home"
    _replay_with_a_picture(tmp_path, home)
    for path in [home, *home.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    c = app_for(home)
    assert c.window.info_box.isVisibleTo(c.window)
    assert "private" in c.window.info_label.text()
    assert not c.window.error_box.isVisibleTo(c.window)
    qtbot.mouseClick(c.window.info_ok, Qt.MouseButton.LeftButton)
    assert not c.window.info_box.isVisibleTo(c.window)
    assert open_to_others(home) == []
