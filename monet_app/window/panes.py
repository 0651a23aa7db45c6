"""What the window shows, read again when it went stale, and moving around it.

``Panes.refresh(changes)`` is the one refresh: it reads again only the panes an
operation's ``Changes`` name (``monet_app/operations/changes.py``). Browsing (a tab, a
day, a thread, a message from the Timeline Index or a search) changes only what is shown,
never the history, so it is navigation (``monet_app/window/navigator.py``), not an
operation.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject

from monet_app.operations import search
from monet_app.operations.changes import Changes, Done
from monet_app.services.gate import Work
from monet_app.services.wiring import Core
from monet_app.window.navigator import Navigator
from monet_app.window.run import run_op
from monet_app.window.streaming import StreamPresenter
from monet_app.window.words import Words
from storage.errors import DatabaseError
from ui.items import ALL_TABS, SearchItem
from ui.main_window import MainWindow

ONLY_MESSAGES = Changes(messages=True)


class Panes(QObject):
    def __init__(self, window: MainWindow, core: Callable[[], Core],
                 nav: Callable[[], Navigator], stream: StreamPresenter,
                 parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.core = core
        self.nav = nav
        self.stream = stream
        self.unread: set[str] = set()  # tabs where a reply arrived while not shown
        self._search_id = 0
        self._words = Words(self)

    # ----- the one refresh --------------------------------------------------------------
    def refresh(self, changes: Changes, keep_place: bool = False,
                scroll_to_end: bool = True) -> None:
        """Read again what ``changes`` names. ``keep_place``: the same day and tab with
        what just changed (a reply stored, a forget): the transcript stays where the person
        is reading (``MainWindow.set_messages``). A database that cannot be read now (a
        server gone away) is said in the window, which stays as it was and usable."""
        try:
            self._refresh(changes, keep_place, scroll_to_end)
        except DatabaseError as exc:
            self.window.show_error(self._words.problem(exc), can_retry=False)

    def _refresh(self, changes: Changes, keep_place: bool, scroll_to_end: bool) -> None:
        nav = self.nav()
        nav.fresh()
        if changes.settings:  # (new tabs are set by whoever changed them, before this)
            self.window.set_incognito(nav.today() in self.core().settings.incognito_days)
        if changes.days:
            self._side()
        if changes.messages:
            self._messages(None if keep_place else scroll_to_end)
        if changes.timeline:
            self.window.recall.set_timeline(nav.timeline(), nav.today())
            self.window.status_line.set_status(nav.status())

    def _side(self) -> None:
        nav = self.nav()
        if nav.sunset_model:
            self.window.days.set_days(nav.days(), nav.view_day)
        else:
            self.window.days.set_threads(nav.threads())

    def _messages(self, scroll_to_end: bool | None) -> None:
        nav, core = self.nav(), self.core()
        self.window.set_read_only(nav.read_only, nav.view_day)
        if nav.tab == ALL_TABS:
            self.window.compose.set_send_tab(core.settings.tab_label(nav.send_tab))
        self.window.transcript.set_messages(nav.rows(), scroll_to_end)
        self.window.set_tab_marks(nav.tab_counts(), self.unread)
        exchange = nav.latest_exchange()
        if exchange is None:
            self.window.transcript.set_message_actions(0, 0, False)
        else:
            self.window.transcript.set_message_actions(exchange.user_id, exchange.reply_id,
                                            exchange.incomplete, exchange.versions)
        tab = self.stream.tab or nav.tab
        self.stream.transcript_reloaded(core.clock.now().strftime("%H:%M"),
                                        core.settings.tab_label(tab))

    # ----- browsing ---------------------------------------------------------------------
    def switch_tab(self, tab: str) -> None:
        self.nav().switch_tab(tab)
        self.unread.discard(tab)
        if tab == ALL_TABS:
            self.unread.clear()
        self.refresh(ONLY_MESSAGES)

    def open_day(self, day: str) -> None:
        self.nav().open_day(day)
        self._show_day_in_list(day)
        self.refresh(ONLY_MESSAGES)

    def _show_day_in_list(self, day: str) -> None:
        """Opening a day changes no count: the list only moves its mark (a full rebuild
        of a year's list costs ~15 ms)."""
        if not self.nav().sunset_model or not self.window.days.select_day(day):
            self._side()

    def pick_thread(self, thread_id: int) -> None:
        if not self.stream.busy:
            self.nav().pick_thread(thread_id)
            self.refresh(Changes(messages=True, days=True, timeline=True))

    def new_thread(self) -> None:
        if not self.stream.busy:
            self.nav().new_thread(self.tr("Thread {n}"))
            self.refresh(Changes(messages=True, days=True, timeline=True))

    def open_message(self, message_id: int) -> None:
        """Open the tab and day of a message (from the TI or a search) and show it."""
        nav = self.nav()
        message = nav.message(message_id)
        if message is not None:
            if message.tab != nav.tab:
                self.window.select_tab(message.tab)  # logged as a tab switch
            nav.show_message(message)
            self._show_day_in_list(message.day)
        else:
            self._side()
        self.refresh(ONLY_MESSAGES, scroll_to_end=False)
        self.window.transcript.reveal_message(message_id)

    def search(self, query: str) -> None:
        """Search every day in the background (``operations.search``, the same search as
        ``monet search``); a newer search drops an older result."""
        self._search_id += 1
        search_id = self._search_id

        def show(done: Done[list[SearchItem]]) -> None:
            if search_id == self._search_id:
                self.window.recall.show_search_results(done.value)

        run_op(partial(search.search_items, self.core(), query), show,
               lambda problem: self.window.show_error(problem, can_retry=False),
               self._words.problem)

    def check_day(self) -> None:
        """Every minute: the day may have turned while the window stayed on it."""
        if self.core().gate.busy(Work.RESTORE):
            return  # the database is being replaced
        nav = self.nav()
        if nav.sunset_model and nav.view_day < nav.today() and not self.window.read_only:
            nav.back_to_today()
        self.refresh(Changes(days=True, settings=True))  # (the incognito mark is today's)
