"""What the window is showing, and what each pane lists.

``Navigator`` keeps the browsing state (the day or thread shown, the tab) and builds the
plain items of ``ui.items`` from the database: the day or thread list, the transcript
rows of the current tab, the Timeline Index, the status figures. It has no Qt: the
controller hands its results to the window. Browsing never changes what is sent to Claude
(design.md §2, invariant 2): opening a day or a tab is only logged.
"""

from __future__ import annotations

import json

from cms.clock import parse_ts
from monet_app.wiring import Core
from storage import queries
from storage.models import Message
from ui.items import DayItem, LastReply, MessageRow, StatusFigures, ThreadItem, TimelineItem


class Navigator:
    def __init__(self, core: Core) -> None:
        self.core = core
        tab_ids = [t for t, _ in core.settings.tabs]
        stored = core.context.current_tab()
        self.tab = stored if stored in tab_ids else tab_ids[0]
        self.view_day = self.today()
        self.view_thread: int | None = None

    @property
    def sunset_model(self) -> bool:
        return self.core.settings.sunset_model

    def today(self) -> str:
        """Today by the clock, never earlier than the day the prompt is already on (a
        clock that went back does not reopen a past day)."""
        with self.core.db.session() as session:
            current = queries.prompt_state(session).current_day
        today = self.core.context.today()
        return max(today, current) if current else today

    @property
    def read_only(self) -> bool:
        return self.sunset_model and self.view_day != self.today()

    def showing(self, tab: str, day: str | None = None) -> bool:
        """Whether the transcript shows today's talk in ``tab`` (where a reply lands)."""
        if self.sunset_model:
            return self.view_day == (day or self.today()) and self.tab == tab
        return self.tab == tab

    # ----- moving around ----------------------------------------------------------------
    def settings_changed(self) -> None:
        """After new settings: a tab that is gone falls back to the first; back to today."""
        tab_ids = [t for t, _ in self.core.settings.tabs]
        if self.tab not in tab_ids:
            self.tab = tab_ids[0]
        self.view_day = self.today()
        if not self.sunset_model:
            self.ensure_thread()

    def switch_tab(self, tab: str) -> None:
        self.tab = tab
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
            count = queries.topic_thread_count(session)
        self.pick_thread(self.core.context.thread_named(title_for.format(n=count + 1)))

    def ensure_thread(self) -> None:
        """Thread model: there is always a current thread (the first tab's, at first)."""
        with self.core.db.session() as session:
            current = queries.prompt_state(session).current_thread_id
        if current is None:
            current = self.core.context.thread_named(self.core.settings.tab_label(self.tab))
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
            counts = dict(queries.day_message_counts(session))
        today = self.today()
        days = [DayItem(today, counts.pop(today, 0), True)]
        return days + [DayItem(d, n, False) for d, n in sorted(counts.items(), reverse=True)]

    def threads(self) -> list[ThreadItem]:
        with self.core.db.session() as session:
            threads = queries.threads_with_counts(session)
        return [ThreadItem(t.id or 0, t.title, n, t.id == self.view_thread) for t, n in threads]

    def rows(self) -> list[MessageRow]:
        """The messages of the shown day (or thread) in the current tab."""
        with self.core.db.session() as session:
            if self.sunset_model:
                messages = queries.all_messages(session, self.view_day)
            else:
                messages = queries.thread_messages(session, self.view_thread or 0)
        return [
            MessageRow(m.id or 0, m.role, m.tab, m.tab_label,
                       parse_ts(m.ts).strftime("%H:%M"), shown_text(m), m.status, m.hidden)
            for m in messages if m.tab == self.tab
        ]

    def timeline(self) -> list[TimelineItem]:
        return [
            TimelineItem(line, e.day_from, e.first_message_id, e.summary is None)
            for line, e in self.core.context.timeline_entries()
        ]

    def status(self) -> StatusFigures:
        with self.core.db.session() as session:
            pending = len(queries.pending_entries(session))
            last = queries.last_usage(session, "chat")
            today_rows = queries.usage_rows(session, self.today())
        last_reply = None if last is None else LastReply(
            last.input_tokens, last.cache_read, last.cache_write_5m + last.cache_write_1h,
            last.output_tokens, last.dollars,
        )
        return StatusFigures(pending, last_reply, today_rows[0].dollars if today_rows else 0.0)


def shown_text(message: Message) -> str:
    """A message as the transcript shows it; a tool turn as one line (query → hits)."""
    if message.role != "tool":
        return message.text
    try:
        data = json.loads(message.content_json or "{}")
        calls = [b for b in data.get("call", []) if b.get("type") == "tool_use"]
        results = json.loads(data.get("result", [{}])[0].get("content", "{}"))
        query = calls[0]["input"].get("query", "") if calls else ""
        count = len(results.get("results", []))
        return f"🔎 search_history «{query}» → {count}"
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return message.text[:200]
