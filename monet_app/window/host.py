"""What the window's helpers (``sending``, ``dialogs``) use of the controller: its parts
and its one refresh. A protocol, so they need not import ``app`` (which imports them)."""

from __future__ import annotations

from typing import Protocol

from monet_app.operations.changes import Changes
from monet_app.services.wiring import Core
from monet_app.window.attach_flow import AttachFlow
from monet_app.window.key_flow import KeyFlow
from monet_app.window.librarian_schedule import LibrarianSchedule
from monet_app.window.navigator import Navigator
from monet_app.window.panes import Panes
from monet_app.window.streaming import StreamPresenter
from monet_app.window.words import Words
from ui.main_window import MainWindow


class Host(Protocol):
    core: Core
    window: MainWindow
    nav: Navigator
    stream: StreamPresenter
    words: Words
    panes: Panes
    key: KeyFlow
    attach: AttachFlow
    librarian: LibrarianSchedule
    last_tab: str

    def refresh(self, changes: Changes, keep_place: bool = False) -> None: ...

    def show_problem(self, problem: str) -> None: ...

    def keep_drafts(self, drafts: dict[str, str]) -> None: ...
