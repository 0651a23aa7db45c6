"""Time to first paint and scroll frame times of the transcript, and screenshots.

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_paint.py [--messages 5000]
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_paint.py --screenshots docs/
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_paint.py --cold-start [--messages 200]
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_paint.py --messages 1000 --pictures 10
    QT_QPA_PLATFORM=offscreen python benchmarks/gui_paint.py --messages 1000 --spin

The first form stores a day of N messages (Markdown, code blocks, Japanese and English),
opens the window on it and prints: time from creating the controller to the first
painted frame, and the time of each frame while scrolling from top to bottom in steps
of one page (p50 / p95 / max ms). ``--pictures N`` gives every Nth message of the person a
photo of its own (1600 x 1200, thumbnails read on the thread pool while scrolling: the
longest event-loop turn while they arrive is printed too). The second form renders the
main window in Japanese and in English over a replayed public trace and saves PNGs.
"""

from __future__ import annotations

import gc
import itertools
import os
import statistics
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication

from cms.clock import ManualClock, parse_ts
from cms.settings import Settings
from cms.tokens import TiktokenEstimator
from storage import Database
from storage.models import Message

SAMPLES = [
    "今日は京都に行きました。嵐山の竹林がとてもきれいで、朝早く行ったので人も少なかったです。",
    (
        "Here is the plan:\n\n1. **Morning**: review the draft\n2. *Afternoon*: send it\n\n"
        "```python\ndef total(xs):\n    return sum(x * 1.1 for x in xs)\n```"
    ),
    "短い返事です。",
    (
        "A longer answer that wraps over several lines in the transcript, because people ask "
        "for explanations and Claude gives them, sometimes with a list:\n- one\n- two\n- three"
    ),
]


def _photo(number: int) -> bytes:
    """A photo-like JPEG of its own (a gradient and rings: it compresses as photos do)."""
    import io

    from PIL import Image, ImageDraw

    image = Image.linear_gradient("L").resize((1600, 1200)).convert("RGB")
    draw = ImageDraw.Draw(image)
    for ring in range(12):
        draw.ellipse((40 + ring * 50 + number % 37, 30 + ring * 40, 1500 - ring * 45,
                      1150 - ring * 35), outline=((number * 53) % 256, ring * 20, 180), width=6)
    out = io.BytesIO()
    image.save(out, "JPEG", quality=85)
    return out.getvalue()


def fill_day(home: Path, count: int, day: str = "2026-03-02", pictures: int = 0) -> None:
    db = Database(home)
    estimator = TiktokenEstimator()
    from storage.prompt_state import prompt_state
    from storage.talk import day_thread_id

    start = parse_ts(f"{day}T08:00:00+09:00")
    with db.session() as session:
        thread_id = day_thread_id(session, day, start.isoformat())
        for i in range(count):
            text = SAMPLES[i % len(SAMPLES)]
            message = Message(
                thread_id=thread_id, day=day, tab="chat", tab_label="チャット",
                role="user" if i % 2 == 0 else "assistant", text=f"{i}: {text}",
                ts=(start + timedelta(seconds=8 * i)).isoformat(),
                token_estimate=estimator.count(text),
            )
            session.add(message)
            if pictures and i % (2 * pictures) == 0:
                from cms.attachments import prepare
                from storage import attachments

                session.flush()
                prepared = prepare(_photo(i), f"photo-{i}.jpg")
                attachments.put(home, prepared.original)
                attachments.put(home, prepared.sent)
                attachments.insert(session, message.id or 0, 0, prepared.name,
                                   "image/jpeg", len(prepared.original), prepared.sha256,
                                   prepared.media_type, prepared.sent_sha256,
                                   width=prepared.width, height=prepared.height,
                                   tokens=prepared.tokens)
        state = prompt_state(session)
        state.current_day = day
        state.current_tab = "chat"
    db.close()


def _loop_for(seconds: float) -> float:
    """Run the real event loop for ``seconds``; the longest it went without turning (ms),
    seen by a 1 ms ticker: what the window could not answer meanwhile."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    ticks = [time.perf_counter()]
    ticker = QTimer()
    ticker.setInterval(1)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    ticker.start()
    QTimer.singleShot(int(seconds * 1000), loop.quit)
    loop.exec()
    ticker.stop()
    ticks.append(time.perf_counter())
    return max(b - a for a, b in itertools.pairwise(ticks)) * 1000


def measure(count: int, pictures: int = 0, spin: bool = False) -> None:
    app = QApplication.instance() or QApplication(sys.argv)
    from monet_app.window.app import AppController

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        fill_day(home, count, pictures=pictures)
        # Storing the day leaves the ORM's garbage in this process; the app starts without
        # it. Collected here so the figure does not include a full collection of it.
        gc.collect()
        clock = ManualClock(parse_ts("2026-03-02T20:00:00+09:00"))
        started = time.perf_counter()
        controller = AppController(home, clock=clock)
        window = controller.window
        window.show()
        window.repaint()
        app.processEvents()
        first_paint = (time.perf_counter() - started) * 1000
        bar = window.transcript.view.verticalScrollBar()
        # the view lays rows out in batches in the background; wait until all are placed
        # The view lays rows out in batches of 100, one batch per event-loop turn, so the
        # window answers input between batches. Turn the loop until it has been idle a while;
        # the longest turn is the longest the window could not answer.
        idle, busy_until, longest = 0, time.perf_counter(), 0.0
        view = window.transcript.view
        last = view.model().index(view.model().rowCount() - 1, 0)
        # (until the last row has its place and the loop has been idle a while: a pause in
        # the batches, the key check starting, is not the end)
        while idle < 50 or not view.visualRect(last).isValid():
            t0 = time.perf_counter()
            app.processEvents()
            spent = time.perf_counter() - t0
            if spent > 0.002:
                idle, busy_until, longest = 0, time.perf_counter(), max(longest, spent * 1000)
            else:
                idle += 1
        laid_out = (busy_until - started) * 1000
        bar.setValue(0)
        app.processEvents()
        frames = []
        turns: list[float] = []  # the event loop's turns between pages (thumbnails arrive)
        step = max(1, bar.pageStep())
        value = 0
        while value < bar.maximum():
            value = min(bar.maximum(), value + step)
            t0 = time.perf_counter()
            bar.setValue(value)
            window.transcript.view.viewport().repaint()
            frames.append((time.perf_counter() - t0) * 1000)
            if spin:  # the event loop itself for 50 ms: a person scrolls ~20 pages a second
                turns.append(_loop_for(0.05))
        rss = _rss_mb()
        pages = len(frames)
        controller.close()
        window.close()
        window.deleteLater()
        app.processEvents()
    frames.sort()
    print(f"messages in the day       {count:,}")
    print(f"time to first paint       {first_paint:.0f} ms")
    print(f"all rows laid out after   {laid_out:.0f} ms, in batches; longest event-loop "
          f"turn meanwhile {longest:.0f} ms")
    print(f"scroll frames             {pages} pages, top to bottom")
    print(f"frame time p50 / p95 / max {statistics.median(frames):.1f} / "
          f"{frames[int(0.95 * (len(frames) - 1))]:.1f} / {frames[-1]:.1f} ms")
    if pictures:
        print(f"pictures                  one every {pictures} of the person's messages")
    if turns:
        print(f"event loop while scrolling longest turn {max(turns):.1f} ms (50 ms of it "
              f"after each page{': the thumbnails arrive' if pictures else ''})")
    print(f"resident memory           {rss:.0f} MB")


def _rss_mb() -> float:
    try:
        with open("/proc/self/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


#: (file name, language, theme, width, height, what is open)
SHOTS = [
    ("screenshot-ja.png", "ja", "light", 1180, 760, "day"),
    ("screenshot-en.png", "en", "light", 1180, 760, "day"),
    ("screenshot-ja-dark.png", "ja", "dark", 1180, 760, "day"),
    ("screenshot-en-dark.png", "en", "dark", 1180, 760, "search"),
    ("screenshot-ja-narrow.png", "ja", "light", 680, 760, "day"),
    ("screenshot-en-welcome.png", "en", "light", 1000, 640, "welcome"),
]


def screenshots(folder: Path) -> None:
    """The window as a person sees it: Japanese and English, light and dark, narrow, and
    the first run without a key, over a replayed public trace (rpc-pair-ja)."""
    from monet_app.services.replay import replay

    traces = ROOT / "tests" / "data" / "traces"
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        replay(traces / "rpc-pair-ja.jsonl", home, None)
        for name, lang, theme, width, height, scene in SHOTS:
            os.environ["MONET_LANG"] = lang
            app = QApplication.instance() or QApplication(sys.argv)
            from monet_app.window.app import AppController
            from ui.look import apply_palette, install_translator

            apply_palette(app, theme)  # type: ignore[arg-type]
            translator = install_translator(app)  # type: ignore[arg-type]
            clock = ManualClock(parse_ts("2022-08-28T23:50:00+09:00"))
            welcome = scene == "welcome"
            where = Path(tmp) / "empty" if welcome else home
            controller = AppController(where, clock=clock, needs_key=welcome)
            window = controller.window
            window.resize(width, height)
            window.show()
            if scene == "search":
                # the history is Japanese: an English window searches it in Japanese too
                window.recall.search_box.setText("ラーメン")
                controller.search(window.recall.search_box.text())
                from PySide6.QtCore import QThreadPool

                QThreadPool.globalInstance().waitForDone(5000)
            for _ in range(10):  # the key is looked for 0.3 s after the first paint
                app.processEvents()
                time.sleep(0.05)
            window.grab().save(str(folder / name))
            controller.close()
            window.close()
            if translator is not None:
                app.removeTranslator(translator)
            print(f"saved {folder / name}")


_CHILD = """
import sys, time
from pathlib import Path
from PySide6.QtWidgets import QApplication
from monet_app.window.app import AppController
from ui.look import apply_palette, install_translator
app = QApplication(sys.argv)
apply_palette(app)
install_translator(app)
controller = AppController(Path(sys.argv[1]), needs_key=False)
controller.window.show()
controller.window.repaint()
app.processEvents()
print("painted", flush=True)
controller.close()
"""


def cold_start(count: int, runs: int = 5) -> None:
    """Process start to a visible, painted window (imports included), as a person
    launching MONET waits for it: a fresh Python each run, on a home with a day of
    ``count`` messages. Prints each run and the median."""
    import subprocess

    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        fill_day(home, count)
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            child = subprocess.Popen([sys.executable, "-c", _CHILD, str(home)],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
            assert child.stdout is not None
            line = child.stdout.readline()
            painted = (time.perf_counter() - started) * 1000
            child.wait(timeout=60)
            if b"painted" not in line:
                raise SystemExit("the window did not paint")
            times.append(painted)
    print(f"cold start to a painted window ({count:,} messages today): "
          + ", ".join(f"{t:.0f}" for t in times) + f" ms; median {statistics.median(times):.0f} ms")


def main() -> None:
    if "--cold-start" in sys.argv:
        count = int(sys.argv[sys.argv.index("--messages") + 1]) if "--messages" in sys.argv \
            else 200
        cold_start(count)
        return
    if "--screenshots" in sys.argv:
        index = sys.argv.index("--screenshots")
        screenshots(Path(sys.argv[index + 1]) if len(sys.argv) > index + 1 else ROOT / "docs")
        return
    count = 5000
    if "--messages" in sys.argv:
        count = int(sys.argv[sys.argv.index("--messages") + 1])
    pictures = int(sys.argv[sys.argv.index("--pictures") + 1]) if "--pictures" in sys.argv \
        else 0
    measure(count, pictures, spin=pictures > 0 or "--spin" in sys.argv)


if __name__ == "__main__":
    Settings()
    main()
