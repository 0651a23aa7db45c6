"""The event and request log.

Every event goes to the ``event`` table; when a request log path is set (``--request-log``
or ``MONET_REQUEST_LOG``) events and requests are also appended to it as JSONL in the
order they happen, in the format of ``docs/replay.md``.
"""

from __future__ import annotations

import json
import threading
from enum import StrEnum
from pathlib import Path
from typing import Any, TextIO

from cms.model.protocol import RequestBody
from storage.ledger import add_event, events_after
from storage.models import FoldKind
from storage.rows import Db


class EventName(StrEnum):
    """Every event MONET logs (``docs/replay.md``, the events table)."""

    APP_STARTED = "app_started"
    DAY_STARTED = "day_started"
    SUNSET_FOLD = "sunset_fold"
    CEILING_FOLD = "ceiling_fold"
    EMERGENCY_FOLD = "emergency_fold"
    THREAD_SWITCH_FOLD = "thread_switch_fold"
    PENDING_RESOLVED = "pending_resolved"
    MEMORY_CHANGED = "memory_changed"
    SETTINGS_CHANGED = "settings_changed"
    CONTEXT_SUMMARY_CHANGED = "context_summary_changed"
    TAB_SWITCH = "tab_switch"
    OPEN_DAY = "open_day"


#: The event each kind of fold logs.
FOLD_EVENT: dict[FoldKind, EventName] = {
    FoldKind.SUNSET: EventName.SUNSET_FOLD,
    FoldKind.CEILING: EventName.CEILING_FOLD,
    FoldKind.EMERGENCY: EventName.EMERGENCY_FOLD,
    FoldKind.THREAD_SWITCH: EventName.THREAD_SWITCH_FOLD,
}
#: Events that fold raw turns into the Timeline Index.
FOLD_EVENTS = frozenset(FOLD_EVENT.values())
#: Rebuild points: the only events after which the next chat body may differ.
REBUILD_EVENTS = FOLD_EVENTS | {
    EventName.PENDING_RESOLVED, EventName.MEMORY_CHANGED, EventName.SETTINGS_CHANGED,
}


class RequestLog:
    def __init__(self, path: Path | str | None) -> None:
        self.path = Path(path) if path else None
        self._lock = threading.Lock()
        self._handle: TextIO | None = None
        # the events written here, not yet caught up: id -> (ts, name)
        self._own: dict[int, tuple[str, str]] = {}
        self._caught_up: int | None = None  # the newest event id this log has accounted for
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._handle = self.path.open("a", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        if self.path is None:
            return
        line = json.dumps(record, ensure_ascii=False) + "\n"
        with self._lock:  # the reply worker and the librarian's worker write too
            if self._handle is not None:
                self._handle.write(line)
                self._handle.flush()

    def event(self, db: Db, ts: str, name: EventName, detail: dict[str, Any]) -> None:
        event_id = add_event(db, ts, name, detail)
        if self.path is not None:
            with self._lock:  # (with what it was: SQLite gives a rolled-back id again)
                self._own[event_id] = (ts, str(name))
        self.write({"kind": "event", "ts": ts, "name": name, "detail": detail})

    def catch_up(self, db: Db) -> None:
        """Write the events that another process stored since this log last looked (another
        device on a shared history, a librarian service, ``monet forget`` from a shell), so
        that the log explains every rebuild its requests show. They carry ``"elsewhere":
        true``; the events this log wrote itself are not written twice. Called before each
        chat request is built; nothing is read when no log is kept."""
        if self.path is None:
            return
        with self._lock:
            after, own = self._caught_up, dict(self._own)
        if after is None and own:
            after = min(own) - 1  # from this process's first event (app_started)
        found = events_after(db, after)
        if after is None:  # nothing logged yet: what was stored before is history
            found, after = [], found[0][0] if found else 0
        for event_id, ts, name, detail in found:
            if own.get(event_id) != (ts, name):
                self.write({"kind": "event", "ts": ts, "name": name, "detail": detail,
                            "elsewhere": True})
        with self._lock:
            self._caught_up = max([after, *(event_id for event_id, *_ in found)])
            self._own = {i: o for i, o in self._own.items() if i > self._caught_up}

    def request(
        self, ts: str, purpose: str, body: RequestBody, usage: dict[str, Any]
    ) -> None:
        self.write({"kind": "request", "ts": ts, "purpose": purpose, "body": body, "usage": usage})

    def close(self) -> None:
        with self._lock:
            if self._handle is not None:
                self._handle.close()
                self._handle = None
