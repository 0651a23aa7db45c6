"""The context manager: when the prompt is rebuilt, and what each request carries.

Between rebuild points every request repeats the previous one and only appends. The
rebuild points are few and named (they are the ``yes`` rows of replay.md's event
table): ``sunset_fold``, ``ceiling_fold``, ``emergency_fold``, ``thread_switch_fold``,
``pending_resolved``, ``memory_changed`` and ``settings_changed``. What was rendered at
the last rebuild point (pinned block, context block, TI) is stored in ``PromptState`` so
that a restart sends the same body.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

from cms.attachments import Prepared, sniff
from cms.clock import Clock, day_of, parse_ts
from cms.context import context_block, rhythm, timeline
from cms.context.away import Away
from cms.context.core_prompt import core_path, pinned_text, read_core
from cms.context.events import FOLD_EVENT, EventName, RequestLog
from cms.context.notes import Note, expired_since, shown_notes
from cms.context.prompt import build_body, user_turn_text
from cms.context.tools import TOOLS
from cms.model.ledger import UsageNote, usage_values
from cms.model.pricing import prices_from_settings
from cms.model.protocol import RequestBody, ToolResultBlock, Usage
from cms.settings import Settings
from cms.tokens import TokenEstimator, count_all, count_json, line_pieces
from storage import Database
from storage import attachments as attachment_files
from storage.database import Session
from storage.errors import EmptyMessageError, PromptTooLargeError
from storage.ledger import insert_usage
from storage.memory import latest_summary_text
from storage.models import (
    FoldKind,
    MessageRole,
    MessageStatus,
    TimelineEntry,
    UsageRecord,
)
from storage.prompt_state import (
    PromptRecord,
    load_prompt,
    prompt_state,
    save_prompt,
    set_turn_state,
    turn_state,
)
from storage.rows import Db
from storage.settings import delete_setting, put_setting, setting_json
from storage.talk import (
    Talk,
    TalkReader,
    day_thread_id,
    insert_message,
    newest_message_id,
    thread_exists,
    topic_thread_id,
    unsegmented_before_day,
    unsegmented_of_thread,
    user_times,
)
from storage.timeline import (
    LineReader,
    lines_summarized_ahead,
    mark_folds_resolved,
    resolvable_folds,
    set_raw_from,
    top_level_entries,
)

#: The TI's tail may grow to this share of the TI budget before the head takes it in.
TAIL_SHARE = 4
DRAFT_KEY = "reply_draft"  # the reply while it streams, so that kill -9 loses none of it
_UNSENDABLE = re.compile("[\ud800-\udfff\x00]")


@dataclass
class SteadyRead:
    """What ``_steady`` read before it found a rebuild point due, for ``_rebuilt`` to go
    on from in the same transaction instead of reading it again: the prompt state, the
    fingerprint, whether it found no fold to resolve, and today's turns (by day and thread
    as the state named them). (A change landing between ``_steady``'s reads and
    ``_rebuilt``'s first write is no different from one landing between ``_rebuilt``'s
    own reads and that write: a librarian's summaries so missed resolve at the next
    request, a bumped memory version is left in the row and re-renders then.)"""

    state: PromptRecord | None = None
    fingerprint: str | None = None
    nothing_to_resolve: bool = False
    turns: dict[tuple[str, int | None], Sequence[Talk]] = field(default_factory=dict)


def clean_text(text: str) -> str:
    """Keep what was typed; only replace what cannot be stored, indexed or sent: each lone
    surrogate and each NUL (which would end the text for the search index) becomes one
    U+FFFD."""
    text = _UNSENDABLE.sub("\ufffd", text)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def is_blank(text: str) -> bool:
    return all(ch.isspace() or unicodedata.category(ch) in ("Cf", "Zs") for ch in text)


@dataclass
class PreparedRequest:
    body: RequestBody
    estimated_input_tokens: int
    raw_tokens: int
    #: The newest stored message when the body was built (what a streaming draft follows).
    newest_id: int = 0
    #: The lifetime of the breakpoint on the newest turn ("5m" | "1h"; rhythm.py).
    turn_ttl: str = "5m"



class ContextManager:
    """Folds and rebuild points over one MONET database. Not thread-safe: one owner."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        clock: Clock,
        estimator: TokenEstimator,
        log: RequestLog | None = None,
    ) -> None:
        self.db = db
        self.settings = settings.validated()
        self.clock = clock
        self.estimator = estimator
        self.log = log or RequestLog(None)
        self._tools_count: int | None = None
        self._fingerprint: tuple[tuple[Any, ...], str] | None = None
        self._talk = TalkReader()  # today's raw talk, kept between requests
        self._lines = LineReader()  # the TI's lines, kept between rebuilds
        self._day_threads: dict[str, int] = {}
        self._prices = prices_from_settings(self.settings.prices)
        self._notes_memo: tuple[tuple[Any, ...], str] | None = None
        # (the day, the pauses of the days before it): read once a day (rhythm.py)
        self._pauses: tuple[str, rhythm.History] | None = None
        self.ratio = self._load_calibration()
        #: What a server that went away could not take, kept on this device (away.py).
        self.away = Away(self)

    @property
    def _tools_tokens(self) -> int:
        """The tools' tokens, counted at the first request (not when the window opens)."""
        if self._tools_count is None:
            self._tools_count = count_json(self.estimator, TOOLS)
        return self._tools_count

    # ----- small helpers ----------------------------------------------------------------
    def now_ts(self) -> str:
        return self.clock.now().isoformat()

    def _event(self, db: Db, name: EventName, detail: dict[str, Any]) -> None:
        self.log.event(db, self.now_ts(), name, detail)

    def pinned(self) -> str:
        """The instructions plus the promoted core facts (``system_prompt_core.txt``)."""
        return pinned_text(self.settings.core_prompt, read_core(self.db))

    def fingerprint(self) -> str:
        """Everything outside the TI and the turns that shapes the body. Asked before every
        request: computed again only when these settings, or the core file's size or time,
        changed."""
        s = self.settings
        file: object = None
        if self.db.server:  # the history's own copy: one small read
            file = read_core(self.db)
        else:
            try:  # (ctime too: a copy that keeps the time and size still changes it)
                stat = core_path(self.db.home).stat()
                file = (stat.st_ino, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size)
            except OSError:
                file = None
        version = (s.model, s.max_tokens, s.core_prompt, s.sunset_model, file)
        if self._fingerprint is not None and self._fingerprint[0] == version:
            return self._fingerprint[1]
        key = json.dumps(
            [s.model, s.max_tokens, self.pinned(), TOOLS, s.sunset_model],
            ensure_ascii=False,
            sort_keys=True,
        )
        value = hashlib.sha256(key.encode()).hexdigest()[:16]
        self._fingerprint = (version, value)
        return value

    def today(self) -> str:
        return day_of(self.clock.now(), self.settings.day_start_time)

    # ----- what the person does ---------------------------------------------------------
    def app_started(self) -> None:
        with self.db.session() as session:
            prompt_state(session)
            self._event(session, EventName.APP_STARTED, {})
        self.recover_draft()

    # ----- a reply while it streams -----------------------------------------------------
    def save_draft(self, after_id: int, tab: str, text: str) -> None:
        """What has arrived of the reply so far, kept so that a killed process loses none
        of it (the turn runner writes it about once a second while streaming)."""
        draft = {"after": after_id, "tab": tab, "text": text}
        if self.db.server:  # this device's own, and no round trip a second (away.py)
            self.away.held.put_draft(draft)
            return
        with self.db.transaction() as conn:
            put_setting(conn, DRAFT_KEY, json.dumps(draft, ensure_ascii=False))

    def newest_message_id(self) -> int:
        with self.db.session() as session:
            return newest_message_id(session)

    def clear_draft(self) -> None:
        with self.db.transaction() as conn:
            delete_setting(conn, DRAFT_KEY)

    def recover_draft(self) -> Talk | None:
        """A reply that was streaming when the process died is kept, marked incomplete,
        as Stop keeps one; only if nothing was stored after the message it answered."""
        if self.db.server:
            self.away.write_held()  # what the server could not take, first
            draft = self.away.held.read()["draft"]
            if draft is None:
                return None
            newest = self.newest_message_id() or None
            self.away.held.put_draft(None)
        else:
            with self.db.session() as session:
                stored = setting_json(session, DRAFT_KEY)
                if stored is None:
                    return None
                draft = json.loads(stored)
                newest = newest_message_id(session) or None
                delete_setting(session, DRAFT_KEY)
        if newest is None or newest != draft.get("after") or not draft.get("text"):
            return None
        return self.record_reply(draft["text"], draft["tab"], status=MessageStatus.INCOMPLETE)

    def current_tab(self) -> str:
        with self.db.session() as session:
            return turn_state(session)[1]

    def switch_tab(self, tab: str) -> None:
        """A tab only labels and filters: logged, nothing in the body changes."""
        with self.db.transaction() as conn:
            _day, current, _thread = turn_state(conn)
            if current == tab:
                return
            if current:
                self._event(conn, EventName.TAB_SWITCH, {"from": current, "to": tab})
            set_turn_state(conn, current_tab=tab)

    def open_day(self, day: str) -> None:
        with self.db.session() as session:
            self._event(session, EventName.OPEN_DAY, {"day": day})

    def thread_named(self, title: str) -> int:
        with self.db.transaction() as conn:
            return topic_thread_id(conn, title, self.now_ts())

    def switch_thread(self, thread_id: int) -> None:
        """Thread model: leaving a thread folds it into the TI (placeholders at once). Core
        statements on one connection, as a request's rebuild."""
        with self.db.transaction() as conn:
            state = load_prompt(conn)
            loaded = copy.copy(state)
            previous = state.current_thread_id
            if previous == thread_id:
                return
            state.current_thread_id = thread_id
            if previous is not None:
                folded = self._fold_thread(conn, previous)
                self._event(
                    conn,
                    EventName.THREAD_SWITCH_FOLD,
                    {"fold_id": folded.id, "from": previous, "to": thread_id,
                     "pending": folded.pending},
                )
                state.prompt_thread_id = thread_id
                self._render(conn, state)
            save_prompt(conn, state, loaded)

    def commit_user_message(self, text: str, tab: str,
                            attachments: Sequence[Prepared] = (), *,
                            within: Callable[[Session], None] | None = None) -> Talk:
        """Store what the person typed, and the files shown with it (``attachments``,
        prepared by ``cms.attachments.prepare``), before any request leaves. ``within``
        runs in the same transaction once the message is in (an edit sets the old
        exchange aside there). Returns the stored row."""
        text = clean_text(text)
        if is_blank(text):
            if not attachments:
                raise EmptyMessageError("The message is empty; nothing was sent.")
            text = ""  # a picture shown without a word
        now = self.clock.now()
        ts = now.isoformat()
        label = self.settings.tab_label(tab)
        estimate = self.estimator.count(user_turn_text(label, ts, text)) + sum(
            a.tokens for a in attachments)
        for prepared in attachments:  # the files first: a failed commit leaves only files
            attachment_files.put(self.db.home, prepared.original)  # a sweep removes
            attachment_files.put(self.db.home, prepared.sent)
        with self.db.transaction(defer_checkpoint=True) as conn:
            current_day, _tab, current_thread = turn_state(conn)
            day = day_of(now, self.settings.day_start_time)
            if current_day and day < current_day:
                day = current_day  # a clock that went back never reopens a past day
            if day != current_day:
                self._event(conn, EventName.DAY_STARTED, {"day": day})
            changes: dict[str, Any] = {"current_day": day, "current_tab": tab}
            if self.settings.sunset_model:
                thread_id = self._day_thread(conn, day, ts)
            else:
                thread_id = self._current_topic_thread(conn, current_thread, tab, ts)
                if thread_id != current_thread:  # (written only when it changes, as before)
                    changes["current_thread_id"] = thread_id
            message = insert_message(
                conn,
                thread_id=thread_id,
                day=day,
                tab=tab,
                tab_label=label,
                role=MessageRole.USER,
                text=text,
                content_json=None,
                ts=ts,
                token_estimate=estimate,
                status=MessageStatus.COMPLETE,
                hidden=False,
            )
            for position, prepared in enumerate(attachments):
                attachment_files.insert(
                    conn, message.id, position, prepared.name, sniff(prepared.original)
                    or prepared.media_type, len(prepared.original), prepared.sha256,
                    prepared.media_type, prepared.sent_sha256, width=prepared.width,
                    height=prepared.height, pages=prepared.pages, tokens=prepared.tokens)
                attachment_files.keep_on_server(conn, {prepared.sha256: prepared.original,
                                                       prepared.sent_sha256: prepared.sent})
            set_turn_state(conn, **changes)
            if within is not None:
                within(conn)
        return message

    def _day_thread(self, db: Db, day: str, ts: str) -> int:
        """The day's thread id (kept: a thread is never deleted, nor its id changed)."""
        found = self._day_threads.get(day)
        if found is None:
            found = self._day_threads[day] = day_thread_id(db, day, ts)
        return found

    @staticmethod
    def _current_topic_thread(db: Db, thread_id: int | None, tab: str,
                              ts: str) -> int:
        """Thread model: the thread the person is in (the tab's own, at the first message)."""
        if thread_id is not None and thread_exists(db, thread_id):
            return thread_id
        return topic_thread_id(db, tab, ts)

    def record_reply(
        self, text: str, tab: str, *, status: MessageStatus = MessageStatus.COMPLETE,
        usage: UsageNote | None = None, within: Callable[[Session], None] | None = None,
        at: tuple[str, str] | None = None,
    ) -> Talk:
        """Store a reply (and, in the same transaction, the usage of the request that
        brought it, and ``within``, run before the reply is stored: a version chosen
        replaces the reply there). ``at``: the instant and day it came, when it is stored
        later (a reply held while the history's server was away: ``cms/context/away.py``)."""
        return self._record(MessageRole.ASSISTANT, text, tab, None, status, usage, within, at)

    def record_tool_round(
        self, call: list[dict[str, Any]], result: list[ToolResultBlock], text: str, tab: str,
        usage: UsageNote | None = None,
    ) -> Talk:
        content = {"call": call, "result": result}
        return self._record(MessageRole.TOOL, text, tab, content, MessageStatus.COMPLETE, usage)

    def _record(
        self,
        role: MessageRole,
        text: str,
        tab: str,
        content: dict[str, Any] | None,
        status: MessageStatus,
        usage: UsageNote | None = None,
        within: Callable[[Session], None] | None = None,
        at: tuple[str, str] | None = None,
    ) -> Talk:
        """Replies land in today's conversation (the prompt's day or thread), always (a
        held one: in its own day's, ``at``)."""
        text = clean_text(text)
        ts = at[0] if at else self.now_ts()
        content_json = json.dumps(content, ensure_ascii=False) if content else None
        estimate = count_json(self.estimator, content) if content else self.estimator.count(text)
        with self.db.transaction() as conn:
            current_day, _tab, thread_id = turn_state(conn)
            day = at[1] if at else current_day or self.today()
            if self.settings.sunset_model or thread_id is None:
                thread_id = self._day_thread(conn, day, ts)
            if within is not None:
                within(conn)
            message = insert_message(
                conn,
                thread_id=thread_id,
                day=day,
                tab=tab,
                tab_label=self.settings.tab_label(tab),
                role=role,
                text=text,
                content_json=content_json,
                ts=ts,
                token_estimate=estimate,
                status=status,
                hidden=False,
            )
            if role != MessageRole.USER and not self.db.server:
                # the streaming draft is stored now, in the same transaction
                delete_setting(conn, DRAFT_KEY)
            if usage is not None:
                self.write_usage(conn, day, usage, ts if at else None)
        if role != MessageRole.USER and self.db.server:
            self.away.held.put_draft(None)  # (a kill before this: ``recover_draft`` skips it)
        return message

    # ----- usage and calibration --------------------------------------------------------
    def _calibration_key(self) -> str:
        return f"calibration:{self.settings.model}"

    def _load_calibration(self) -> float:
        """Reported / estimated input tokens for this model, learnt from real replies."""
        with self.db.transaction() as conn:
            stored = setting_json(conn, self._calibration_key())
        return 1.0 if stored is None else float(json.loads(stored)["ratio"])

    def record_usage(
        self,
        purpose: str,
        usage: Usage,
        estimated_input: int,
        source: str,
        model: str | None = None,
        turn_ttl: str = "",
    ) -> UsageRecord:
        """Write one request to the ledger; real usage also refines the token estimate."""
        note = UsageNote(purpose, usage, estimated_input, source, model, turn_ttl)
        with self.db.session() as session:
            current_day, _tab, _thread = turn_state(session)
            record_id, values = self.write_usage(session, current_day or self.today(), note)
        return UsageRecord(id=record_id, **values)

    def write_usage(self, db: Db, day: str, note: UsageNote,
                     ts: str | None = None) -> tuple[int, dict[str, Any]]:
        usage, estimated_input = note.usage, note.estimated_input
        values = usage_values(
            ts=ts or self.now_ts(),
            day=day,
            purpose=note.purpose,
            model=note.model or self.settings.model,
            usage=usage,
            estimated_input=estimated_input,
            source=note.source,
            prices=self._prices,
            turn_ttl=note.turn_ttl,
        )
        record_id = insert_usage(db, values)
        reported = (
            usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
        )
        if note.source == "api" and note.purpose == "chat" and estimated_input > 0 \
                and reported > 0:
            self._calibrate(db, reported / estimated_input)
        return record_id, values

    def _calibrate(self, db: Db, observed: float) -> None:
        observed = min(3.0, max(0.5, observed))
        stored = setting_json(db, self._calibration_key())
        if stored is None:
            ratio, samples = observed, 1
        else:
            data = json.loads(stored)
            samples = int(data.get("samples", 0)) + 1
            ratio = 0.8 * float(data["ratio"]) + 0.2 * observed  # moving average
        value = json.dumps({"ratio": round(ratio, 4), "samples": samples})
        put_setting(db, self._calibration_key(), value)
        self.ratio = ratio

    def calibrated(self, tokens: int) -> int:
        return int(tokens * self.ratio + 0.5)

    # ----- the request ------------------------------------------------------------------
    def prepare_request(self) -> PreparedRequest:
        """Apply any due rebuild point, then build the body for the next chat request.

        One connection and one transaction of Core statements: between rebuild points only
        reads run; when a rebuild point is due, ``_rebuilt`` goes on from what ``_steady``
        read and applies every due point (folds, roll-ups, the render) on the same
        connection. (SQLite's transaction begins at the first write: the reads before it
        hold no lock.)"""
        with self.db.transaction(defer_checkpoint=True) as conn:
            self.log.catch_up(conn)
            read = SteadyRead()
            prepared = self._steady(conn, read)
            if prepared is None:
                prepared = self._rebuilt(conn, read)
            prepared.newest_id = newest_message_id(conn)
        return prepared

    def _steady(self, conn: Session, read: SteadyRead) -> PreparedRequest | None:
        """The body between rebuild points (nearly every request): the stored blocks and
        today's turns, read without loading the prompt state as an ORM object. None when
        any rebuild point is due; ``_rebuilt`` then applies it (the same conditions), going
        on from what was read here (``read``)."""
        state = read.state = load_prompt(conn)
        fingerprint = read.fingerprint = self.fingerprint()
        if (
            not state.ti_text
            or state.fingerprint != fingerprint
            or state.memory_version != state.memory_rendered
        ):
            return None
        if self.settings.sunset_model:
            if state.prompt_day != state.current_day:
                return None
        elif state.prompt_thread_id != state.current_thread_id:
            return None
        if resolvable_folds(conn):
            return None
        read.nothing_to_resolve = True
        raw = self._raw(conn, state)
        if self.settings.sunset_model and self._over_ceiling(raw):
            read.turns[(state.current_day, state.current_thread_id)] = raw
            return None
        prepared = self._build(conn, state, raw)
        needed = self.calibrated(prepared.estimated_input_tokens) + self.settings.max_tokens
        return None if needed > self.settings.context_window else prepared

    def _rebuilt(self, db: Db, read: SteadyRead | None = None) -> PreparedRequest:
        """Apply every due rebuild point, then build the body. ``read``: what ``_steady``
        read in this transaction, if it did."""
        read = read or SteadyRead()
        state = read.state or load_prompt(db)
        loaded = copy.copy(state)
        dirty = False
        fingerprint = read.fingerprint or self.fingerprint()
        if state.fingerprint != fingerprint:
            if state.fingerprint:
                self._event(db, EventName.SETTINGS_CHANGED, {"fingerprint": fingerprint})
            state.fingerprint = fingerprint
            state.pinned_text = self.pinned()
            state.pinned_tokens = self.estimator.count(state.pinned_text)
            state.prompt_day = state.current_day
            state.prompt_thread_id = state.current_thread_id
            dirty = True
        if self.settings.sunset_model and state.prompt_day != state.current_day:
            if state.prompt_day:
                folded = self._fold_before_day(db, state.current_day)
                self._event(
                    db,
                    EventName.SUNSET_FOLD,
                    {
                        "fold_id": folded.id,
                        "day": state.prompt_day,
                        "new_day": state.current_day,
                        "segments": folded.segments,
                        "pending": folded.pending,
                    },
                )
            state.prompt_day = state.current_day
            dirty = True
        if not self.settings.sunset_model and state.prompt_thread_id != state.current_thread_id:
            state.prompt_thread_id = state.current_thread_id
            dirty = True
        if state.memory_version != state.memory_rendered:
            self._event(db, EventName.MEMORY_CHANGED, {"version": state.memory_version})
            dirty = True
        if not read.nothing_to_resolve and self._resolve_pending(db, state):
            dirty = True
        raw: Sequence[Talk] | None = None
        if self.settings.sunset_model:
            raw = read.turns.get((state.current_day, state.current_thread_id))
            if raw is None:
                raw = self._raw(db, state)
            if self._ceiling_fold(db, state, raw):
                dirty, raw = True, None  # folded: read today's turns again
        if dirty or not state.ti_text:
            self._render(db, state)
        prepared = self._build(db, state, raw, rebuilt=dirty)
        needed = self.calibrated(prepared.estimated_input_tokens) + self.settings.max_tokens
        if needed > self.settings.context_window:
            prepared = self._emergency(db, state, prepared)
        save_prompt(db, state, loaded)
        return prepared

    def render_forgotten(self) -> None:
        """Something was forgotten (``cms/memory/forget.py`` moved the memory version): render
        the stored blocks again now, so no copy of it waits in the prompt state for the
        next request (a backup taken meanwhile would hold it). The same render the next
        request would do, with its ``memory_changed`` event; other rebuild points (a
        sunset, a fold) still wait for that request."""
        with self.db.transaction() as conn:
            state = load_prompt(conn)
            if state.memory_version == state.memory_rendered or not state.ti_text:
                return
            loaded = copy.copy(state)
            self._event(conn, EventName.MEMORY_CHANGED, {"version": state.memory_version})
            self._render(conn, state)
            save_prompt(conn, state, loaded)

    def emergency_fold(self, reason: str = "prompt_too_long") -> bool:
        """Fold the oldest exchanges now (the API said the prompt is too long).

        Returns False when only the newest exchange is left, so the caller never loops."""
        with self.db.transaction() as conn:
            state = load_prompt(conn)
            loaded = copy.copy(state)
            raw = self._raw(conn, state)
            exchanges = timeline.group_exchanges(raw)
            if len(exchanges) <= 1:
                return False
            count = max(1, len(exchanges) // 2)
            self._fold_oldest(
                conn, state, exchanges, count, FoldKind.EMERGENCY, {"reason": reason}
            )
            self._render(conn, state)
            save_prompt(conn, state, loaded)
        return True

    def _emergency(
        self, db: Db, state: PromptRecord, prepared: PreparedRequest
    ) -> PreparedRequest:
        window = self.settings.context_window - self.settings.max_tokens
        raw = self._raw(db, state)
        exchanges = timeline.group_exchanges(raw)
        fixed = self.calibrated(prepared.estimated_input_tokens - prepared.raw_tokens)
        remaining = self.calibrated(prepared.raw_tokens)
        count = 0
        while count < len(exchanges) - 1 and fixed + remaining > window:
            remaining -= self.calibrated(timeline.exchange_tokens(exchanges[count]))
            count += 1
        if count:
            detail = {"tokens_before": prepared.raw_tokens, "tokens_after": remaining}
            self._fold_oldest(db, state, exchanges, count, FoldKind.EMERGENCY, detail)
            self._render(db, state)
            prepared = self._build(db, state, rebuilt=True)
        if self.calibrated(prepared.estimated_input_tokens) > window:
            raise PromptTooLargeError(
                "This message is too long for {model}: about {tokens:,} tokens with the context, "
                "and the model takes {window:,}. It was saved; shorten it or split it and send "
                "again.", model=self.settings.model,
                tokens=self.calibrated(prepared.estimated_input_tokens), window=window)
        return prepared

    # ----- folds ------------------------------------------------------------------------
    def _raw(self, db: Db, state: PromptRecord) -> Sequence[Talk]:
        if self.settings.sunset_model:
            return self._talk.raw_of_day(db, state.current_day)
        if state.current_thread_id is None:
            return []
        return self._talk.raw_of_thread(db, state.current_thread_id)

    def _new_fold(
        self, db: Db, kind: FoldKind, messages: Sequence[Talk], thread_id: int | None
    ) -> timeline.Folded:
        if not messages:
            return timeline.NO_FOLD  # an empty day or thread never folds nor summarizes
        return timeline.create_fold(
            db,
            kind=kind,
            day=messages[-1].day,
            thread_id=thread_id,
            messages=messages,
            created_ts=self.now_ts(),
            pause_minutes=self.settings.segment_pause_minutes,
            max_tokens=self.settings.segment_max_tokens,
        )

    def _fold_before_day(self, db: Db, day: str) -> timeline.Folded:
        messages = unsegmented_before_day(db, day)
        return self._new_fold(db, FoldKind.SUNSET, messages, None)

    def _fold_thread(self, db: Db, thread_id: int) -> timeline.Folded:
        messages = unsegmented_of_thread(db, thread_id)
        return self._new_fold(db, FoldKind.THREAD_SWITCH, messages, thread_id)

    def _fold_raw(
        self, db: Db, state: PromptRecord, folded: Sequence[Talk], kind: FoldKind
    ) -> timeline.Folded:
        """Move the oldest raw exchanges out of the prompt (sunset day or thread window)."""
        unsegmented = [m for m in folded if m.segment_id is None]
        thread_id = state.current_thread_id if not self.settings.sunset_model else None
        made = self._new_fold(db, kind, unsegmented, thread_id)
        if not self.settings.sunset_model and state.current_thread_id is not None and folded:
            if folded[-1].id is not None:
                set_raw_from(db, state.current_thread_id, folded[-1].id + 1)
        return made

    def _fold_oldest(
        self,
        db: Db,
        state: PromptRecord,
        exchanges: Sequence[Sequence[Talk]],
        count: int,
        kind: FoldKind,
        detail: dict[str, Any],
    ) -> None:
        """Fold the oldest ``count`` whole exchanges and log the fold's event."""
        folded = [m for ex in exchanges[:count] for m in ex]
        made = self._fold_raw(db, state, folded, kind)
        self._event(
            db,
            FOLD_EVENT[kind],
            {"fold_id": made.id, "exchanges": count, **detail, "pending": made.pending},
        )

    def _exchange_sizes(self, exchanges: Sequence[Sequence[Talk]]) -> list[int]:
        return [self.calibrated(timeline.exchange_tokens(ex)) for ex in exchanges]

    def _over_ceiling(self, raw: Sequence[Talk]) -> bool:
        """Whether today's turns are over the ceiling (``_ceiling_fold`` then folds)."""
        sizes = self._exchange_sizes(timeline.group_exchanges(raw))
        return sum(sizes) > self.settings.ceiling_tokens

    def _ceiling_fold(self, db: Db, state: PromptRecord,
                      raw: Sequence[Talk]) -> bool:
        """Over the ceiling: fold the oldest whole exchanges down to the low-water mark."""
        s = self.settings
        exchanges = timeline.group_exchanges(raw)
        sizes = self._exchange_sizes(exchanges)
        count, remaining = timeline.ceiling_fold_count(
            sizes, s.ceiling_tokens, s.keep_exchanges, s.low_water_tokens)
        if count == 0:
            return False
        detail = {"tokens_before": sum(sizes), "tokens_after": remaining}
        self._fold_oldest(db, state, exchanges, count, FoldKind.CEILING, detail)
        return True

    def _resolve_pending(self, db: Db, state: PromptRecord) -> bool:
        """Folds whose placeholders all have summaries get their one re-render, together:
        one ``pending_resolved`` event names every fold it resolves."""
        shown = timeline.pending_ids_from_json(state.ti_pending_ids_json)
        resolvable = sorted(resolvable_folds(db).items())
        mark_folds_resolved(db, [fold_id for fold_id, _ in resolvable],
                                    self.now_ts())
        resolved = [fold_id for fold_id, entry_ids in resolvable
                    if any(entry_id in shown for entry_id in entry_ids)]
        if resolved:
            self._event(
                db, EventName.PENDING_RESOLVED, {"fold_id": resolved[0], "fold_ids": resolved}
            )
        return bool(resolved)

    # ----- rendering --------------------------------------------------------------------
    def _ti_filter(self, db: Db, state: PromptRecord) -> timeline.EntryFilter:
        if self.settings.sunset_model or state.current_thread_id is None:
            return lambda entry: True
        return timeline.thread_scope_filter(db, state.current_thread_id)

    def _render(self, db: Db, state: PromptRecord) -> None:
        """Render the pinned, context and TI blocks at a rebuild point into ``state`` (the
        caller writes it back, ``save_prompt``)."""
        day = state.current_day or self.today()
        rendered = timeline.render_timeline(
            db,
            rendered_day=day,
            estimator=self.estimator,
            budget=self.settings.ti_budget_tokens,
            visible=self._ti_filter(db, state),
            created_ts=self.now_ts(),
            reader=self._lines,
        )
        state.ti_head_text = timeline.head_of(
            rendered.text, state.ti_head_text, rendered.pending_lines, self.estimator,
            tail_max=self.settings.ti_budget_tokens // TAIL_SHARE,
        )
        state.ti_text = rendered.text
        state.ti_tokens = rendered.tokens
        state.ti_rendered_day = day
        state.ti_pending_ids_json = json.dumps(rendered.pending_ids)
        if not state.pinned_text:
            state.pinned_text = self.pinned()
            state.pinned_tokens = self.estimator.count(state.pinned_text)
        # The daily context summary and what is remembered enter here, at a rebuild point,
        # never mid-prompt.
        now = self.clock.now()
        latest = latest_summary_text(db)
        summary = None
        if latest is not None and not expired_since(db, parse_ts(latest[2]), now):
            # (one that may mention what has expired waits for the librarian's next one)
            summary = context_block.Summary(day=latest[0], text=latest[1])
        notes = self._notes(shown_notes(db, now), summary, state.ti_text)
        state.context_text = context_block.with_date(day, notes)
        state.context_tokens = context_block.tokens(state.context_text, self.estimator.count)
        state.memory_rendered = state.memory_version

    def _notes(self, items: tuple[Note, ...], summary: context_block.Summary | None,
               timeline: str) -> str:
        """The context block's notes, rendered again only when what is remembered, the
        summary or the Timeline Index beside it changed (most rebuilds find them as they
        were)."""
        key = (items, summary, self.settings.context_budget_tokens, timeline)
        if self._notes_memo is None or self._notes_memo[0] != key:
            self._notes_memo = (key, context_block.render(
                items, summary, self.estimator, self.settings.context_budget_tokens,
                timeline))
        return self._notes_memo[1]

    def _build(self, db: Db, state: PromptRecord,
               raw: Sequence[Talk] | None = None, rebuilt: bool = False) -> PreparedRequest:
        """The body from the stored blocks and today's turns (``raw`` when already read in
        this transaction and nothing folded since); ``rebuilt``: a rebuild point was just
        applied (what the cache held of the conversation is written again)."""
        if raw is None:
            raw = self._raw(db, state)
        attached = dict(attachment_files.of_messages(
            db, self.db.home, [m.id for m in raw if m.role == MessageRole.USER]))
        for message in raw:  # a file a tool brought back (view_attachment)
            if message.role == MessageRole.TOOL and (
                    refs := attachment_files.refs_in(self.db.home, message.content_json)):
                attached[message.id] = refs
        body = build_body(
            model=self.settings.model,
            max_tokens=self.settings.max_tokens,
            tools=TOOLS,
            pinned=state.pinned_text,
            context=state.context_text,
            timeline=timeline.split(state.ti_text, state.ti_head_text),
            raw=raw,
            pinned_ttl=self.settings.pinned_ttl,
            ti_ttl=self.settings.ti_ttl,
            attached=attached,
            turn_ttl=(turn_ttl := self._turn_ttl(db, raw, state.context_tokens, rebuilt)),
        )
        raw_tokens = sum(m.token_estimate for m in raw)
        estimate = (
            self._tools_tokens
            + state.pinned_tokens
            + state.context_tokens
            + state.ti_tokens
            + raw_tokens
        )
        return PreparedRequest(body=body, estimated_input_tokens=estimate, raw_tokens=raw_tokens,
                               turn_ttl=turn_ttl)

    def _turn_ttl(self, db: Db, raw: Sequence[Talk], context_tokens: int,
                  rebuilt: bool) -> str:
        """The newest turn's breakpoint lifetime: the setting, or with "auto" the cheaper
        expected one from the person's pauses (``rhythm.turn_ttl``); never 1 hour after a
        5-minute breakpoint (the API's order). The thread model keeps 5 minutes under
        "auto": there a tab switch rebuilds the prompt, so one thread's pauses say little
        about what the next request reads (measured: +3% to +21% on the public traces)."""
        chosen = self.settings.turn_ttl
        if "5m" in (self.settings.pinned_ttl, self.settings.ti_ttl):
            return "5m"
        if chosen != "auto":
            return chosen
        if not self.settings.sunset_model:
            return "5m"
        users = [m for m in raw if m.role == MessageRole.USER]
        if not users:
            return "5m"
        day = users[-1].day
        if self._pauses is None or self._pauses[0] != day:
            since = (date.fromisoformat(day) - timedelta(days=rhythm.HISTORY_DAYS)).isoformat()
            self._pauses = (day, rhythm.history_pauses(user_times(db, since, day)))
        return rhythm.turn_ttl(raw, context_tokens, self._pauses[1], rebuilt=rebuilt)

    # ----- counted ahead ----------------------------------------------------------------
    def count_ahead(self) -> None:
        """Count, off the request's path, the Timeline Index lines the next rebuilds will
        render: the lines as they stand (the librarian may have just summarized some) and
        the line of each run it summarized ahead of its fold. The estimator keeps the
        counts, so the rebuild, with the person waiting, finds them counted (it still
        encodes its placeholders, a roll-up's lines, and a run a fold cuts otherwise).
        Run after a librarian pass in this process (the app's worker, a replay); a pass in
        another process (``monet librarian``) leaves the counting to the rebuild.

        Each line is counted with its break, in the pieces ``tokens.count_by_lines`` cuts
        a rendered TI into; the lines that may end the TI (the last one now, the newest
        run summarized ahead) without it too."""
        with self.db.transaction() as conn:
            now = [timeline.line_text(line) for line in self._lines.top_level(conn)]
            ahead = [timeline.line_text(line) for line in lines_summarized_ahead(conn)]
        last = [texts[-1] for texts in (now, ahead) if texts]
        pieces = [piece for text in now + ahead for piece in line_pieces(text + "\n")]
        count_all(self.estimator, pieces + [p for text in last for p in line_pieces(text)])

    # ----- read-only views --------------------------------------------------------------
    def last_user_message(self) -> Talk:
        with self.db.session() as session:
            state = load_prompt(session)
            for talk in reversed(self._raw(session, state)):
                if talk.role == MessageRole.USER and not talk.hidden:
                    return talk
        raise EmptyMessageError("There is no message waiting for a reply.")

    def timeline_entries(self, every_line: bool = False) -> list[tuple[str, TimelineEntry]]:
        """The TI as it would be rendered now, line by line with its entry (for the UI).
        ``every_line`` keeps the lines the thread model leaves out because the current
        thread's talk is in the prompt word for word."""
        with self.db.session() as session:
            state = load_prompt(session)
            visible = (lambda _e: True) if every_line else self._ti_filter(session, state)
            return [
                (timeline.entry_line(e), e)
                for e in top_level_entries(session)
                if visible(e)
            ]

    def timeline_now(self) -> str:
        """The TI as it would be rendered now (no roll-up written, nothing stored)."""
        with self.db.session() as session:
            day = turn_state(session)[0] or self.today()
        return timeline.render_lines(day, [entry for _line, entry in self.timeline_entries()])
