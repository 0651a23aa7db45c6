"""Sending from the window: a message, a retry, edit and resend, regenerate, continue.

A send holds the gate's ``Work.REPLY`` ticket (``monet_app/services/gate.py``) from the
moment the person presses Enter: the commit runs on the GUI thread (stored before
anything leaves), then, on workers, what the send replaces goes (edit and resend,
regenerate) and the reply streams; the ticket is left when the reply ends, so no
deletion, settings change or restore can come in between (``operations.conversation``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial

from PySide6.QtCore import QObject

from cms.context.turn import TurnResult
from monet_app.operations import conversation, versions
from monet_app.operations.changes import TALK, Changes, Done
from monet_app.services.gate import Ticket, Work
from monet_app.window.host import Host
from monet_app.window.run import run_inline, run_op
from storage.errors import BusyError


class SendFlow(QObject):
    def __init__(self, controller: Host, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.c = controller
        self._reply: Ticket | None = None  # the ticket of the send under way
        self._editing = 0  # the id of the message being edited, 0 when none

    def send(self, text: str) -> None:
        self._send_to(text, self.c.nav.send_tab)

    @contextmanager
    def _until_streaming(self, ticket: Ticket) -> Iterator[None]:
        """The steps between entering the gate and the stream taking the ticket: a failure
        there (a bug) leaves the ticket, so the window is never locked, and is said once;
        the traceback goes to monet.log."""
        try:
            yield
        except Exception as exc:  # noqa: BLE001 - said in a sentence, logged as a bug
            if self._reply is not ticket:  # (once streaming, the reply's end leaves it)
                ticket.leave()
                self.c.window.set_busy(False)
            self.c.show_problem(self.c.words.problem(exc))

    def _enter_reply(self) -> Ticket | None:
        """The gate's place for a send, or None (said) when something refuses it."""
        try:
            return self.c.core.gate.enter(Work.REPLY)
        except BusyError as exc:
            if exc.running != Work.REPLY:  # (while a reply streams, the composer just waits)
                self.c.show_problem(self.c.words.busy(exc))
            return None

    def _send_to(self, text: str, tab: str, typed: bool = True) -> None:
        """Commit what the person typed (before anything leaves), then ask for a reply.
        While editing, the edited exchange goes once the new message is safely stored.
        ``typed``: the text is the composer's (not Continue's own words), so the
        composer is emptied, or given the tab's draft back after an edit."""
        if (ticket := self._enter_reply()) is None:
            return  # the composer keeps the text
        with self._until_streaming(ticket):
            if self.c.window.read_only or self.c.nav.read_only:
                self.c.nav.back_to_today()  # typing always goes to today
            files = list(self.c.attach.pending) if typed else []
            replaces = self._editing if typed else 0  # (set aside in the same transaction)
            done, problem = run_inline(partial(conversation.commit, self.c.core, text, tab,
                                               ticket=ticket, attachments=files,
                                               replaces=replaces),
                                       self.c.words.problem)
            if done is None:
                ticket.leave()
                self.c.window.show_error(problem or "", can_retry=False)
                return  # the composer keeps the text
            if typed:
                self._editing = 0
                self.c.window.compose.message_sent()
                if files:
                    self.c.attach.clear()  # stored with the message
            self.c.window.clear_error()
            self.c.refresh(TALK if replaces else Changes(messages=True, days=True))
            self._start_reply(tab, ticket)

    def _run_then_reply(self, op: Callable[[], Done[int]], ticket: Ticket, tab: str) -> None:
        def failed(problem: str) -> None:
            ticket.leave()
            self.c.show_problem(problem)
            self.c.refresh(TALK)

        def done(result: Done[int]) -> None:
            with self._until_streaming(ticket):
                self.c.refresh(result.changes)
                self._start_reply(tab, ticket)

        run_op(op, done, failed, self.c.words.problem)

    def retry(self) -> None:
        if self.c.last_tab and (ticket := self._enter_reply()) is not None:
            with self._until_streaming(ticket):
                self.c.window.clear_error()
                self._start_reply(self.c.last_tab, ticket)

    def answer_waiting(self) -> None:
        """A key was stored: the message typed before it is answered now."""
        waiting = self.c.nav.latest_exchange()
        if waiting is not None and not waiting.reply_id and not self.c.stream.busy:
            if (ticket := self._enter_reply()) is not None:
                with self._until_streaming(ticket):
                    self._start_reply(waiting.tab, ticket)

    def _start_reply(self, tab: str, ticket: Ticket) -> None:
        self.c.last_tab = tab
        self._reply = ticket
        self.c.window.set_busy(True)
        self.c.stream.start(tab, partial(conversation.reply, self.c.core, tab, ticket=ticket),
                          *self._row_labels(tab))

    def _row_labels(self, tab: str) -> tuple[str, str]:
        """The time and tab label of the streaming row."""
        return self.c.core.clock.now().strftime("%H:%M"), self.c.core.settings.tab_label(tab)

    def _reply_ended(self) -> None:
        if self._reply is not None:
            self._reply.leave()
            self._reply = None
        self.c.window.set_busy(False)

    def reply_finished(self, done: Done[TurnResult]) -> None:
        self._reply_ended()
        if not self.c.nav.showing(self.c.stream.tab, self.c.stream.day):
            self.c.panes.unread.add(self.c.stream.tab)  # a dot on its tab until it is seen
        if done.value.held:
            # the history's server is away: the reply stays on screen as it streamed and
            # is written as soon as the server answers (the share watch asks every 2 s)
            self.c.window.show_error(self.c.words.held_reply(), can_retry=False)
            return
        self.c.refresh(TALK, keep_place=True)

    def reply_failed(self, exc: BaseException) -> None:
        self._reply_ended()
        self.c.core.drop_model()  # a fresh client next time (a new key, a network back)
        self.c.window.show_error(self.c.words.model_problem(exc))
        if getattr(exc, "code", "") == "missing_key":
            self.c.key.look()  # the field to paste one, looked for off the GUI thread
        self.c.refresh(TALK, keep_place=True)

    # ----- today's latest exchange: regenerate, continue, edit -------------------------
    def regenerate(self, reply_id: int) -> None:
        """Today's latest reply goes (with its tool rounds) and Claude answers again."""
        exchange = self.c.nav.latest_exchange()
        if exchange is None or exchange.reply_id != reply_id:
            return
        if (ticket := self._enter_reply()) is not None:
            with self._until_streaming(ticket):
                self.c.window.clear_error()
                self.c.window.compose.focus()  # typing goes on while Claude answers again
                self._run_then_reply(partial(versions.regenerate, self.c.core,
                                             list(exchange.answer_ids), ticket=ticket),
                                     ticket, exchange.tab)

    def choose_version(self, reply_id: int, number: int) -> None:
        """Flip today's latest reply to another of its versions (◀ 2/3 ▶)."""
        exchange = self.c.nav.latest_exchange()
        if exchange is None or exchange.reply_id != reply_id:
            return
        if (ticket := self._enter_reply()) is None:
            return

        def done(result: Done[int]) -> None:
            ticket.leave()
            self.c.refresh(result.changes, keep_place=True)

        def failed(problem: str) -> None:
            ticket.leave()
            self.c.show_problem(problem)

        run_op(partial(versions.choose_version, self.c.core, exchange.user_id, number,
                       ticket=ticket), done, failed, self.c.words.problem)

    def continue_reply(self, reply_id: int) -> None:
        """An interrupted reply goes on: a short message in its tab, answered after it."""
        exchange = self.c.nav.latest_exchange()
        if exchange is not None and exchange.reply_id == reply_id and exchange.incomplete:
            self._send_to(self.tr("Please continue from where you stopped."), exchange.tab,
                          typed=False)
            self.c.window.compose.focus()

    def edit_message(self, user_id: int) -> None:
        """Put today's latest message back in the composer; sending it replaces the old
        message and its reply. Esc puts back what the composer held before."""
        exchange = self.c.nav.latest_exchange()
        if exchange is None or exchange.user_id != user_id or self.c.stream.busy:
            return
        if exchange.tab != self.c.nav.send_tab:
            self.c.window.select_tab(exchange.tab)  # (an edit open elsewhere is cancelled)
        self._editing = user_id
        self.c.window.compose.begin_edit(exchange.user_text)

    def cancel_edit(self) -> None:
        self._editing = 0
        self.c.window.compose.end_edit()
