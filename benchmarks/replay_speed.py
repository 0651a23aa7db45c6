"""Replay every public trace and print speed and prompt figures.

    python benchmarks/replay_speed.py [TRACE_DIR] [--librarian on|off] [--repeat N]
                                      [--profile TRACE]

For each trace and model (sunset on / off), as ``monet replay --request-log`` runs it (a
new home, a new token estimator; the tokenizer's file is loaded once, before timing): turns
per second of the whole replay and context-manager time per request (p50 / p95 ms, model
excluded: building the body, folds, renders), each the median over ``--repeat`` runs, 3 by
default (this machine's timings vary by a third from run to run, and a p95 of one run is a
single request's time), rebuilds per day, the largest prompt in tokens, and the largest TI.
``--librarian off`` replays without the inline librarian. ``--profile TRACE`` instead
replays that one trace (sunset model) under cProfile and prints the 25 functions with the
most cumulative time, and the 15 with the most time of their own.
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.clock import day_of, parse_ts
from cms.context.prompt import system_parts
from cms.settings import Settings
from cms.tokens import TiktokenEstimator, preload
from monet_app.services.replay import read_trace, replay


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def profile(trace: Path, librarian: bool) -> None:
    import cProfile
    import pstats

    estimator = TiktokenEstimator()
    with tempfile.TemporaryDirectory() as tmp:
        profiler = cProfile.Profile()
        profiler.enable()
        summary = replay(trace, Path(tmp) / "home", None, librarian=librarian,
                         estimator=estimator)
        profiler.disable()
    print(f"{trace.stem}: {summary.turns} turns in {summary.seconds:.2f} s "
          f"({summary.turns / summary.seconds:.1f} turns/s, under the profiler)")
    stats = pstats.Stats(profiler).strip_dirs()
    stats.sort_stats("cumulative").print_stats(25)
    stats.sort_stats("tottime").print_stats(15)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=ROOT / "tests" / "data" / "traces")
    parser.add_argument("--librarian", choices=["on", "off"], default="on")
    parser.add_argument("--profile", type=Path, metavar="TRACE")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    librarian = args.librarian == "on"
    if args.profile:
        profile(args.profile, librarian)
        return
    folder = args.folder
    preload()  # the tokenizer's file, once (a process pays it once, before any replay)
    estimator = TiktokenEstimator()
    start = Settings().day_start_time
    header = (
        f"{'trace':22} {'model':6} {'turns':>5} {'turns/s':>8} {'cm p50':>7} {'cm p95':>7} "
        f"{'days':>4} {'rebuilds':>8} {'/day':>5} {'max prompt':>10} {'max TI':>7}"
    )
    print(header)
    print("-" * len(header))
    for trace in sorted(folder.glob("*.jsonl")):
        lines = read_trace(trace)
        days = {day_of(parse_ts(x.ts), start) for x in lines if "user" in x.data}
        for sunset in (True, False):
            speeds: list[float] = []
            p50s: list[float] = []
            p95s: list[float] = []
            for _run in range(max(1, args.repeat)):
                with tempfile.TemporaryDirectory() as tmp:
                    log = Path(tmp) / "log.jsonl"
                    summary = replay(
                        trace, Path(tmp) / "home", log,
                        overrides={"sunset_model": sunset}, estimator=TiktokenEstimator(),
                        librarian=librarian,
                    )
                    speeds.append(summary.turns / summary.seconds)
                    p50s.append(statistics.median(summary.cm_ms))
                    p95s.append(percentile(summary.cm_ms, 0.95))
                    text = log.read_text("utf-8")
            max_ti = 0
            seen: set[str] = set()
            for raw in text.splitlines():
                record = json.loads(raw)
                if record["kind"] == "request":
                    ti = system_parts(record["body"])[1]
                    if ti not in seen:
                        seen.add(ti)
                        max_ti = max(max_ti, estimator.count(ti))
            print(
                f"{trace.stem:22} {'sunset' if sunset else 'thread':6} {summary.turns:5d} "
                f"{statistics.median(speeds):8.1f} "
                f"{statistics.median(p50s):7.2f} {statistics.median(p95s):7.2f} "
                f"{len(days):4d} {summary.rebuilds:8d} {summary.rebuilds / len(days):5.1f} "
                f"{summary.largest_prompt:10,d} {max_ti:7,d}"
            )


if __name__ == "__main__":
    main()
