"""The conversation breakpoint's lifetime from the person's pauses (issue 32)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from cms.clock import parse_ts
from cms.context import rhythm
from cms.context.prompt import extends
from cms.settings import Settings
from storage.errors import SettingsError
from storage.models import MessageRole, MessageStatus
from storage.talk import Talk
from tests.helpers import World


def talk(gaps_min: list[float], tokens: int = 300, start: str = "2026-03-02T09:00:00+09:00",
         reply_tokens: int = 400) -> list[Talk]:
    """The person's messages ``gaps_min`` minutes apart, each answered 30 s later."""
    when = parse_ts(start)
    found: list[Talk] = []
    for i, gap in enumerate([0.0, *gaps_min]):
        when += timedelta(minutes=gap)
        for role, at, size in ((MessageRole.USER, when, tokens),
                               (MessageRole.ASSISTANT, when + timedelta(seconds=30),
                                reply_tokens)):
            found.append(Talk(id=len(found) + 1, thread_id=1, day=start[:10], tab="chat",
                              tab_label="チャット", role=role, text=f"{i}", content_json=None,
                              ts=at.isoformat(), token_estimate=size,
                              status=MessageStatus.COMPLETE,
                              segment_id=None, hidden=False))
    return found[:-1]  # the newest message waits for its reply


def test_back_to_back_turns_keep_five_minutes() -> None:
    assert rhythm.turn_ttl(talk([1, 2, 1, 3, 1, 2]), 500, []) == "5m"


def test_a_person_who_pauses_gets_the_hour_after_the_first_pauses() -> None:
    """No history: the first message keeps 5 minutes (one pause in three is 5-60 minutes,
    a priori); after a 25-minute pause today the hour pays."""
    assert rhythm.turn_ttl(talk([]), 500, []) == "5m"
    assert rhythm.turn_ttl(talk([25]), 500, []) == "1h"
    assert rhythm.turn_ttl(talk([25, 30, 12, 40]), 500, []) == "1h"


def test_long_breaks_keep_five_minutes() -> None:
    """Pauses of two hours miss either lifetime: the hour's price is not paid for them."""
    assert rhythm.turn_ttl(talk([120, 150, 130]), 500, []) == "5m"


def test_the_history_at_this_time_of_day_speaks_for_the_first_message() -> None:
    """A person who, on earlier days, paused 10-40 minutes around this hour gets the hour
    from the day's first message; one who paused elsewhere in the day does not."""
    mornings = [(f"2026-02-{d:02d}", f"2026-02-{d:02d}T09:{m:02d}:00+09:00")
                for d in range(1, 25) for m in (0, 15, 40)]
    evenings = [(f"2026-02-{d:02d}", f"2026-02-{d:02d}T20:{m:02d}:00+09:00")
                for d in range(1, 25) for m in (0, 15, 40)]
    assert rhythm.turn_ttl(talk([]), 500, rhythm.history_pauses(mornings)) == "1h"
    assert rhythm.turn_ttl(talk([]), 500, rhythm.history_pauses(evenings)) == "5m"


def test_a_request_that_writes_the_whole_talk_needs_a_likely_pause() -> None:
    """The day's first request (or one after its entry expired) writes the whole
    conversation: the hour then costs 0.75x of all of it, and pays only when a 5-60 minute
    pause is likelier than 0.75 / 1.15 = 65%; a small write after a live entry is cheap
    insurance even when such a pause is unlikely."""
    def day(d: int, minutes: tuple[int, ...]) -> list[tuple[str, str]]:
        return [(f"2026-02-{d:02d}", f"2026-02-{d:02d}T09:{m:02d}:00+09:00") for m in minutes]

    half = [t for d in range(1, 21) for t in day(d, (0, 2, 30))]  # one pause in two
    mostly = [t for d in range(1, 21) for t in day(d, (0, 20, 45))]  # pauses alone
    assert rhythm.turn_ttl(talk([]), 20_000, rhythm.history_pauses(half)) == "5m"
    assert rhythm.turn_ttl(talk([]), 20_000, rhythm.history_pauses(mostly)) == "1h"
    assert rhythm.turn_ttl(talk([1]), 20_000, rhythm.history_pauses(half)) == "1h"
    # after a rebuild point (a fold, a re-render) the request writes all of it again
    assert rhythm.turn_ttl(talk([1]), 20_000, rhythm.history_pauses(half),
                           rebuilt=True) == "5m"


def _paused_world(tmp_path: Path, **settings: Any) -> World:
    w = World(tmp_path / "home", Settings(**settings))
    w.at("2026-03-02T09:00:00+09:00").turn("おはよう。今日は資料をまとめます。", reply="いいですね。" * 40)
    for minutes, text in ((25, "一つ目の章を書きました"), (18, "図を直しました"),
                          (40, "参考文献を足しました")):
        w.later(minutes).turn(text, reply="読みました。" * 40)
    return w


def _turn_marks(body: dict[str, Any]) -> list[Any]:
    return [block.get("cache_control") for m in body["messages"] for block in m["content"]
            if "cache_control" in block]


def test_the_lifetime_is_in_the_body_and_bodies_still_only_grow(tmp_path: Path) -> None:
    w = _paused_world(tmp_path)
    marks = [_turn_marks(body) for body in w.bodies]
    assert marks[0] == [{"type": "ephemeral"}]  # the day's first message: 5 minutes
    assert marks[-1] == [{"type": "ephemeral", "ttl": "1h"}]
    assert all(extends(a, b) for a, b in zip(w.bodies, w.bodies[1:], strict=False))


def test_the_setting_fixes_the_lifetime_and_the_thread_model_keeps_five_minutes(
        tmp_path: Path) -> None:
    """A tab switch in the thread model rebuilds the prompt: one thread's pauses do not
    say what the next request reads, so "auto" keeps 5 minutes there."""
    cases: list[dict[str, object]] = [{"turn_ttl": "5m"}, {"sunset_model": False}]
    for i, settings in enumerate(cases):
        w = _paused_world(tmp_path / str(i), **settings)
        assert all(_turn_marks(b) == [{"type": "ephemeral"}] for b in w.bodies)
    with pytest.raises(SettingsError, match="1-hour breakpoint cannot follow"):
        Settings(turn_ttl="1h", ti_ttl="5m", pinned_ttl="5m").validated()


def test_monet_usage_says_how_often_the_hour_was_chosen(tmp_path: Path) -> None:
    from monet_app.cli.usage import usage_json, usage_report, usage_text

    w = _paused_world(tmp_path)
    report = usage_report(w.db)
    assert sum(report.turn_lifetimes.values()) == 4 and report.turn_lifetimes.get("1h", 0) >= 1
    assert "chosen from your pauses: 1 hour on" in usage_text(report)
    assert '"turn_lifetimes"' in usage_json(report)
