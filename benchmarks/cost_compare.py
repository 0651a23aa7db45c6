"""Dollars and cache hit ratio per public trace: MONET, the thread model, the naive way.

    python benchmarks/cost_compare.py [--strategy | --rhythm] [TRACE_DIR]

MONET (sunset on) and the thread model (sunset off) are replayed through the real context
manager; the stand-in model prices each request with the prompt-cache simulator. The
naive way sends the whole history every turn (same tools and pinned block, a rolling
5-minute breakpoint on the newest turn), priced by the same simulator on the same clock.
``--strategy`` instead compares cache lifetimes of the pinned and TI breakpoints and a
few ceilings and low-water marks, and prints the markdown tables kept in docs/.
``--rhythm`` compares the conversation breakpoint's lifetime (issue 32): always 5 minutes,
always 1 hour, or chosen from the person's pauses, on the traces as recorded, re-timed
with pauses (``PAUSES``: where the spread comes from is written there), and one paused
day made from each real trace, with where the chosen lifetime's cache writes go.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.clock import day_of, parse_ts
from cms.context.prompt import user_turn_text
from cms.context.tools import TOOLS
from cms.model.cache_sim import PromptCacheSimulator
from cms.model.pricing import dollars
from cms.model.protocol import Usage
from cms.settings import Settings
from cms.tokens import TiktokenEstimator
from monet_app.cli.usage import usage_report
from monet_app.services.replay import read_trace, replay
from storage import Database

ESTIMATOR = TiktokenEstimator()


def monet_cost(trace: Path, **overrides: Any) -> tuple[float, float, int]:
    dollars_, hit, requests, _ = monet_run(trace, **overrides)
    return dollars_, hit, requests


def monet_run(trace: Path, **overrides: Any) -> tuple[float, float, int, float]:
    """Dollars, hit ratio, requests, and the 1-hour cache writes per sunset: the tokens
    written to the 1-hour cache by the first request after each sunset fold and after its
    pending_resolved re-render, averaged over the sunsets."""
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "log.jsonl"
        replay(trace, Path(tmp) / "home", log, overrides=overrides, estimator=ESTIMATOR)
        db = Database(Path(tmp) / "home")
        totals = usage_report(db).totals
        db.close()
        sunsets = written = 0
        after_sunset = False
        sunset_folds: set[int] = set()
        for raw in log.read_text("utf-8").splitlines():
            record = json.loads(raw)
            if record["kind"] == "event" and record["name"] == "sunset_fold":
                sunsets += 1
                sunset_folds.add(record["detail"].get("fold_id"))
                after_sunset = True
            elif record["kind"] == "event" and record["name"] == "pending_resolved":
                ids = record["detail"].get("fold_ids", [record["detail"].get("fold_id")])
                after_sunset = after_sunset or bool(sunset_folds & set(ids))
            elif record["kind"] == "request" and after_sunset:
                created = record["usage"].get("cache_creation") or {}
                written += int(created.get("ephemeral_1h_input_tokens", 0))
                after_sunset = False
    per_sunset = written / sunsets if sunsets else 0.0
    return round(totals.dollars, 6), round(totals.cache_hit_ratio, 4), totals.requests, per_sunset


def naive_cost(trace: Path) -> tuple[float, float, int]:
    settings = Settings()
    sim = PromptCacheSimulator(ESTIMATOR)
    history: list[dict[str, Any]] = []
    usd = read = total = requests = 0.0
    for line in read_trace(trace):
        data = line.data
        if "user" not in data:
            continue
        label = settings.tab_label(str(data["tab"]))
        history.append({"role": "user", "content": [
            {"type": "text", "text": user_turn_text(label, line.ts, str(data["user"]))}]})
        messages = [dict(m, content=[dict(b) for b in m["content"]]) for m in history]
        messages[-1]["content"][-1]["cache_control"] = {"type": "ephemeral"}
        body = {
            "model": settings.model, "max_tokens": settings.max_tokens, "tools": TOOLS,
            "system": [{"type": "text", "text": settings.core_prompt}], "messages": messages,
        }
        reply = str(data.get("assistant", ""))
        usage: Usage = sim.usage(body, parse_ts(line.ts), ESTIMATOR.count(reply))
        usd += dollars(usage, settings.model)
        read += usage.cache_read_input_tokens
        total += (
            usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
        )
        requests += 1
        if reply:
            history.append({"role": "assistant", "content": [{"type": "text", "text": reply}]})
    return usd, (read / total if total else 0.0), int(requests)


def days_of(trace: Path) -> int:
    start = Settings().day_start_time
    return len({day_of(parse_ts(x.ts), start) for x in read_trace(trace) if "user" in x.data})


def compare(traces: list[Path]) -> None:
    print(
        "| trace | days | MONET $ | MONET hit | 1-hour writes per sunset | thread model $ "
        "| thread hit | naive $ | naive hit | MONET / naive |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for trace in traces:
        m, mh, _, per_sunset = monet_run(trace, sunset_model=True)
        t, th, _ = monet_cost(trace, sunset_model=False)
        n, nh, _ = naive_cost(trace)
        print(f"| {trace.stem} | {days_of(trace)} | {m:.3f} | {mh:.1%} | {per_sunset:,.0f} | "
              f"{t:.3f} | {th:.1%} | {n:.3f} | {nh:.1%} | {m / n:.2f} |", flush=True)


def _retimed(trace: Path, folder: Path, suffix: str,
             gap: Callable[[Any, bool, datetime], timedelta]) -> Path:
    """The trace's lines with new times, each day from 08:00: ``gap(line, first of its
    day, the time so far)`` is how long after the line before it a line comes."""
    start = Settings().day_start_time
    out = folder / f"{trace.stem}-{suffix}.jsonl"
    lines = []
    current_day, clock = "", datetime.min
    for line in read_trace(trace):
        ts = parse_ts(line.ts)
        day = day_of(ts, start)
        first = day != current_day
        if first:
            current_day = day
            clock = datetime.fromisoformat(f"{day}T08:00:00").replace(tzinfo=ts.tzinfo)
        clock += gap(line, first, clock)
        lines.append(json.dumps({**line.data, "ts": clock.isoformat()}, ensure_ascii=False))
    out.write_text("\n".join(lines) + "\n", "utf-8")
    return out


def sporadic_copy(trace: Path, folder: Path, seed: int = 7) -> Path:
    """The same turns re-timed the way a person might talk through a day: sessions of 3-6
    turns a minute or three apart, 10-50 minutes between sessions, each day from 08:00.
    The public traces have almost no 5-60 minute gaps, the very range where a 1-hour
    cache lifetime can pay, so lifetimes are measured on both timings."""
    rng = random.Random(seed)
    left = [0]  # turns left in this session

    def gap(line: Any, first: bool, _clock: datetime) -> timedelta:
        step = timedelta(0)
        if first:
            left[0] = rng.randint(3, 6)
        elif left[0] == 0:
            step = timedelta(minutes=rng.randint(10, 50))
            left[0] = rng.randint(3, 6)
        else:
            step = timedelta(seconds=rng.randint(60, 180))
        if "user" in line.data:
            left[0] -= 1
        return step

    return _retimed(trace, folder, "sporadic", gap)


#: How long a person leaves between two messages, for the paused re-timing: a mixture of
#: (share, shortest, longest seconds). An assumption written down, not a measurement: the
#: public traces keep no pauses (LongMemEval's turns are seconds apart, RealPersonaChat's
#: a dialogue without clock), and issue 32's held-back "day of turns 1-55 minutes apart"
#: is its middle part alone. Quick answers while reading (under 5 minutes), pauses for
#: reading, cooking or work (5-55 minutes), and breaks of an hour or more.
PAUSES = ((0.55, 20, 240), (0.35, 300, 3300), (0.10, 3600, 3 * 3600))


def paused_copy(trace: Path, folder: Path, seed: int = 11) -> Path:
    """The same turns, each day from 08:00, with the pauses between the person's messages
    drawn from ``PAUSES``; a reply and tool rounds 20-90 seconds after the message. A
    day's turns that would run past 23:00 are compressed into the day (a quick answer)."""
    rng = random.Random(seed)
    end = [datetime.min]  # 23:00 of the day being re-timed

    def gap(line: Any, first: bool, clock: datetime) -> timedelta:
        if first:
            end[0] = clock.replace(hour=23)
            return timedelta(0)
        if "user" not in line.data:
            return timedelta(seconds=rng.randint(20, 90))
        pick, low, high = rng.random(), 20, 240
        for share, shortest, longest in PAUSES:
            if pick < share:
                low, high = shortest, longest
                break
            pick -= share
        step = timedelta(seconds=rng.randint(low, high))
        if clock + step < end[0]:
            return step
        return timedelta(seconds=rng.randint(20, 240))

    return _retimed(trace, folder, "paused", gap)


def paused_day(trace: Path, folder: Path, turns: int = 40, seed: int = 5) -> Path:
    """One day of ``turns`` of the trace's messages, 1-55 minutes apart (uniform), from
    08:00: issue 32's held-back paused day, remade from public text."""
    rng = random.Random(seed)
    out = folder / f"{trace.stem}-pausedday.jsonl"
    clock = datetime.fromisoformat("2026-03-02T08:00:00+09:00")
    lines, users = [], 0
    for line in read_trace(trace):
        if "user" not in line.data:
            continue  # (the day's own actions are left out: a day of talk)
        if users:
            clock += timedelta(seconds=rng.randint(60, 55 * 60))
        users += 1
        lines.append(json.dumps({**line.data, "ts": clock.isoformat()}, ensure_ascii=False))
        if users >= turns:
            break
    out.write_text("\n".join(lines) + "\n", "utf-8")
    return out


def where_writes_go(log: Path) -> dict[str, int]:
    """The cache writes of a replay's chat requests, by why they were written: after a
    rebuild (a fold, a re-render), after a pause of 5-60 or over 60 minutes since the
    previous chat request (an entry expired), or new content (what came since)."""
    from cms.context.events import REBUILD_EVENTS

    found = {"new": 0, "pause 5-60 min": 0, "pause > 60 min": 0, "rebuild": 0}
    previous = None
    rebuilt = False
    for raw in log.read_text("utf-8").splitlines():
        record = json.loads(raw)
        if record["kind"] == "event":
            rebuilt = rebuilt or record["name"] in REBUILD_EVENTS
            continue
        if record.get("purpose") != "chat":
            continue
        when = parse_ts(record["ts"])
        written = int(record["usage"].get("cache_creation_input_tokens", 0))
        gap = (when - previous).total_seconds() if previous is not None else 0.0
        kind = ("rebuild" if rebuilt else "pause > 60 min" if gap > 3600
                else "pause 5-60 min" if gap > 300 else "new")
        found[kind] += written
        previous, rebuilt = when, False
    return found


def rhythm(traces: list[Path]) -> None:
    """Issue 32: the conversation breakpoint's lifetime, always 5 minutes (as before),
    always 1 hour, or chosen from the person's pauses (auto), on the traces as recorded,
    re-timed with pauses (``PAUSES``), and one paused day per trace."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sets = [("as recorded", traces),
                ("re-timed with pauses", [paused_copy(t, folder) for t in traces]),
                ("one day of turns 1-55 minutes apart",
                 [paused_day(t, folder) for t in traces[:3] if "synthetic" not in t.stem]
                 + [paused_day(t, folder) for t in traces if t.stem == "rpc-pair-ja"])]
        for title, group in sets:
            print(f"\n### {title}\n")
            print("| trace | 5m $ (hit) | 1h $ (hit) | auto $ (hit) | auto / 5m | auto's writes: "
                  "new / after 5-60 min / after > 60 min / rebuilds (tokens) |")
            print("|---|---|---|---|---|---|")
            totals = [0.0, 0.0, 0.0]
            for trace in group:
                cells = []
                for i, ttl in enumerate(("5m", "1h", "auto")):
                    log = folder / f"{trace.stem}-{ttl}.log"
                    with tempfile.TemporaryDirectory() as home:
                        replay(trace, Path(home) / "home", log, overrides={"turn_ttl": ttl},
                               estimator=ESTIMATOR)
                        db = Database(Path(home) / "home")
                        report = usage_report(db).totals
                        db.close()
                    totals[i] += report.dollars
                    cells.append((report.dollars, report.cache_hit_ratio))
                writes = where_writes_go(folder / f"{trace.stem}-auto.log")
                print(f"| {trace.stem} | " + " | ".join(f"${d:.3f} ({h:.0%})" for d, h in cells)
                      + f" | {cells[2][0] / cells[0][0] - 1:+.1%} | "
                      + " / ".join(f"{v:,}" for v in writes.values()) + " |", flush=True)
            print(f"| **total** | **${totals[0]:.3f}** | **${totals[1]:.3f}** | "
                  f"**${totals[2]:.3f}** | **{totals[2] / totals[0] - 1:+.1%}** | |")


def strategy(traces: list[Path]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        sporadic = [sporadic_copy(t, Path(tmp)) for t in traces]
        lifetimes(traces, "as recorded")
        lifetimes(sporadic, "re-timed into sessions 10-50 minutes apart")
    ceilings(traces)


def lifetimes(traces: list[Path], timing: str) -> None:
    print(f"### Cache lifetimes of the pinned and TI breakpoints, traces {timing}\n")
    print("(ceiling 20,000, low-water 0.5; dollars and cache hit ratio)\n")
    columns = [
        (f"pinned {p} / TI {t}", {"pinned_ttl": p, "ti_ttl": t, "low_water_fraction": 0.5})
        for p, t in [("1h", "1h"), ("1h", "5m"), ("5m", "5m")]
    ]
    table(traces, columns, with_hit=True)
    print()


def ceilings(traces: list[Path]) -> None:
    print("### Ceiling and low-water mark (dollars; lifetimes as set by default)\n")
    columns = [
        (f"{c // 1000}k / {lw}", {"ceiling_tokens": c, "low_water_fraction": lw})
        for c in (10_000, 20_000, 40_000) for lw in (0.3, 0.5, 0.7)
    ]
    table(traces, columns, with_hit=False)


def table(traces: list[Path], columns: list[tuple[str, dict[str, Any]]], with_hit: bool) -> None:
    """One row per trace, one column per settings variant, and a total row."""
    print("| trace | " + " | ".join(label for label, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    totals = [0.0] * len(columns)
    for trace in traces:
        cells = []
        for i, (_label, overrides) in enumerate(columns):
            usd, hit, _ = monet_cost(trace, **overrides)
            totals[i] += usd
            cells.append(f"${usd:.3f} ({hit:.0%})" if with_hit else f"{usd:.3f}")
        print(f"| {trace.stem} | " + " | ".join(cells) + " |", flush=True)
    print("| **total** | " + " | ".join(f"**{s:.3f}**" for s in totals) + " |")


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    default = ROOT / "tests" / "data" / "traces"
    folder = Path(args[0]) if args else default
    traces = sorted(folder.glob("*.jsonl"))
    if "--strategy" in sys.argv:
        strategy(traces)
    elif "--rhythm" in sys.argv:
        rhythm(traces)
    else:
        compare(traces)


if __name__ == "__main__":
    main()
