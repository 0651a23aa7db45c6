"""Backups and restores: consistent while MONET writes, checked before and after, never
overwriting without being asked, keeping what they replace."""

from __future__ import annotations

import sqlite3
import subprocess
import time
import zipfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from monet_app.cli.export import export_jsonl
from monet_app.services import backup
from monet_app.services.replay import replay
from storage import Database, sqlite_file
from storage.errors import BackupError, DatabaseTooNewError
from tests.conftest import TRACES
from tests.helpers import monet_command, run_monet

NOW = datetime.fromisoformat("2026-11-30T10:00:00+09:00")


def exported(home: Path) -> list[str]:
    db = Database(home)
    try:
        return list(export_jsonl(db))
    finally:
        db.close()


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("source") / "home"
    replay(TRACES / "synthetic-actions.jsonl", home, None)
    (home / "system_prompt_core.txt").write_text("# core\n- a promoted fact\n", "utf-8")
    return home


@pytest.mark.heavy
def test_backup_then_restore_into_a_new_home_gives_the_same_export(source: Path,
                                                                    tmp_path: Path) -> None:
    made = backup.make_backup(source, NOW)
    assert made.path.parent == source / "backups" and made.messages > 0
    with zipfile.ZipFile(made.path) as archive:
        assert {"monet.db", "manifest.json", "system_prompt_core.txt"} <= set(archive.namelist())
    restored = tmp_path / "restored"
    result = backup.restore(made.path, restored, NOW)
    assert result.replaced == () and result.messages == made.messages
    assert exported(restored) == exported(source)
    assert (restored / "system_prompt_core.txt").read_text("utf-8").endswith("promoted fact\n")


def test_restore_refuses_a_home_with_a_database_unless_forced_and_keeps_the_old_one(
    source: Path, tmp_path: Path
) -> None:
    made = backup.make_backup(source, NOW, out=tmp_path / "b.zip")
    other = tmp_path / "other"
    replay(TRACES / "synthetic-tabstorm.jsonl", other, None, librarian=False)
    before = exported(other)
    with pytest.raises(BackupError, match="--force"):
        backup.restore(made.path, other, NOW)
    assert exported(other) == before  # nothing changed
    result = backup.restore(made.path, other, NOW, force=True)
    assert exported(other) == exported(source)
    kept = [p for p in result.replaced if p.name.startswith("monet.db.replaced-")]
    assert kept and kept[0].name == "monet.db.replaced-20261130-100000"
    conn = sqlite3.connect(kept[0])
    assert conn.execute("SELECT count(*) FROM message").fetchone()[0] == len(before)
    conn.close()


def test_a_damaged_backup_is_refused_before_anything_is_touched(source: Path,
                                                                tmp_path: Path) -> None:
    made = backup.make_backup(source, NOW, out=tmp_path / "good.zip")
    damaged = tmp_path / "damaged.zip"
    with zipfile.ZipFile(made.path) as good, zipfile.ZipFile(damaged, "w") as bad:
        for name in good.namelist():
            data = bytearray(good.read(name))
            if name == "monet.db":
                data[len(data) // 2] ^= 0xFF
            bad.writestr(name, bytes(data))
    home = tmp_path / "home"
    with pytest.raises(BackupError, match="damaged"):
        backup.restore(damaged, home, NOW)
    assert not (home / "monet.db").exists()
    (tmp_path / "junk.zip").write_bytes(b"not a zip at all")
    with pytest.raises(BackupError, match="cannot be read"):
        backup.restore(tmp_path / "junk.zip", home, NOW)


def test_a_backup_from_a_newer_monet_is_refused(source: Path, tmp_path: Path) -> None:
    made = backup.make_backup(source, NOW, out=tmp_path / "b.zip")
    newer = tmp_path / "newer.zip"
    with zipfile.ZipFile(made.path) as archive:
        archive.extractall(tmp_path / "x")
    conn = sqlite3.connect(tmp_path / "x" / "monet.db")
    conn.execute("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    conn.commit()
    conn.close()
    import hashlib
    import json

    manifest = json.loads((tmp_path / "x" / "manifest.json").read_text())
    manifest["files"]["monet.db"] = hashlib.sha256(
        (tmp_path / "x" / "monet.db").read_bytes()).hexdigest()
    with zipfile.ZipFile(newer, "w") as archive:
        for name in manifest["files"]:
            archive.write(tmp_path / "x" / name, name)
        archive.writestr("manifest.json", json.dumps(manifest))
    home = tmp_path / "home"
    with pytest.raises(DatabaseTooNewError):
        backup.restore(newer, home, NOW)
    assert not (home / "monet.db").exists()


def test_rotation_keeps_the_newest_automatic_backups_and_every_manual_one(
    source: Path, tmp_path: Path
) -> None:
    home = tmp_path / "home"
    backup.restore(backup.make_backup(source, NOW, out=tmp_path / "b.zip").path, home, NOW)
    manual = backup.make_backup(home, NOW - timedelta(days=30))
    for day in range(10):
        backup.make_backup(home, NOW + timedelta(days=day), auto=True)
    gone = backup.rotate(home, keep=7)
    autos = sorted(p.name for p in (home / "backups").glob("monet-auto-*.zip"))
    assert len(gone) == 3 and len(autos) == 7 and autos[0].startswith("monet-auto-20261203")
    assert manual.path.exists()
    assert backup.last_backup(home) is not None


def test_no_database_no_backup(tmp_path: Path) -> None:
    with pytest.raises(BackupError, match="no MONET database"):
        backup.make_backup(tmp_path, NOW)


@pytest.mark.slow
def test_a_backup_taken_during_a_running_replay_restores_to_that_moment(tmp_path: Path) -> None:
    """The must-show: ``monet backup`` while ``monet replay`` writes; the restored home's
    export is the source's export as it was at the backup's moment (messages are only
    appended by a replay, so: a prefix of the final export, cut at the restored count)."""
    home = tmp_path / "home"
    replay_run = subprocess.Popen(
        monet_command("replay", TRACES / "lme-00.jsonl", "--home", home),
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if (home / "monet.db").exists() and sqlite_file.integrity(home / "monet.db")[2] > 20:
                break
            time.sleep(0.1)
        taken = run_monet("backup", "--home", home, "--out", tmp_path / "mid.zip", timeout=120)
        assert taken.returncode == 0, taken.stderr
        still_running = replay_run.poll() is None
    finally:
        replay_run.wait(timeout=600)
    assert replay_run.returncode == 0
    restored = tmp_path / "restored"
    done = run_monet("restore", tmp_path / "mid.zip", "--home", restored, timeout=120)
    assert done.returncode == 0, done.stderr
    at_backup = exported(restored)
    final = exported(home)
    print(f"backup at {len(at_backup)} of {len(final)} messages; replay still running: {still_running}")
    assert 20 < len(at_backup) and (len(at_backup) < len(final) or not still_running)
    assert at_backup == final[:len(at_backup)]
