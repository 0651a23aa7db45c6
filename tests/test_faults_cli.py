"""The fault matrix, the command line's odd input (issue: nothing lost, clear errors):
each is one sentence and exit 2, and nothing is created or changed."""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from datetime import datetime
from pathlib import Path

import pytest

from monet_app.services import backup
from storage import Database, fts
from tests.helpers import monet_command, monet_env, run_monet

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("command", [["export"], ["search", "kyoto"], ["timeline"],
                                     ["usage"], ["memory", "list"], ["forget", "--day",
                                                                      "2026-03-02"]])
def test_a_mistyped_home_is_said_and_nothing_is_created(tmp_path: Path, command: list[str]) -> None:
    home = tmp_path / "no-such-home"
    done = run_monet(*command, home=home)
    assert done.returncode == 2, done.stderr
    assert "no MONET data folder" in done.stderr
    assert not home.exists()  # no folder, no log, no empty database


@pytest.mark.parametrize("command,words", [
    (["usage", "--day", "2026-99-99"], "YYYY-MM-DD"),
    (["forget", "--day", ""], "YYYY-MM-DD"),
    (["replay", "TRACE", "--keep", "-5"], "Nothing was replayed"),
    (["replay", "TRACE", "--day-start", "25:99"], "Nothing was replayed"),
    (["replay", "FOLDER"], "is a folder"),
])
def test_odd_arguments_are_one_sentence_before_anything_is_opened(
    tmp_path: Path, command: list[str], words: str,
) -> None:
    trace = Path(__file__).parent / "data" / "traces" / "synthetic-actions.jsonl"
    args = [str(trace) if a == "TRACE" else str(tmp_path) if a == "FOLDER" else a
            for a in command]
    home = tmp_path / "home"
    done = run_monet(*args, home=home)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr and "unexpected" not in done.stderr
    assert not (home / "monet.db").exists()


def test_an_argument_that_is_not_utf8_is_one_sentence(tmp_path: Path) -> None:
    home = tmp_path / "home"
    Database(home).close()
    done = subprocess.run([os.fsencode(a) for a in monet_command("search", "--home", home)]
                          + [b"caf\xe9"], capture_output=True, env=monet_env(), timeout=120)
    assert done.returncode == 2
    assert b"UTF-8" in done.stderr and b"unexpected" not in done.stderr


def _archive(tmp_path: Path, manifest: object, files: dict[str, bytes]) -> Path:
    path = tmp_path / "odd.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps(manifest))
        for name, data in files.items():
            z.writestr(name, data)
    return path


@pytest.mark.parametrize("manifest", [[1, 2], {"files": "monet.db"}, {"files": {"monet.db": 7}},
                                      "text"])
def test_a_malformed_manifest_is_refused_in_a_sentence(tmp_path: Path, manifest: object) -> None:
    archive = _archive(tmp_path, manifest, {"monet.db": b"x"})
    done = run_monet("restore", archive, home=tmp_path / "home")
    assert done.returncode == 2, done.stderr
    assert "manifest" in done.stderr and "unexpected" not in done.stderr


def test_a_zip_bomb_is_refused_before_it_fills_the_disk(tmp_path: Path) -> None:
    source = tmp_path / "source"
    Database(source).close()
    made = backup.make_backup(source, datetime.now().astimezone(), out=tmp_path / "b.zip")
    with zipfile.ZipFile(made.path) as z:
        manifest = json.loads(z.read("manifest.json"))
    manifest["files"]["system_prompt_core.txt"] = "0" * 64
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(made.path) as z, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in z.infolist():
            if item.filename != "manifest.json":
                out.writestr(item, z.read(item))
        out.writestr("manifest.json", json.dumps(manifest))
        out.writestr("system_prompt_core.txt", b"\0" * 300_000_000)
    home = tmp_path / "home"
    done = run_monet("restore", bomb, home=home)
    assert done.returncode == 2, done.stderr
    assert "expand" in done.stderr
    assert not list(home.glob(".monet-restore-*"))  # nothing left behind


def test_a_key_with_a_line_break_is_refused_and_never_echoed(tmp_path: Path) -> None:
    from monet_app.services.keys import store_api_key
    from storage.errors import KeyStoreError

    with pytest.raises(KeyStoreError) as refused:
        store_api_key("sk-ant-first\nSECRET-SECOND-HALF")
    assert "SECRET" not in str(refused.value)
    home = tmp_path / "home"
    done = subprocess.run(
        [*monet_command("replay", Path(__file__).parent / "data" / "traces" /
                        "synthetic-actions.jsonl", "--live", "--home", home)],
        capture_output=True, text=True, timeout=300,
        env=monet_env({"ANTHROPIC_API_KEY": "sk-ant-first\nSECRET-SECOND-HALF",
                       "ANTHROPIC_BASE_URL": "http://127.0.0.1:9"}))
    assert done.returncode == 2, done.stderr
    assert "SECRET" not in done.stderr + done.stdout
    assert "SECRET" not in (home / "monet.log").read_text("utf-8")


def test_a_replay_continued_on_a_home_that_stopped_before_a_reply_answers_it(
        tmp_path: Path) -> None:
    """A snapshot taken (or a replay killed) between a turn and its reply: continuing the
    trace on it used to go on with the next turn, leaving two person messages in a row."""
    import sqlite3

    from monet_app.services.replay import replay

    trace = tmp_path / "t.jsonl"
    trace.write_text("".join(json.dumps({
        "ts": f"2026-03-02T09:0{n}:00+09:00", "tab": "chat", "user": f"question {n}",
        "assistant": f"answer {n}"}) + "\n" for n in range(5)), "utf-8")
    head = tmp_path / "head.jsonl"
    head.write_text("".join(trace.read_text("utf-8").splitlines(keepends=True)[:3]), "utf-8")
    home = tmp_path / "home"
    replay(head, home, None, librarian=False)
    with sqlite3.connect(home / "monet.db") as conn:  # the snapshot: no reply to the last
        fts.register(conn)  # the search index's triggers call it
        conn.execute("DELETE FROM message WHERE id = (SELECT max(id) FROM message)")
    summary = replay(trace, home, None, librarian=False)
    with sqlite3.connect(home / "monet.db") as conn:
        talk = conn.execute("SELECT role, text FROM message ORDER BY id").fetchall()
    assert [text for _role, text in talk] == [
        text for n in range(5) for text in (f"question {n}", f"answer {n}")]
    assert summary.turns == 3 and summary.skipped == 3
