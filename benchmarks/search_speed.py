"""Time to first results for a Japanese substring over a year of messages.

    python benchmarks/search_speed.py [--messages 100000]

Stores N messages spread over 365 days (real Japanese and English lines from the public
RealPersonaChat and LongMemEval traces, recombined), then times ``monet search``'s query
path (first 50 results, newest first) for substrings of 2 to 5 characters, and prints
the database size.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sqlalchemy import insert

from cms.context.tools import find
from storage import Database
from storage.models import Message
from storage.talk import day_thread_id

QUERIES = ["京都", "鰻丼", "ゲーム", "縄跳び", "お菓子作り", "旅行の予定", "cooking", "小説を書"]


def corpus() -> list[str]:
    traces = ROOT / "tests" / "data" / "traces"
    lines: list[str] = []
    for name in ("rpc-pair-ja.jsonl", "lme-00.jsonl"):
        for raw in (traces / name).read_text("utf-8").splitlines():
            data = json.loads(raw)
            if "user" in data:
                lines += [data["user"][:400], str(data.get("assistant", ""))[:400]]
    return [line for line in lines if line]


def main() -> None:
    count = int(sys.argv[sys.argv.index("--messages") + 1]) if "--messages" in sys.argv else 100_000
    rng = random.Random(11)
    lines = corpus()
    with tempfile.TemporaryDirectory() as tmp:
        db = Database(Path(tmp))
        start = datetime(2025, 1, 1, 8, tzinfo=timezone(timedelta(hours=9)))
        per_day = count // 365 + 1
        t0 = time.perf_counter()
        with db.session() as session:
            rows = []
            for day_index in range(365):
                day = (start + timedelta(days=day_index)).date().isoformat()
                thread_id = day_thread_id(session, day, start.isoformat())
                for i in range(per_day):
                    if len(rows) + day_index * 0 >= count:
                        break
                    ts = start + timedelta(days=day_index, seconds=90 * i)
                    rows.append({
                        "thread_id": thread_id, "day": day, "tab": "chat", "tab_label": "チャット",
                        "role": "user" if i % 2 == 0 else "assistant",
                        "text": rng.choice(lines), "ts": ts.isoformat(), "token_estimate": 20,
                        "status": "complete",
                    })
            rows = rows[:count]
            session.connection().execute(insert(Message), rows)
        stored = time.perf_counter() - t0
        size = sum(f.stat().st_size for f in Path(tmp).glob("monet.db*")) / 1e6
        print(f"messages stored          {count:,} over 365 days in {stored:.1f} s "
              f"(index kept by triggers); database {size:.0f} MB")
        for query in QUERIES:
            timings = []
            found = 0
            for _ in range(5):
                t = time.perf_counter()
                with db.session() as session:
                    found = len(find(session, query, 50))
                timings.append((time.perf_counter() - t) * 1000)
            path = "trigram index" if len(query) >= 3 else "substring scan"
            print(f"{query!r:14} first {found:2d} results in {statistics.median(timings):7.1f} ms "
                  f"(median of 5, {path}{', nothing to stop early' if not found else ''})")
        db.close()


if __name__ == "__main__":
    main()
