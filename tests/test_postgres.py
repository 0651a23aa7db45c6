"""The history on a PostgreSQL server (issue 31): the same behaviour as the SQLite file,
on a throwaway cluster (``tests/pg_cluster.py``; skipped where PostgreSQL is not
installed)."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from monet_app.services.replay import replay
from storage import Database
from storage.errors import DatabaseError
from tests.conftest import TRACES


def _requests(log: Path) -> list[str]:
    return log.read_text("utf-8").splitlines()


@pytest.mark.slow
@pytest.mark.parametrize("trace", sorted(p.name for p in TRACES.glob("*.jsonl")))
def test_every_public_trace_gives_the_same_request_log_on_both_stores(
        trace: str, tmp_path: Path, pg_url: str) -> None:
    """The prompt sent to Claude is byte-identical whichever store holds the history:
    every line of the request log (requests, events, usage) is."""
    logs = {}
    for store, url in (("sqlite", ""), ("postgresql", pg_url)):
        log = tmp_path / f"{store}.jsonl"
        replay(TRACES / trace, tmp_path / store, log, url=url)
        logs[store] = _requests(log)
    assert len(logs["sqlite"]) == len(logs["postgresql"]) > 0
    for number, (a, b) in enumerate(zip(logs["sqlite"], logs["postgresql"], strict=True)):
        assert a == b, f"line {number + 1} differs"


def test_a_new_database_gets_the_head_schema_once(tmp_path: Path, pg_url: str) -> None:
    from storage.database import HEAD_REVISION

    first = Database(tmp_path / "a", url=pg_url)
    assert first.server and first.schema_revision() == HEAD_REVISION
    second = Database(tmp_path / "b", url=pg_url)  # another device: finds it made
    assert second.schema_revision() == HEAD_REVISION
    first.close()
    second.close()


def test_a_server_that_cannot_be_reached_is_said_without_the_password(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError) as said:
        Database(tmp_path / "h", url="postgresql://monet:s3cret-pw@127.0.0.1:9/monet")
    assert "cannot be reached" in str(said.value) and "s3cret-pw" not in str(said.value)
    assert "127.0.0.1:9" in str(said.value)


def test_an_unknown_url_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="SQLite file or on a PostgreSQL server"):
        Database(tmp_path / "h", url="mysql://u:pw@host/db")


def test_the_url_comes_from_the_option_the_environment_or_the_device(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from storage.where import database_url

    home = tmp_path / "h"
    home.mkdir()
    monkeypatch.delenv("MONET_DATABASE_URL", raising=False)
    assert database_url(home) is None  # the SQLite file
    (home / "device.json").write_text(json.dumps({"database_url": "postgresql://d/x"}))
    assert database_url(home) == "postgresql://d/x"
    monkeypatch.setenv("MONET_DATABASE_URL", "postgresql://e/x")
    assert database_url(home) == "postgresql://e/x"
    assert database_url(home, "postgresql://o/x") == "postgresql://o/x"
    assert database_url(home, "") is None  # the option can ask for the file


@pytest.mark.slow
def test_every_command_takes_the_url_and_exports_the_same(tmp_path: Path, pg_url: str) -> None:
    from tests.helpers import run_monet

    trace = TRACES / "synthetic-tabstorm.jsonl"
    exports = {}
    for store, url in (("sqlite", ""), ("postgresql", pg_url)):
        home = tmp_path / store
        run_monet("replay", trace, "--database-url", url, home=home, check=True)
        exports[store] = run_monet("--database-url", url, "export", home=home,
                                   check=True).stdout
        assert run_monet("search", "--database-url", url, "deadline", home=home,
                         check=True).stdout
    assert exports["sqlite"] == exports["postgresql"] and exports["sqlite"].count("\n") > 10
    assert not (tmp_path / "postgresql" / "monet.db").exists()  # the history is on the server


def test_a_promotion_on_one_device_is_in_every_devices_pinned_block(
        tmp_path: Path, pg_url: str) -> None:
    """The core text is the history's on a server, not a file of one data folder: two
    devices promote at once and both statements land; each device's prompt carries both."""
    import threading

    from cms.context.core_prompt import pinned_text, promote, read_core

    laptop, desktop = Database(tmp_path / "laptop", url=pg_url), \
        Database(tmp_path / "desktop", url=pg_url)
    done = [threading.Thread(target=promote, args=(db, "facts", f"I live in {town}."))
            for db, town in ((laptop, "Kyoto"), (desktop, "Osaka"))]
    for thread in done:
        thread.start()
    for thread in done:
        thread.join()
    for db in (laptop, desktop):
        pinned = pinned_text("instructions", read_core(db))
        assert "I live in Kyoto." in pinned and "I live in Osaka." in pinned
        assert not (db.home / "system_prompt_core.txt").exists()
    laptop.close()
    desktop.close()


@pytest.mark.slow
def test_migrate_to_a_server_and_back_gives_the_same_export(tmp_path: Path, pg_url: str) -> None:
    """SQLite -> PostgreSQL -> a new data folder: the same export each time, every table
    checked, the source's file untouched; a second copy into the same database is refused."""
    import hashlib

    from tests.helpers import run_monet

    home = tmp_path / "home"
    run_monet("replay", TRACES / "rpc-pair-ja.jsonl", "--database-url", "", home=home,
              check=True)
    run_monet("promote", "--category", "facts", "東京に住んでいる", "--database-url", "", home=home,
              check=True)
    before = hashlib.sha256((home / "monet.db").read_bytes()).hexdigest()
    exported = run_monet("export", "--database-url", "", home=home, check=True).stdout
    moved = run_monet("migrate-to", pg_url, "--switch", "--database-url", "", home=home,
                      check=True)
    assert "every table checked" in moved.stdout and "password" not in moved.stdout
    assert hashlib.sha256((home / "monet.db").read_bytes()).hexdigest() == before
    # the device now uses the server (device.json), and the server says the same
    assert run_monet("export", home=home, check=True, without=["MONET_DATABASE_URL"]
                     ).stdout == exported
    back = tmp_path / "back"
    run_monet("migrate-to", str(back), "--database-url", pg_url, home=home, check=True)
    assert run_monet("export", "--database-url", "", home=back, check=True).stdout == exported
    assert "東京に住んでいる" in (back / "system_prompt_core.txt").read_text("utf-8")
    again = run_monet("migrate-to", pg_url, "--database-url", "", home=home)
    assert again.returncode == 2 and "already holds a history" in again.stderr


@pytest.mark.slow
def test_two_device_processes_writing_one_day_lose_nothing_and_fold_once(
        tmp_path: Path, pg_url: str) -> None:
    """Two processes, each a device with its own data folder, send into one day on one
    PostgreSQL database at the same moments and across a sunset, with the librarian
    service (``monet librarian --watch``'s loop) as a third process beside them. Every
    message is stored once, in one conversation; the sunset folds once; and each device's
    request log explains every change of its bodies: a rebuild another process made is in
    it as an event from elsewhere (``RequestLog.catch_up``), so 0 are unexplained."""
    import signal
    import subprocess
    import time

    from sqlmodel import select

    from monet_app.services.standin_server import StandInServer
    from storage.models import Event, Message
    from tests.helpers import monet_env
    from tests.logcheck import check_log, read_log

    folder = tmp_path / "shared"
    folder.mkdir()
    clock = folder / "clock.txt"
    clock.write_text("2026-03-02T09:00:00+09:00", "utf-8")
    server = StandInServer().start()
    child = [sys.executable, "-m", "tests.device_process"]
    devices = {who: subprocess.Popen(
        [*child, "device", str(tmp_path / who), pg_url, server.url, who, "8", str(folder)],
        env=monet_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        for who in ("laptop", "desktop")}
    service = subprocess.Popen([*child, "librarian", str(tmp_path / "nas"), pg_url, str(folder)],
                               env=monet_env(), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)

    def wait_done(day: int) -> None:
        deadline = time.monotonic() + 180
        while not all((folder / f"done-{who}-{day}").exists() for who in devices):
            for who, process in devices.items():
                if process.poll() is not None and not (folder / f"done-{who}-2").exists():
                    raise AssertionError(f"{who} ended: {process.communicate()[0]}")
            assert time.monotonic() < deadline, f"day {day} never finished"
            time.sleep(0.05)

    try:
        (folder / "go-1").touch()
        wait_done(1)
        clock.write_text("2026-03-03T09:00:00+09:00", "utf-8")  # the sunset: both at once
        (folder / "go-2").touch()
        wait_done(2)
        for process in devices.values():
            output = process.communicate(timeout=60)[0]
            assert process.returncode == 0, output
        time.sleep(1)  # a few of the service's passes after the last message
    finally:
        service.send_signal(signal.SIGTERM)
        said = service.communicate(timeout=60)[0]
        for process in devices.values():
            if process.poll() is None:
                process.kill()
                process.communicate()
        server.stop()
    assert service.returncode == 0, said
    db = Database(tmp_path / "laptop", url=pg_url)
    with db.session() as session:
        messages = list(session.exec(select(Message)))
        folds = [e for e in session.exec(select(Event)) if e.name == "sunset_fold"]
    db.close()
    users = [m.text for m in messages if m.role == "user"]
    assert sorted(users) == sorted(f"{who} day {day} message {i}" for who in devices
                                   for day in (1, 2) for i in range(8))
    assert len([m for m in messages if m.role == "assistant"]) == 32
    for day in (1, 2):  # one conversation a day, whichever device wrote
        assert len({m.thread_id for m in messages if f" day {day} " in m.text}) == 1
    assert len(folds) == 1
    own_folds = 0
    for who in devices:
        records = read_log(folder / f"{who}.jsonl")
        report = check_log(records)
        assert report.chat_requests >= 16
        assert report.breaks == [], f"{who}: a body changed with no rebuild event before it"
        assert report.pinned_changes == 0
        assert report.events.get("sunset_fold") == 1  # its own, or one from elsewhere
        own_folds += sum(1 for r in records if r["kind"] == "event"
                         and r["name"] == "sunset_fold" and not r.get("elsewhere"))
    assert own_folds == 1


@pytest.mark.heavy
def test_a_window_shows_another_devices_message_within_seconds(
        qtbot, app_for, tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from monet_app.services.clock import SystemClock
    from monet_app.services.wiring import build_core, no_model

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    c = app_for(tmp_path / "laptop")
    other = build_core(tmp_path / "desktop", clock=SystemClock(), model_factory=no_model,
                       summarizer="offline")
    other.context.commit_user_message("typed on the desktop", "chat")
    qtbot.waitUntil(lambda: any(r.text == "typed on the desktop" for r in c.window.transcript.model.rows),
                    timeout=10_000)
    assert "shared history on" in c.window.windowTitle() and pg_url.rpartition("/")[2] in \
        c.window.windowTitle()
    other.close()


@pytest.mark.slow
def test_a_backup_of_a_server_is_the_same_archive_and_restores_into_either(
        tmp_path: Path, pg_url: str, pg_server: str) -> None:
    """monet backup makes the same archive from either store (the same database rows, the
    same core text), and it restores into a data folder and into an empty server."""
    import zipfile

    from tests.conftest import drop_database, new_database
    from tests.helpers import run_monet

    exports = []
    for store, url in (("sqlite", ""), ("postgresql", pg_url)):
        home = tmp_path / store
        run_monet("replay", TRACES / "synthetic-actions.jsonl", "--database-url", url,
                  home=home, check=True)
        run_monet("promote", "--category", "values", "I prefer short answers.",
                  "--database-url", url, home=home, check=True)
        run_monet("backup", "--database-url", url, home=home, check=True)
        exports.append(run_monet("export", "--database-url", url, home=home,
                                 check=True).stdout)
    archives = [next((tmp_path / s / "backups").glob("*.zip")) for s in ("sqlite", "postgresql")]
    with zipfile.ZipFile(archives[0]) as a, zipfile.ZipFile(archives[1]) as b:
        assert sorted(a.namelist()) == sorted(b.namelist())
        for name in ("system_prompt_core.txt", "context_summary.txt"):
            assert a.read(name) == b.read(name)
    assert exports[0] == exports[1]
    run_monet("restore", archives[1], "--database-url", "", home=tmp_path / "folder",
              check=True)
    assert run_monet("export", "--database-url", "", home=tmp_path / "folder",
                     check=True).stdout == exports[0]
    empty = new_database(pg_server)
    try:
        restored = run_monet("restore", archives[0], "--database-url", empty,
                             home=tmp_path / "server", check=True)
        assert "password" not in restored.stdout
        assert run_monet("export", "--database-url", empty, home=tmp_path / "server",
                         check=True).stdout == exports[0]
        again = run_monet("restore", archives[0], "--database-url", empty,
                          home=tmp_path / "server2")
        assert again.returncode == 2 and "already holds a history" in again.stderr
    finally:
        drop_database(pg_server, empty)


@pytest.mark.slow
def test_a_librarian_service_on_the_server_takes_the_windows_passes(
        tmp_path: Path, pg_url: str) -> None:
    """``monet librarian --watch`` beside a shared history says so in the history; a
    window's pass is left to it while it runs, and runs again once it stops."""
    import signal
    import subprocess
    import time

    from monet_app.operations.librarian import librarian_pass
    from monet_app.services.clock import SystemClock
    from monet_app.services.wiring import build_core, no_model
    from tests.helpers import monet_command, monet_env, run_monet

    unit = run_monet("librarian", "install-schedule", "--kind", "service", "--database-url",
                     pg_url, home=tmp_path / "nas", check=True).stdout
    assert "librarian --watch" in unit and pg_url in unit and "Restart=on-failure" in unit
    secret = pg_url.replace("monet@", "monet:hunter2@")
    refused = run_monet("librarian", "install-schedule", "--kind", "service",
                        "--database-url", secret, home=tmp_path / "nas")
    assert refused.returncode == 2 and "hunter2" not in refused.stdout + refused.stderr

    window = build_core(tmp_path / "laptop", clock=SystemClock(), database_url=pg_url,
                        model_factory=no_model, summarizer="offline")
    service = subprocess.Popen(
        monet_command("librarian", "--watch", "--offline", "--interval", "60",
                      "--database-url", pg_url, "--home", str(tmp_path / "nas")),
        env=monet_env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        deadline = time.monotonic() + 60
        report = librarian_pass(window).value
        while not report.service and time.monotonic() < deadline:
            time.sleep(0.3)
            report = librarian_pass(window).value
        assert report.service and "left to the librarian service" in report.text()
    finally:
        service.send_signal(signal.SIGTERM)
        service.communicate(timeout=30)
    assert not librarian_pass(window).value.service  # stopped: the window's own again
    window.close()


@pytest.mark.slow
def test_a_server_gone_mid_session_leaves_the_window_usable_and_the_text_kept(
        qtbot, app_for, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database server stops while the window is open (its own throwaway cluster): a
    message sent then is refused in words, the typed text stays in the field, nothing
    freezes; once the server is back the same Enter sends it."""
    from tests import pg_cluster
    from tests.conftest import new_database
    from tests.test_app import type_and_enter, wait_idle

    if not pg_cluster.available():
        pytest.skip("PostgreSQL is not installed")
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="monet-pg-gone-"))
    server_url = pg_cluster.start(folder)
    try:
        url = new_database(server_url)
        monkeypatch.setenv("MONET_DATABASE_URL", url)
        c = app_for(tmp_path / "laptop")
        type_and_enter(qtbot, c, "first, while the server is there")
        wait_idle(qtbot, c)
        pg_cluster.pause(folder)
        type_and_enter(qtbot, c, "typed while the server is away")
        qtbot.waitUntil(lambda: c.window.error_box.isVisible(), timeout=30_000)
        assert "cannot be reached" in c.window.error_label.text()
        assert c.window.compose.field.toPlainText() == "typed while the server is away"
        pg_cluster.resume(folder)
        c.window.compose.field.setFocus()
        qtbot.keyClick(c.window.compose.field, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: any(r.text == "typed while the server is away"
                                    for r in c.window.transcript.model.rows), timeout=30_000)
        assert c.window.compose.field.toPlainText() == ""
    finally:
        pg_cluster.stop(folder)


def test_the_search_totals_follow_every_insert_edit_and_delete(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """BM25's N and total lengths are read from one row (``message_totals``, kept per
    statement by triggers), as FTS5 keeps them: after turns, an edit, a forgotten day and a
    deleted message they are what a scan of every message counts."""
    from sqlalchemy import text

    from cms.settings import Settings
    from tests.helpers import World

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    w = World(tmp_path / "home", Settings())
    for i in range(6):
        w.later(3).turn(f"京都の話 {i} and a meeting about the museum", reply="それはいいですね")
    w.later(60 * 24).turn("next day", reply="ok")
    scan = text("SELECT count(*), coalesce(sum(trigrams), 0), "
                "count(*) FILTER (WHERE role IN ('user', 'assistant')), "
                "coalesce(sum(grams), 0) FROM message")
    kept = text("SELECT messages, trigrams, said, grams FROM message_totals")

    def same() -> tuple[int, ...]:
        with w.db.session() as session:
            counted = tuple(session.connection().execute(scan).one())
            assert tuple(session.connection().execute(kept).one()) == counted
        return counted

    assert same()[0] >= 14
    with w.db.session() as session:
        session.connection().execute(text(
            "UPDATE message SET text = text || ' 美術館へ行った' WHERE id % 2 = 0"))
    same()
    with w.db.session() as session:
        session.connection().execute(text("DELETE FROM message WHERE id = 3"))
    assert same()[0] >= 13


def test_the_window_reaches_its_server_on_a_worker_and_says_when_it_cannot(
        qtbot, tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the window is built, a history on a server is opened on a worker: the event
    loop keeps turning (a server that accepts and never answers holds the connection for
    its 10 s timeout), a dialog says where it connects, Cancel ends the start; a refused
    connection comes back as a sentence without the password."""
    import socket
    import time

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from monet_app.window.reach import ReachingDialog, reach_once

    monkeypatch.setenv("MONET_DATABASE_URL", pg_url)
    assert reach_once(tmp_path / "laptop", "here") == (True, None)

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # accepts, never answers
    port = silent.getsockname()[1]
    monkeypatch.setenv("MONET_DATABASE_URL", f"postgresql://me:hunter2@127.0.0.1:{port}/monet")
    ticks: list[float] = []
    beat = QTimer()
    beat.timeout.connect(lambda: ticks.append(time.perf_counter()))
    beat.start(20)
    seen: list[bool] = []

    def cancel() -> None:
        dialogs = [w for w in QApplication.topLevelWidgets()
                   if isinstance(w, ReachingDialog) and w.isVisible()]
        seen.append(bool(dialogs) and "127.0.0.1" in dialogs[0].label.text())
        for dialog in dialogs:
            dialog.reject()

    QTimer.singleShot(1200, cancel)
    started = time.perf_counter()
    assert reach_once(tmp_path / "laptop", f"127.0.0.1:{port}") == (False, None)
    beat.stop()
    assert seen == [True]
    assert time.perf_counter() - started < 5  # not the 10 s the connection waits
    gaps = [b - a for a, b in itertools.pairwise(ticks)]
    assert len(ticks) >= 30 and max(gaps) < 0.25  # the loop turned all along
    silent.close()

    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        closed = free.getsockname()[1]
    monkeypatch.setenv("MONET_DATABASE_URL", f"postgresql://me:hunter2@127.0.0.1:{closed}/monet")
    reached, problem = reach_once(tmp_path / "laptop", "there")
    assert not reached and problem and "hunter2" not in problem
    assert "reach" in problem.lower() or "connect" in problem.lower()


@pytest.mark.slow
def test_the_password_comes_from_the_keyring_and_is_never_said(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that wants a password (its own throwaway cluster, SCRAM): a URL without one
    is refused in words; once ``store_password`` (``monet server-password``) put it in the
    OS keyring, the same URL opens, and no sentence or log holds it."""
    import tempfile

    from storage import server_password
    from tests import pg_cluster
    from tests.helpers import memory_keyring

    if not pg_cluster.available():
        pytest.skip("PostgreSQL is not installed")
    folder = Path(tempfile.mkdtemp(prefix="monet-pg-pw-"))
    url = pg_cluster.start(folder, password="s3cret-pw")
    try:
        with memory_keyring():
            server_password.forget_password(url)
            with pytest.raises(DatabaseError) as refused:
                Database(tmp_path / "laptop", url=url)
            assert "refused the login" in str(refused.value)
            assert "s3cret-pw" not in str(refused.value)
            assert server_password.store_password(url, "s3cret-pw").startswith(
                "monet@127.0.0.1:")
            db = Database(tmp_path / "laptop", url=url)
            with db.session() as session:
                assert session.connection().exec_driver_sql("SELECT 1").scalar() == 1
            assert "s3cret-pw" not in db.where
            db.close()
            log = tmp_path / "laptop" / "monet.log"
            assert not log.exists() or "s3cret-pw" not in log.read_text("utf-8")
            server_password.forget_password(url)
    finally:
        pg_cluster.stop(folder)


def test_a_file_attached_on_one_device_reaches_and_leaves_the_others(
        tmp_path: Path, pg_url: str) -> None:
    """A picture attached on the laptop is in the shared history (``attachment_blob``):
    the desktop's request carries its bytes (fetched into its folder), a copy of the
    history into a new folder carries the file, and once the laptop forgets the message
    the bytes leave the server and, at the desktop's next look, the desktop's folder."""
    from datetime import datetime

    from cms.attachments import prepare
    from cms.clock import ManualClock, parse_ts
    from cms.memory.forget import delete_messages
    from cms.tokens import CharEstimator
    from monet_app.operations import sharing
    from monet_app.operations.moving import migrate_to
    from monet_app.services.wiring import build_core, no_model
    from storage.attachments import path_of
    from tests.test_attachments import png

    clock = ManualClock(parse_ts("2026-03-02T09:00:00+09:00"))
    laptop, desktop = (build_core(tmp_path / name, clock=clock, database_url=pg_url,
                                  estimator=CharEstimator(), model_factory=no_model,
                                  summarizer="offline") for name in ("laptop", "desktop"))
    picture = prepare(png(900, 700, (10, 200, 30)), "menu.png")
    message = laptop.context.commit_user_message("What does the menu say?", "chat", [picture])
    assert not path_of(desktop.home, picture.sent_sha256).exists()
    import base64

    body = desktop.context.prepare_request().body
    image: Mapping[str, Any] = body["messages"][0]["content"][0]  # an image block, not text
    assert base64.b64decode(image["source"]["data"]) == picture.sent
    assert path_of(desktop.home, picture.sent_sha256).read_bytes() == picture.sent

    migrate_to(laptop.home, str(tmp_path / "copy"), switch=False)
    assert path_of(tmp_path / "copy", picture.sha256).read_bytes() == picture.original

    delete_messages(laptop.db, [message.id], datetime.now().astimezone())
    with laptop.db.session() as session:
        left = session.connection().exec_driver_sql(
            "SELECT count(*) FROM attachment_blob").scalar()
    assert left == 0
    assert not path_of(laptop.home, picture.sha256).exists()
    assert sharing.shared_files(desktop).value >= 1
    assert not path_of(desktop.home, picture.sent_sha256).exists()
    laptop.close()
    desktop.close()


def test_a_new_server_history_is_made_by_the_one_chain(tmp_path: Path, pg_url: str) -> None:
    """A new history on a server is made by alembic's chain, as a file's is (issue 42:
    it had its own schema and upgrades, a second copy of every migration): it is at the
    head, and alembic finds nothing between its tables and the models."""
    from storage.database import HEAD_REVISION
    from tests.helpers import differences_from_the_models

    db = Database(tmp_path / "laptop", url=pg_url)
    assert db.schema_revision() == HEAD_REVISION
    with db.transaction() as conn:
        assert differences_from_the_models(conn) == []
    db.close()


def test_a_server_history_at_0019_is_upgraded_once(tmp_path: Path, pg_url: str) -> None:
    """A history made on a server at 0019 gets migration 0020 (the ledger's turn_ttl) at
    the next opening, as a file's gets it from alembic."""
    from storage.database import HEAD_REVISION

    db = Database(tmp_path / "laptop", url=pg_url)
    with db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("ALTER TABLE usagerecord DROP COLUMN turn_ttl")
        raw.exec_driver_sql("UPDATE alembic_version SET version_num = '0019'")
    db.close()
    again = Database(tmp_path / "desktop", url=pg_url)
    with again.session() as session:
        conn = session.connection()
        assert conn.exec_driver_sql("SELECT version_num FROM alembic_version").scalar() == \
            HEAD_REVISION
        assert conn.exec_driver_sql(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'usagerecord' "
            "AND column_name = 'turn_ttl'").scalar() == 1
    again.close()


def test_a_server_history_of_a_development_build_is_refused_in_words(
        tmp_path: Path, pg_url: str) -> None:
    """A history a development build made at 0019 (no search totals, no shared files) is
    not taken for this MONET's 0019: it is refused in words, unchanged."""
    from storage.errors import DatabaseTooNewError

    db = Database(tmp_path / "laptop", url=pg_url)
    with db.transaction() as tx:
        raw = tx.connection()
        raw.exec_driver_sql("DROP TABLE message_totals CASCADE")
        raw.exec_driver_sql("UPDATE alembic_version SET version_num = '0019'")
    db.close()
    with pytest.raises(DatabaseTooNewError, match="development build"):
        Database(tmp_path / "desktop", url=pg_url)
