"""The simulated prompt cache follows each documented rule of Anthropic's cache."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any

import pytest

from cms.model.cache_sim import PromptCacheSimulator, min_cacheable
from cms.tokens import CharEstimator

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=9)))
PINNED = "p" * 1500
TI = "t" * 300


def body(turns: list[str], *, pinned: str = PINNED, ti: str = TI, model: str = "claude-sonnet-4-6",
         rolling: bool = True) -> dict[str, Any]:
    messages: list[dict[str, Any]] = []
    for i, text in enumerate(turns):
        messages.append({"role": "user" if i % 2 == 0 else "assistant",
                         "content": [{"type": "text", "text": text}]})
    if rolling and messages:
        messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    return {
        "model": model,
        "max_tokens": 100,
        "system": [
            {"type": "text", "text": pinned, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
            {"type": "text", "text": ti, "cache_control": {"type": "ephemeral", "ttl": "1h"}},
        ],
        "messages": messages,
    }


def total(u: Any) -> int:
    return int(u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens)


def test_first_request_writes_each_breakpoint_then_identical_request_reads_all() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    b = body(["u" * 50])
    first = sim.usage(b, T0)
    assert first.cache_read_input_tokens == 0
    assert first.cache_creation_1h == 1800 and first.cache_creation_5m == 50
    assert first.input_tokens == 0 and total(first) == 1850
    again = sim.usage(b, T0 + timedelta(minutes=1))
    assert again.cache_read_input_tokens == 1850 and again.cache_creation_input_tokens == 0


def test_rolling_breakpoint_finds_previous_entry_by_lookback() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    sim.usage(body(["u" * 50]), T0)
    grown = sim.usage(body(["u" * 50, "a" * 40, "v" * 30]), T0 + timedelta(minutes=1))
    assert grown.cache_read_input_tokens == 1850
    assert grown.cache_creation_5m == 70


def test_lookback_stops_after_20_positions() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    sim.usage(body(["u" * 50]), T0)
    turns = ["u" * 50] + ["x" * 10] * 22
    far = sim.usage(body(turns), T0 + timedelta(minutes=1))
    assert far.cache_read_input_tokens == 1800  # only the TI's 1-hour entry is reachable


def test_prefix_shorter_than_the_model_minimum_is_not_cached() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    short = body(["hi"], pinned="p" * 100, ti="t" * 100)
    for _ in range(2):
        u = sim.usage(short, T0)
        assert u.cache_creation_input_tokens == 0 and u.cache_read_input_tokens == 0
    assert min_cacheable("claude-haiku-4-5") == 4096 and min_cacheable("claude-opus-5") == 512


def test_five_minute_entries_expire_and_hits_refresh_them() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    b = body(["u" * 50])
    sim.usage(b, T0)
    assert sim.usage(b, T0 + timedelta(minutes=4)).cache_read_input_tokens == 1850
    # refreshed at minute 4, so still alive at minute 8
    assert sim.usage(b, T0 + timedelta(minutes=8)).cache_read_input_tokens == 1850
    # 6 idle minutes: the 5-minute entry is gone, the 1-hour TI entry is not
    late = sim.usage(b, T0 + timedelta(minutes=14))
    assert late.cache_read_input_tokens == 1800 and late.cache_creation_5m == 50


def test_one_hour_entries_expire_after_an_hour() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    sim.usage(body(["u" * 50]), T0)
    other_turn = body(["w" * 50])
    assert sim.usage(other_turn, T0 + timedelta(minutes=59)).cache_read_input_tokens == 1800
    gone = sim.usage(body(["z" * 50]), T0 + timedelta(minutes=59 + 61))
    assert gone.cache_read_input_tokens == 0


def test_a_change_early_in_the_prefix_invalidates_everything_after() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    sim.usage(body(["u" * 50]), T0)
    changed_ti = sim.usage(body(["u" * 50], ti="T" * 300), T0 + timedelta(minutes=1))
    assert changed_ti.cache_read_input_tokens == 1500  # the pinned block still hits
    changed_pin = sim.usage(body(["u" * 50], pinned="q" * 1500), T0 + timedelta(minutes=2))
    assert changed_pin.cache_read_input_tokens == 0
    other_model = sim.usage(body(["u" * 50], model="claude-sonnet-4-5"), T0 + timedelta(minutes=3))
    assert other_model.cache_read_input_tokens == 0


def test_more_than_four_breakpoints_is_refused() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    b = body(["a", "b", "c"])
    for m in b["messages"]:
        m["content"][0]["cache_control"] = {"type": "ephemeral"}
    with pytest.raises(ValueError):
        sim.usage(b, T0)


def test_a_run_of_tool_results_counts_as_one_position() -> None:
    sim = PromptCacheSimulator(CharEstimator())
    sim.usage(body(["u" * 50]), T0)
    b = body(["u" * 50], rolling=False)
    b["messages"].append({"role": "assistant", "content": [
        {"type": "tool_use", "id": f"t{i}", "name": "search_history", "input": {"query": "q"}}
        for i in range(25)]})
    b["messages"].append({"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": f"t{i}", "content": "r"} for i in range(25)]})
    b["messages"][-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
    u = sim.usage(b, T0 + timedelta(minutes=1))
    assert u.cache_read_input_tokens == 1850  # 50 blocks back, but only 2 positions


def test_a_block_behind_a_new_prefix_is_not_counted_again_and_prices_the_same() -> None:
    """A new Timeline Index puts every turn after it behind a new prefix: those turns are
    neither counted nor hashed whole again (each block's own hash and count are kept), and
    the new prefix is still a miss, priced as a fresh simulator prices it."""
    counted: list[str] = []

    class Counting(CharEstimator):
        def count(self, text: str) -> int:
            counted.append(text)
            return len(text)

    turns = ["u" * 50, "a" * 40, "v" * 30]
    sim = PromptCacheSimulator(Counting())
    sim.usage(body(turns), T0)
    counted.clear()
    moved = sim.usage(body(turns, ti="n" * 300), T0 + timedelta(minutes=1))
    assert counted == ["n" * 300]  # only the new TI
    fresh = PromptCacheSimulator(CharEstimator())
    fresh.usage(body(turns), T0)
    assert moved == fresh.usage(body(turns, ti="n" * 300), T0 + timedelta(minutes=1))
    assert moved.cache_read_input_tokens == len(PINNED)  # only the pinned block is read
