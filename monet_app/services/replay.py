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

from cms.attachments import MAX_READ_BYTES, Prepared, prepare
from cms.clock import ManualClock, parse_ts
from cms.context.events import FOLD_EVENTS, REBUILD_EVENTS
from cms.context.manager import ContextManager, clean_text
from cms.context.turn import TurnResult
from cms.model.standin import StandInModel
from cms.settings import Settings
from cms.tokens import TiktokenEstimator, TokenEstimator
from monet_app.services.wiring import build_core, gateway_model, standin_factory
from storage import Database, talk
from storage.errors import AttachmentError, TraceError
from storage.files import FolderInUse, only_one, read_measured
from storage.ledger import events_after, last_event_id
from storage.models import MessageRole


@dataclass
class TraceLine:
    number: int
    ts: str
    data: dict[str, Any]
    #: the turn's files (``"attachments": ["path", ...]``, relative to the trace file),
    #: read and checked with the trace, before anything is written
    attachments: tuple[Prepared, ...] = ()


#: A trace line is read at most this long (a message of a million characters fits; a
#: line of 100 MB is refused before it is held, issue 41).
MAX_LINE_BYTES = 8 * 1024 * 1024
#: The moments a trace may name: a year 9999 overflows the day arithmetic.
EARLIEST, LATEST = datetime(1990, 1, 1), datetime(2200, 1, 1)
ACTIONS = ("switch_tab", "open_day")


def _attachments(path: Path, number: int, data: dict[str, Any]) -> tuple[Prepared, ...]:
    """The turn's files, each inside the trace's folder (resolved: no absolute path, no
    ``..`` and no symbolic link leads out of it), a regular file, measured before it is
    read."""
    named = data.get("attachments", [])
    if not isinstance(named, list) or not all(isinstance(n, str) and n for n in named):
        raise TraceError(
            "{path}:{number}: 'attachments' must be a list of file paths.", path=path,
            number=number)
    folder = path.parent.resolve()
    found: list[Prepared] = []
    for name in named:
        where = (folder / name).resolve()
        if Path(name).is_absolute() or not where.is_relative_to(folder):
            raise TraceError(
                "{path}:{number}: the attachment {name} is outside the trace's folder {folder}; a "
                "trace attaches only files beside it.", path=path, number=number, name=name,
                folder=folder)
        try:
            found.append(prepare(read_measured(where, MAX_READ_BYTES, "file to attach"),
                                 Path(name).name))
        except OSError as exc:
            raise TraceError(
                "{path}:{number}: cannot read the attachment {name} ({reason}).", path=path,
                number=number, name=name, reason=exc.strerror or exc) from None
        except (AttachmentError, ValueError) as exc:
            raise TraceError("{path}:{number}: {exc}", path=path, number=number, exc=exc) from None
    return tuple(found)


def _text(path: Path, number: int, data: dict[str, Any], key: str, *,
          required: bool = True, empty: bool = True) -> None:
    value = data.get(key)
    if value is None and not required:
        return
    if not isinstance(value, str) or (not empty and not value.strip()):
        got = type(value).__name__
        if empty and value is None:
            raise TraceError("{path}:{number}: {key!r} must be text (missing).",
                             path=path, number=number, key=key)
        if empty:
            raise TraceError("{path}:{number}: {key!r} must be text ({got}).",
                             path=path, number=number, key=key, got=got)
        if value is None:
            raise TraceError("{path}:{number}: {key!r} must be a name (missing).",
                             path=path, number=number, key=key)
        raise TraceError("{path}:{number}: {key!r} must be a name ({got}).",
                         path=path, number=number, key=key, got=got)


def _checked(path: Path, number: int, data: object) -> dict[str, Any]:
    """One trace line, checked whole: its types, its action, its tab, its moment."""
    where = f"{path}:{number}"
    if not isinstance(data, dict):
        raise TraceError("{where}: a trace line is a JSON object.", where=where)
    ts = data.get("ts")
    if not isinstance(ts, str):
        raise TraceError("{where}: 'ts' must be an ISO 8601 time with its offset.", where=where)
    try:
        moment = parse_ts(ts)
    except ValueError as exc:
        raise TraceError("{where}: not a trace line ({exc}).", where=where, exc=exc) from None
    if not EARLIEST <= moment.replace(tzinfo=None) < LATEST:
        raise TraceError(
            "{where}: {ts} is outside the years {first}-{last} a trace may name.", where=where,
            ts=ts, first=EARLIEST.year, last=LATEST.year - 1)
    action = data.get("action")
    if action is not None:
        if action not in ACTIONS:
            raise TraceError("{where}: unknown action {action!r} (known: "
                             "{known}).", where=where, action=action, known=", ".join(ACTIONS))
        if action == "switch_tab":
            _text(path, number, data, "tab", empty=False)
        else:
            date = data.get("date")
            try:
                datetime.strptime(str(date), "%Y-%m-%d")
            except ValueError:
                raise TraceError("{where}: open_day needs a 'date' (YYYY-MM-DD), "
                                 "not {date!r}.", where=where, date=date) from None
        return data
    if "user" not in data or "tab" not in data:
        raise TraceError("{where}: a turn needs 'tab' and 'user'.", where=where)
    _text(path, number, data, "tab", empty=False)
    _text(path, number, data, "user")
    _text(path, number, data, "assistant", required=False)
    _text(path, number, data, "recall", required=False)
    return data


def read_trace(path: Path) -> list[TraceLine]:
    """Every line of the trace, read and checked before anything is written: a trace that
    fails anywhere stores nothing."""
    if not path.exists():
        raise TraceError("No trace file at {path}.", path=path)
    if not path.is_file():
        raise TraceError("{path} is not a file (a folder, a device, a pipe?).", path=path)
    lines: list[TraceLine] = []
    with path.open("rb") as handle:
        number = 0
        while raw_bytes := handle.readline(MAX_LINE_BYTES + 1):
            number += 1
            if len(raw_bytes) > MAX_LINE_BYTES:
                raise TraceError(
                    "{path}:{number}: a line longer than {megabytes} MB; refused, nothing was "
                    "stored.", path=path, number=number, megabytes=MAX_LINE_BYTES // (1024 * 1024))
            try:
                raw = raw_bytes.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise TraceError(
                    "{path}:{number}: not UTF-8 text (byte {byte} of the line).", path=path,
                    number=number, byte=exc.start + 1) from None
            if not raw.strip():
                continue
            try:
                found = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise TraceError(
                    "{path}:{number}: not a trace line ({exc}).", path=path, number=number,
                    exc=exc) from exc
            data = _checked(path, number, found)
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
    lines = read_trace(trace)  # checked whole before anything is written
    try:
        with only_one(home, "replay"):
            return _replay(trace, home, request_log, lines, started, overrides=overrides,
                           librarian=librarian, estimator=estimator, live=live,
                           meaning=meaning, url=url)
    except FolderInUse:
        raise TraceError(
            "Another replay is writing into {home} right now; nothing was stored. Wait for "
            "it to end (a replay that follows it continues where it stopped).", home=home) from None


def _replay(trace: Path, home: Path, request_log: Path | None, lines: list[TraceLine],
            started: float, *, overrides: dict[str, Any] | None, librarian: bool,
            estimator: TokenEstimator | None, live: bool, meaning: bool,
            url: str | None) -> ReplaySummary:
    clock = ManualClock(parse_ts(lines[0].ts) if lines else parse_ts("2026-01-01T00:00:00+00:00"))
    estimator = estimator or TiktokenEstimator()
    core = build_core(
        home, clock=clock, overrides=overrides, request_log=request_log, estimator=estimator,
        summarizer="offline",
        model_factory=gateway_model if live else standin_factory(estimator, clock),
        database_url=url,
    )
    core.embeds = meaning
    with core.db.transaction() as conn:
        first_event_id = last_event_id(conn)
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
                raise TraceError(
                    "{trace}:{number}: unknown action {action!r}.", trace=trace,
                    number=line.number, action=action)
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
        with core.db.transaction() as conn:
            for _id, _ts, name, _detail in events_after(conn, first_event_id):
                summary.events[name] = summary.events.get(name, 0) + 1
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
    with db.session() as session:
        # the first stored turn with the same text and time; then only what follows it
        # (a year's home holds 50,000 of the person's messages: reading them all took 1.3 s)
        start = next((i for i, ts in talk.said_with_text(session, first_text)
                      if parse_ts(ts) == first_ts), None)
        if start is None:
            return lines, 0, None
        stored = [(parse_ts(ts), text) for ts, text in talk.said_from(session, start)]
        newest_row = talk.newest(session)
        newest = None if newest_row is None else newest_row.role
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
                "{trace}:{number}: this turn differs from what {home} holds at that point (the "
                "home continued another way). Replay this trace on a new --home.", trace=trace,
                number=line.number, home=home)
        matched += 1
        last = line
    return [], matched, last if unanswered and matched == len(stored) else None


def _switch_tab(cm: ContextManager, settings: Settings, tab: str) -> str:
    """A tab change; in the thread model each tab of the trace is a thread."""
    cm.switch_tab(tab)
    if not settings.sunset_model:
        cm.switch_thread(cm.thread_named(tab))
    return tab
