"""What the window is showing, and what each pane lists.

``Navigator`` keeps the browsing state (the day or thread shown, the tab) and builds the
plain items of ``ui.items`` from the database: the day or thread list, the transcript
rows of the current tab, the Timeline Index, the status figures. It has no Qt: the
controller hands its results to the window. Browsing never changes what is sent to Claude
(design.md §2, invariant 2): opening a day or a tab is only logged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import time as dt_time

from cms.clock import day_of, parse_ts
from cms.librarian.runner import PROPOSALS_OFFLINE
from monet_app.services.wiring import Core
from storage import attachments as attachment_files
from storage.ledger import last_usage, usage_rows
from storage.models import Message, TimelineEntry, TimelineLevel
from storage.prompt_state import prompt_state
from storage.settings import read_value, setting_json, write_value
from storage.talk import (
    all_messages,
    day_message_counts,
    last_message_tab,
    latest_exchange,
    shown_messages,
    tab_message_counts,
    threads_with_counts,
    topic_thread_count,
    version_counts,
)
from storage.timeline import pending_count
from storage.where import read_device, write_device
from ui.items import (
    ALL_TABS,
    DayItem,
    LastReply,
    MessageRow,
    ShownFile,
    StatusFigures,
    ThreadItem,
    TimelineItem,
)


@dataclass(frozen=True)
class Exchange:
    """Today's latest exchange: the person's last message and what answered it."""

    user_id: int
    user_text: str
    tab: str
    reply_id: int  # 0 while unanswered
    incomplete: bool  # the reply was cut (Stop, an error): it can be continued
    answer_ids: tuple[int, ...]  # the reply and the tool rounds after the message
    versions: tuple[int, int] = (0, 0)  # (the reply's version shown, how many) if regenerated


#: The composer's unsent text, kept across quitting: this device's own, in the data
#: folder's ``device.json`` (``storage/where.py``; a history on a server is shared by
#: several devices, a draft is not). An older MONET kept these in the history's
#: ``setting`` table: read from there once, then moved.
#: Each tab's unsent text ({tab: text}); ``COMPOSER_DRAFT_KEY`` is the one draft an older
#: MONET kept for the whole window, read once and then removed.
COMPOSER_DRAFTS_KEY = "composer_drafts"
COMPOSER_DRAFT_KEY = "composer_draft"
#: The window's size and place when it was closed.
GEOMETRY_KEY = "window_geometry"


class Navigator:
    """``tab`` is the tab shown, or ``ALL_TABS`` for the whole day; ``send_tab`` is the tab
    a message typed now goes to (the last real tab chosen)."""

    def __init__(self, core: Core) -> None:
        self.core = core
        self._prompt_day: str | None = None  # the prompt's day as last read (``fresh``)
        self.view_day = self.today()
        self.view_thread: int | None = None
        self.tab = self.send_tab = self._opening_tab()

    def _opening_tab(self) -> str:
        """The tab the window opens on: the last one chosen if it holds today's talk, else
        the tab of today's newest message, so reopening never lands on an empty tab while
        today's talk sits in another."""
        tab_ids = [t for t, _ in self.core.settings.tabs]
        stored = self.core.context.current_tab()
        with self.core.db.session() as session:
            counts = tab_message_counts(session, self.view_day)
            newest = last_message_tab(session, self.view_day)
        if stored in tab_ids and counts.get(stored):
            return stored
        if newest in tab_ids:
            return str(newest)
        return stored if stored in tab_ids else tab_ids[0]

    @property
    def sunset_model(self) -> bool:
        return self.core.settings.sunset_model

    def fresh(self) -> None:
        """What is read once per refresh is read again (the prompt's day)."""
        self._prompt_day = None

    def today(self) -> str:
        """Today by the clock, never earlier than the day the prompt is already on (a
        clock that went back does not reopen a past day). The prompt's day is read once
        per refresh (``fresh``): a refresh asks for today a dozen times."""
        if self._prompt_day is None:
            with self.core.db.session() as session:
                self._prompt_day = prompt_state(session).current_day or ""
        today = self.core.context.today()
        return max(today, self._prompt_day)

    @property
    def read_only(self) -> bool:
        return self.sunset_model and self.view_day != self.today()

    def showing(self, tab: str, day: str | None = None) -> bool:
        """Whether the transcript shows today's talk in ``tab`` (where a reply lands)."""
        if self.sunset_model:
            return self.view_day == (day or self.today()) and self.tab in (tab, ALL_TABS)
        return True  # the thread model shows the current thread whole, every tab

    # ----- moving around ----------------------------------------------------------------
    def settings_changed(self) -> None:
        """After new settings: a tab that is gone falls back to the first; back to today."""
        tab_ids = [t for t, _ in self.core.settings.tabs]
        if self.send_tab not in tab_ids:
            self.send_tab = tab_ids[0]
        if self.tab != ALL_TABS:
            self.tab = self.send_tab
        self.view_day = self.today()
        if not self.sunset_model:
            self.ensure_thread()

    def switch_tab(self, tab: str) -> None:
        self.tab = tab
        if tab != ALL_TABS:
            self.send_tab = tab
            self.core.context.switch_tab(tab)  # logged; nothing sent changes

    def open_day(self, day: str) -> None:
        self.view_day = day
        if day != self.today():
            self.core.context.open_day(day)

    def back_to_today(self) -> None:
        self.view_day = self.today()

    def pick_thread(self, thread_id: int) -> None:
        self.core.context.switch_thread(thread_id)  # leaving a thread folds it
        self.view_thread = thread_id

    def new_thread(self, title_for: str) -> None:
        """A new thread titled ``title_for.format(n=...)`` (a translated pattern)."""
        with self.core.db.session() as session:
            count = topic_thread_count(session)
        self.pick_thread(self.core.context.thread_named(title_for.format(n=count + 1)))

    def ensure_thread(self) -> None:
        """Thread model: there is always a current thread. Turning the sunset model off
        goes on in the thread holding today's talk, so nothing said today disappears from
        view; on a day with no talk yet it is the first tab's thread."""
        with self.core.db.session() as session:
            current = prompt_state(session).current_thread_id
            if current is None:
                newest = all_messages(session, self.today())
                current = newest[-1].thread_id if newest else None
        if current is None:
            current = self.core.context.thread_named(self.core.settings.tab_label(self.send_tab))
        self.core.context.switch_thread(current)
        self.view_thread = current

    def message(self, message_id: int) -> Message | None:
        """The stored message, or None if it is gone."""
        with self.core.db.session() as session:
            return session.get(Message, message_id)

    def show_message(self, message: Message) -> None:
        """Show the day (or thread) holding ``message``. The controller selects its tab
        first, through the window, so the switch is logged before the day is opened."""
        if self.sunset_model:
            self.open_day(message.day)
        else:
            self.view_thread = message.thread_id

    def day_deleted(self, day: str) -> None:
        if self.view_day == day:
            self.view_day = self.today()

    # ----- what each pane lists ---------------------------------------------------------
    def days(self) -> list[DayItem]:
        with self.core.db.session() as session:
            counts = dict(day_message_counts(session))
        today = self.today()
        days = [DayItem(today, counts.pop(today, 0), True)]
        return days + [DayItem(d, n, False) for d, n in sorted(counts.items(), reverse=True)]

    def threads(self) -> list[ThreadItem]:
        with self.core.db.session() as session:
            threads = threads_with_counts(session)
        # newest first, as the days are listed
        return [ThreadItem(t.id or 0, t.title, n, t.id == self.view_thread)
                for t, n in reversed(threads)]

    def rows(self) -> list[MessageRow]:
        """The messages of the shown day in the current tab (or every tab), or the whole
        current thread in the thread model."""
        with self.core.db.session() as session:
            if self.sunset_model:
                messages = shown_messages(session, day=self.view_day)
            else:
                messages = shown_messages(session, thread_id=self.view_thread or 0)
            home = self.core.home
            files = {message_id: tuple(
                ShownFile(a.name, a.media_type, str(attachment_files.path_of(home, a.sha256)),
                          str(attachment_files.path_of(home, a.sent_sha256)), a.width,
                          a.height, a.size, a.pages) for a in rows)
                for message_id, rows in attachment_files.rows_of(
                    session, [m[0] for m in messages if m[1] == "user"]).items()}
        whole = not self.sunset_model or self.tab == ALL_TABS
        labels = dict(self.core.settings.tabs)
        # ts is stored as ISO 8601 in the local time it was said: HH:MM is ts[11:16]. A
        # message said after midnight but before the day starts (04:00) counts in the
        # day before: it shows its own date with its time, and the day it counts in.
        tab = self.tab
        day = self.view_day if self.sunset_model else ""
        return [
            MessageRow(id_, role, tab_id, labels.get(tab_id, label),
                       ts[11:16] if not day or ts[:10] == day else f"{ts[:10]} {ts[11:16]}",
                       tool_line(text, content) if role == "tool" else text, status,
                       bool(hidden), files.get(id_, ()),
                       day if day and ts[:10] != day else "")
            for id_, role, tab_id, label, ts, text, content, status, hidden in messages
            if whole or tab_id == tab
        ]

    def day_messages(self) -> list[Message]:
        """Today's stored messages, oldest first."""
        with self.core.db.session() as session:
            return list(all_messages(session, self.today()))

    def latest_exchange(self) -> Exchange | None:
        """Today's latest exchange, which can be edited, regenerated or continued (two
        small queries: the last message of the person, and what came after it)."""
        with self.core.db.session() as session:
            user, after = latest_exchange(session, self.today())
            if user is None:
                return None
            versions = version_counts(session, [user.id or 0]).get(user.id or 0,
                                                                            (0, 0))
        replies = [m for m in after if m.role == "assistant"]
        reply = replies[-1] if replies else None
        return Exchange(
            user.id or 0, user.text, user.tab, (reply.id or 0) if reply else 0,
            reply is not None and reply.status == "incomplete",
            tuple(m.id for m in after if m.id is not None), versions,
        )

    def tab_counts(self) -> dict[str, int]:
        """Today's messages per tab (the person's and Claude's)."""
        with self.core.db.session() as session:
            return tab_message_counts(session, self.today())

    def timeline(self) -> list[TimelineItem]:
        """Every line of the Timeline Index, oldest first, with its day and tabs named as
        the person named them. In the thread model this includes the lines of the current
        thread's talk that the prompt now carries word for word."""
        labels = dict(self.core.settings.tabs)
        return [
            TimelineItem(e.summary or "", e.day_from, e.first_message_id, e.summary is None,
                         e.day_to, tuple(labels.get(t, t) for t in e.tabs.split(",") if t),
                         _span(e))
            for _line, e in self.core.context.timeline_entries(every_line=True)
        ]

    def _device_value(self, key: str) -> object:
        """One of this device's values (``device.json``), or what an older MONET kept
        under ``key`` in the history's settings (None if neither)."""
        found = read_device(self.core.home).get(key)
        if found is not None:
            return found
        with self.core.db.session() as session:
            return read_value(session, key)

    def _keep_on_device(self, key: str, value: object) -> None:
        write_device(self.core.home, key, value)
        with self.core.db.session() as session:  # (an older MONET's copy: moved now)
            if read_value(session, key) is not None:
                write_value(session, key, None)

    def load_text(self, key: str) -> str:
        """A small text the window keeps between runs ("" if none or unreadable)."""
        try:
            value = self._device_value(key)
        except Exception:  # noqa: BLE001 - it never stops the window from opening
            return ""
        return value if isinstance(value, str) else ""

    def save_text(self, key: str, text: str) -> None:
        """Keep a small text between runs (nothing kept when it is blank)."""
        self._keep_on_device(key, text if text.strip() else None)

    def load_drafts(self) -> dict[str, str]:
        """Each tab's unsent text from the last run ({} if none or unreadable). A draft
        kept by an older MONET (one for the whole window) goes to the tab shown."""
        try:
            drafts = self._device_value(COMPOSER_DRAFTS_KEY)
            if drafts is None:
                old = self._device_value(COMPOSER_DRAFT_KEY)
                drafts = {self.tab: old} if isinstance(old, str) else {}
        except Exception:  # noqa: BLE001 - it never stops the window from opening
            return {}
        if not isinstance(drafts, dict):
            return {}
        return {str(tab): text for tab, text in drafts.items() if isinstance(text, str)}

    def save_drafts(self, drafts: dict[str, str]) -> None:
        kept = {tab: text for tab, text in drafts.items() if text.strip()}
        self._keep_on_device(COMPOSER_DRAFTS_KEY, kept or None)
        self._keep_on_device(COMPOSER_DRAFT_KEY, None)

    def status(self) -> StatusFigures:
        with self.core.db.session() as session:
            pending = pending_count(session)
            last = last_usage(session, "chat")
            today_rows = usage_rows(session, self.today())
            offline = setting_json(session, PROPOSALS_OFFLINE) is not None
        last_reply = None if last is None else LastReply(
            last.input_tokens, last.cache_read, last.cache_write_5m + last.cache_write_1h,
            last.output_tokens, last.dollars,
        )
        service = self.core.service
        return StatusFigures(pending, last_reply, today_rows[0].dollars if today_rows else 0.0,
                             self.core.unembedded, offline,
                             service.host if service else "",
                             _when(service.last_pass, self.today(),
                                   self.core.settings.day_start_time) if service else "")


def _when(ts: str, today: str, day_start: dt_time) -> str:
    """A past instant as the status bar says it: "14:02" on today's MONET day,
    "2026-03-02 14:02" before ("" for none)."""
    if not ts:
        return ""
    moment = parse_ts(ts).astimezone()  # (the service's host may keep another offset)
    return moment.strftime("%H:%M" if day_of(moment, day_start) == today else "%Y-%m-%d %H:%M")


def _span(entry: TimelineEntry) -> str:
    """The hours a line covers within its day; nothing for a week or a month."""
    if entry.level in (TimelineLevel.WEEK, TimelineLevel.MONTH, TimelineLevel.YEAR):
        return ""
    start, end = (parse_ts(entry.start_ts).strftime("%H:%M"),
                  parse_ts(entry.end_ts).strftime("%H:%M"))
    return start if start == end else f"{start}–{end}"  # one message: its time


def tool_line(text: str, content_json: str | None) -> str:
    """A tool turn as the transcript shows it: one line, the query and its hit count."""
    try:
        data = json.loads(content_json or "{}")
        calls = [b for b in data.get("call", []) if b.get("type") == "tool_use"]
        results = json.loads(data.get("result", [{}])[0].get("content", "{}"))
        query = calls[0]["input"].get("query", "") if calls else ""
        count = len(results.get("results", []))
        return f"🔎 search_history «{query}» → {count}"
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return text[:200]
