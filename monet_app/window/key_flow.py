"""The API key in the window: looked for after the first paint, offered when missing,
stored when pasted (``monet_app.operations.keys``).

The lookup runs on a thread of its own (the OS keyring may load backends or wait on a
locked keychain); an answer older than a later check (the person saved a key meanwhile)
is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from PySide6.QtCore import QObject, Signal

from monet_app.operations import keys
from monet_app.services.wiring import Core
from monet_app.window.run import describe, run_inline
from monet_app.window.words import Words
from ui.background import run_in_background
from ui.main_window import MainWindow


class KeyFlow(QObject):
    stored = Signal()  # a key was stored: a message waiting for it may be answered
    #: A check in the background answered: whether its answer was shown (False: too late,
    #: a newer check or a stored key came first, or the window was closing).
    answered = Signal(bool)

    def __init__(self, window: MainWindow, core: Callable[[], Core], needs_key: bool,
                 first_run: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.window = window
        self.core = core
        self.needs_key = needs_key
        self.first_run = first_run
        self.closed = False
        self._checks = 0  # key checks asked so far; only the latest one's answer counts
        self.answers = 0  # background checks answered (shown or dropped): ``answered``
        self._words = Words(self)

    def look(self) -> None:
        """The key check at start, in the background: the window answers meanwhile. A
        message sent before it ends is not held up (the request finds the key itself)."""
        if not self.needs_key:
            self.window.hide_key_box()
            return
        self._checks += 1
        asked = self._checks

        def answer(state: keys.KeyState) -> None:
            shown = asked == self._checks and not self.closed
            if shown:
                self._show(state)
            self.answers += 1
            self.answered.emit(shown)

        def failed(exc: BaseException) -> None:
            describe(exc, self._words.bug())  # logged; the box is offered as if no keyring
            answer(keys.KeyState(True, False))

        run_in_background(partial(keys.key_state, True), answer, failed, own_thread=True)

    def offer(self) -> None:
        """No key where answers need one: say so and offer a field to paste it."""
        self._checks += 1  # (an older check still running is answered too late)
        self._show(keys.key_state(self.needs_key))

    def has_key(self) -> bool:
        return self.needs_key and keys.has_key()

    def _show(self, state: keys.KeyState) -> None:
        if self.closed:
            return
        if state.missing:
            self.window.show_key_box(first_run=self.first_run(), keyring=state.keyring)
        else:
            self.window.hide_key_box()

    def use(self, key: str) -> None:
        done, problem = run_inline(partial(keys.store_key, self.core(), key), self._words.problem)
        if done is None:
            self.window.show_error(problem or "", can_retry=False)
            return
        self._checks += 1  # a check still running at start answers too late now
        self.window.hide_key_box()
        self.window.clear_error()
        self.stored.emit()
        self.window.status_line.notify(
            self.tr("Key saved in the system keyring.") if done.value == "keyring"
            else self.tr("Key kept for this session only; it is forgotten when MONET quits."))
        self.window.compose.focus()
