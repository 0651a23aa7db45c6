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


# ----- a data folder that is not one; moving the history (migrate-to) ---------------------
#: No test's process asks the machine's own keyring: a subprocess gets keyring's "no
#: backend" (as on a bare Linux), an in-process test ``tests.helpers.memory_keyring``.
NO_KEYRING = {"PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}


def _listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("command", [["export"], ["replay", "TRACE", "--librarian", "off"],
                                     ["promote", "--category", "facts", "I live in Kyoto"],
                                     ["librarian", "--offline"], ["backup"],
                                     ["memory", "add", "I", "like", "tea"], []])
@pytest.mark.parametrize("case", ["home is a file", "home under a file", "monet.db a folder"])
def test_a_home_that_cannot_be_a_data_folder_is_one_sentence_and_nothing_is_written(
        tmp_path: Path, command: list[str], case: str) -> None:
    """``--home`` naming a file (or a folder under one), or a data folder whose monet.db is
    a folder: once an unexpected FileExistsError (exit 1), or the log and lock files
    written beside a "cannot be written"; now one sentence, exit 2, nothing written."""
    trace = Path(__file__).parent / "data" / "traces" / "synthetic-actions.jsonl"
    args = [str(trace) if a == "TRACE" else a for a in command]
    if case == "monet.db a folder":
        home = tmp_path / "home"
        (home / "monet.db").mkdir(parents=True)
    else:
        (tmp_path / "file").write_text("mine\n", "utf-8")
        home = tmp_path / "file" if case == "home is a file" else tmp_path / "file" / "sub"
    before = _listing(tmp_path)
    done = run_monet(*args, home=home, env={"QT_QPA_PLATFORM": "offscreen", **NO_KEYRING},
                     timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.count("\n") == 1 and "Nothing was written" in done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    assert _listing(tmp_path) == before
    if case != "monet.db a folder":
        assert (tmp_path / "file").read_text("utf-8") == "mine\n"


def test_the_database_refuses_a_file_for_a_data_folder(tmp_path: Path) -> None:
    from storage.errors import DatabaseError

    (tmp_path / "file").write_text("mine\n", "utf-8")
    with pytest.raises(DatabaseError, match="is a file, not a folder"):
        Database(tmp_path / "file")
    (tmp_path / "home" / "monet.db").mkdir(parents=True)
    with pytest.raises(DatabaseError, match="is not a file"):
        Database(tmp_path / "home")
    assert _listing(tmp_path) == ["file", "home", "home/monet.db"]


def _closed_port() -> int:
    import socket

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


@pytest.mark.parametrize("target,words", [
    ("mysql://x@y/z", "is neither"),
    ("sqlite:///copy.db", "is neither"),
    ("postgresql://", "no server or no database"),
    ("postgresql://nas.local", "no server or no database"),
    ("postgresql://me:s3cret-pw@nas.local:port/monet", "not a database URL"),
    ("", "needs a target"),
    ("FILE", "is a file, not a folder"),
    ("FILE/inside", "is a file, not a folder"),
])
def test_a_migrate_to_target_that_is_neither_a_server_nor_a_folder_is_one_sentence(
        tmp_path: Path, target: str, words: str) -> None:
    """``mysql://x@y/z`` once made a folder ``mysql:`` and said it was copied (exit 0);
    ``postgresql://`` and a file were "unexpected error"s. Now each is one sentence, and
    nothing is made beside or in the data folder."""
    home = tmp_path / "home"
    Database(home).close()
    (tmp_path / "FILE").write_text("mine\n", "utf-8")
    before = _listing(tmp_path)
    target = target.replace("FILE", str(tmp_path / "FILE"))
    done = run_monet("migrate-to", target, home=home, cwd=tmp_path, env=NO_KEYRING)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert words in done.stderr and "nothing was copied" in done.stderr.lower()
    assert "unexpected" not in done.stderr and "s3cret-pw" not in done.stderr
    assert _listing(tmp_path) == sorted([*before, "home/monet.log"])  # (its log only)
    assert not (tmp_path / "mysql:").exists() and not (home / ".migrate-to").exists()


def test_a_failed_migrate_to_leaves_nothing_behind(tmp_path: Path) -> None:
    """A server that cannot be reached: said in words, and the working folder
    ``.migrate-to`` is gone (it was left in the data folder)."""
    home = tmp_path / "home"
    Database(home).close()
    done = run_monet("migrate-to", f"postgresql://monet@127.0.0.1:{_closed_port()}/monet",
                     "--switch", home=home, env=NO_KEYRING)
    assert done.returncode == 2, done.stderr
    assert "cannot be reached" in done.stderr
    assert not (home / ".migrate-to").exists() and not (home / "device.json").exists()


def test_migrate_to_switch_without_a_keyring_never_writes_the_password(tmp_path: Path) -> None:
    """``--switch`` with a password in the URL once wrote it into device.json in clear.
    Where no keyring can keep it: one sentence naming ~/.pgpass and ``monet
    server-password``, before the server is asked (it is not even there), nothing written."""
    home = tmp_path / "home"
    Database(home).close()
    before = _listing(tmp_path)
    url = f"postgresql://monet:s3cret-pw@127.0.0.1:{_closed_port()}/monet"
    done = run_monet("migrate-to", url, "--switch", home=home, env=NO_KEYRING)
    assert done.returncode == 2, done.stderr
    assert "~/.pgpass" in done.stderr and "`monet server-password`" in done.stderr
    assert done.stderr.count("\n") == 1 and "Nothing was copied" in done.stderr
    assert "s3cret-pw" not in done.stderr + done.stdout
    assert _listing(tmp_path) == sorted([*before, "home/monet.log"])  # (its log only)
    assert "s3cret-pw" not in (home / "monet.log").read_text("utf-8")


def _holding(folder: Path, secret: str) -> list[str]:
    """The files under ``folder`` (and the members of its zip files) holding ``secret``."""
    found = []
    for path in (p for p in folder.rglob("*") if p.is_file()):
        if secret.encode() in path.read_bytes():
            found.append(str(path))
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                found += [f"{path}:{name}" for name in archive.namelist()
                          if secret.encode() in archive.read(name)]
    return found


def test_migrate_to_switch_keeps_the_password_in_the_keyring_not_in_device_json(
        tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The password of ``migrate-to postgresql://me:PW@… --switch`` goes into the OS
    keyring (here one in memory), under the account the device's URL is read by;
    device.json names the server without it, and the device opens it from there."""
    from monet_app.cli.main import main
    from storage import server_password
    from tests.helpers import memory_keyring

    home = tmp_path / "home"
    run_monet("replay", Path(__file__).parent / "data" / "traces" / "synthetic-actions.jsonl",
              "--librarian", "off", home=home, check=True, env=NO_KEYRING)
    exported = run_monet("export", home=home, check=True, env=NO_KEYRING).stdout
    with_password = pg_url.replace("://monet@", "://monet:s3cret-pw@", 1)
    assert with_password != pg_url  # (the test cluster trusts, and ignores it)
    with memory_keyring() as ring:
        try:
            assert main(["migrate-to", with_password, "--switch", "--home", str(home)]) == 0
            assert "this device now uses the copy" in capsys.readouterr().out
            device = json.loads((home / "device.json").read_text("utf-8"))
            assert device == {"database_url": pg_url}
            assert ring == {(server_password.SERVICE, server_password.account(pg_url)):
                            "s3cret-pw"}
            assert _holding(tmp_path, "s3cret-pw") == []
            server_password.drop_kept()  # (asked again, as a new process would)
            out = tmp_path / "again.jsonl"
            assert main(["export", "--home", str(home), "--out", str(out)]) == 0
            assert out.read_text("utf-8") == exported
        finally:
            server_password.forget_password(pg_url)


def test_a_database_url_with_a_password_is_never_written_to_a_file(
        tmp_path: Path, pg_url: str) -> None:
    """``--database-url`` or MONET_DATABASE_URL with a password: no log, request log,
    lock, backup, schedule or copy any command writes holds it."""
    home = tmp_path / "home"
    url = pg_url.replace("://monet@", "://monet:s3cret-pw@", 1)
    trace = Path(__file__).parent / "data" / "traces" / "synthetic-actions.jsonl"
    by_env = {**NO_KEYRING, "MONET_DATABASE_URL": url}
    runs = [
        run_monet("replay", trace, "--librarian", "off", "--request-log", home / "log.jsonl",
                  "--database-url", url, home=home, env=NO_KEYRING),
        run_monet("promote", "--category", "facts", "I live in Kyoto", home=home, env=by_env),
        run_monet("librarian", "--offline", home=home, env=by_env),
        run_monet("backup", "--database-url", url, home=home, env=NO_KEYRING),
        run_monet("export", "--out", home / "all.jsonl", home=home, env=by_env),
        run_monet("librarian", "install-schedule", "--kind", "cron", home=home, env=by_env),
        run_monet("migrate-to", tmp_path / "back", home=home, env=by_env),
    ]
    for done in runs:
        assert done.returncode == 0, done.stderr
        assert "s3cret-pw" not in done.stdout + done.stderr
    assert list((home / "backups").glob("*.zip")) and (tmp_path / "back" / "monet.db").exists()
    assert _holding(tmp_path, "s3cret-pw") == []
