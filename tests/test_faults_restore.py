"""The fault matrix, restores (issue: nothing lost on restore): each fault injected from
outside, in other processes where the issue met it."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import time
from datetime import datetime
from pathlib import Path

import pytest

from monet_app.services import backup
from storage import Database
from tests.helpers import monet_command, monet_env, run_monet

TRACE = Path(__file__).parent / "data" / "traces" / "synthetic-actions.jsonl"


def _messages(home: Path) -> int:
    """How many messages the home holds (0 while it is being made)."""
    db = sqlite3.connect(f"file:{home / 'monet.db'}?mode=ro", uri=True)
    try:
        return int(db.execute("SELECT count(*) FROM message").fetchone()[0])
    except sqlite3.OperationalError:
        return 0  # no table yet
    finally:
        db.close()


@pytest.mark.slow
def test_restore_refuses_while_a_monet_process_has_the_home_open(tmp_path: Path) -> None:
    """A librarian process (as the window would) holds the home: ``monet restore --force``
    must not swap the file under it. It used to delete -wal/-shm and replace monet.db; the
    running process then wrote to a deleted file and what it stored was lost."""
    home = tmp_path / "home"
    assert run_monet("replay", TRACE, "--librarian", "off", home=home).returncode == 0
    archive = tmp_path / "b.zip"
    assert run_monet("backup", "--out", archive, home=home).returncode == 0
    before = _messages(home)
    librarian = subprocess.Popen(
        monet_command("librarian", "--watch", "--interval", "0.3", "--offline", "--home", home),
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=monet_env(without=("ANTHROPIC_API_KEY",)))
    try:
        assert librarian.stdout is not None
        assert librarian.stdout.readline().startswith("librarian:")  # it has the home open
        refused = run_monet("restore", archive, "--force", home=home)
        assert refused.returncode == 2, refused.stderr
        assert "using" in refused.stderr and "nothing was changed" in refused.stderr
        assert not list(home.glob("monet.db.replaced-*"))
        assert _messages(home) == before
    finally:
        librarian.terminate()
        librarian.communicate(timeout=30)
    done = run_monet("restore", archive, "--force", home=home)  # closed: it goes through
    assert done.returncode == 0, done.stderr


@pytest.mark.slow
def test_restore_refuses_while_a_replay_writes_and_the_replay_loses_nothing(
    tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    source = tmp_path / "source"
    assert run_monet("replay", TRACE, "--librarian", "off", home=source).returncode == 0
    archive = tmp_path / "b.zip"
    assert run_monet("backup", "--out", archive, home=source).returncode == 0
    replay = subprocess.Popen(monet_command("replay", TRACE, "--home", home),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=monet_env(without=("ANTHROPIC_API_KEY",)))
    try:
        deadline = time.monotonic() + 60
        while not (home / "monet.db").exists() or _messages(home) < 5:
            assert replay.poll() is None, "the replay ended before the restore was tried"
            assert time.monotonic() < deadline
            time.sleep(0.005)
        replay.send_signal(signal.SIGSTOP)  # held mid-way (a replay takes about a second)
        try:
            refused = run_monet("restore", archive, "--force", home=home)
        finally:
            replay.send_signal(signal.SIGCONT)
        assert refused.returncode == 2, refused.stderr
    finally:
        _out, err = replay.communicate(timeout=120)
    assert replay.returncode == 0, err
    assert _messages(home) == _messages(source)  # every turn of the trace is stored


def _home_with_core_prompt(home: Path, text: str) -> None:
    Database(home).close()
    (home / "system_prompt_core.txt").write_text(text, "utf-8")


def test_two_restores_in_one_second_keep_two_copies(tmp_path: Path) -> None:
    """Both restores say what they kept: both kept copies must exist, whole. (The second
    overwrote the first's ``.replaced-<seconds>``: the original was lost.)"""
    source = tmp_path / "source"
    _home_with_core_prompt(source, "# from the backup\n")
    made = backup.make_backup(source, datetime.now().astimezone(), out=tmp_path / "b.zip")
    home = tmp_path / "home"
    _home_with_core_prompt(home, "# written by hand, the original\n")
    original = (home / "monet.db").read_bytes()
    now = datetime(2026, 3, 2, 9, 0, 0).astimezone()
    first = backup.restore(made.path, home, now, force=True)
    second = backup.restore(made.path, home, now, force=True)
    kept = sorted(p.name for p in (*first.replaced, *second.replaced))
    assert len(set(kept)) == 4, kept
    assert (home / "system_prompt_core.txt.replaced-20260302-090000").read_text("utf-8") == \
        "# written by hand, the original\n"
    copy = sqlite3.connect(home / "monet.db.replaced-20260302-090000")
    try:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    finally:
        copy.close()
    assert len(original) > 0


@pytest.mark.slow
def test_restore_over_a_damaged_database_keeps_the_damaged_one(tmp_path: Path) -> None:
    """The usual reason to restore: ``--force`` over a damaged database used to end in
    'unexpected error' with an empty ``.replaced``."""
    source = tmp_path / "source"
    _home_with_core_prompt(source, "# ok\n")
    archive = backup.make_backup(source, datetime.now().astimezone(),
                                 out=tmp_path / "b.zip").path
    home = tmp_path / "home"
    home.mkdir()
    damaged = b"SQLite format 3\x00" + bytes(range(256)) * 64
    (home / "monet.db").write_bytes(damaged)
    done = run_monet("restore", archive, "--force", home=home)
    assert done.returncode == 0, done.stderr
    kept = list(home.glob("monet.db.replaced-*"))
    assert [p.read_bytes() for p in kept] == [damaged]
    assert run_monet("search", "x", home=home).returncode == 0  # the restored one opens


# ----- issue 41: restores trust nothing ----------------------------------------------------
def _home_with_a_picture(tmp_path: Path) -> tuple[Path, Path]:
    import json

    from tests.test_attachments import png

    (tmp_path / "menu.png").write_bytes(png(300, 200, (10, 200, 30)))
    trace = tmp_path / "trace.jsonl"
    trace.write_text(json.dumps({
        "ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "this menu",
        "assistant": "Seen.", "attachments": ["menu.png"]}) + "\n", "utf-8")
    home = tmp_path / "home"
    run_monet("replay", trace, "--librarian", "off", home=home, check=True)
    pictures = list((home / "attachments").iterdir())
    assert len(pictures) == 1
    return home, pictures[0]


def _lying_copy(archive: Path, name: str, fake: bytes, out: Path) -> Path:
    """``archive`` with other bytes under ``name`` and a manifest made to match them."""
    import hashlib
    import json
    import zipfile

    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(out, "w") as target:
        manifest = json.loads(source.read("manifest.json"))
        manifest["files"][name] = hashlib.sha256(fake).hexdigest()
        for info in source.infolist():
            if info.filename == "manifest.json":
                target.writestr(info, json.dumps(manifest))
            elif info.filename == name:
                target.writestr(info, fake)
            else:
                target.writestr(info, source.read(info))
    return out


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_a_lying_backup_cannot_replace_a_picture(tmp_path: Path) -> None:
    """An archive holding other bytes under a picture's SHA-256 name, its manifest made to
    match, is refused, even with --force: the person's picture keeps its bytes, and an
    export writes only bytes that match their name."""
    home, picture = _home_with_a_picture(tmp_path)
    original = picture.read_bytes()
    run_monet("backup", "--out", tmp_path / "b.zip", home=home, check=True)
    lying = _lying_copy(tmp_path / "b.zip", f"attachments/{picture.name}", b"not the picture",
                        tmp_path / "lying.zip")
    done = run_monet("restore", lying, "--force", home=home)
    assert done.returncode == 2 and "other bytes than its name" in done.stderr, done.stderr
    assert picture.read_bytes() == original
    assert not list(home.glob("monet.db.replaced-*"))  # refused before anything changed


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_a_picture_changed_by_hand_is_not_exported_or_sent_as_the_person_s(
        tmp_path: Path) -> None:
    home, picture = _home_with_a_picture(tmp_path)
    picture.write_bytes(b"other bytes")
    out = tmp_path / "files"
    done = run_monet("export", "--attachments", out, home=home, check=True)
    assert list(out.iterdir()) == [] and "changed or replaced" in done.stderr
    from storage import attachments
    from storage.errors import AttachmentError

    with pytest.raises(AttachmentError):
        attachments.read(home, picture.name)


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_a_restore_keeps_a_picture_that_holds_its_name_s_bytes(tmp_path: Path) -> None:
    """A file already in place that matches its name is never replaced (by content, the
    same; a damaged one is repaired from the checked archive)."""
    home, picture = _home_with_a_picture(tmp_path)
    run_monet("backup", "--out", tmp_path / "b.zip", home=home, check=True)
    before = picture.stat().st_ino
    run_monet("restore", tmp_path / "b.zip", "--force", home=home, check=True)
    assert picture.stat().st_ino == before
    picture.write_bytes(b"damaged")
    run_monet("restore", tmp_path / "b.zip", "--force", home=home, check=True)
    from storage import attachments

    assert attachments.holds(picture, picture.name)


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_forgetting_a_day_reaches_the_backups_in_the_data_folder(tmp_path: Path) -> None:
    """The backups kept in the data folder held the forgotten day's messages and context
    summary (issue 41): each one is rewritten without them, checked, and still restores
    the rest."""
    import json
    import zipfile

    trace = tmp_path / "trace.jsonl"
    trace.write_text("".join(json.dumps(line) + "\n" for line in [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat",
         "user": "My secret plan is to propose to Aiko at Hakone.", "assistant": "Lovely."},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "Buy oat milk today.",
         "assistant": "Noted."},
        {"ts": "2026-03-04T09:00:00+09:00", "tab": "chat", "user": "Good morning.",
         "assistant": "Morning!"},
    ]), "utf-8")
    home = tmp_path / "home"
    run_monet("replay", trace, home=home, check=True)
    run_monet("backup", home=home, check=True)
    run_monet("backup", "--out", home / "backups" / "by-hand.zip", home=home, check=True)
    outside = tmp_path / "elsewhere.zip"
    run_monet("backup", "--out", outside, home=home, check=True)
    run_monet("forget", "--day", "2026-03-02", home=home, check=True)
    archives = sorted((home / "backups").glob("*.zip"))
    assert len(archives) == 2
    for archive in archives:
        with zipfile.ZipFile(archive) as opened:
            names = opened.namelist()
            assert "manifest.json" in names
        restored = tmp_path / f"restored-{archive.stem}"
        run_monet("restore", archive, home=restored, check=True)  # checked whole
        for path in restored.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                assert b"Hakone" not in path.read_bytes(), path
        exported = run_monet("export", home=restored, check=True).stdout
        assert "oat milk" in exported and "Hakone" not in exported
    with zipfile.ZipFile(outside) as opened:  # the person's own copy elsewhere: theirs
        assert b"Hakone" in opened.read("monet.db")


@pytest.mark.heavy
@pytest.mark.sqlite_only
def test_deleting_a_memory_with_its_messages_reaches_the_backups(tmp_path: Path) -> None:
    """`monet memory delete N --messages` deleted the messages from the history but the
    backups in the data folder kept them (forgetting a day or a message rewrote them):
    each backup that holds them is rewritten without them, and still restores the rest."""
    import json
    import zipfile

    trace = tmp_path / "trace.jsonl"
    trace.write_text("".join(json.dumps(line) + "\n" for line in [
        {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat",
         "user": "I moved to Sapporo last month.", "assistant": "Lovely."},
        {"ts": "2026-03-03T09:00:00+09:00", "tab": "chat", "user": "Buy oat milk today.",
         "assistant": "Noted."},
    ]), "utf-8")
    home = tmp_path / "home"
    run_monet("replay", trace, home=home, check=True)
    listed = json.loads(run_monet("memory", "list", "--json", home=home, check=True).stdout)
    [item] = [i for i in listed if "Sapporo" in i["fact"]]
    run_monet("backup", home=home, check=True)
    run_monet("memory", "delete", str(item["id"]), "--messages", home=home, check=True)
    [archive] = sorted((home / "backups").glob("*.zip"))
    with zipfile.ZipFile(archive) as opened:
        assert b"Sapporo" not in opened.read("monet.db")
    restored = tmp_path / "restored"
    run_monet("restore", archive, home=restored, check=True)
    exported = run_monet("export", home=restored, check=True).stdout
    assert "oat milk" in exported and "Sapporo" not in exported
