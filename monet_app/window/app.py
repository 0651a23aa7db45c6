"""The desktop app: the window's signals connected to operations.

``AppController`` builds the core (``monet_app.services.wiring``), the window, the
navigator (what is shown) and the stream presenter (a reply as it arrives), then connects
what the person does to one operation each (``monet_app.operations``) and shows what the
operation says it changed with one ``refresh``. It never reaches into the window's
children: the window offers methods and signals. Every operation that writes enters the
core's gate (``monet_app/services/gate.py``): a send holds ``Work.REPLY`` from its commit
(on the GUI thread, before anything leaves) to the end of its reply (on a worker).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QObject, QTimer

from cms.clock import Clock
from monet_app.operations import conversation, memory
from monet_app.operations import settings as settings_ops
from monet_app.operations.changes import EVERYTHING, TALK, Changes, Done
from monet_app.services.clock import SystemClock
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core, ModelFactory, build_core, env_request_log, gateway_model
from monet_app.window import dialogs
from monet_app.window.attach_flow import AttachFlow
from monet_app.window.backup_flow import BackupFlow
from monet_app.window.backup_schedule import BackupSchedule
from monet_app.window.key_flow import KeyFlow
from monet_app.window.librarian_schedule import LibrarianSchedule
from monet_app.window.navigator import GEOMETRY_KEY, Navigator
from monet_app.window.panes import Panes
from monet_app.window.run import run_inline, run_op, warm_up
from monet_app.window.sending import SendFlow
from monet_app.window.shared_watch import SharedWatch
from monet_app.window.streaming import StreamPresenter
from monet_app.window.words import Words
from storage.errors import BusyError
from storage.private import take_tightened
from ui.items import MemoryRow, SettingsValues
from ui.look import ui_language
from ui.main_window import MainWindow
from ui.transcript import syntax

T = TypeVar("T")
DAY_CHECK_MS = 60_000
#: When the key is looked for after the window opens: after its first frames and the
#: first rows' layout, and before anyone could have read the window and pasted a key.
KEY_LOOKUP_DELAY_MS = 300
#: When what the first send and search would wait for is loaded on a thread of its own
#: (``run.warm_up``): after the first frames, as the key lookup. A send sooner
#: loads what it needs itself.
WARM_DELAY_MS = 300


class AppController(QObject):
    def __init__(self, home: Path, *, clock: Clock | None = None,
                 model_factory: ModelFactory = gateway_model,
                 needs_key: bool | None = None, demo: bool = False) -> None:
        """``needs_key``: whether answers need an API key from the usual places (by
        default, when the model is Claude's gateway; a stand-in model needs none).
        ``demo``: the demo history (``monet_app.demo``): the window says so, and the
        librarian stays offline whatever key exists (the demo spends nothing)."""
        super().__init__()
        self._build = partial(build_core, home, clock=clock or SystemClock(),
                              model_factory=model_factory, request_log=env_request_log(),
                              summarizer="offline" if demo else "auto")
        self.core: Core = self._build()
        if not demo and ui_language() == "en":
            run_inline(partial(settings_ops.name_tabs_in_english, self.core))
        self.window = w = MainWindow(list(self.core.settings.tabs))
        if demo:
            w.set_demo()
        self.words = Words(self)
        self.nav = Navigator(self.core)
        self.stream = StreamPresenter(w, self.nav, self)
        self.panes = Panes(w, lambda: self.core, lambda: self.nav, self.stream, self)
        self.librarian = LibrarianSchedule(self.core, self)
        self.backups = BackupSchedule(self.core, self)
        self.key = KeyFlow(w, lambda: self.core,
                           model_factory is gateway_model if needs_key is None else needs_key,
                           self._first_run, self)
        self.backup_flow = BackupFlow(w, lambda: self.core, self.reopen, lambda: self._closed,
                                      self)
        self.last_tab = ""
        self.attach = AttachFlow(w, self)
        self.sending = SendFlow(self, self)
        self.watch = SharedWatch(self, self)  # writes made by another device or process
        self._closed = False
        self._day_timer = QTimer(self)
        self._day_timer.timeout.connect(self.panes.check_day)
        self._connect(w)
        self.core.context.app_started()
        run_inline(partial(conversation.recover, self.core), self.words.problem)
        w.set_tabs(list(self.core.settings.tabs), self.nav.tab)
        if not self.core.settings.sunset_model:
            self.nav.ensure_thread()
        self.librarian.start(first_pass_soon=True)
        self.backups.start()
        self.watch.start()
        if self.core.db.server:
            w.set_shared(self.core.db.where)
        self._day_timer.start(DAY_CHECK_MS)
        days = self.nav.days()
        if demo and not days[0].count and len(days) > 1:
            self.nav.open_day(days[1].day)  # the demo opens on its latest day with talk
        self.refresh(EVERYTHING)
        w.set_drafts(self.nav.load_drafts())  # what was typed and not sent last time
        w.compose.set_model(self.core.settings.model)
        w.restore_geometry(self.nav.load_text(GEOMETRY_KEY))
        if tightened := take_tightened(home):  # an older folder, open to others (issue 41)
            self.window.show_notice(self.words.tightened(str(home), tightened))
        QTimer.singleShot(KEY_LOOKUP_DELAY_MS, w, self.key.look)  # after the first paint
        QTimer.singleShot(WARM_DELAY_MS, w, lambda: warm_up(self.core.warm, syntax.warm))

    def _connect(self, w: MainWindow) -> None:
        w.compose.send_requested.connect(self.sending.send)
        w.compose.stop_requested.connect(self.stream.cancel)
        w.retry_requested.connect(self.sending.retry)
        w.tab_changed.connect(self.panes.switch_tab)
        w.days.day_selected.connect(self.open_day)
        w.days.thread_selected.connect(self.panes.pick_thread)
        w.days.new_thread_requested.connect(self.panes.new_thread)
        w.settings_requested.connect(self.open_settings)
        w.check_mixing_requested.connect(lambda: dialogs.check_mixing(self))
        w.promote_requested.connect(lambda: w.edit_promotion(self.promote))
        w.memory_requested.connect(
            lambda: w.show_memory(self.memory_rows, self.edit_memory, self.delete_memory,
                                  self.add_memory, self.settle_memory))
        w.incognito_today_toggled.connect(self.set_incognito_today)
        w.days.delete_day_requested.connect(self.delete_day)
        w.transcript.delete_message_requested.connect(
            lambda message_id: self.run(Work.FORGET, lambda ticket: memory.delete_message(
                self.core, message_id, ticket=ticket)))
        w.recall.timeline_activated.connect(lambda _day, m: self.panes.open_message(m))
        w.recall.search_requested.connect(self.search)
        w.recall.message_activated.connect(self.panes.open_message)
        w.transcript.regenerate_requested.connect(self.sending.regenerate)
        w.transcript.continue_requested.connect(self.sending.continue_reply)
        w.transcript.version_requested.connect(self.sending.choose_version)
        w.transcript.edit_requested.connect(self.sending.edit_message)
        w.compose.edit_cancelled.connect(self.sending.cancel_edit)
        w.key_submitted.connect(self.key.use)
        w.demo_requested.connect(lambda: dialogs.open_demo(self))
        w.about_requested.connect(lambda: dialogs.show_about(self))
        w.compose.drafts_changed.connect(self.keep_drafts)
        w.compose.model_chosen.connect(lambda model: dialogs.choose_model(self, model))
        w.geometry_changed.connect(self._keep_geometry)
        self.stream.finished.connect(self.sending.reply_finished)
        self.stream.failed.connect(self.sending.reply_failed)
        self.librarian.passed.connect(lambda: self.refresh(Changes(timeline=True)))
        self.backups.made.connect(self.backup_flow.made)
        self.backups.failed.connect(self.backup_flow.failed)
        self.key.stored.connect(self.sending.answer_waiting)
        w.backup_requested.connect(self.backups.run_now)
        w.restore_requested.connect(self.restore_backup)

    def _first_run(self) -> bool:
        days = self.nav.days()
        return len(days) == 1 and not days[0].count

    # ----- running operations -----------------------------------------------------------
    def inline(self, op: Callable[[], Done[T]]) -> tuple[Done[T] | None, str | None]:
        """Run a quick operation now and show what it changed; ``(done, None)`` or
        ``(None, sentence)`` for the caller (a dialog) to show."""
        done, problem = run_inline(op, self.words.problem)
        if done is not None:
            self.refresh(done.changes, keep_place=True)
        return done, problem

    def run(self, work: Work, op: Callable[[Ticket], Done[Any]],
            after: Callable[[], None] | None = None) -> None:
        """Run an operation in the background under a ticket for ``work`` taken now, on the
        GUI thread (so nothing the gate refuses can start before the worker does); then
        ``after`` adjusts what is shown, and what the operation changed is read again."""
        try:
            ticket = self.core.gate.enter(work)
        except BusyError as exc:
            self.show_problem(self.words.busy(exc))
            return

        def done(result: Done[Any]) -> None:
            ticket.leave()
            if after is not None:
                after()
            self.refresh(result.changes)

        def failed(problem: str) -> None:
            ticket.leave()
            self.show_problem(problem)
            self.refresh(TALK)

        run_op(lambda: op(ticket), done, failed, self.words.problem)

    def show_problem(self, problem: str) -> None:
        self.window.show_error(problem, can_retry=False)

    # ----- memory, deleting, settings ---------------------------------------------------
    def memory_rows(self) -> list[MemoryRow]:
        return memory.memory_rows(self.core)

    def add_memory(self, text: str) -> str | None:
        return self.inline(partial(memory.add_memory, self.core, text))[1]

    def edit_memory(self, item_id: int, text: str) -> str | None:
        return self.inline(partial(memory.correct_memory, self.core, item_id, text))[1]

    def settle_memory(self, item_id: int) -> str | None:
        return self.inline(partial(memory.settle_memory, self.core, item_id))[1]

    def delete_memory(self, item_id: int, delete_sources: bool = False) -> str | None:
        if not delete_sources:  # (ms; with its messages the backups are rewritten: seconds)
            return self.inline(partial(memory.delete_memory, self.core, item_id))[1]
        self.run(Work.FORGET, lambda t: memory.delete_memory(self.core, item_id, True, ticket=t))
        return None

    def set_incognito_today(self, on: bool) -> None:
        op = partial(memory.set_incognito_today, self.core, self.nav.today(), on)
        if (problem := self.inline(op)[1]) is not None:
            self.show_problem(problem)

    def delete_day(self, day: str) -> None:
        self.run(Work.FORGET, lambda ticket: memory.delete_day(self.core, day, ticket=ticket),
                 after=lambda: self.nav.day_deleted(day))

    def promote(self, category: str, statement: str) -> str | None:
        done, problem = self.inline(partial(settings_ops.promote, self.core, category, statement))
        if done is not None:
            self.window.status_line.notify(self.tr(
                "Promoted under {heading}; Claude reads it from the next message.",
            ).format(heading=done.value))
        return problem

    def settings_values(self) -> SettingsValues:
        return settings_ops.settings_values(self.core.settings)

    def apply_settings(self, values: SettingsValues) -> str | None:
        return dialogs.apply_settings(self, values)

    def open_settings(self) -> None:
        dialogs.open_settings(self)

    # ----- browsing, the draft, showing -------------------------------------------------
    def open_day(self, day: str) -> None:
        self.panes.open_day(day)

    def search(self, query: str) -> None:
        self.panes.search(query)

    def refresh(self, changes: Changes, keep_place: bool = False) -> None:
        """The one refresh: what ``changes`` names is read again (``Panes.refresh``)."""
        self.panes.refresh(changes, keep_place)
        if changes.backups:
            self.backup_flow.show_last()

    def _keep_geometry(self, saved: str) -> None:
        with contextlib.suppress(Exception):  # a size not kept is no reason to complain
            self.nav.save_text(GEOMETRY_KEY, saved)

    def keep_drafts(self, drafts: dict[str, str]) -> None:
        """Each tab's unsent text, kept so quitting loses none of it."""
        try:
            self.nav.save_drafts(drafts)
        except Exception as exc:  # noqa: BLE001 - a draft never interrupts typing
            self.window.status_line.notify(self.words.problem(exc))

    # ----- restore, closing -------------------------------------------------------------
    def restore_backup(self, archive: str) -> None:
        """Replace this home's database with a backup, once nothing else runs
        (``BackupFlow.restore``)."""
        self.backup_flow.restore(archive)

    def reopen(self) -> None:
        """After a restore: the database let go is opened again, with the same gate."""
        self.librarian.stop()
        self.backups.stop()  # (the flow closed the core before the restore)
        self.core = self._build(gate=self.core.gate)
        self.nav = Navigator(self.core)
        self.stream.navigator = self.nav
        self.librarian.core = self.backups.core = self.core
        self.librarian.start(first_pass_soon=True)
        self.backups.start()
        self.window.set_tabs(list(self.core.settings.tabs), self.nav.tab)
        self.refresh(EVERYTHING)

    def close(self) -> None:
        """Stop the timers and the librarian and close the database (once)."""
        if self._closed:
            return
        self._closed = self.key.closed = True
        self.backups.stop()
        self.librarian.stop()
        self.watch.stop()
        self._day_timer.stop()
        self.core.close()
