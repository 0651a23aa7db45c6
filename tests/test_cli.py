"""The command line a person uses: replay, export, timeline, and refusing bad settings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storage import fts
from tests.conftest import TRACES
from tests.helpers import run_monet

TRACE = TRACES / "synthetic-actions.jsonl"


@pytest.mark.slow
def test_replay_export_timeline_end_to_end(tmp_path: Path) -> None:
    home, log = tmp_path / "home", tmp_path / "log.jsonl"
    done = run_monet("replay", str(TRACE), "--home", str(home), "--request-log", str(log),
                     "--librarian", "off", "--ceiling", "20000", "--day-start", "04:00")
    assert done.returncode == 0, done.stderr
    assert "turns 60" in done.stdout and "folds" in done.stdout

    exported = run_monet("export", "--home", str(home))
    rows = [json.loads(x) for x in exported.stdout.splitlines()]
    assert len(rows) == 120
    assert set(rows[0]) == {"id", "ts", "day", "tab", "thread", "role", "text", "status"}
    assert rows[0]["text"] == json.loads(TRACE.read_text("utf-8").splitlines()[0])["user"]

    md = tmp_path / "out" / "all.md"
    assert run_monet("export", "--home", str(home), "--format", "markdown", "--out", str(md)).returncode == 0
    text = md.read_text("utf-8")
    assert text.startswith("# MONET export") and "## 2026-03-09" in text

    one_day = run_monet("export", "--home", str(home), "--day", "2026-03-08")
    assert one_day.returncode == 0 and one_day.stdout == ""

    timeline = run_monet("timeline", "--home", str(home))
    assert timeline.returncode == 0
    assert "要約作成中" in timeline.stdout and "# Timeline Index" in timeline.stdout


@pytest.mark.slow
def test_invalid_settings_refused_before_anything_runs(tmp_path: Path) -> None:
    for flags, words in [
        (["--ceiling", "0"], "ceiling"),
        (["--keep", "0"], "exchange"),
        (["--low-water", "1"], "low-water"),
    ]:
        home, log = tmp_path / "home", tmp_path / "log.jsonl"
        done = run_monet("replay", str(TRACE), "--home", str(home), "--request-log", str(log), *flags)
        assert done.returncode == 2
        assert done.stderr.startswith("monet: Invalid settings") and words in done.stderr
        assert "Traceback" not in done.stderr
        assert not log.exists()
        assert run_monet("export", "--home", str(home)).stdout == ""


@pytest.mark.slow
def test_bad_trace_line_is_reported_with_its_number(tmp_path: Path) -> None:
    trace = tmp_path / "bad.jsonl"
    trace.write_text('{"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "a", "assistant": "b"}\nnot json\n')
    done = run_monet("replay", str(trace), "--home", str(tmp_path / "h"))
    assert done.returncode == 2 and "bad.jsonl:2" in done.stderr


def test_a_gateway_error_is_one_sentence_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A refused key is the person's to fix: the sentence, exit 2, no "unexpected error"."""
    from monet_app.cli.main import main
    from monet_app.services.standin_server import StandInServer

    with StandInServer() as server:
        server.failures.append({"status": 401, "type": "authentication_error"})
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-refused-0000")
        code = main(["replay", str(TRACE), "--home", str(tmp_path / "home"), "--live",
                     "--librarian", "off"])
    err = capsys.readouterr().err
    assert code == 2
    assert "refused (401)" in err and "unexpected" not in err
    assert "sk-ant-test-refused-0000" not in err


def test_a_bug_is_not_dressed_as_a_sentence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Anything that is not a UserFacingError is a bug: exit 1, the traceback in monet.log."""
    from monet_app.cli import export
    from monet_app.cli import main as cli

    def broken(*_args: object, **_kw: object) -> object:
        raise KeyError("a bug")

    monkeypatch.setattr(export, "export_jsonl", broken)
    from storage import Database

    Database(tmp_path / "home").close()  # (export reads an existing home)
    code = cli.main(["export", "--home", str(tmp_path / "home")])
    assert code == 1
    assert "unexpected error: KeyError" in capsys.readouterr().err
    assert "Traceback" in (tmp_path / "home" / "monet.log").read_text("utf-8")


@pytest.mark.heavy
def test_a_replay_continues_a_home_and_never_duplicates(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from monet_app.cli.main import main
    from storage import Database
    from storage.models import Message

    def count(home: Path) -> int:
        db = Database(home)
        with db.session() as session:
            n = len(session.exec(select(Message)).all())
        db.close()
        return n

    from sqlmodel import select

    rows = [json.loads(x) for x in TRACE.read_text("utf-8").splitlines() if x.strip()]
    half = tmp_path / "half.jsonl"
    half.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows[: len(rows) // 2]) + "\n",
                    "utf-8")
    home = tmp_path / "home"
    assert main(["replay", str(half), "--home", str(home)]) == 0
    stored = count(home)
    assert main(["replay", str(half), "--home", str(home)]) == 0  # the same trace again
    assert count(home) == stored and "skipped" in capsys.readouterr().out
    assert main(["replay", str(TRACE), "--home", str(home)]) == 0  # the whole: continues
    users = sum(1 for r in rows if "user" in r)
    assert count(home) > stored
    db = Database(home)
    with db.session() as session:
        assert sum(1 for m in session.exec(select(Message)).all() if m.role == "user") == users
    db.close()
    forked = tmp_path / "forked.jsonl"  # the same trace, but its last turn differs
    last = max(i for i, r in enumerate(rows) if "user" in r) + 1
    forked.write_text("\n".join(json.dumps(r, ensure_ascii=False)
                                for r in [*rows[: last - 1], dict(rows[last - 1], user="違う話")])
                      + "\n", "utf-8")
    capsys.readouterr()
    assert main(["replay", str(forked), "--home", str(home)]) == 2
    err = capsys.readouterr().err
    assert f"forked.jsonl:{last}" in err and "new --home" in err


def test_a_trace_that_is_not_utf8_is_named_by_file_and_line(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    from monet_app.cli.main import main

    trace = tmp_path / "latin1.jsonl"
    trace.write_bytes(b'{"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "a"}\n'
                      b'{"ts": "2026-03-02T09:01:00+09:00", "tab": "chat", "user": "caf\xe9"}\n')
    assert main(["replay", str(trace), "--home", str(tmp_path / "h")]) == 2
    assert "latin1.jsonl:2: not UTF-8" in capsys.readouterr().err


def _exported_home(tmp_path: Path) -> Path:
    from monet_app.cli.main import main

    home = tmp_path / "home"
    assert main(["replay", str(TRACE), "--home", str(home), "--librarian", "off"]) == 0
    return home


def test_export_never_replaces_a_link_a_device_or_a_folder(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    import os

    from monet_app.cli.main import main

    home = _exported_home(tmp_path)
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert main(["export", "--home", str(home), "--out", str(link)]) == 0
    assert link.is_symlink() and real.read_text("utf-8").startswith('{"id": 1')  # through it
    folder = tmp_path / "folder"
    folder.mkdir()
    capsys.readouterr()
    assert main(["export", "--home", str(home), "--out", str(folder)]) == 2
    assert "is a folder" in capsys.readouterr().err
    assert [p.name for p in folder.iterdir()] == [] and not list(tmp_path.glob("*.partial"))
    if os.path.exists("/dev/null"):
        assert main(["export", "--home", str(home), "--out", "/dev/null"]) == 2
        assert "not a regular file" in capsys.readouterr().err
        assert os.path.exists("/dev/null") and not Path("/dev/null").is_file()
    assert main(["export", "--home", str(home), "--day", "notadate"]) == 2
    assert "YYYY-MM-DD" in capsys.readouterr().err


def test_export_skips_damaged_rows_and_says_how_many(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    import sqlite3

    from monet_app.cli.main import main

    home = _exported_home(tmp_path)
    raw = sqlite3.connect(home / "monet.db")
    fts.register(raw)  # the index's triggers call it, as in every MONET process
    raw.execute("UPDATE message SET text = CAST(X'80FFFE53454352455421' AS TEXT) WHERE id = 3")
    raw.commit()
    total = raw.execute("SELECT count(*) FROM message").fetchone()[0]
    raw.close()
    capsys.readouterr()
    out = tmp_path / "out.jsonl"
    assert main(["export", "--home", str(home), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "skipped 1 damaged row(s) (message ids 3)" in err and "SECRET" not in err
    ids = [json.loads(line)["id"] for line in out.read_text("utf-8").splitlines()]
    assert len(ids) == total - 1 and 3 not in ids


@pytest.mark.parametrize("args", [
    ["search", "--limit", "99999999999999999999", "x"], ["search", "--limit", "1e20", "x"],
    ["forget", "--message", "1e20"], ["forget", "--message", "99999999999999999999"],
    ["memory", "show", "99999999999999999999"], ["replay", "t.jsonl", "--ceiling", "1e20"],
])
def test_numbers_out_of_range_are_sentences(args: list[str], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    from monet_app.cli.main import main

    with pytest.raises(SystemExit) as info:
        main([*args, "--home", str(tmp_path / "h")])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "must be" in err and "Traceback" not in err and "Overflow" not in err


def test_search_words_may_start_with_a_dash_after_two_dashes(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from monet_app.cli.main import main
    from storage import Database

    Database(tmp_path / "h").close()
    assert main(["search", "--home", str(tmp_path / "h"), "--", "-verbose"]) == 0
    assert "no message matches" in capsys.readouterr().out


def test_a_log_file_that_cannot_be_written_is_said_once_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A full disk fails the log file too: one line on standard error says so, once, not
    the logging module's traceback at every record (the person gets the sentence)."""
    import errno
    import logging

    from monet_app.cli.main import LogFile

    class FullDisk:
        def write(self, _text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

    handler = LogFile(tmp_path / "monet.log", encoding="utf-8", delay=True)
    handler.stream = FullDisk()  # type: ignore[assignment]
    log = logging.getLogger("monet.test.fulldisk")
    log.addHandler(handler)
    log.propagate = False
    try:
        log.warning("memory scan skipped: %s", "the disk is full")
        log.warning("again")
    finally:
        log.removeHandler(handler)
        log.propagate = True
        handler.stream = None
        handler.close()
    err = capsys.readouterr().err
    assert "Traceback" not in err and "Logging error" not in err
    assert err.count("cannot be written (No space left on device)") == 1


@pytest.mark.slow
def test_a_command_piped_into_one_that_stops_reading_ends_quietly(tmp_path: Path) -> None:
    """``monet export | head -1`` ended with "unexpected error: BrokenPipeError" and a
    traceback in monet.log. Now every command whose reader has gone ends as a Unix tool
    does: exit 141 (or 0 when all was written), nothing on standard error. The reader
    here is gone before the command starts, so each write meets a closed pipe."""
    import os
    import subprocess

    from tests.helpers import monet_command, monet_env

    home = tmp_path / "home"
    run_monet("replay", str(TRACE), "--librarian", "off", home=home, check=True)
    for command in (["export"], ["export", "--format", "markdown"], ["search", "Kyoto"],
                    ["timeline"], ["usage"], ["memory", "list"], ["--help"]):
        read, write = os.pipe()
        os.close(read)  # (the reader that stopped reading)
        try:
            done = subprocess.run(monet_command(*command, "--home", home), stdout=write,
                                  stderr=subprocess.PIPE, text=True, env=monet_env(),
                                  timeout=120)
        finally:
            os.close(write)
        assert done.returncode in (0, 141), (command, done.returncode, done.stderr)
        assert done.stderr == "", (command, done.stderr)
    assert "BrokenPipeError" not in (home / "monet.log").read_text("utf-8")
