"""The desktop app's wiring: the window on one side, the context manager on the other.

``AppController`` turns what the person does into calls on ``cms`` and shows the results.
The person's message is committed on the main thread before anything else (a few
milliseconds of SQLite), so it is never lost; the reply is streamed on a worker
(``ui.background.Streamer``) and lands in today's conversation whatever the window shows
meanwhile. Redraws of the streaming row are throttled to one every 50 ms.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QThreadPool, QTimer
from PySide6.QtWidgets import QApplication

from cms.clock import Clock, parse_ts
from cms.context.core_prompt import promote
from cms.context.events import RequestLog
from cms.context.manager import ContextManager
from cms.context.turn import TurnResult, TurnRunner
from cms.memory import forget
from cms.memory import rules as memory
from cms.model.protocol import ChatModel
from cms.settings import Settings, load_settings, save_settings
from cms.tokens import TiktokenEstimator
from monet_app.app_clock import SystemClock
from monet_app.keys import KeyStoreError, load_api_key, store_api_key
from monet_app.wiring import build_librarian
from storage import Database, fts, queries
from storage.errors import ModelError, UserFacingError
from storage.models import Message
from ui.background import Streamer, run_in_background
from ui.main_window import DayItem, MainWindow, SearchItem, ThreadItem, TimelineItem
from ui.memory_dialog import MemoryDialog, MemoryRow
from ui.promote_dialog import PromoteDialog
from ui.settings_dialog import SettingsDialog, SettingsValues
from ui.transcript import MessageRow

log = logging.getLogger("monet.app")


def default_model_factory(settings: Settings) -> ChatModel:
    from monet_app.gateway import AnthropicModel, make_client

    return AnthropicModel(
        make_client(max_retries=settings.max_retries, timeout=settings.request_timeout_seconds)
    )


class AppController(QObject):
    def __init__(
        self,
        home: Path,
        *,
        clock: Clock | None = None,
        model_factory: Callable[[Settings], ChatModel] | None = None,
    ) -> None:
        super().__init__()
        self.db = Database(home)
        self.home = home
        self.clock = clock or SystemClock()
        self.estimator = TiktokenEstimator()
        self.log = RequestLog(os.environ.get("MONET_REQUEST_LOG") or None)
        with self.db.session() as session:
            self.settings = load_settings(session)
        self.model_factory = model_factory or default_model_factory
        self._model: ChatModel | None = None
        self.cm = ContextManager(self.db, self.settings, self.clock, self.estimator, self.log)
        self.runner = TurnRunner(self.cm, _NoModel(), self.log)
        self.streamer = Streamer(self)
        self.window = MainWindow(list(self.settings.tabs))
        self.view_day = self.cm.today()
        self.view_thread: int | None = None
        self.stream_tab = ""
        self.stream_day = ""
        self._buffer = ""
        self._shown_stream = False
        self.last_tab = ""
        self.librarian_busy = False

        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(50)
        self._flush_timer.timeout.connect(self._flush_stream)
        self._librarian_timer = QTimer(self)
        self._librarian_timer.timeout.connect(self.run_librarian)
        self._day_timer = QTimer(self)
        self._day_timer.setInterval(60_000)
        self._day_timer.timeout.connect(self._check_day)

        w = self.window
        w.send_requested.connect(self.send)
        w.stop_requested.connect(self.streamer.cancel)
        w.retry_requested.connect(self.retry)
        w.tab_changed.connect(self.switch_tab)
        w.day_selected.connect(self.open_day)
        w.thread_selected.connect(self.pick_thread)
        w.new_thread_requested.connect(self.new_thread)
        w.settings_requested.connect(self.open_settings)
        w.promote_requested.connect(self.open_promote)
        w.memory_requested.connect(self.open_memory)
        w.incognito_today_toggled.connect(self.set_incognito_today)
        w.delete_day_requested.connect(self.delete_day)
        w.delete_message_requested.connect(self.delete_message)
        w.timeline_activated.connect(self.open_timeline_entry)
        w.search_requested.connect(self.search)
        w.message_activated.connect(self.open_message)
        self.streamer.piece.connect(self._on_piece)
        self.streamer.finished.connect(self._on_finished)
        self.streamer.failed.connect(self._on_failed)

        self.cm.app_started()
        state_tab = self.cm.current_tab()
        tab_ids = [t for t, _ in self.settings.tabs]
        self.tab = state_tab if state_tab in tab_ids else tab_ids[0]
        w.set_tabs(list(self.settings.tabs), self.tab)
        if not self.settings.sunset_model:
            self._ensure_thread()
        self._start_timers()
        self.refresh_all()
        # Placeholders left by an earlier session get their summaries soon, not in 5 minutes.
        self._first_librarian = QTimer(self)
        self._first_librarian.setSingleShot(True)
        self._first_librarian.timeout.connect(self.run_librarian)
        self._first_librarian.start(2_000)

    # ----- helpers ----------------------------------------------------------------------
    def _start_timers(self) -> None:
        self._librarian_timer.start(self.settings.librarian_interval_minutes * 60_000)
        self._day_timer.start()

    def today(self) -> str:
        with self.db.session() as session:
            current = queries.prompt_state(session).current_day
        today = self.cm.today()
        return max(today, current) if current else today

    def _ensure_thread(self) -> None:
        with self.db.session() as session:
            current = queries.prompt_state(session).current_thread_id
        if current is None:
            current = self.cm.thread_named(self.settings.tab_label(self.tab))
            self.cm.switch_thread(current)
        self.view_thread = current

    def _model_or_error(self) -> ChatModel | None:
        if self._model is None:
            try:
                self._model = self.model_factory(self.settings)
            except UserFacingError as exc:
                self.window.show_error(str(exc))
                return None
        return self._model

    # ----- sending ----------------------------------------------------------------------
    def send(self, text: str) -> None:
        if self.streamer.busy:
            return
        if self.window.read_only or (self.settings.sunset_model and self.view_day != self.today()):
            self.view_day = self.today()  # typing always goes to today
        tab = self.window.current_tab() or self.tab
        try:
            self.cm.commit_user_message(text, tab)
        except UserFacingError as exc:
            self.window.show_error(str(exc), can_retry=False)
            return  # the composer keeps the text
        self.window.composer.clear()
        self.window.clear_error()
        self.refresh_side()
        self.refresh_messages()
        self._start_reply(tab)

    def retry(self) -> None:
        if not self.streamer.busy and self.last_tab:
            self.window.clear_error()
            self._start_reply(self.last_tab)

    def _start_reply(self, tab: str) -> None:
        self.last_tab = tab
        model = self._model_or_error()
        if model is None:
            return
        self.runner.model = model
        self.stream_tab = tab
        self.stream_day = self.today()  # the day the reply lands in, read once per reply
        self._buffer = ""
        self._shown_stream = False
        if self._showing_today_tab(tab):
            self._append_stream_row()
        self.window.set_busy(True)
        runner = self.runner
        self.streamer.start(lambda on_text, cancel: runner.resume(tab, on_text, cancel))

    def _showing_today_tab(self, tab: str, today: str | None = None) -> bool:
        if self.settings.sunset_model:
            return self.view_day == (today or self.today()) and self.tab == tab
        return self.tab == tab

    def _append_stream_row(self) -> None:
        now = self.clock.now().strftime("%H:%M")
        self.window.model.append(
            MessageRow(0, "assistant", self.stream_tab, self.settings.tab_label(self.stream_tab),
                       now, "…", "streaming")
        )
        self._shown_stream = True
        self.window.view.scrollToBottom()

    def _on_piece(self, request_id: int, text: str) -> None:
        if request_id != self.streamer.request_id:
            return  # a stale reply
        self._buffer += text
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def _flush_stream(self) -> None:
        if self._shown_stream and self._showing_today_tab(self.stream_tab, self.stream_day):
            self.window.model.update_last_text(self._buffer)
            self.window.view.scrollToBottom()

    def _on_finished(self, request_id: int, result: TurnResult) -> None:
        if request_id != self.streamer.request_id:
            return
        self._flush_timer.stop()
        self.window.set_busy(False)
        self.refresh_all()

    def _on_failed(self, request_id: int, exc: BaseException) -> None:
        if request_id != self.streamer.request_id:
            return
        self._flush_timer.stop()
        self.window.set_busy(False)
        if isinstance(exc, UserFacingError | ModelError):
            message = str(exc)
        else:
            log.error("reply failed: %s", getattr(exc, "__monet_traceback__", exc))
            message = self.tr("Something went wrong while asking Claude ({kind}). Your message is saved; details are in monet.log.").format(kind=exc.__class__.__name__)
        self._drop_model()  # a fresh client next time (a new key, a network back)
        self.window.show_error(message)
        self.refresh_all()

    # ----- browsing ---------------------------------------------------------------------
    def switch_tab(self, tab: str) -> None:
        self.tab = tab
        self.cm.switch_tab(tab)  # logged; nothing sent changes
        self.refresh_messages()

    def open_day(self, day: str) -> None:
        self.view_day = day
        if day != self.today():
            self.cm.open_day(day)
        self.refresh_side()
        self.refresh_messages()

    def pick_thread(self, thread_id: int) -> None:
        if self.streamer.busy:
            return
        self.cm.switch_thread(thread_id)  # leaving a thread folds it
        self.view_thread = thread_id
        self.refresh_all()

    def new_thread(self) -> None:
        with self.db.session() as session:
            count = queries.topic_thread_count(session)
        self.pick_thread(self.cm.thread_named(self.tr("Thread {n}").format(n=count + 1)))

    def search(self, query: str) -> None:
        """Search every day in the background; results replace the timeline panel."""
        self._search_id = getattr(self, "_search_id", 0) + 1
        search_id = self._search_id
        db = self.db

        def find() -> list[SearchItem]:
            with db.session() as session:
                found = fts.search_all(session, query, 200)
            return [
                SearchItem(m.id or 0, f"{m.day} {parse_ts(m.ts).strftime('%H:%M')} "
                           f"[{m.tab_label}] {' '.join(m.text.split())[:140]}")
                for m in found
            ]

        def show(items: list[SearchItem]) -> None:
            if search_id == self._search_id:  # a newer search replaced this one
                self.window.show_search_results(items)

        run_in_background(find, show, lambda exc: self.window.show_error(str(exc), False))

    def open_message(self, message_id: int) -> None:
        self.open_timeline_entry("", message_id)

    def open_timeline_entry(self, day: str, first_message_id: int) -> None:
        with self.db.session() as session:
            message = session.get(Message, first_message_id)
        if message is not None:
            if message.tab != self.tab:
                self.window.select_tab(message.tab)  # emits tab_changed
            if self.settings.sunset_model:
                self.view_day = message.day
                if message.day != self.today():
                    self.cm.open_day(message.day)
            else:
                self.view_thread = message.thread_id
        self.refresh_messages(scroll_to_end=False)
        row = self.window.model.row_of_message(first_message_id)
        index = self.window.model.index(row)
        self.window.view.setCurrentIndex(index)
        self.window.view.scrollTo(index)

    # ----- showing ----------------------------------------------------------------------
    def refresh_all(self) -> None:
        self.refresh_incognito()
        self.refresh_side()
        self.refresh_messages()
        self.refresh_timeline()
        self.refresh_status()

    def refresh_side(self) -> None:
        with self.db.session() as session:
            if self.settings.sunset_model:
                counts = dict(queries.day_message_counts(session))
                today = self.today()
                days = [DayItem(today, counts.pop(today, 0), True)]
                days += [DayItem(d, n, False) for d, n in sorted(counts.items(), reverse=True)]
                self.window.set_days(days, self.view_day)
                return
            threads = queries.threads_with_counts(session)
        current = self.view_thread
        self.window.set_threads(
            [ThreadItem(t.id or 0, t.title, n, t.id == current) for t, n in threads]
        )

    def _rows(self) -> list[MessageRow]:
        with self.db.session() as session:
            if self.settings.sunset_model:
                messages = queries.all_messages(session, self.view_day)
            else:
                messages = queries.thread_messages(session, self.view_thread or 0)
        rows = []
        for m in messages:
            if m.tab != self.tab:
                continue
            rows.append(
                MessageRow(m.id or 0, m.role, m.tab, m.tab_label,
                           parse_ts(m.ts).strftime("%H:%M"), _shown_text(m), m.status)
            )
        return rows

    def refresh_messages(self, scroll_to_end: bool = True) -> None:
        read_only = self.settings.sunset_model and self.view_day != self.today()
        self.window.set_read_only(read_only, self.view_day)
        self.window.set_messages(self._rows(), scroll_to_end)
        self._shown_stream = False
        if self.streamer.busy and self._showing_today_tab(self.stream_tab):
            self._append_stream_row()
            self.window.model.update_last_text(self._buffer or "…")

    def refresh_timeline(self) -> None:
        items = [
            TimelineItem(line, e.day_from, e.first_message_id, e.summary is None)
            for line, e in self.cm.timeline_entries()
        ]
        self.window.set_timeline(items)

    def refresh_incognito(self) -> None:
        action = self.window.incognito_action
        action.blockSignals(True)
        action.setChecked(self.today() in self.settings.incognito_days)
        action.blockSignals(False)

    def refresh_status(self) -> None:
        with self.db.session() as session:
            pending = len(queries.pending_entries(session))
            last = queries.last_usage(session, "chat")
            today_rows = queries.usage_rows(session, self.today())
        librarian = (
            self.tr("Summarizing {n}").format(n=pending) if pending
            else self.tr("Librarian: nothing pending")
        )
        if last is not None:
            last_text = self.tr(
                "Last reply: in {inp:,} · cache read {read:,} · cache write {write:,} · out {out:,} · ${usd:.4f}"
            ).format(inp=last.input_tokens, read=last.cache_read,
                     write=last.cache_write_5m + last.cache_write_1h, out=last.output_tokens,
                     usd=last.dollars)
        else:
            last_text = ""
        spent = today_rows[0]["dollars"] if today_rows else 0.0
        self.window.set_status(librarian, last_text, self.tr("Today ${usd:.4f}").format(usd=spent))

    def _check_day(self) -> None:
        today = self.today()
        if self.settings.sunset_model and self.view_day < today and not self.window.read_only:
            self.view_day = today  # the day turned while the window stayed on it
        self.refresh_side()

    # ----- the librarian ----------------------------------------------------------------
    def run_librarian(self) -> None:
        if self.librarian_busy:
            return
        self.librarian_busy = True
        librarian, _note = build_librarian(self.db, self.settings, self.clock)

        def done(_result: Any) -> None:
            librarian.close()
            self.librarian_busy = False
            self.refresh_timeline()
            self.refresh_status()

        def failed(exc: BaseException) -> None:
            librarian.close()
            self.librarian_busy = False
            log.error("librarian failed: %s", getattr(exc, "__monet_traceback__", exc))

        run_in_background(librarian.run_once, done, failed)

    # ----- settings ---------------------------------------------------------------------
    def open_promote(self) -> None:
        selected = self.window.view.currentIndex()
        text = self.window.model.rows[selected.row()].text if selected.isValid() else ""
        dialog = PromoteDialog(self.window, text)
        while dialog.exec():
            problem = self.promote(*dialog.values())
            if problem is None:
                return
            dialog.error.setText(problem)

    def promote(self, category: str, statement: str) -> str | None:
        """Append to system_prompt_core.txt; used from the next request (settings_changed)."""
        try:
            heading = promote(self.home, category, statement)
        except UserFacingError as exc:
            return str(exc)
        self.window.notify(self.tr("Promoted under {heading}; Claude reads it from the next message.").format(heading=heading))
        return None

    # ----- memory the person controls ----------------------------------------------------
    def memory_rows(self) -> list[MemoryRow]:
        rows = []
        with self.db.session() as session:
            for item in memory.active_items(session, self.clock.now()):
                sources = [session.get(Message, i) for i in json.loads(item.source_message_ids)]
                source = " / ".join(f"{m.day} [{m.tab_label}] {m.text[:120]}" for m in sources if m)
                rows.append(MemoryRow(item.id or 0, item.kind, item.status, item.fact, source))
        return rows

    def edit_memory(self, item_id: int, text: str) -> str | None:
        try:
            forget.correct_memory(self.db, item_id, text, self.clock.now())
        except UserFacingError as exc:
            return str(exc)
        return None

    def delete_memory(self, item_id: int) -> str | None:
        try:
            forget.delete_memory(self.db, item_id, self.clock.now())
        except UserFacingError as exc:
            return str(exc)
        return None

    def set_incognito_today(self, on: bool) -> None:
        """Mark today incognito (or not): nothing said today becomes a memory."""
        today = self.today()
        days = [d for d in self.settings.incognito_days if d != today] + ([today] if on else [])
        new = self.settings.with_overrides(incognito_days=tuple(sorted(days)))
        with self.db.session() as session:
            save_settings(session, new)
        self.settings = new
        self.cm.settings = new

    def open_memory(self) -> None:
        MemoryDialog(self.memory_rows, self.edit_memory, self.delete_memory, self.window).exec()

    def delete_day(self, day: str) -> None:
        if self.streamer.busy:
            self.window.show_error(self.tr("Wait for the reply to finish before deleting."), False)
            return
        try:
            forget.delete_day(self.db, day, self.clock.now())
        except UserFacingError as exc:
            self.window.show_error(str(exc), False)
            return
        if self.view_day == day:
            self.view_day = self.today()
        self.refresh_all()

    def delete_message(self, message_id: int) -> None:
        if self.streamer.busy:
            self.window.show_error(self.tr("Wait for the reply to finish before deleting."), False)
            return
        try:
            forget.delete_messages(self.db, [message_id], self.clock.now())
        except UserFacingError as exc:
            self.window.show_error(str(exc), False)
            return
        self.refresh_all()

    def settings_values(self) -> SettingsValues:
        s = self.settings
        return SettingsValues("", s.model, s.tabs, s.ceiling_tokens, s.day_start,
                              s.librarian_interval_minutes, s.sunset_model, s.incognito_tabs)

    def open_settings(self) -> None:
        dialog = SettingsDialog(self.settings_values(), load_api_key()[1], self.window)
        while dialog.exec():
            problem = self.apply_settings(dialog.values())
            if problem is None:
                return
            dialog.show_problem(problem)

    def apply_settings(self, values: SettingsValues) -> str | None:
        """Validate, store and use new settings. Returns a problem to show, or None."""
        if self.streamer.busy:
            return self.tr("Wait for the reply to finish (or press Stop) before changing settings.")
        try:
            new = self.settings.with_overrides(
                model=values.model, tabs=values.tabs, ceiling_tokens=values.ceiling_tokens,
                day_start=values.day_start,
                librarian_interval_minutes=values.librarian_interval_minutes,
                sunset_model=values.sunset_model,
                incognito_tabs=values.incognito_tabs,
            )
            if values.api_key:
                store_api_key(values.api_key)
        except (UserFacingError, KeyStoreError) as exc:
            return str(exc)
        with self.db.session() as session:
            save_settings(session, new)
        self.settings = new
        self._drop_model()
        self.cm = ContextManager(self.db, new, self.clock, self.estimator, self.log)
        self.runner = TurnRunner(self.cm, _NoModel(), self.log)
        tab_ids = [t for t, _ in new.tabs]
        if self.tab not in tab_ids:
            self.tab = tab_ids[0]
        self.window.set_tabs(list(new.tabs), self.tab)
        self.view_day = self.today()
        if not new.sunset_model:
            self._ensure_thread()
        self._start_timers()
        self.refresh_all()
        return None

    def _drop_model(self) -> None:
        closer = getattr(self._model, "close", None)
        if closer is not None:
            closer()
        self._model = None

    def close(self) -> None:
        self._first_librarian.stop()
        self._librarian_timer.stop()
        self._day_timer.stop()
        self._drop_model()
        self.log.close()


class _NoModel:
    """Placeholder until a key is available; never called (``_model_or_error`` guards)."""

    def stream(self, body: Any) -> Any:
        raise ModelError("No model is configured.")


def _shown_text(message: Message) -> str:
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


def run_app(home: Path) -> int:
    app = QApplication.instance() or QApplication(sys.argv)
    from ui.look import apply_palette, install_translator

    apply_palette(app)  # type: ignore[arg-type]
    install_translator(app)  # type: ignore[arg-type]
    app.setApplicationName("MONET")
    controller = AppController(home)
    controller.window.show()
    controller.window.composer.setFocus()
    code = app.exec()
    controller.streamer.cancel()  # a reply in flight keeps what arrived, marked incomplete
    QThreadPool.globalInstance().waitForDone(10_000)
    controller.close()
    return int(code)
