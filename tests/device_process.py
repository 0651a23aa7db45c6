"""One device, or the librarian service, as its own process on a shared history (the
two-process test of ``tests/test_postgres.py``).

    python -m tests.device_process device HOME URL MODEL_URL WHO COUNT DIR
    python -m tests.device_process librarian HOME URL DIR

Every process reads the time from ``DIR/clock.txt`` (the test moves it across a sunset).
A device waits for ``DIR/go-N`` before sending ``COUNT`` messages of day N (N = 1, 2)
through its own data folder ``HOME``, with its request log in ``DIR/WHO.jsonl``, and
writes ``DIR/done-WHO-N`` after them. The librarian is ``monet librarian --watch
--offline``'s loop (``monet_app.cli.librarian_process.run``) on this clock until SIGTERM.
"""

from __future__ import annotations

import os
import sys
import time
from datetime import datetime
from pathlib import Path


class FileClock:
    """The time written in a file, read at every call: one clock for several processes."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def now(self) -> datetime:
        return datetime.fromisoformat(self.path.read_text("utf-8").strip())


def wait_for(path: Path, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit(f"{path.name} never came")
        time.sleep(0.02)


def device(home: Path, url: str, model_url: str, who: str, count: int, folder: Path) -> None:
    from cms.tokens import CharEstimator
    from monet_app.services.gateway import AnthropicModel, make_client
    from monet_app.services.wiring import build_core

    core = build_core(home, clock=FileClock(folder / "clock.txt"), database_url=url,
                      estimator=CharEstimator(), summarizer="offline",
                      request_log=folder / f"{who}.jsonl",
                      model_factory=lambda _s: AnthropicModel(make_client(
                          "sk-ant-test", base_url=model_url, max_retries=0)))
    try:
        core.chat_model()
        core.context.app_started()
        for day in (1, 2):
            wait_for(folder / f"go-{day}")
            for i in range(count):
                core.runner.send(f"{who} day {day} message {i}", "chat")
            (folder / f"done-{who}-{day}").touch()
    finally:
        core.close()


def librarian(home: Path, url: str, folder: Path) -> int:
    from monet_app.cli.librarian_process import run
    from storage.where import URL_ENV

    os.environ[URL_ENV] = url
    return run(home, watch=True, interval_seconds=0.2, offline=True,
               clock=FileClock(folder / "clock.txt"))


def main(argv: list[str]) -> int:
    if argv[0] == "device":
        home, url, model_url, who, count, folder = argv[1:]
        device(Path(home), url, model_url, who, int(count), Path(folder))
        return 0
    home, url, folder = argv[1:]
    return librarian(Path(home), url, Path(folder))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
