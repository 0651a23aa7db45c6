"""The same history on SQLite and on PostgreSQL over loopback (issue 31): replay speed,
opening a day, Claude's search and the person's search, side by side.

    python benchmarks/store_compare.py [TRACE ...]    # default: lme-00 and rpc-pair-ja

Starts a throwaway PostgreSQL cluster (``tests/pg_cluster.py``: the distribution's
server, fsync off as in the tests) unless ``MONET_TEST_DATABASE_URL`` names one. Each
trace is replayed onto a new SQLite data folder and a new PostgreSQL database (the
offline summarizer, no embedding: the store is what is measured), then on each:
opening the busiest day as the window does (``Navigator.rows``), 40 of Claude's searches
(``search_history`` with the trace's own questions and words) and 40 of the person's
(``operations.search.search``), p50 / p95 ms.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _queries(trace: Path, count: int) -> list[str]:
    lines = [json.loads(x) for x in trace.read_text("utf-8").splitlines() if x.strip()]
    asked = [x["recall"] for x in lines if x.get("recall")]
    words = [w for x in lines for w in str(x.get("user", "")).split() if len(w) > 5]
    picked = (asked + words[:: max(1, len(words) // count)])[:count]
    return picked or ["hello"]


def _ms(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"{statistics.median(samples):.1f} / "
            f"{samples[int(0.95 * (len(samples) - 1))]:.1f}")


def measure(trace: Path, url: str | None, folder: Path) -> dict[str, str]:
    from cms.context.tools import search_history
    from monet_app.operations import search as person_search
    from monet_app.services.clock import SystemClock
    from monet_app.services.replay import replay
    from monet_app.services.wiring import build_core, no_model
    from monet_app.window.navigator import Navigator

    started = time.perf_counter()
    summary = replay(trace, folder, None, meaning=False, url=url or "")
    seconds = time.perf_counter() - started
    core = build_core(folder, clock=SystemClock(), model_factory=no_model,
                      summarizer="offline", database_url=url or "")
    nav = Navigator(core)
    days = sorted(((d.count, d.day) for d in nav.days()), reverse=True)
    opening = []
    for _ in range(10):
        nav.view_day = days[0][1]
        t0 = time.perf_counter()
        nav.rows()
        opening.append((time.perf_counter() - t0) * 1000)
    claude, person = [], []
    for query in _queries(trace, 40):
        t0 = time.perf_counter()
        with core.db.session() as session:
            search_history(session, query)
        claude.append((time.perf_counter() - t0) * 1000)
        t0 = time.perf_counter()
        person_search.search(core, query)
        person.append((time.perf_counter() - t0) * 1000)
    core.close()
    return {"turns": f"{summary.turns / seconds:.1f}", "open": _ms(opening),
            "claude": _ms(claude), "person": _ms(person)}


def main() -> None:
    from tests import pg_cluster

    traces = [Path(a) for a in sys.argv[1:]] or [
        ROOT / "tests/data/traces/lme-00.jsonl", ROOT / "tests/data/traces/rpc-pair-ja.jsonl"]
    server = os.environ.get("MONET_TEST_DATABASE_URL")
    cluster = None
    if not server:
        cluster = Path(tempfile.mkdtemp(prefix="monet-pg-bench-"))
        server = pg_cluster.start(cluster)
    import psycopg

    try:
        print("| trace | store | turns/s | open the busiest day p50 / p95 ms | Claude's "
              "search p50 / p95 ms | the person's search p50 / p95 ms |")
        print("|---|---|---|---|---|---|")
        for number, trace in enumerate(traces):
            name = f"monet_bench_{os.getpid()}_{number}"
            with psycopg.connect(server, autocommit=True) as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            url = f"{server.rpartition('/')[0]}/{name}"
            with tempfile.TemporaryDirectory() as tmp:
                for store, where in (("SQLite", None), ("PostgreSQL", url)):
                    got = measure(trace, where, Path(tmp) / store)
                    print(f"| {trace.stem} | {store} | {got['turns']} | {got['open']} | "
                          f"{got['claude']} | {got['person']} |", flush=True)
            with psycopg.connect(server, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
    finally:
        if cluster is not None:
            pg_cluster.stop(cluster)


if __name__ == "__main__":
    main()
