"""The real anthropic SDK against a local HTTP server speaking the Messages API."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from cms.model.errors import MissingKeyError, ModelError, PromptTooLongError
from cms.model.protocol import TextDelta
from cms.settings import Settings
from monet_app.cli.usage import usage_report
from monet_app.services.gateway import AnthropicModel, make_client
from monet_app.services.standin_server import StandInServer
from storage.errors import KeyStoreError
from storage.models import Message, UsageRecord
from tests.helpers import World

KEY = "sk-ant-test-0123456789abcdef"


@pytest.fixture
def server() -> Iterator[StandInServer]:
    with StandInServer(chunk_chars=8) as s:
        yield s


def live_world(home: Path, server: StandInServer, retries: int = 2, timeout: float = 30,
               **settings: object) -> World:
    w = World(home, Settings().with_overrides(**settings))
    client = make_client(KEY, base_url=server.url, max_retries=retries, timeout=timeout)
    w.use_model(AnthropicModel(client))  # closed with the world, its sockets too
    return w


def send(w: World, text: str, tab: str = "chat", **kw: object) -> object:
    return w.runner.send(text, tab, **kw)  # type: ignore[arg-type]


def stored(w: World) -> list[Message]:
    with w.db.session() as session:
        return list(session.exec(select(Message)).all())


def test_text_arrives_in_pieces_and_usage_is_recorded(home: Path, server: StandInServer) -> None:
    w = live_world(home, server)
    pieces: list[str] = []
    result = w.runner.send("こんにちは。今日の予定を一緒に考えてください。", "chat", on_text=pieces.append)
    assert len(pieces) >= 3 and "".join(pieces) == result.reply.text  # type: ignore[union-attr]
    body = server.requests[-1]
    assert body["stream"] is True and body["system"][0]["cache_control"]["ttl"] == "1h"
    with w.db.session() as session:
        record = session.exec(select(UsageRecord)).one()
    reported = server.reported[-1]
    assert record.source == "api"
    assert record.input_tokens == reported["input_tokens"]
    assert record.cache_read == reported["cache_read_input_tokens"]
    assert record.cache_write_1h + record.cache_write_5m == reported["cache_creation_input_tokens"]
    assert record.output_tokens == reported["output_tokens"]


def test_usage_totals_equal_what_the_server_reported(home: Path, server: StandInServer) -> None:
    w = live_world(home, server)
    for i in range(6):
        w.later(2)
        send(w, f"{i} 番目の話です。" + "長めの本文。" * 200)
    totals = usage_report(w.db).totals
    assert totals.requests == len(server.reported) == 6
    for ours, theirs in [
        ("input_tokens", "input_tokens"),
        ("cache_read_tokens", "cache_read_input_tokens"),
        ("cache_write_tokens", "cache_creation_input_tokens"),
        ("output_tokens", "output_tokens"),
    ]:
        assert getattr(totals, ours) == sum(r[theirs] for r in server.reported)
    assert totals.cache_read_tokens > 0 and totals.dollars > 0


@pytest.mark.parametrize(
    "status, kind", [(429, "rate_limit_error"), (529, "overloaded_error"), (500, "api_error")]
)
@pytest.mark.slow
def test_rate_limit_and_overload_are_retried_then_succeed(
    home: Path, server: StandInServer, status: int, kind: str
) -> None:
    w = live_world(home, server)
    server.failures.extend([{"status": status, "type": kind, "headers": {"retry-after": "0"}}] * 2)
    result = send(w, "混んでいますか？")
    assert result.reply.text.startswith("（stand-in）")  # type: ignore[attr-defined]
    assert len(server.requests) == 3


def test_rate_limit_after_retries_says_when_to_retry(home: Path, server: StandInServer) -> None:
    w = live_world(home, server, retries=0)
    server.failures.append({"status": 429, "type": "rate_limit_error", "headers": {"retry-after": "30"}})
    with pytest.raises(ModelError) as info:
        send(w, "また混んでいる？")
    assert "429" in str(info.value) and "30 s" in str(info.value)
    assert [m.text for m in stored(w)] == ["また混んでいる？"]


def test_401_gives_a_clear_message_without_the_key(home: Path, server: StandInServer) -> None:
    w = live_world(home, server)
    server.failures.append({"status": 401, "type": "authentication_error",
                            "message": f"invalid x-api-key {KEY}"})
    with pytest.raises(ModelError) as info:
        send(w, "鍵は大丈夫？")
    text = str(info.value)
    assert "401" in text and "key" in text and KEY not in text
    assert [m.text for m in stored(w)] == ["鍵は大丈夫？"]  # committed before the request
    log = (home / "requests.jsonl").read_text("utf-8")
    assert KEY not in log and KEY not in (home / "monet.db").read_bytes().decode("latin-1")


def test_a_broken_stream_keeps_the_partial_reply(home: Path, server: StandInServer) -> None:
    w = live_world(home, server, retries=0)
    server.failures.append({"break_after_chars": 16})
    with pytest.raises(ModelError) as info:
        send(w, "長い返事をください。" * 3)
    assert "broke off" in str(info.value)
    reply = [m for m in stored(w) if m.role == "assistant"]
    assert len(reply) == 1 and reply[0].status == "incomplete" and len(reply[0].text) >= 16


def test_a_stream_ending_without_its_stop_is_incomplete_and_carried_as_cut(
        home: Path, server: StandInServer) -> None:
    """The stream just ends (no message_delta, no message_stop): the SDK returns with no
    stop reason. The reply is incomplete, and the next request carries it as cut off."""
    from cms.context.prompt import INTERRUPTED_NOTE

    w = live_world(home, server, retries=0)
    server.failures.append({"end_after_chars": 16})
    with pytest.raises(ModelError) as info:
        send(w, "長い返事をください。" * 3)
    assert "before Claude finished" in str(info.value)
    [reply] = [m for m in stored(w) if m.role == "assistant"]
    assert reply.status == "incomplete" and len(reply.text) >= 16
    w.later()
    send(w, "続けて")
    body = server.requests[-1]
    said = [b["text"] for m in body["messages"] if m["role"] == "assistant"
            for b in m["content"] if b["type"] == "text"]
    assert said == [reply.text + INTERRUPTED_NOTE]


def test_prompt_too_long_folds_and_retries_once(home: Path, server: StandInServer) -> None:
    w = live_world(home, server)
    for i in range(3):
        w.later()
        send(w, f"話 {i}。")
    server.failures.append({"status": 400, "type": "invalid_request_error",
                            "message": "prompt is too long: 1000001 tokens > 1000000 maximum"})
    result = send(w, "まだ入りますか？")
    assert result.reply is not None  # type: ignore[attr-defined]
    assert w.events().count("emergency_fold") == 1
    server.failures.extend([{"status": 400, "type": "invalid_request_error",
                             "message": "prompt is too long: 2 tokens > 1 maximum"}] * 3)
    with pytest.raises(PromptTooLongError):
        send(w, "もう一度。")
    assert len(server.failures) == 1  # one try, one fold, one retry: never a loop


def test_timeout_and_no_network_are_said_plainly(home: Path, server: StandInServer) -> None:
    w = live_world(home, server, retries=0, timeout=0.5)
    server.failures.append({"sleep": 2})
    with pytest.raises(ModelError) as info:
        send(w, "遅い？")
    assert "in time" in str(info.value)
    w.runner.model.close()
    w.use_model(AnthropicModel(make_client(KEY, base_url="http://127.0.0.1:9", max_retries=0)))
    with pytest.raises(ModelError) as info:
        send(w, "つながらない？")
    assert "No connection" in str(info.value)
    assert [m.text for m in stored(w) if m.role == "user"] == ["遅い？", "つながらない？"]


def test_missing_key_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setattr("monet_app.services.keys._keyring", lambda: None)
    with pytest.raises(MissingKeyError) as info:
        make_client()
    assert "ANTHROPIC_API_KEY" in str(info.value)


def test_cancel_keeps_what_arrived(home: Path, server: StandInServer) -> None:
    w = live_world(home, server)
    cancel = threading.Event()
    seen: list[str] = []

    def on_text(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 2:
            cancel.set()

    result = w.runner.send("ゆっくり話して。" * 5, "chat", on_text=on_text, cancel=cancel)
    assert result.reply is not None and result.reply.status == "incomplete"
    assert result.reply.text == "".join(seen)
    assert result.cancelled


def test_tool_use_round_trip_through_the_sdk(tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    trace.write_text(
        json.dumps({"ts": "2026-03-02T09:00:00+09:00", "tab": "chat", "user": "京都に行ったのはいつ？",
                    "assistant": "三月です。", "recall": "京都"}, ensure_ascii=False) + "\n", "utf-8")
    with StandInServer(trace) as s:
        w = live_world(tmp_path / "home", s)
        result = send(w, "京都に行ったのはいつ？")
        assert result.reply.text == "三月です。"  # type: ignore[attr-defined]
        assert result.requests == 2  # type: ignore[attr-defined]
        assert s.requests[-1]["messages"][-1]["content"][0]["type"] == "tool_result"
        assert isinstance(TextDelta("x"), TextDelta)


@pytest.mark.slow
def test_live_replay_against_a_local_server_stores_what_the_stand_in_replay_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from monet_app.cli.export import export_records
    from monet_app.services.replay import replay
    from storage import Database
    from tests.conftest import TRACES

    trace = TRACES / "synthetic-actions.jsonl"
    standin = replay(trace, tmp_path / "standin", tmp_path / "a.jsonl")
    with StandInServer(trace) as s:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", s.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "any-key-works-here")
        live = replay(trace, tmp_path / "live", tmp_path / "b.jsonl", live=True)
        assert len(s.requests) == live.requests
    assert (live.turns, live.requests) == (standin.turns, standin.requests)
    a = [(r["role"], r["tab"], r["text"]) for r in export_records(Database(tmp_path / "standin"))]
    b = [(r["role"], r["tab"], r["text"]) for r in export_records(Database(tmp_path / "live"))]
    assert len(a) == len(b)
    assert [x for x in a if x[0] == "user"] == [x for x in b if x[0] == "user"]
    totals = usage_report(Database(tmp_path / "live")).totals
    assert totals.requests == live.requests
    assert totals.cache_read_tokens > 0


def test_token_estimate_is_calibrated_from_reported_usage(tmp_path: Path) -> None:
    from cms.context.manager import ContextManager
    from cms.tokens import CharEstimator, TiktokenEstimator

    # The server counts one token per character; our tiktoken estimate counts far fewer
    # for English text, so the learnt ratio must rise above 1 and be kept per model.
    with StandInServer(estimator=CharEstimator()) as s:
        w = World(tmp_path / "home", Settings().with_overrides(ceiling_tokens=100_000),
                  estimator=TiktokenEstimator())
        w.use_model(AnthropicModel(make_client(KEY, base_url=s.url, max_retries=0)))
        for i in range(5):
            w.later()
            send(w, f"Message number {i} about the weather and the garden today.")
        ratio = w.cm.ratio
        assert ratio > 1.5
        again = ContextManager(w.db, w.settings, w.clock, TiktokenEstimator())
        assert again.ratio == pytest.approx(ratio, rel=1e-3)
        assert again.calibrated(1000) > 1500
        other = ContextManager(w.db, Settings().with_overrides(model="claude-haiku-4-5"),
                               w.clock, TiktokenEstimator())
        assert other.ratio == 1.0  # kept per model


def test_key_from_environment_first_then_keyring(monkeypatch: pytest.MonkeyPatch) -> None:
    from monet_app.services import keys
    from tests.helpers import memory_keyring

    with memory_keyring():
        monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
        assert keys.load_api_key() == (None, "none")
        keys.store_api_key("  sk-ant-stored-key-123456  ")
        assert keys.load_api_key() == ("sk-ant-stored-key-123456", "keyring")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-env-key-abcdefgh")
        assert keys.load_api_key() == ("sk-ant-env-key-abcdefgh", "environment")
        keys.delete_api_key()
        monkeypatch.delenv("ANTHROPIC_API_KEY")
        assert keys.load_api_key() == (None, "none")


def test_no_keyring_backend_is_said_plainly_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import keyring
    from keyring.backends import fail

    from monet_app.services import keys

    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(keys, "_session_key", None)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    try:
        assert not keys.keyring_available()
        with pytest.raises(KeyStoreError) as info:
            keys.store_api_key("sk-ant-never-on-disk-1234", allow_session=False)
        assert "No OS keyring" in str(info.value) and "ANTHROPIC_API_KEY" in str(info.value)
        assert keys.store_api_key("sk-ant-never-on-disk-1234") == "session"
        assert keys.load_api_key() == ("sk-ant-never-on-disk-1234", "session")
        assert list(tmp_path.iterdir()) == []
    finally:
        keyring.set_keyring(previous)


def test_redact_hides_keys() -> None:
    from monet_app.services.keys import redact

    assert "sk-ant" not in redact("bad key sk-ant-api03-abcdefghijklmnop here", None)
    assert "secret-value" not in redact("x secret-value y", "secret-value")
