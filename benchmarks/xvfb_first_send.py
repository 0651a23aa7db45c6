"""The first send in a real window, by keystrokes: how long after Enter the message is
on the screen.

    python benchmarks/xvfb_first_send.py [--runs 3] [--wait 1.5]

Needs Xvfb and xdotool (the README's Linux notes). Each run: a virtual screen, a fresh
data folder, ``monet`` started as a person starts it (``QT_QPA_PLATFORM=xcb``, answered
by the local stand-in in this process), ``--wait`` seconds left alone, a message typed
with xdotool and Enter pressed. A watcher process (Qt on the same screen) grabs the
window's transcript every few milliseconds and prints when it first differs from the
grab taken before Enter: that is the message's bubble painted. Then a second message the
same way, for the comparison with a warm window.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WATCHER = r"""
import sys, time
from PySide6.QtGui import QGuiApplication
app = QGuiApplication(sys.argv[:1])
screen = app.primaryScreen()
wid = int(sys.argv[1])

def grab():
    image = screen.grabWindow(wid).toImage()
    # the transcript: the upper part of the window (the composer below changes as typed)
    return image.copy(0, 0, image.width(), int(image.height() * 0.7))

for line in sys.stdin:
    before = grab()
    print("ready", flush=True)
    sys.stdin.readline()  # "go", written right after Enter was pressed
    started = time.perf_counter()
    while time.perf_counter() - started < 10:
        if grab() != before:
            break
        time.sleep(0.005)
    print(f"{(time.perf_counter() - started) * 1000:.0f}", flush=True)
"""


def _xdotool(env: dict[str, str], *args: str) -> str:
    return subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                          timeout=30, check=False).stdout.strip()


def one_run(wait: float) -> list[float]:
    from monet_app.services.standin_server import StandInServer

    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1280x800x24",
                             "-nolisten", "tcp"], pass_fds=(write,),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    while not number.endswith(b"\n"):
        number += os.read(read, 16)
    os.close(read)
    env = {**os.environ, "DISPLAY": f":{number.decode().strip()}", "QT_QPA_PLATFORM": "xcb",
           "MONET_LANG": "en", "ANTHROPIC_API_KEY": "any-key"}
    times: list[float] = []
    with tempfile.TemporaryDirectory() as tmp, StandInServer() as server:
        env["ANTHROPIC_BASE_URL"] = server.url
        app = subprocess.Popen([sys.executable, "-m", "monet_app.cli", "--home",
                                str(Path(tmp) / "home")], env=env, cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        watcher = None
        try:
            window = ""
            deadline = time.monotonic() + 60
            while not window and time.monotonic() < deadline:
                window = _xdotool(env, "search", "--onlyvisible", "--name", "^MONET$")
                window = window.split("\n")[0]
                time.sleep(0.1)
            _xdotool(env, "windowfocus", "--sync", window)
            time.sleep(wait)
            watcher = subprocess.Popen([sys.executable, "-c", WATCHER, window], env=env,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       text=True)
            assert watcher.stdin is not None and watcher.stdout is not None
            for n in range(2):
                _xdotool(env, "type", "--delay", "20", f"message {n + 1} of a fresh start")
                time.sleep(0.5)
                watcher.stdin.write("grab\n")
                watcher.stdin.flush()
                watcher.stdout.readline()  # ready
                _xdotool(env, "key", "Return")
                watcher.stdin.write("go\n")
                watcher.stdin.flush()
                times.append(float(watcher.stdout.readline()))
                time.sleep(2.0)  # the reply comes and settles
        finally:
            if watcher is not None:
                watcher.kill()
            app.terminate()
            app.wait(timeout=30)
            xvfb.terminate()
            xvfb.wait(timeout=10)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--wait", type=float, default=1.5,
                        help="seconds between the window appearing and the first keystroke")
    args = parser.parse_args()
    firsts, seconds = [], []
    for _ in range(args.runs):
        first, second = one_run(args.wait)
        firsts.append(first)
        seconds.append(second)
    print(f"message on screen after Enter, {args.runs} fresh starts "
          f"({args.wait:.1f} s after the window appeared):")
    print(f"  first send:  median {statistics.median(firsts):.0f} ms  "
          f"({', '.join(f'{t:.0f}' for t in firsts)})")
    print(f"  second send: median {statistics.median(seconds):.0f} ms  "
          f"({', '.join(f'{t:.0f}' for t in seconds)})")


if __name__ == "__main__":
    main()
