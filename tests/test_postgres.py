"""The history on a PostgreSQL server (issue 31): the same behaviour as the SQLite file,
on a throwaway cluster (``tests/pg_cluster.py``; skipped where PostgreSQL is not
installed)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    from storage.database import database_url

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
