"""Checks a request log against the judged invariants of replay.md."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cms.context.events import FOLD_EVENTS, REBUILD_EVENTS
from cms.context.prompt import extends

__all__ = ["FOLD_EVENTS", "REBUILD_EVENTS", "check_log", "read_log"]



def read_log(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@dataclass
class LogReport:
    chat_requests: int = 0
    breaks: list[tuple[int, int]] = field(default_factory=list)  # (index a, index b)
    pinned_changes: int = 0
    events: dict[str, int] = field(default_factory=dict)

    @property
    def folds(self) -> int:
        return sum(self.events.get(k, 0) for k in FOLD_EVENTS)

    @property
    def rebuilds(self) -> int:
        return sum(self.events.get(k, 0) for k in REBUILD_EVENTS)


def check_log(records: list[dict[str, Any]]) -> LogReport:
    report = LogReport()
    previous: dict[str, Any] | None = None
    previous_index = -1
    rebuild_since = False
    pinned: str | None = None
    for index, record in enumerate(records):
        if record["kind"] == "event":
            name = record["name"]
            report.events[name] = report.events.get(name, 0) + 1
            if name in REBUILD_EVENTS:
                rebuild_since = True
            if name == "settings_changed":
                pinned = None
            continue
        if record.get("purpose") != "chat":
            continue
        body = record["body"]
        report.chat_requests += 1
        first_system = body["system"][0]["text"]
        if pinned is not None and first_system != pinned:
            report.pinned_changes += 1
        pinned = first_system
        if previous is not None and not rebuild_since and not extends(previous, body):
            report.breaks.append((previous_index, index))
        previous, previous_index, rebuild_since = body, index, False
    return report
