"""Bounded before read, and a trace checked whole (issue 41): what a person or a trace hands
MONET is measured before it is read, stays inside its folder, and is refused in a sentence
with nothing written."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from monet_app.operations.attaching import prepare_files
from monet_app.services.replay import MAX_LINE_BYTES, read_trace, replay
from storage.errors import AttachmentError, TraceError
from storage.files import only_one
from tests.helpers import run_monet
from tests.test_attachments import png

TURN = {"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "hello", "assistant": "hi"}


def _trace(folder: Path, lines: list[object]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    trace = folder / "trace.jsonl"
    trace.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines),
                     "utf-8")
    return trace


def _nothing_stored(home: Path) -> bool:
    return not (home / "monet.db").exists()


@pytest.mark.parametrize("name", ["../secret.png", "/etc/passwd", "link.png", "sub/../../x.png"])
def test_a_trace_attaches_only_files_inside_its_folder(tmp_path: Path, name: str) -> None:
    (tmp_path / "secret.png").write_bytes(png(20, 20))
    (tmp_path / "x.png").write_bytes(png(20, 20))
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "sub").mkdir()
    (folder / "link.png").symlink_to(tmp_path / "secret.png")
    trace = _trace(folder, [dict(TURN, attachments=[name])])
    with pytest.raises(TraceError, match="outside the trace's folder"):
        replay(trace, tmp_path / "home", None, librarian=False, meaning=False)
    assert _nothing_stored(tmp_path / "home")


def test_a_file_beside_the_trace_and_a_link_inside_it_are_attached(tmp_path: Path) -> None:
    folder = tmp_path / "trace"
    folder.mkdir()
    (folder / "menu.png").write_bytes(png(20, 20))
    (folder / "pics").mkdir()
    (folder / "pics" / "same.png").symlink_to(folder / "menu.png")
    lines = read_trace(_trace(folder, [dict(TURN, attachments=["menu.png", "pics/same.png"])]))
    assert len(lines[0].attachments) == 2


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_is_refused_in_words_within_seconds(tmp_path: Path) -> None:
    started = time.monotonic()
    with pytest.raises(AttachmentError, match="not a regular file") as refused:
        prepare_files(["/dev/zero"])
    assert refused.value.code == "unsupported"
    assert time.monotonic() - started < 5


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    with pytest.raises(AttachmentError, match="not a regular file"):
        prepare_files([str(fifo)])
    folder = tmp_path / "trace"
    folder.mkdir()
    os.mkfifo(folder / "pipe.png")
    with pytest.raises(TraceError, match="not a regular file"):
        read_trace(_trace(folder, [dict(TURN, attachments=["pipe.png"])]))


def test_a_huge_sparse_file_is_refused_by_its_size_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.png"
    with big.open("wb") as handle:
        handle.truncate(2 * 1024**3)  # 2 GB, sparse: nothing on the disk
    started = time.monotonic()
    with pytest.raises(AttachmentError, match="at most") as refused:
        prepare_files([str(big)])
    assert refused.value.code == "too_large"
    assert time.monotonic() - started < 5


def test_a_trace_line_over_the_cap_is_refused_before_it_is_held(tmp_path: Path) -> None:
    folder = tmp_path / "trace"
    folder.mkdir()
    trace = folder / "trace.jsonl"
    with trace.open("w", encoding="utf-8") as handle:
        handle.write(json.dumps(TURN) + "\n")
        handle.write('{"ts": "2026-03-02T10:00:00+09:00", "tab": "chat", "user": "'
                     + "x" * (MAX_LINE_BYTES + 10) + '"}\n')
    with pytest.raises(TraceError, match=":2: a line longer than"):
        replay(trace, tmp_path / "home", None, librarian=False, meaning=False)
    assert _nothing_stored(tmp_path / "home")


@pytest.mark.parametrize(("bad", "said"), [
    ({"ts": "9999-12-31T23:00:00+09:00", "tab": "chat", "user": "late"}, "outside the years"),
    ({"ts": "2026-03-02T10:00:00+09:00", "action": "switch_tab"}, "'tab' must be a name"),
    ({"ts": "2026-03-02T10:00:00+09:00", "action": "sing"}, "unknown action 'sing'"),
    ({"ts": "2026-03-02T10:00:00+09:00", "action": "open_day", "date": "soon"}, "open_day"),
    ({"ts": "2026-03-02T10:00:00+09:00", "tab": "chat", "user": 123}, "'user' must be text"),
    ({"ts": "2026-03-02T10:00:00+09:00", "tab": ["chat"], "user": "x"}, "'tab' must be a name"),
    ({"ts": "2026-03-02T10:00:00+09:00", "tab": "chat", "user": "x", "assistant": {"a": 1}},
     "'assistant' must be text"),
    ({"ts": 20260302, "tab": "chat", "user": "x"}, "'ts' must be"),
    (["not", "an", "object"], "a JSON object"),
])
@pytest.mark.heavy
def test_a_bad_line_anywhere_stores_nothing(tmp_path: Path, bad: object, said: str) -> None:
    """The earlier, good lines are not stored either: the trace is checked whole first."""
    trace = _trace(tmp_path / "trace", [TURN, dict(TURN, ts="2026-03-02T09:30:00+09:00"), bad])
    done = run_monet("replay", trace, "--librarian", "off", home=tmp_path / "home")
    assert done.returncode == 2 and said in done.stderr, done.stderr
    assert "unexpected" not in done.stderr and "Traceback" not in done.stderr
    assert _nothing_stored(tmp_path / "home")


@pytest.mark.heavy
def test_a_second_replay_into_the_same_home_is_refused_in_words(tmp_path: Path) -> None:
    trace = _trace(tmp_path / "trace", [TURN])
    home = tmp_path / "home"
    with only_one(home, "replay"):  # a replay that is running
        done = run_monet("replay", trace, "--librarian", "off", home=home)
    assert done.returncode == 2 and "Another replay is writing into" in done.stderr
    assert _nothing_stored(home)
    assert run_monet("replay", trace, "--librarian", "off", home=home).returncode == 0


def test_a_reply_past_max_tokens_is_cut_there_and_stored_as_incomplete(tmp_path: Path) -> None:
    """An endpoint that ignores max_tokens (here a local server, through the real SDK)
    streams 2 MB: what is stored is what max_tokens allows, marked incomplete, and the
    next request carries only that."""
    import threading

    from cms.clock import ManualClock, parse_ts
    from cms.tokens import TiktokenEstimator
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.standin_server import StandInServer
    from monet_app.services.wiring import build_core
    from storage.models import MessageStatus

    estimator = TiktokenEstimator()
    with StandInServer(chunk_chars=4096) as server:
        server.replies.append("many words of a runaway reply " * 70_000)
        core = build_core(
            tmp_path / "home", clock=ManualClock(parse_ts("2026-03-02T09:00:00+09:00")),
            overrides={"max_tokens": 1024}, estimator=estimator,
            model_factory=lambda settings: AnthropicModel(make_client(
                "sk-ant-test-key-123456", base_url=server.url, max_retries=0)))
        try:
            core.chat_model()  # (made on first use, as the window does)
            result = core.runner.send("tell me a story", "chat", cancel=threading.Event())
            assert result.cut and not result.cancelled
            assert result.reply is not None
            with core.db.session() as session:
                from storage.models import Message

                reply = session.get(Message, result.reply.id)
                assert reply is not None
                assert reply.status == MessageStatus.INCOMPLETE
                assert 900 <= estimator.count(reply.text) <= 1024
        finally:
            core.close()


def test_a_bad_server_url_is_a_sentence_not_an_unexpected_error() -> None:
    """Issue 41: a URL without a host on a machine with no local server, or with a bad
    sslmode, ended in "unexpected error" (the driver's own words)."""
    import psycopg

    from storage.database import explain_db_error

    for url, words in (("postgresql://me@/monet_nowhere?host=/nonexistent-socket-dir",
                        "socket"), ("postgresql://me@localhost/monet?sslmode=bogus",
                                    "is not valid")):
        with pytest.raises(psycopg.OperationalError) as caught:
            psycopg.connect(url, connect_timeout=2)
        sentence = explain_db_error(url, caught.value)
        assert sentence is not None and words in str(sentence), (url, caught.value)


def test_a_server_url_without_the_driver_installed_says_how_to_add_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """psycopg is an extra (issue 42): a MONET installed without it, given a server URL,
    says which extra to install, and writes nothing."""
    import sys

    from storage import Database
    from storage.errors import DatabaseError

    monkeypatch.setitem(sys.modules, "psycopg", None)  # (as if it were not installed)
    with pytest.raises(DatabaseError, match=r"monet\[server\]"):
        Database(tmp_path / "home", url="postgresql://me@127.0.0.1:1/monet")
    assert not (tmp_path / "home" / "monet.db").exists()
