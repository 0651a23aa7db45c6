"""Recall by meaning at a year of history: embedding throughput, index size, query time, memory.

    python benchmarks/meaning_year.py HOME [--runs 20] [--most N]

HOME is a data folder, e.g. the year home ``benchmarks/year_home.py make DIR`` writes
(100,000 messages). Every message without a vector is embedded as the librarian embeds it
(``Meaning.embed_pending``, newest first; ``--most`` stops after N messages), then the
figures are printed: messages and pieces per second, the vector table's size on disk,
the first search (the in-memory index read from the database), and p50/p95 of the
meaning search alone and of Claude's whole search (words and meaning, ``fused``) over
English and Japanese questions, and the process's memory.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from cms.context.tools import fused
from cms.meaning import Meaning
from storage import Database, vectors

QUESTIONS = [
    "What did I say about the museum trip?",
    "How many bikes do I own?",
    "that noodle place we went to after the concert",
    "when did I start learning to play an instrument",
    "what did you recommend for my sore back",
    "京都で食べたラーメンの店はどこ？",
    "ぼんさいの話してたっけ",
    "子どもの習い事で悩んでた話",
    "旅行の計画、どこに行くって言ってたっけ",
    "体調を崩したときに勧めてくれたこと",
]


def _rss_mb() -> float:
    status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
    return int(status["VmRSS"].split()[0]) / 1024


def _ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("home", type=Path)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--most", type=int, default=None)
    args = parser.parse_args()
    db = Database(args.home)
    meaning = Meaning()
    print(f"RSS at start {_rss_mb():.0f} MB")
    with db.transaction() as conn:
        done, total = vectors.progress(conn, meaning.model)
    print(f"messages with vectors {done:,} of {total:,}")
    started = time.perf_counter()
    embedded = meaning.embed_pending(db, batch=256, most=args.most)
    seconds = time.perf_counter() - started
    with db.transaction() as conn:
        count, _newest = vectors.count_and_newest(conn, meaning.model)
        size = {name: pages for name, pages in conn.exec_driver_sql(
            "SELECT name, sum(pgsize) FROM dbstat WHERE name LIKE '%message_vector%' "
            "GROUP BY name")}
    if embedded:
        print(f"embedded {embedded:,} messages in {seconds:.1f} s: "
              f"{embedded / seconds:.0f} messages/s (pieces in all: {count:,})")
    print(f"RSS after embedding {_rss_mb():.0f} MB")
    print("on disk: " + ", ".join(f"{name} {pages / 1e6:.1f} MB" for name, pages in size.items())
          + f"; total {sum(size.values()) / 1e6:.1f} MB")
    with db.session() as session:
        started = time.perf_counter()
        meaning.near(session, QUESTIONS[0], 10)
        print(f"first search (index read into memory): "
              f"{(time.perf_counter() - started) * 1000:.0f} ms; RSS {_rss_mb():.0f} MB")
        alone: list[float] = []
        whole: list[float] = []
        for _ in range(args.runs):
            for question in QUESTIONS:
                started = time.perf_counter()
                meaning.near(session, question, 10)
                alone.append((time.perf_counter() - started) * 1000)
                started = time.perf_counter()
                fused(session, question, 10, meaning=meaning)
                whole.append((time.perf_counter() - started) * 1000)
    print(f"meaning search, 10 results ({len(alone)} queries): {_ms(alone)}")
    print(f"Claude's search, words + meaning:       {_ms(whole)}")
    print(f"RSS at the end {_rss_mb():.0f} MB")
    db.close()


if __name__ == "__main__":
    main()
