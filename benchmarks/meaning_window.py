"""The window while the librarian embeds: the event loop's longest turn.

    QT_QPA_PLATFORM=offscreen python benchmarks/meaning_window.py [TRACE] [--seconds 20]

A home is made from TRACE (a public trace by default) without vectors, the window opened
on it, and its librarian run: the summaries, then the embedding steps (pure-Python
tokenising and numpy in a worker thread, which holds the GIL part of the time). A 5 ms
timer on the GUI thread records how late each of its ticks comes; printed: the longest
and the 99th-percentile gap while embedding, and the same with nothing running.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from monet_app.services.replay import replay
from monet_app.window.app import AppController
from storage import vectors

TRACE = ROOT / "tests" / "data" / "traces" / "lme-00.jsonl"


def _gaps(app: QApplication, until: float, done: callable) -> list[float]:  # type: ignore[valid-type]
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append((now - last[0]) * 1000)
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(5)
    while time.perf_counter() < until and not done():
        app.processEvents()
        time.sleep(0.001)
    timer.stop()
    return gaps


def _say(name: str, gaps: list[float]) -> None:
    ordered = sorted(gaps)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(f"{name}: {len(gaps)} ticks, longest {max(gaps):.0f} ms, p99 {p99:.0f} ms, "
          f"median {statistics.median(gaps):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("trace", type=Path, nargs="?", default=TRACE)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    app = QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        replay(args.trace, home, None, librarian=False)
        c = AppController(home, needs_key=False)
        c.window.show()
        _say("idle", _gaps(app, time.perf_counter() + 2, lambda: False))
        c.librarian.run_now()
        started = time.perf_counter()
        _say("the librarian's pass", _gaps(app, started + args.seconds,
                                            lambda: not c.librarian.busy))
        started = time.perf_counter()
        gaps = _gaps(app, started + args.seconds,
                     lambda: not c.librarian.embedding and c.core.unembedded == 0
                     and time.perf_counter() - started > 1)
        with c.core.db.transaction() as conn:
            done, total = vectors.progress(conn, c.core.meaning.model)
        _say(f"the embedding steps after it ({done} of {total} messages embedded in "
             f"{time.perf_counter() - started:.1f} s)", gaps)
        c.close()


if __name__ == "__main__":
    main()
