"""Sending: the person's message is committed first, then the reply is asked for.

``commit`` runs on the GUI thread (a few milliseconds of SQLite) so that what was typed
is stored before any request leaves (design.md §7); ``reply`` runs on a worker and
streams through ``on_text``; ``cancel`` stops it and keeps what arrived, marked
incomplete.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from cms.context.turn import TurnResult
from monet_app.services.wiring import Core
from storage.queries import Talk


def commit(core: Core, text: str, tab: str) -> Talk:
    """Store the person's message (refused in words if empty); nothing is sent yet."""
    return core.context.commit_user_message(text, tab)


def prepare_reply(core: Core) -> None:
    """Make the chat model now, on the GUI thread (a missing key is said at once)."""
    core.chat_model()


def reply(core: Core, tab: str, on_text: Callable[[str], None],
          cancel: threading.Event) -> TurnResult:
    """Ask Claude for the reply to the newest stored message (a send or a retry)."""
    return core.runner.resume(tab, on_text, cancel)
