"""A user action killed (SIGKILL) at each of its steps (issue 42), run as a process of its
own: ``python -m tests.kill_steps ACTION HOME STEP [ARG]``.

A step is a commit of the SQLite database (seen by the driver's trace callback, before
the ``COMMIT`` runs) or a change of a file in the data folder (``os.replace``,
``os.rename`` onto a file, ``os.unlink``, outside MONET's temporary folders), counted from the moment
the action starts. ``STEP`` 0 runs the action whole and prints how many steps it took;
``STEP`` n kills the process just before its n-th step, so that every boundary between
two steps is tried. ``tests/test_one_transaction.py`` then opens the folder as the next
start would and finds the state before the action or after it, never one between.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.pool import Pool

#: The moment every action runs at (the last day of the prepared history).
NOW = "2026-03-04T10:00:00+09:00"
EDITED = "What is the capital of Australia, really?"
REGENERATED = "Canberra, the capital since 1913."


class Steps:
    """Counts the steps once armed; kills the process before step ``kill_at``."""

    def __init__(self, kill_at: int) -> None:
        self.kill_at = kill_at
        self.count = 0
        self.armed = False
        self.lock = threading.Lock()

    def step(self, what: str) -> None:
        if not self.armed:
            return
        with self.lock:
            self.count += 1
            if os.environ.get("MONET_KILL_STEPS_SAY"):
                print(f"step {self.count}: {what}", file=sys.stderr)
            if self.count == self.kill_at:
                os.kill(os.getpid(), signal.SIGKILL)

    def install(self, home: Path) -> None:
        def trace(statement: str) -> None:
            if statement.lstrip()[:6].upper() in ("COMMIT", "END"):
                self.step("COMMIT")

        def on_connect(dbapi_conn: Any, _record: Any) -> None:
            if isinstance(dbapi_conn, sqlite3.Connection):
                dbapi_conn.set_trace_callback(trace)

        event.listen(Pool, "connect", on_connect)
        inside = str(home.resolve())

        def counted(change: Callable[..., Any]) -> Callable[..., Any]:
            def run(*args: Any, **kwargs: Any) -> Any:
                changed = args[1] if change.__name__ in ("replace", "rename") else args[0]
                path = os.fspath(changed) if not kwargs.get("dir_fd") else ""
                where = os.path.abspath(path) if path else ""
                if where.startswith(inside) and "/.monet-" not in where:
                    self.step(f"{change.__name__} {where}")
                return change(*args, **kwargs)
            return run

        for name in ("replace", "rename", "unlink", "remove"):
            setattr(os, name, counted(getattr(os, name)))


def _core(home: Path) -> Any:
    from cms.clock import ManualClock, parse_ts
    from cms.model.standin import StandInModel
    from cms.tokens import CharEstimator
    from monet_app.services.wiring import build_core

    model = StandInModel(CharEstimator(), chunk_chars=8)
    model.expect(REGENERATED)
    return build_core(home, clock=ManualClock(parse_ts(NOW)), summarizer="offline",
                      model_factory=lambda _settings: model, database_url="")


def _latest_user(core: Any) -> tuple[int, str]:
    from sqlmodel import col, select

    from storage.models import Message, MessageRole

    with core.db.session() as session:
        row = session.exec(select(Message).where(Message.role == MessageRole.USER)
                           .order_by(col(Message.id).desc()).limit(1)).one()
    assert row.id is not None
    return row.id, row.tab


def regenerate(home: Path, steps: Steps, _arg: str) -> None:
    from monet_app.operations import conversation, versions

    core = _core(home)
    user_id, tab = _latest_user(core)
    answers = versions.exchange_ids(core, user_id)[1:]
    steps.armed = True
    versions.regenerate(core, answers)
    conversation.reply(core, tab, lambda _text: None, threading.Event())
    core.close()


def edit(home: Path, steps: Steps, _arg: str) -> None:
    from monet_app.operations import conversation

    core = _core(home)
    user_id, tab = _latest_user(core)
    steps.armed = True
    conversation.commit(core, EDITED, tab, replaces=user_id)
    conversation.reply(core, tab, lambda _text: None, threading.Event())
    core.close()


def forget_day(home: Path, steps: Steps, day: str) -> None:
    from monet_app.operations import memory

    core = _core(home)
    steps.armed = True
    memory.delete_day(core, day)
    core.close()


def forget_memory(home: Path, steps: Steps, fact: str) -> None:
    from monet_app.operations import memory

    core = _core(home)
    [item] = [row for row in memory.memory_rows(core) if fact in row.fact]
    steps.armed = True
    memory.delete_memory(core, item.id, delete_sources=True)
    core.close()


def restore(home: Path, steps: Steps, archive: str) -> None:
    from cms.clock import parse_ts
    from monet_app.services import backup

    steps.armed = True
    backup.restore(Path(archive), home, parse_ts(NOW), force=True)


ACTIONS: dict[str, Callable[[Path, Steps, str], None]] = {
    "regenerate": regenerate, "edit": edit, "forget-day": forget_day,
    "forget-memory": forget_memory, "restore": restore}


def main(argv: list[str]) -> int:
    action, home, kill_at = argv[0], Path(argv[1]), int(argv[2])
    steps = Steps(kill_at)
    steps.install(home)
    ACTIONS[action](home, steps, argv[3] if len(argv) > 3 else "")
    print(steps.count)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
