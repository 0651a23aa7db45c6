"""One transaction per user action (issue 42): regenerate, edit and resend, forgetting a
day, forgetting a memory with its messages (from the backups in the folder too) and a
restore, each killed (SIGKILL) before every one of its steps (``tests/kill_steps.py``: each commit, each file replaced or
removed in the data folder). The folder, opened as the next start opens it (the
database, then ``conversation.recover``), holds the state before the action or after
it, never one between. Between the two, where the design keeps what the person typed or
what Claude was writing (the person's edited message stored before any request leaves, a
reply cut by the kill kept as a version that is not shown), that one state is allowed
too, and its content is checked."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests import kill_steps
from tests.helpers import monet_env, run_monet
from tests.test_attachments import png

pytestmark = [pytest.mark.slow, pytest.mark.sqlite_only]

FIRST_DAYS = [
    {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "I moved to Sapporo last month.",
     "assistant": "Lovely.", "attachments": ["bike.png"]},
    {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "Buy oat milk today.",
     "assistant": "Noted."},
]
LAST_DAY = [
    {"ts": "2026-03-04T09:00:00+09:00", "tab": "chat",
     "user": "What is the capital of Australia?", "assistant": "Sydney, I think."},
]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Three days (a picture, a memory, Timeline Index lines, a context summary), and a
    backup made after the second: the home and the archive."""
    where = tmp_path_factory.mktemp("prepared")
    (where / "bike.png").write_bytes(png(120, 80))
    home = where / "home"
    for name, lines in (("first.jsonl", FIRST_DAYS), ("last.jsonl", LAST_DAY)):
        (where / name).write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    run_monet("replay", where / "first.jsonl", home=home, check=True)
    run_monet("promote", "I like green tea.", "--category", "values", home=home, check=True)
    archive = where / "after-two-days.zip"
    run_monet("backup", "--out", archive, home=home, check=True)
    run_monet("replay", where / "last.jsonl", home=home, check=True)
    run_monet("promote", "I prefer short answers.", "--category", "values", home=home,
              check=True)  # (the core prompt differs from the backup's too)
    run_monet("backup", home=home, check=True)  # one in the folder: a forget rewrites it
    return home, archive


def _run(action: str, home: Path, step: int, arg: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.kill_steps", action, str(home),
                           str(step), arg], capture_output=True, text=True, timeout=120,
                          env=monet_env(), cwd=Path(__file__).resolve().parents[1])


def state(home: Path) -> dict[str, Any]:
    """What the folder holds once opened as the next start opens it."""
    from cms.clock import ManualClock, parse_ts
    from monet_app.operations import conversation
    from monet_app.services.wiring import build_core, no_model

    core = build_core(home, clock=ManualClock(parse_ts(kill_steps.NOW)), summarizer="offline",
                      model_factory=no_model, database_url="")
    try:
        conversation.recover(core)
    finally:
        core.close()
    conn = sqlite3.connect(home / "monet.db")
    try:
        def rows(sql: str) -> list[list[Any]]:
            return [list(row) for row in conn.execute(sql)]

        found: dict[str, Any] = {
            "messages": rows("SELECT id, role, tab, text, hidden, status FROM message "
                             "ORDER BY id"),
            "versions": rows("SELECT user_message_id, number, text, current FROM "
                             "reply_version ORDER BY user_message_id, number"),
            "timeline": rows("SELECT segment_id, parent_id, summary FROM timelineentry "
                             "ORDER BY id"),
            "memories": rows("SELECT fact, status, source_message_ids FROM memoryitem "
                             "ORDER BY id"),
            "context": rows("SELECT text FROM contextsummary ORDER BY id DESC LIMIT 1"),
            "settings": rows("SELECT key, value_json FROM setting ORDER BY key"),
            "attachments": rows("SELECT message_id, sha256 FROM attachment ORDER BY id"),
            "search": rows("SELECT rowid FROM message_fts ORDER BY rowid"),
        }
    finally:
        conn.close()
    found["files"] = sorted(p.name for p in (home / "attachments").glob("*")) \
        if (home / "attachments").is_dir() else []
    found["backups"] = [_texts_in(archive) for archive in sorted((home / "backups").glob("*.zip"))]
    for name in ("context_summary.txt", "system_prompt_core.txt"):
        path = home / name
        found[name] = path.read_text("utf-8") if path.is_file() else None
    return found


def _texts_in(archive: Path) -> list[str]:
    """The messages a backup in the folder holds."""
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory() as tmp, zipfile.ZipFile(archive) as opened:
        opened.extract("monet.db", tmp)
        conn = sqlite3.connect(Path(tmp) / "monet.db")
        try:
            return sorted(text for (text,) in conn.execute("SELECT text FROM message"))
        finally:
            conn.close()


def _killed_everywhere(prepared: tuple[Path, Path], tmp_path: Path, action: str,
                       arg: str = "") -> tuple[dict[str, Any], dict[str, Any],
                                               list[dict[str, Any]]]:
    """The state before, the state after, and the state after a kill before each step."""
    source, archive = prepared
    arg = str(archive) if action == "restore" else arg

    def fresh(name: str) -> Path:
        home = tmp_path / name
        shutil.copytree(source, home)
        return home

    before = state(fresh("before"))
    whole = fresh("whole")
    done = _run(action, whole, 0, arg)
    assert done.returncode == 0, done.stderr
    count = int(done.stdout.split()[-1])
    assert count >= 1
    after = state(whole)
    assert after != before
    killed = []
    for step in range(1, count + 1):
        home = fresh(f"killed-{step}")
        run = _run(action, home, step, arg)
        assert run.returncode == -9, (step, run.returncode, run.stderr)
        killed.append(state(home))
    return before, after, killed


def _differences(found: dict[str, Any], expected: dict[str, Any]) -> list[str]:
    return [key for key in expected if found.get(key) != expected[key]]


def _visible(found: dict[str, Any]) -> list[list[Any]]:
    return [m[1:4] for m in found["messages"] if not m[4]]


def test_a_forgotten_day_is_gone_whole_or_not_at_all(prepared, tmp_path: Path) -> None:
    before, after, killed = _killed_everywhere(prepared, tmp_path, "forget-day", "2026-03-02")
    sapporo = "I moved to Sapporo last month."
    assert [sapporo in texts for texts in before["backups"]] == [True]
    assert [sapporo in texts for texts in after["backups"]] == [False]  # (rewritten)
    for step, found in enumerate(killed, 1):
        assert found in (before, after), (step, _differences(found, after))


def test_a_memory_forgotten_with_its_messages_is_gone_whole_or_not_at_all(
        prepared, tmp_path: Path) -> None:
    before, after, killed = _killed_everywhere(prepared, tmp_path, "forget-memory", "Sapporo")
    for step, found in enumerate(killed, 1):
        assert found in (before, after), (step, _differences(found, after))


def test_a_restore_is_whole_or_not_at_all(prepared, tmp_path: Path) -> None:
    before, after, killed = _killed_everywhere(prepared, tmp_path, "restore")
    assert [m[3] for m in after["messages"]][-1] == "Noted."  # the two days of the backup
    for step, found in enumerate(killed, 1):
        assert found in (before, after), (step, _differences(found, after))


def test_a_regenerate_is_whole_or_not_at_all(prepared, tmp_path: Path) -> None:
    """Killed while the new reply streamed, the old reply is back and shown, the new one
    kept at most as a version that is not current."""
    before, after, killed = _killed_everywhere(prepared, tmp_path, "regenerate")
    assert _visible(after)[-1][2] == kill_steps.REGENERATED
    for step, found in enumerate(killed, 1):
        if found in (before, after):
            continue
        assert _visible(found) == _visible(before), step
        assert [v[3] for v in found["versions"]] == [1, 0], step  # the old one current
        assert found["versions"][0][2] == "Sydney, I think."
        same = {k: v for k, v in found.items() if k not in ("versions", "settings")}
        assert same == {k: v for k, v in before.items() if k not in ("versions", "settings")}


def test_an_edit_and_resend_is_whole_or_not_at_all(prepared, tmp_path: Path) -> None:
    """Killed after the edited message was stored, before its reply: the old exchange is
    back, and what the person typed is kept after it (nothing typed is lost)."""
    before, after, killed = _killed_everywhere(prepared, tmp_path, "edit")
    assert _visible(after)[-2:] == [["user", "chat", kill_steps.EDITED],
                                    ["assistant", "chat", kill_steps.REGENERATED]]
    for step, found in enumerate(killed, 1):
        if found in (before, after):
            continue
        assert _visible(found) == [*_visible(before), ["user", "chat", kill_steps.EDITED]], step


def test_a_restore_killed_before_its_plan_leaves_no_copy_of_the_backup_behind(
        prepared, tmp_path: Path) -> None:
    """Killed before its plan is written, a restore changed nothing but left its
    extracted copy of the backup (a whole diary) in the data folder: the next restore
    removes it, and restores."""
    source, archive = prepared
    home = tmp_path / "home"
    shutil.copytree(source, home)
    killed = _run("restore", home, 1, str(archive))  # before the plan: the first step
    assert killed.returncode == -9, killed.stderr
    assert list(home.glob(".monet-restore-*"))
    done = _run("restore", home, 0, str(archive))
    assert done.returncode == 0, done.stderr
    assert not list(home.glob(".monet-restore-*"))
    assert [m[3] for m in state(home)["messages"]][-1] == "Noted."
