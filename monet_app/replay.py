"""``monet replay``: run a trace through the real context manager, storage and librarian.

The clock is the trace's ``ts``; nothing reads the wall clock. The stand-in model answers
each turn with the trace's reply through the same code path that calls Claude.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from cms.cache_sim import PromptCacheSimulator
from cms.clock import ManualClock, parse_ts
from cms.context import ContextManager
from cms.events import RequestLog
from cms.librarian import Librarian
from cms.model import StandInModel
from cms.settings import Settings, load_settings
from cms.summarizer import OfflineSummarizer
from cms.tokens import TiktokenEstimator, TokenEstimator
from cms.turn import TurnRunner
from storage import Database
from storage.errors import UserFacingError
from storage.models import Event


class TraceError(UserFacingError):
    pass


@dataclass
class TraceLine:
    number: int
    ts: str
    data: dict[str, Any]


def read_trace(path: Path) -> list[TraceLine]:
    if not path.exists():
        raise TraceError(f"No trace file at {path}.")
    lines: list[TraceLine] = []
    with path.open(encoding="utf-8") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
                parse_ts(data["ts"])
            except (json.JSONDecodeError, KeyError, ValueError, TypeError) as exc:
                raise TraceError(f"{path}:{number}: not a trace line ({exc}).") from exc
            if "action" not in data and not ("user" in data and "tab" in data):
                raise TraceError(f"{path}:{number}: a turn needs 'tab' and 'user'.")
            lines.append(TraceLine(number=number, ts=data["ts"], data=data))
    return lines


@dataclass
class ReplaySummary:
    turns: int = 0
    requests: int = 0
    events: dict[str, int] = field(default_factory=dict)
    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    largest_prompt: int = 0
    seconds: float = 0.0
    cm_ms: list[float] = field(default_factory=list)
    librarian_summaries: int = 0

    @property
    def hit_ratio(self) -> float:
        return self.cache_read_tokens / self.input_tokens if self.input_tokens else 0.0

    @property
    def folds(self) -> int:
        return sum(
            self.events.get(k, 0)
            for k in ("sunset_fold", "ceiling_fold", "emergency_fold", "thread_switch_fold")
        )

    @property
    def rebuilds(self) -> int:
        return self.folds + sum(
            self.events.get(k, 0) for k in ("pending_resolved", "settings_changed", "memory_changed")
        )

    def text(self) -> str:
        return (
            f"turns {self.turns}, requests {self.requests}, folds {self.folds}, "
            f"rebuilds {self.rebuilds}, input tokens {self.input_tokens:,} "
            f"(cache reads {self.cache_read_tokens:,}, writes {self.cache_write_tokens:,}, "
            f"hit ratio {self.hit_ratio:.1%}), "
            f"output tokens {self.output_tokens:,}, largest prompt {self.largest_prompt:,}, "
            f"summaries {self.librarian_summaries}, {self.seconds:.1f} s"
        )


class _TimedCM(ContextManager):
    """Measures context-manager time per request (model excluded) for the figures."""

    timings: list[float]

    def prepare_request(self):  # type: ignore[no-untyped-def]
        start = time.perf_counter()
        try:
            return super().prepare_request()
        finally:
            self.timings.append((time.perf_counter() - start) * 1000)


def replay(
    trace: Path,
    home: Path,
    request_log: Path | None,
    *,
    overrides: dict[str, Any] | None = None,
    librarian: bool = True,
    estimator: TokenEstimator | None = None,
    live: bool = False,
) -> ReplaySummary:
    """Replay ``trace`` on ``home``. ``live`` sends every request through the real gateway
    (``ANTHROPIC_BASE_URL`` and the key from the environment) and ignores the trace's
    replies; otherwise the stand-in model answers with them, priced by the cache simulator."""
    started = time.perf_counter()
    lines = read_trace(trace)
    db = Database(home)
    with db.session() as session:
        settings: Settings = load_settings(session).with_overrides(**(overrides or {}))
    with db.session() as session:
        first_event = session.exec(select(Event).order_by(col(Event.id).desc())).first()
        first_event_id = first_event.id if first_event and first_event.id else 0
    estimator = estimator or TiktokenEstimator()
    clock = ManualClock(parse_ts(lines[0].ts) if lines else parse_ts("2026-01-01T00:00:00+00:00"))
    log = RequestLog(request_log)
    cm = _TimedCM(db, settings, clock, estimator, log)
    cm.timings = []
    model = StandInModel(estimator, cache=PromptCacheSimulator(estimator), now=clock.now)
    runner = TurnRunner(cm, model, log)
    if live:
        from monet_app.gateway import AnthropicModel, make_client

        client = make_client(
            max_retries=settings.max_retries, timeout=settings.request_timeout_seconds
        )
        runner.model = AnthropicModel(client)
    keeper = Librarian(
        db, OfflineSummarizer(), clock, settings.librarian_interval_minutes,
        day_start=settings.day_start_time, log=log,
        pause_minutes=settings.segment_pause_minutes, segment_tokens=settings.segment_max_tokens,
        incognito_days=settings.incognito_days, incognito_tabs=settings.incognito_tabs,
    )
    summary = ReplaySummary()
    try:
        cm.app_started()
        for line in lines:
            clock.set(parse_ts(line.ts))
            if librarian and keeper.due():
                summary.librarian_summaries += keeper.run_once()
            data = line.data
            action = data.get("action")
            if action == "switch_tab":
                _switch_tab(cm, settings, str(data["tab"]))
            elif action == "open_day":
                cm.open_day(str(data.get("date", "")))
            elif action is not None:
                raise TraceError(f"{trace}:{line.number}: unknown action {action!r}.")
            else:
                tab = str(data["tab"])
                _switch_tab(cm, settings, tab)
                if not live:
                    model.expect(str(data.get("assistant", "")), data.get("recall"))
                result = runner.send(str(data["user"]), tab)
                summary.turns += 1
                summary.requests += result.requests
                for usage in result.usages:
                    total = (
                        usage.input_tokens
                        + usage.cache_creation_input_tokens
                        + usage.cache_read_input_tokens
                    )
                    summary.input_tokens += total
                    summary.cache_read_tokens += usage.cache_read_input_tokens
                    summary.cache_write_tokens += usage.cache_creation_input_tokens
                    summary.output_tokens += usage.output_tokens
                    summary.largest_prompt = max(summary.largest_prompt, total)
        if librarian:
            summary.librarian_summaries += keeper.run_once()
    finally:
        log.close()
        closer = getattr(runner.model, "close", None)
        if closer is not None:
            closer()
    with db.session() as session:
        for event in session.exec(select(Event).where(col(Event.id) > first_event_id)).all():
            summary.events[event.name] = summary.events.get(event.name, 0) + 1
    db.close()
    summary.cm_ms = cm.timings
    summary.seconds = time.perf_counter() - started
    return summary


def _switch_tab(cm: ContextManager, settings: Settings, tab: str) -> None:
    """A tab change; in the thread model each tab of the trace is a thread."""
    cm.switch_tab(tab)
    if not settings.sunset_model:
        cm.switch_thread(cm.thread_named(tab))
