"""The desktop app: the window's signals connected to operations.

``AppController`` builds the core (``monet_app.services.wiring``), the window, the navigator (what
is shown) and the stream presenter (a reply as it arrives), then connects what the person
does to one operation each (``monet_app.operations``). It never reaches into the window's
children: the window offers methods and signals. The person's message is committed on
the GUI thread before anything else, so it is never lost; the reply, deleting, searching
and the librarian run off the GUI thread.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QApplication

from cms.clock import Clock
from cms.context.turn import TurnResult
from cms.model.errors import ModelError
from cms.settings import DEFAULT_TABS, ENGLISH_TABS
from monet_app.operations import conversation, memory, search
from monet_app.operations import settings as settings_ops
from monet_app.services import backup
from monet_app.services.clock import SystemClock
from monet_app.services.keys import keyring_available, load_api_key, store_api_key
from monet_app.services.version import monet_version
from monet_app.services.wiring import Core, ModelFactory, build_core, env_request_log, gateway_model
from monet_app.window.backup_schedule import BackupSchedule
from monet_app.window.librarian_schedule import LibrarianSchedule
from monet_app.window.navigator import GEOMETRY_KEY, Navigator
from monet_app.window.run import describe, run_inline, run_op
from monet_app.window.streaming import StreamPresenter
from storage import queries
from storage.errors import UserFacingError
from ui.background import run_in_background
from ui.items import ALL_TABS, MemoryRow, SearchItem, SettingsValues
from ui.look import apply_palette, ui_language
from ui.main_window import MainWindow

DAY_CHECK_MS = 60_000
#: When the key is looked for after the window opens: after its first frames and the
#: first rows' layout (a worker thread still takes the interpreter's lock now and then),
#: and before anyone could have read the window and pasted a key.
KEY_LOOKUP_DELAY_MS = 300


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
        self._name_tabs_for_a_new_home(demo)
        self.window = MainWindow(list(self.core.settings.tabs))
        if demo:
            self.window.set_demo()
        self.nav = Navigator(self.core)
        self.stream = StreamPresenter(self.window, self.nav, self)
        self.librarian = LibrarianSchedule(self.core, self)
        self.backups = BackupSchedule(self.core, self)
        self.last_tab = ""
        self._search_id = 0
        self._deleting = False
        self._needs_key = model_factory is gateway_model if needs_key is None else needs_key
        self._unread: set[str] = set()  # tabs where a reply arrived while not shown
        self._editing = 0  # the id of the message being edited, 0 when none
        self._draft_before_edit = ""
        self._closed = False
        self._key_checks = 0  # key checks asked so far; only the latest one's answer counts
        self._bug = self.tr(
            "Something went wrong ({kind}). Nothing you typed was lost; details are in monet.log."
        )
        self._day_timer = QTimer(self)
        self._day_timer.timeout.connect(self._check_day)

        w = self.window
        w.send_requested.connect(self.send)
        w.stop_requested.connect(self.stream.cancel)
        w.retry_requested.connect(self.retry)
        w.tab_changed.connect(self.switch_tab)
        w.day_selected.connect(self.open_day)
        w.thread_selected.connect(self.pick_thread)
        w.new_thread_requested.connect(self.new_thread)
        w.settings_requested.connect(self.open_settings)
        w.check_mixing_requested.connect(self.check_mixing)
        w.promote_requested.connect(lambda: w.edit_promotion(self.promote))
        w.memory_requested.connect(
            lambda: w.show_memory(self.memory_rows, self.edit_memory, self.delete_memory))
        w.incognito_today_toggled.connect(self.set_incognito_today)
        w.delete_day_requested.connect(self.delete_day)
        w.delete_message_requested.connect(self.delete_message)
        w.timeline_activated.connect(lambda _day, message_id: self.open_message(message_id))
        w.search_requested.connect(self.search)
        w.message_activated.connect(self.open_message)
        w.regenerate_requested.connect(self.regenerate)
        w.continue_requested.connect(self.continue_reply)
        w.edit_requested.connect(self.edit_message)
        w.edit_cancelled.connect(self.cancel_edit)
        w.key_submitted.connect(self.use_key)
        w.demo_requested.connect(self.open_demo)
        w.about_requested.connect(self.show_about)
        w.draft_changed.connect(self.keep_draft)
        w.geometry_changed.connect(self._keep_geometry)
        self.stream.finished.connect(self._reply_finished)
        self.stream.failed.connect(self._reply_failed)
        self.librarian.passed.connect(self.refresh_timeline)
        self.backups.made.connect(self._backup_made)
        self.backups.failed.connect(self._backup_failed)
        w.backup_requested.connect(self.backups.run_now)
        w.restore_requested.connect(self.restore_backup)

        self.core.context.app_started()
        w.set_tabs(list(self.core.settings.tabs), self.nav.tab)
        if not self.core.settings.sunset_model:
            self.nav.ensure_thread()
        self.librarian.start(first_pass_soon=True)
        self.backups.start()
        self._show_last_backup()
        self._day_timer.start(DAY_CHECK_MS)
        days = self.nav.days()
        if demo and not days[0].count and len(days) > 1:
            self.nav.open_day(days[1].day)  # the demo opens on its latest day with talk
        self.refresh_all()
        w.set_composer_text(self.nav.load_draft())  # what was typed and not sent last time
        w.restore_geometry(self.nav.load_text(GEOMETRY_KEY))
        # Once the window has painted, off the GUI thread: asking the OS keyring loads its
        # backends (~0.1 s of imports) and may wait on D-Bus or a locked keychain.
        QTimer.singleShot(KEY_LOOKUP_DELAY_MS, w, self._look_for_key)  # (dropped if the
        # window is gone first)

    def _name_tabs_for_a_new_home(self, demo: bool) -> None:
        """A first run in English gets English tab names (the defaults are Japanese).
        Only on a home with no talk yet: labels reach the prompt, so they never change
        under a history by themselves."""
        if demo or ui_language() != "en" or self.core.settings.tabs != DEFAULT_TABS:
            return
        with self.core.db.session() as session:
            if queries.day_message_counts(session):
                return
        with contextlib.suppress(Exception):  # a read-only home keeps the defaults
            self.core.use_settings(self.core.settings.with_overrides(tabs=ENGLISH_TABS))

    # ----- sending ----------------------------------------------------------------------
    def _deleting_now(self) -> bool:
        """While a deletion runs nothing is sent: a request must not carry what goes."""
        if self._deleting:
            self._show_problem(self.tr("Wait until the deletion is finished."))
        return self._deleting

    def send(self, text: str) -> None:
        self._send_to(text, self.nav.send_tab)

    def _send_to(self, text: str, tab: str) -> None:
        """Commit what the person typed (before anything leaves), then ask for a reply.
        While editing, the edited exchange goes once the new message is safely stored."""
        if self.stream.busy or self._deleting_now():
            return  # the composer keeps the text
        if self.window.read_only or self.nav.read_only:
            self.nav.back_to_today()  # typing always goes to today
        _, problem = run_inline(partial(conversation.commit, self.core, text, tab), self._bug)
        if problem is not None:
            self.window.show_error(problem, can_retry=False)
            return  # the composer keeps the text
        replaced = self._editing
        self._editing = 0
        self.window.set_editing(False)
        self.window.clear_composer()
        self.keep_draft("")
        self.window.clear_error()
        self.refresh_side()
        self.refresh_messages()
        exchange = self.nav.latest_exchange()
        if replaced and exchange is not None:
            old = self._exchange_ids(replaced)
            self._delete(partial(memory.delete_messages, self.core, old), lambda: None,
                         then=lambda: self._start_reply(tab))
            return
        self._start_reply(tab)

    def _exchange_ids(self, user_id: int) -> list[int]:
        """The person's message and everything that answered it, up to the next message."""
        rows = self.nav.day_messages()
        ids = [m.id for m in rows]
        if user_id not in ids:
            return []
        out = [user_id]
        for message in rows[ids.index(user_id) + 1:]:
            if message.role == "user":
                break
            out.append(message.id or 0)
        return out

    def retry(self) -> None:
        if not self.stream.busy and self.last_tab and not self._deleting_now():
            self.window.clear_error()
            self._start_reply(self.last_tab)

    def _start_reply(self, tab: str) -> None:
        self.last_tab = tab
        _, problem = run_inline(partial(conversation.prepare_reply, self.core), self._bug)
        if problem is not None:
            self.window.show_error(problem)
            return
        self.window.set_busy(True)
        self.stream.start(tab, partial(conversation.reply, self.core, tab), *self._row_labels(tab))

    def _row_labels(self, tab: str) -> tuple[str, str]:
        """The time and tab label of the streaming row."""
        return self.core.clock.now().strftime("%H:%M"), self.core.settings.tab_label(tab)

    def _reply_finished(self, _result: TurnResult) -> None:
        self.window.set_busy(False)
        if not self.nav.showing(self.stream.tab, self.stream.day):
            self._unread.add(self.stream.tab)  # a dot on its tab until it is seen
        self.refresh_all(keep_place=True)

    def _reply_failed(self, exc: BaseException) -> None:
        self.window.set_busy(False)
        self.core.drop_model()  # a fresh client next time (a new key, a network back)
        self.window.show_error(self.model_problem(exc))
        self.refresh_all(keep_place=True)

    def model_problem(self, exc: BaseException) -> str:
        """What went wrong with a reply, in the window's language. The gateway's English
        sentence (monet.log, the command line) stays the fallback for rarer cases."""
        code = exc.code if isinstance(exc, ModelError) else ""
        saved = self.tr("Your message is saved.")
        words = {
            "missing_key": self.tr("No API key yet: paste one above or in Settings; "
                                   "Claude answers once a key is set."),
            "auth": self.tr("The API key was refused (401). Check it in Settings."),
            "timeout": self.tr("Claude did not answer in time."),
            "connection": self.tr("No connection to Anthropic. MONET keeps working "
                                  "offline; retry when you are back online."),
            "overloaded": self.tr("Claude is overloaded right now (529); try again shortly."),
            "server": self.tr("Anthropic had a server error; try again."),
            "cut": self.tr("The reply broke off; what arrived is kept, marked incomplete."),
            "ended_early": self.tr("The reply stopped before Claude finished it; what "
                                   "arrived is kept, marked incomplete."),
        }
        if code == "rate_limited":
            wait = getattr(exc, "retry_after", None)
            said = (self.tr("Anthropic's rate limit was reached; try again in {s} s.")
                    .format(s=f"{wait:.0f}") if wait
                    else self.tr("Anthropic's rate limit was reached; try again in a minute."))
            return f"{said} {saved}"
        if code in words:
            return f"{words[code]} {saved}" if code != "missing_key" else words[code]
        return describe(exc, self.tr(
            "Something went wrong while asking Claude ({kind}). Your message is saved; "
            "details are in monet.log."))

    # ----- browsing ---------------------------------------------------------------------
    def switch_tab(self, tab: str) -> None:
        self.nav.switch_tab(tab)
        self._unread.discard(tab)
        if tab == ALL_TABS:
            self._unread.clear()
        self.refresh_messages()

    def open_day(self, day: str) -> None:
        self.nav.open_day(day)
        self._show_day_in_list(day)
        self.refresh_messages()

    def _show_day_in_list(self, day: str) -> None:
        """Opening a day changes no count: the list only moves its mark (a full rebuild
        of a year's list costs ~15 ms)."""
        if not self.nav.sunset_model or not self.window.select_day(day):
            self.refresh_side()

    def pick_thread(self, thread_id: int) -> None:
        if not self.stream.busy:
            self.nav.pick_thread(thread_id)
            self.refresh_all()

    def new_thread(self) -> None:
        if not self.stream.busy:
            self.nav.new_thread(self.tr("Thread {n}"))
            self.refresh_all()

    def open_message(self, message_id: int) -> None:
        """Open the tab and day of a message (from the TI or a search) and show it."""
        message = self.nav.message(message_id)
        if message is not None:
            if message.tab != self.nav.tab:
                self.window.select_tab(message.tab)  # logged as a tab switch
            self.nav.show_message(message)
            self._show_day_in_list(message.day)
        else:
            self.refresh_side()
        self.refresh_messages(scroll_to_end=False)
        self.window.reveal_message(message_id)

    def search(self, query: str) -> None:
        """Search every day in the background; a newer search drops an older result."""
        self._search_id += 1
        search_id = self._search_id

        def show(items: list[SearchItem]) -> None:
            if search_id == self._search_id:
                self.window.show_search_results(items)

        run_op(partial(search.search, self.core, query), show, self._show_problem, self._bug)

    def _show_problem(self, problem: str) -> None:
        self.window.show_error(problem, can_retry=False)

    def _check_day(self) -> None:
        if self.nav.sunset_model and self.nav.view_day < self.nav.today() \
                and not self.window.read_only:
            self.nav.back_to_today()  # the day turned while the window stayed on it
        self.refresh_side()

    # ----- showing ----------------------------------------------------------------------
    def refresh_all(self, keep_place: bool = False) -> None:
        """Everything shown, read again. ``keep_place``: the same day and tab with what
        just changed (a reply stored, a forget): the transcript stays where the person is
        reading (``MainWindow.set_messages``)."""
        self.window.set_incognito(self.nav.today() in self.core.settings.incognito_days)
        self.refresh_side()
        self.refresh_messages(None if keep_place else True)
        self.refresh_timeline()

    def refresh_side(self) -> None:
        if self.nav.sunset_model:
            self.window.set_days(self.nav.days(), self.nav.view_day)
        else:
            self.window.set_threads(self.nav.threads())

    def refresh_messages(self, scroll_to_end: bool | None = True) -> None:
        self.window.set_read_only(self.nav.read_only, self.nav.view_day)
        if self.nav.tab == ALL_TABS:
            self.window.set_send_tab(self.core.settings.tab_label(self.nav.send_tab))
        self.window.set_messages(self.nav.rows(), scroll_to_end)
        self.window.set_tab_marks(self.nav.tab_counts(), self._unread)
        exchange = self.nav.latest_exchange()
        if exchange is None:
            self.window.set_message_actions(0, 0, False)
        else:
            self.window.set_message_actions(exchange.user_id, exchange.reply_id,
                                            exchange.incomplete)
        self.stream.transcript_reloaded(*self._row_labels(self.stream.tab or self.nav.tab))

    def refresh_timeline(self) -> None:
        """The Timeline Index and the librarian's queue (also after each librarian pass)."""
        self.window.set_timeline(self.nav.timeline(), self.nav.today())
        self.window.set_status(self.nav.status())

    # ----- memory, deleting, settings ---------------------------------------------------
    def memory_rows(self) -> list[MemoryRow]:
        return memory.memory_rows(self.core)

    def edit_memory(self, item_id: int, text: str) -> str | None:
        problem = run_inline(partial(memory.correct_memory, self.core, item_id, text),
                             self._bug)[1]
        self.refresh_all(keep_place=True)  # the old fact's messages are now forgotten
        return problem

    def delete_memory(self, item_id: int, delete_sources: bool = False) -> str | None:
        problem = run_inline(partial(memory.delete_memory, self.core, item_id, delete_sources),
                             self._bug)[1]
        self.refresh_all(keep_place=True)
        return problem

    def set_incognito_today(self, on: bool) -> None:
        today = self.nav.today()
        op = partial(memory.set_incognito_today, self.core, today, on)
        if (problem := run_inline(op, self._bug)[1]) is not None:
            self._show_problem(problem)

    def delete_day(self, day: str) -> None:
        self._delete(partial(memory.delete_day, self.core, day), lambda: self.nav.day_deleted(day))

    def delete_message(self, message_id: int) -> None:
        self._delete(partial(memory.delete_message, self.core, message_id), lambda: None)

    def _delete(self, op: Callable[[], int], after: Callable[[], None],
                then: Callable[[], None] | None = None) -> None:
        """Delete in the background; ``after`` adjusts what is shown, ``then`` goes on
        (a reply to an edited message) once the window shows the result."""
        if self.stream.busy:
            return self._show_problem(self.tr("Wait for the reply to finish before deleting."))
        if self._deleting_now():
            return None
        self._deleting = True

        def done(_count: int) -> None:
            self._deleting = False
            after()
            self.refresh_all()
            if then is not None:
                then()

        def failed(problem: str) -> None:
            self._deleting = False
            self._show_problem(problem)
            self.refresh_all()

        run_op(op, done, failed, self._bug)

    # ----- today's latest exchange: regenerate, continue, edit -------------------------
    def regenerate(self, reply_id: int) -> None:
        """Today's latest reply goes (with its tool rounds) and Claude answers again."""
        exchange = self.nav.latest_exchange()
        if exchange is None or exchange.reply_id != reply_id or self.stream.busy:
            return
        self.window.clear_error()
        self._delete(partial(memory.delete_messages, self.core, list(exchange.answer_ids)),
                     lambda: None, then=lambda: self._start_reply(exchange.tab))

    def continue_reply(self, reply_id: int) -> None:
        """An interrupted reply goes on: a short request in its tab, answered after it.
        Not a prefill of the cut reply: writing its continuation into the stored reply
        would change a message the cached prompt already holds, and the prompt only ever
        grows between rebuild points (docs/design.md §2)."""
        exchange = self.nav.latest_exchange()
        if exchange is None or exchange.reply_id != reply_id or not exchange.incomplete:
            return
        self._send_to(self.tr("Please continue from where you stopped."), exchange.tab)

    def edit_message(self, user_id: int) -> None:
        """Put today's latest message back in the composer; sending it replaces the old
        message and its reply. Esc puts back what the composer held before."""
        exchange = self.nav.latest_exchange()
        if exchange is None or exchange.user_id != user_id or self.stream.busy:
            return
        self._draft_before_edit = self.window.composer_text()
        self._editing = user_id
        if exchange.tab != self.nav.send_tab:
            self.window.select_tab(exchange.tab)
        self.window.set_composer_text(exchange.user_text)
        self.window.set_editing(True)

    def cancel_edit(self) -> None:
        self._editing = 0
        self.window.set_editing(False)
        self.window.set_composer_text(self._draft_before_edit)

    # ----- the key and the draft --------------------------------------------------------
    def _key_state(self) -> tuple[bool, bool]:
        """(answers need a key and none is found, an OS keyring exists). Safe off the GUI
        thread: it only reads the environment and the keyring."""
        missing = self._needs_key and load_api_key()[0] is None
        return missing, keyring_available() if missing else True

    def _look_for_key(self) -> None:
        """The key check at start, in the background: the window answers meanwhile. A
        message sent before it ends is not held up (the request finds the key itself).
        An answer older than a later check (the person saved a key meanwhile) is dropped."""
        if not self._needs_key:
            self.window.hide_key_box()
            return
        self._key_checks += 1
        asked = self._key_checks

        def answer(state: tuple[bool, bool]) -> None:
            if asked == self._key_checks:
                self._show_key_state(state)

        def failed(exc: BaseException) -> None:
            describe(exc, self._bug)  # logged; the box is offered as if no keyring worked
            answer((True, False))

        run_in_background(self._key_state, answer, failed, own_thread=True)

    def _offer_key(self) -> None:
        """No key where answers need one: say so and offer a field to paste it."""
        self._key_checks += 1  # (an older check still running is answered too late)
        self._show_key_state(self._key_state())

    def _show_key_state(self, state: tuple[bool, bool]) -> None:
        if self._closed:
            return
        missing, keyring = state
        if missing:
            days = self.nav.days()
            self.window.show_key_box(first_run=len(days) == 1 and not days[0].count,
                                     keyring=keyring)
        else:
            self.window.hide_key_box()

    def use_key(self, key: str) -> None:
        try:
            where = store_api_key(key)
        except UserFacingError as exc:
            self._show_problem(str(exc))
            return
        self._key_checks += 1  # a check still running at start answers too late now
        self.core.drop_model()  # the next request builds a client with this key
        self.window.hide_key_box()
        self.window.clear_error()
        waiting = self.nav.latest_exchange()
        if waiting is not None and not waiting.reply_id and not self.stream.busy:
            self._start_reply(waiting.tab)  # the message typed before the key is answered
        self.window.notify(
            self.tr("Key saved in the system keyring.") if where == "keyring"
            else self.tr("Key kept for this session only; it is forgotten when MONET quits."))
        self.window.focus_composer()

    def show_about(self) -> None:
        """About MONET: the installed version, the data folder, the schema revision."""
        revision, _problem = run_inline(self.core.db.schema_revision, self._bug)
        self.window.show_about(monet_version(), str(self.core.home), revision)

    def open_demo(self) -> None:
        """The demo in its own process and window (``monet --demo``): a throwaway folder,
        so this window and its data folder are untouched."""
        import subprocess
        import sys

        # a frozen bundle (PyInstaller) is the monet command itself
        command = [sys.executable] if getattr(sys, "frozen", False) \
            else [sys.executable, "-m", "monet_app.cli"]
        try:
            subprocess.Popen([*command, "--demo"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
        except OSError as exc:
            self._show_problem(describe(exc, self._bug))
            return
        self.window.notify(self.tr("Opening the demo in its own window…"))

    def _keep_geometry(self, saved: str) -> None:
        with contextlib.suppress(Exception):  # a size not kept is no reason to complain
            self.nav.save_text(GEOMETRY_KEY, saved)

    def keep_draft(self, text: str) -> None:
        """The composer's unsent text, kept so quitting loses none of it."""
        try:
            self.nav.save_draft(text)
        except Exception as exc:  # noqa: BLE001 - a draft never interrupts typing
            self.window.notify(describe(exc, self._bug))

    def promote(self, category: str, statement: str) -> str | None:
        heading, problem = run_inline(
            partial(settings_ops.promote, self.core, category, statement), self._bug)
        if problem is None:
            self.window.notify(self.tr(
                "Promoted under {heading}; Claude reads it from the next message.",
            ).format(heading=heading))
        return problem

    def settings_values(self) -> SettingsValues:
        return settings_ops.settings_values(self.core.settings)

    def open_settings(self) -> None:
        self.window.edit_settings(self.settings_values(), load_api_key()[1], self.apply_settings,
                                  keyring=keyring_available())

    def check_mixing(self) -> None:
        """Settings → Check topic mixing…: ``monet check-mixing`` in a dialog, the cost
        shown first (``monet_app/mixing``). A stand-in model (the demo) never spends: only
        the offline check is offered then."""
        from monet_app.mixing.check import WindowCheck
        from ui.mixing_dialog import MixingDialog

        has_key = self._needs_key and load_api_key()[0] is not None
        check = WindowCheck(self.core.home, self.core.settings.model, has_key)
        parent = QApplication.activeModalWidget() or self.window
        dialog = MixingDialog(check.model, check.has_key, check.estimate, check.run,
                              check.last(), parent, describe=lambda exc: describe(exc, self._bug))
        dialog.exec()

    def apply_settings(self, values: SettingsValues) -> str | None:
        """Validate, store and use new settings. Returns a problem to show, or None."""
        if self.stream.busy:
            return self.tr("Wait for the reply to finish (or press Stop) before changing settings.")
        if self._deleting:
            return self.tr("Wait until the deletion is finished.")
        old_theme = self.core.settings.theme
        problem = run_inline(partial(settings_ops.apply_settings, self.core, values), self._bug)[1]
        if problem is not None:
            return problem
        if self.core.settings.theme != old_theme:
            qapp = QApplication.instance()
            if isinstance(qapp, QApplication):
                apply_palette(qapp, self.core.settings.theme)
                self.window.restyle()
        self.nav.settings_changed()
        self.window.set_tabs(list(self.core.settings.tabs), self.nav.tab)
        self.librarian.start()  # the interval may have changed
        self.refresh_all()
        self._offer_key()
        return None

    # ----- backups ----------------------------------------------------------------------
    def _show_last_backup(self) -> None:
        self.window.set_backup_folder(str(self.core.home / backup.BACKUP_FOLDER))
        when = backup.last_backup(self.core.home)
        self.window.set_backup_status(
            self.tr("No backup yet") if when is None
            else self.tr("Backed up {when}").format(when=when.strftime("%Y-%m-%d %H:%M")),
            failed=False)

    def _backup_made(self, when: datetime) -> None:
        self._show_last_backup()
        self.window.notify(self.tr("Backup made ({when}) in {folder}.").format(
            when=when.strftime("%H:%M"), folder=self.core.home / backup.BACKUP_FOLDER))

    def _backup_failed(self, problem: str) -> None:
        """Said loudly: a failed backup is a risk the person must know about."""
        self.window.set_backup_status(self.tr("Backup failed"), failed=True)
        self.window.show_error(self.tr(
            "The backup failed: {problem} Your conversation is unchanged; MONET tries again "
            "in an hour (or MONET → Back up now).").format(problem=problem), can_retry=False)

    def restore_backup(self, archive: str) -> None:
        """Replace this home's database with a backup: the window lets go of the database,
        the restore keeps the replaced one beside it, and the window opens it again."""
        if self.stream.busy or self._deleting:
            self._show_problem(self.tr("Wait for the reply or the deletion to finish first."))
            return
        self.librarian.stop()
        self.backups.stop()
        self.core.close()
        result, problem = run_inline(partial(
            backup.restore, Path(archive), self.core.home, self.core.clock.now(), force=True),
            self._bug)
        self.core = self._build()
        self.nav = Navigator(self.core)
        self.stream.navigator = self.nav
        self.librarian.core = self.backups.core = self.core
        self.librarian.start(first_pass_soon=True)
        self.backups.start()
        self.window.set_tabs(list(self.core.settings.tabs), self.nav.tab)
        self.refresh_all()
        self._show_last_backup()
        if problem is not None or result is None:
            self._show_problem(problem or self._bug.format(kind="restore"))
            return
        kept = f" {result.replaced[0].name}" if result.replaced else ""
        self.window.notify(self.tr(
            "Restored {n} messages from {file}; the replaced database is kept as{kept}.")
            .format(n=result.messages, file=Path(archive).name, kept=kept))

    def close(self) -> None:
        """Stop the timers and the librarian and close the database (once)."""
        if self._closed:
            return
        self._closed = True
        self.backups.stop()
        self.librarian.stop()
        self._day_timer.stop()
        self.core.close()
