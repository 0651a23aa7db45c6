"""The first send of a fresh start: how soon the message is painted, how long the event
loop's longest turn is while the reply is asked for and while it streams.

    QT_QPA_PLATFORM=offscreen python benchmarks/gui_first_send.py [--sends 3]

Each case runs in a process of its own, so nothing is imported beforehand: a new data
folder, the window on the local stand-in of Anthropic's API (through the real SDK, as the
demo runs), a message typed into the composer and Enter pressed with ``QTest``. Cases:

- ``at once``: Enter as soon as the window has painted (the SDK not loaded yet: the
  reply's worker imports it);
- ``after 2 s``: the window left alone for two seconds first (the tokenizer and the SDK
  loaded on a thread of its own after the window opened, ``Core.warm``).

The stand-in runs in a process of its own, as Anthropic's API is elsewhere.

Then ``--sends`` more messages, for the tenth-send comparison. A 5 ms timer on the GUI
thread records how late each tick comes. Printed per send: milliseconds from Enter to
the message's row in the transcript with a frame painted after it, the longest turn
from Enter to the reply's first text, and the longest turn while the reply streams
(a reply of ~6,000 characters in 24-character pieces).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

REPLY = ("Here is a longer answer, so that the reply streams for a while. " * 90).strip()


def _message(n: int) -> str:
    return f"Message {n + 1}: what should I cook tonight?"


@contextmanager
def _server(folder: Path, sends: int) -> Iterator[str]:
    """The stand-in in a process of its own (``monet standin-server``), as Anthropic's
    API is elsewhere: its own token counting does not share this process's interpreter
    lock. It answers each message with ``REPLY`` (a trace of the messages to send)."""
    trace = folder / "replies.jsonl"
    trace.write_text("".join(json.dumps({"user": _message(n), "assistant": REPLY}) + "\n"
                             for n in range(1 + sends)), "utf-8")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "monet_app.cli", "standin-server",
                               "--trace", str(trace), "--port", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    try:
        deadline = time.perf_counter() + 30
        while time.perf_counter() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def _case(wait: float, sends: int) -> dict[str, list[float]]:
    from PySide6.QtCore import QEvent, QObject, Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from monet_app.services.wiring import standin_model
    from monet_app.window.app import AppController

    app = QApplication(sys.argv[:1])
    figures: dict[str, list[float]] = {"painted": [], "asking": [], "streaming": []}
    with tempfile.TemporaryDirectory() as tmp, _server(Path(tmp), sends) as url:
        c = AppController(Path(tmp) / "home", model_factory=standin_model(url),
                          needs_key=False)
        w = c.window
        w.resize(1000, 700)
        w.show()

        paints = [0.0]

        class PaintSpy(QObject):
            def eventFilter(self, _obj: QObject, event: QEvent) -> bool:
                if event.type() == QEvent.Type.Paint:
                    paints[0] = time.perf_counter()
                return False

        spy = PaintSpy()
        w.transcript.view.viewport().installEventFilter(spy)
        gaps: list[tuple[float, float]] = []  # (when, how late)
        last = [time.perf_counter()]

        def tick() -> None:
            now = time.perf_counter()
            gaps.append((now, (now - last[0]) * 1000))
            last[0] = now

        timer = QTimer()
        timer.timeout.connect(tick)
        timer.start(5)

        def spin(until: float, done: object = None) -> None:
            while time.perf_counter() < until and not (callable(done) and done()):
                app.processEvents()
                time.sleep(0.0005)

        spin(time.perf_counter() + 0.3)  # the first frames
        spin(time.perf_counter() + wait)
        def one_send(n: int) -> None:
            w.compose.field.setPlainText(_message(n))
            rows_before = w.transcript.model.rowCount()
            ended = [False]
            c.stream.finished.connect(lambda _r: ended.__setitem__(0, True))
            app.processEvents()
            pressed = last[0] = time.perf_counter()  # (the key's own handling is a turn)
            QTest.keyClick(w.compose.field, Qt.Key.Key_Return)
            tick()
            shown = [0.0]
            first_text = [0.0]

            def seen() -> bool:
                if not shown[0] and w.transcript.model.rowCount() > rows_before \
                        and paints[0] > pressed:
                    shown[0] = paints[0]
                if not first_text[0] and c.stream.buffer:
                    first_text[0] = time.perf_counter()
                return ended[0]

            spin(pressed + 30, seen)
            done_at = time.perf_counter()
            spin(done_at + 0.3)  # the final refresh
            first = first_text[0] or done_at
            figures["painted"].append(((shown[0] or done_at) - pressed) * 1000)
            figures["asking"].append(max((g for t, g in gaps if pressed <= t <= first),
                                         default=0.0))
            figures["streaming"].append(max((g for t, g in gaps if first <= t <= done_at + 0.3),
                                            default=0.0))
            c.stream.finished.disconnect()
            c.stream.finished.connect(c.sending.reply_finished)

        for n in range(1 + sends):
            one_send(n)
        timer.stop()
        c.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sends", type=int, default=3, help="more sends after the first")
    parser.add_argument("--case", type=float, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case is not None:
        print(json.dumps(_case(args.case, args.sends)))
        return
    for name, wait in (("at once", 0.0), ("after 2 s", 2.0)):
        out = subprocess.run([sys.executable, __file__, "--case", str(wait),
                              "--sends", str(args.sends)], capture_output=True, text=True,
                             check=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
        figures = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{name}:")
        for i in range(len(figures["painted"])):
            print(f"  send {i + 1}: message painted {figures['painted'][i]:.0f} ms after Enter, "
                  f"longest turn until the reply's first text {figures['asking'][i]:.0f} ms, "
                  f"while it streams {figures['streaming'][i]:.0f} ms")


if __name__ == "__main__":
    main()
