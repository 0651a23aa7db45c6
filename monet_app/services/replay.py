"""``monet replay``: run a trace through the real context manager, storage and librarian.

The clock is the trace's ``ts``; nothing reads the wall clock. The stand-in model answers
each turn with the trace's reply through the same code path that calls Claude.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlmodel import col, select

from cms.attachments import Prepared, prepare
from cms.clock import ManualClock, parse_ts
from cms.context.events import FOLD_EVENTS, REBUILD_EVENTS
from cms.context.manager import ContextManager, clean_text
from cms.context.turn import TurnResult
from cms.model.standin import StandInModel
from cms.settings import Settings
from cms.tokens import TiktokenEstimator, TokenEstimator
from monet_app.services.wiring import build_core, gateway_model, standin_factory
from storage import Database
from storage.errors import AttachmentError, TraceError
from storage.models import Event, Message, MessageRole


@dataclass
class TraceLine:
    number: int
    ts: str
    data: dict[str, Any]
    #: the turn's files (``"attachments": ["path", ...]``, relative to the trace file),
    #: read and checked with the trace, before anything is written
    attachments: tuple[Prepared, ...] = ()


def _attachments(path: Path, number: int, data: dict[str, Any]) -> tuple[Prepared, ...]:
    named = data.get("attachments", [])
    if not isinstance(named, list) or not all(isinstance(n, str) for n in named):
        raise TraceError(f"{path}:{number}: 'attachments' must be a list of file paths.")
    found: list[Prepared] = []
    for name in named:
        where = (path.parent / name)
        try:
            found.append(prepare(where.read_bytes(), Path(name).name))
        except OSError as exc:
            raise TraceError(f"{path}:{number}: cannot read the attachment {name} "
                             f"({exc.strerror or exc}).") from None
        except AttachmentError as exc:
            raise TraceError(f"{path}:{number}: {exc}") from None
    return tuple(found)


def read_trace(path: Path) -> list[TraceLine]:
    if not path.exists():
        raise TraceError(f"No trace file at {path}.")
    lines: list[TraceLine] = []
    with path.open("rb") as handle:
        for number, raw_bytes in enumerate(handle, start=1):
            try:
                raw = raw_bytes.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise TraceError(
                    f"{path}:{number}: not UTF-8 text (byte {exc.start + 1} of the line)."
                ) from None
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
                parse_ts(data["ts"])
            except (json.JSONDecodeError, KeyError, ValueError, TypeError) as exc:
                raise TraceError(f"{path}:{number}: not a trace line ({exc}).") from exc
            if "action" not in data and not ("user" in data and "tab" in data):
                raise TraceError(f"{path}:{number}: a turn needs 'tab' and 'user'.")
            lines.append(TraceLine(number=number, ts=data["ts"], data=data,
                                   attachments=_attachments(path, number, data)))
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
    skipped: int = 0  # turns the home already had

    @property
    def hit_ratio(self) -> float:
        return self.cache_read_tokens / self.input_tokens if self.input_tokens else 0.0

    @property
    def folds(self) -> int:
        return sum(self.events.get(k, 0) for k in FOLD_EVENTS)

    @property
    def rebuilds(self) -> int:
        return sum(self.events.get(k, 0) for k in REBUILD_EVENTS)

    def text(self) -> str:
        return (
            f"turns {self.turns}, requests {self.requests}, folds {self.folds}, "
            f"rebuilds {self.rebuilds}, input tokens {self.input_tokens:,} "
            f"(cache reads {self.cache_read_tokens:,}, writes {self.cache_write_tokens:,}, "
            f"hit ratio {self.hit_ratio:.1%}), "
            f"output tokens {self.output_tokens:,}, largest prompt {self.largest_prompt:,}, "
            f"summaries {self.librarian_summaries}, {self.seconds:.1f} s"
            + (f", skipped {self.skipped} turns the home already had" if self.skipped else "")
        )


def replay(
    trace: Path,
    home: Path,
    request_log: Path | None,
    *,
    overrides: dict[str, Any] | None = None,
    librarian: bool = True,
    estimator: TokenEstimator | None = None,
    live: bool = False,
    meaning: bool = True,
    url: str | None = None,
) -> ReplaySummary:
    """Replay ``trace`` on ``home``. ``live`` sends every request through the real gateway
    (``ANTHROPIC_BASE_URL`` and the key from the environment) and ignores the trace's
    replies; otherwise the stand-in model answers with them, priced by the cache simulator.
    ``meaning``: the librarian's passes embed the messages for recall by meaning (off: a
    replay that measures the prompt and the cache, several times faster on long traces;
    ``search_history`` then finds by words only). ``url``: the history's server (None: as
    ``Database`` finds it; "": the SQLite file)."""
    started = time.perf_counter()
    lines = read_trace(trace)
    clock = ManualClock(parse_ts(lines[0].ts) if lines else parse_ts("2026-01-01T00:00:00+00:00"))
    estimator = estimator or TiktokenEstimator()
    core = build_core(
        home, clock=clock, overrides=overrides, request_log=request_log, estimator=estimator,
        summarizer="offline",
        model_factory=gateway_model if live else standin_factory(estimator, clock),
        database_url=url,
    )
    core.embeds = meaning
    with core.db.session() as session:
        first_event = session.exec(
            select(Event).order_by(col(Event.id).desc()).limit(1)).first()
        first_event_id = first_event.id if first_event and first_event.id else 0
    cm, keeper, settings = core.context, core.librarian, core.settings
    timings: list[float] = []
    summary = ReplaySummary()
    try:
        lines, summary.skipped, unanswered = _continuation(core.db, trace, home, lines)
        if lines:
            clock.set(parse_ts(lines[0].ts))
        model = core.chat_model()
        runner = core.runner
        runner.prepare_timings = timings  # context-manager time per request, model excluded
        cm.app_started()
        tab_now: str | None = None  # the tab the replay is in (a turn in it switches nothing)
        if unanswered is not None:
            # the home stopped between a turn and its reply (a snapshot taken then, a
            # killed replay): that reply first, as the window's retry would ask for it
            clock.set(max(clock.now(), parse_ts(unanswered.ts)))
            tab_now = _switch_tab(cm, settings, str(unanswered.data["tab"]))
            if isinstance(model, StandInModel):
                model.expect(str(unanswered.data.get("assistant", "")),
                             unanswered.data.get("recall"))
            _count(summary, runner.resume(tab_now))
        for line in lines:
            clock.set(parse_ts(line.ts))
            if librarian and keeper.due():
                summary.librarian_summaries += core.librarian_pass()
            data = line.data
            action = data.get("action")
            if action == "switch_tab":
                tab_now = _switch_tab(cm, settings, str(data["tab"]))
            elif action == "open_day":
                cm.open_day(str(data.get("date", "")))
            elif action is not None:
                raise TraceError(f"{trace}:{line.number}: unknown action {action!r}.")
            else:
                tab = str(data["tab"])
                if tab != tab_now:
                    tab_now = _switch_tab(cm, settings, tab)
                if isinstance(model, StandInModel):
                    model.expect(str(data.get("assistant", "")), data.get("recall"))
                _count(summary, runner.send(str(data["user"]), tab,
                                            attachments=line.attachments))
        if librarian:
            summary.librarian_summaries += core.librarian_pass()
        with core.db.session() as session:
            for event in session.exec(select(Event).where(col(Event.id) > first_event_id)).all():
                summary.events[event.name] = summary.events.get(event.name, 0) + 1
    finally:
        core.close()
    summary.cm_ms = timings
    summary.seconds = time.perf_counter() - started
    return summary


def _count(summary: ReplaySummary, result: TurnResult) -> None:
    """Add one turn's requests and usage to ``summary``."""
    summary.turns += 1
    summary.requests += result.requests
    for usage in result.usages:
        total = (usage.input_tokens + usage.cache_creation_input_tokens
                 + usage.cache_read_input_tokens)
        summary.input_tokens += total
        summary.cache_read_tokens += usage.cache_read_input_tokens
        summary.cache_write_tokens += usage.cache_creation_input_tokens
        summary.output_tokens += usage.output_tokens
        summary.largest_prompt = max(summary.largest_prompt, total)


def _continuation(db: Database, trace: Path, home: Path, lines: list[TraceLine],
                  ) -> tuple[list[TraceLine], int, TraceLine | None]:
    """The lines still to replay on ``home``: a replay never duplicates what a home holds.

    When the trace's first turn is already stored (the same time and text), the trace is
    continuing this home: its turns are matched, in order, with the stored ones from there
    and skipped; the replay goes on after the last of them. A trace that disagrees with
    what is stored before reaching its end is refused, before anything is written. A
    trace whose first turn is not stored is new talk and is replayed whole. The third
    value is the last matched turn when the home holds no reply to it (it stopped between
    the two): its reply is asked for before the replay goes on."""
    turns = [line for line in lines if "user" in line.data]
    if not turns:
        return lines, 0, None

    def key(line: TraceLine) -> tuple[datetime, str]:
        return parse_ts(line.ts), clean_text(str(line.data["user"]))

    first_ts, first_text = key(turns[0])
    person = Message.role == MessageRole.USER
    with db.session() as session:
        # the first stored turn with the same text and time; then only what follows it
        # (a year's home holds 50,000 of the person's messages: reading them all took 1.3 s)
        start = next((i for i, ts in session.exec(
            select(col(Message.id), col(Message.ts)).where(person, col(Message.text) == first_text)
            .order_by(col(Message.id))) if i is not None and parse_ts(ts) == first_ts), None)
        if start is None:
            return lines, 0, None
        stored = [(parse_ts(ts), text) for ts, text in session.exec(
            select(col(Message.ts), col(Message.text)).where(person, col(Message.id) >= start)
            .order_by(col(Message.id)))]
        newest = session.exec(select(Message.role).order_by(col(Message.id).desc())
                              .limit(1)).first()
    matched = 0
    last: TraceLine | None = None
    unanswered = newest == MessageRole.USER
    for index, line in enumerate(lines):
        if matched >= len(stored):
            return lines[index:], matched, last if unanswered else None
        if "user" not in line.data:
            continue  # an action among turns already replayed
        if key(line) != stored[matched]:
            raise TraceError(
                f"{trace}:{line.number}: this turn differs from what {home} holds at that "
                "point (the home continued another way). Replay this trace on a new --home."
            )
        matched += 1
        last = line
    return [], matched, last if unanswered and matched == len(stored) else None


def _switch_tab(cm: ContextManager, settings: Settings, tab: str) -> str:
    """A tab change; in the thread model each tab of the trace is a thread."""
    cm.switch_tab(tab)
    if not settings.sunset_model:
        cm.switch_thread(cm.thread_named(tab))
    return tab
