"""Sending and the latest exchange: send, edit and resend, regenerate, continue, stop.

All of them are ``Work.REPLY`` in the gate (``monet_app/services/gate.py``): the window
enters once when the person presses Enter (or Regenerate) and passes the ticket to each
step, so nothing that deletes or rebuilds can slip in between the commit and the reply.

``commit`` runs on the GUI thread (a few milliseconds of SQLite) so that what was typed
is stored before any request leaves (design.md §7); ``reply`` runs on a worker and
streams through ``on_text``; ``stop`` asks it to stop, and what arrived is kept, marked
incomplete. Edit and resend stores the new message first, then deletes the exchange it
replaces; regenerate deletes today's latest reply (with its tool rounds), then asks again;
continue is a short message of its own answered after the cut reply (never a prefill: the
stored reply is in the cached prompt, which only grows between rebuild points).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sqlmodel import col, select

from cms.context.turn import TurnResult
from cms.memory import forget
from monet_app.operations.changes import TALK, Done
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from storage.models import Message, MessageRole
from storage.queries import Talk


def commit(core: Core, text: str, tab: str, *, ticket: Ticket | None = None) -> Done[Talk]:
    """Store the person's message (refused in words if empty); nothing is sent yet."""
    with core.gate.hold(Work.REPLY, ticket):
        return Done(core.context.commit_user_message(text, tab), TALK)


def prepare_reply(core: Core) -> None:
    """Make the chat model now, on the GUI thread (a missing key is said at once)."""
    core.chat_model()


def reply(core: Core, tab: str, on_text: Callable[[str], None], cancel: threading.Event,
          *, ticket: Ticket | None = None) -> Done[TurnResult]:
    """Ask Claude for the reply to the newest stored message (a send or a retry)."""
    with core.gate.hold(Work.REPLY, ticket):
        return Done(core.runner.resume(tab, on_text, cancel), TALK)


def stop(cancel: threading.Event) -> None:
    """Stop the reply under way: the turn runner keeps what arrived, marked incomplete."""
    cancel.set()


def exchange_ids(core: Core, user_id: int) -> list[int]:
    """The person's message ``user_id`` and everything that answered it, up to their next
    message (an exchange being edited or regenerated)."""
    with core.db.session() as session:
        first = session.get(Message, user_id)
        if first is None or first.role != MessageRole.USER:
            return []
        after = session.exec(
            select(Message.id, Message.role).where(Message.day == first.day,
                                                   col(Message.id) > user_id)
            .order_by(col(Message.id))).all()
    ids = [user_id]
    for message_id, role in after:
        if role == MessageRole.USER:
            break
        ids.append(message_id or 0)
    return ids


def replace_exchange(core: Core, user_id: int, *, ticket: Ticket | None = None) -> Done[int]:
    """Edit and resend, once the new message is stored: the old message and its answer
    go everywhere they live. Returns how many messages went."""
    return drop_messages(core, exchange_ids(core, user_id), ticket=ticket)


def regenerate(core: Core, answer_ids: list[int], *, ticket: Ticket | None = None) -> Done[int]:
    """Today's latest reply goes, with its tool rounds (``answer_ids``); the caller then
    asks for the reply again."""
    return drop_messages(core, answer_ids, ticket=ticket)


def drop_messages(core: Core, message_ids: list[int], *,
                  ticket: Ticket | None = None) -> Done[int]:
    """Delete messages as part of a send (the exchange being replaced, the reply being
    regenerated); 0 if none."""
    with core.gate.hold(Work.REPLY, ticket):
        if not message_ids:
            return Done(0)
        return Done(forget.delete_messages(core.db, message_ids, core.clock.now()), TALK)
