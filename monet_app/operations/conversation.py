"""Sending: send, edit and resend, continue, stop, and what a kill left at the next start.

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

What a send replaces is never deleted before the new reply exists: it is set aside
until the new reply is stored whole (``monet_app/operations/versions.py``, which also
holds regenerate and the versions of a reply). The files a message carries are read and
checked in ``attaching.py``; a shared history is followed in ``sharing.py``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import partial

from cms.attachments import Prepared
from cms.context.turn import TurnResult
from cms.memory import forget
from monet_app.operations import versions
from monet_app.operations.changes import NOTHING, TALK, Done
from monet_app.services.backup import finish_forgetting
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from storage.errors import InputError
from storage.models import MessageStatus
from storage.talk import Talk


def commit(core: Core, text: str, tab: str, *, ticket: Ticket | None = None,
           attachments: Sequence[Prepared] = (), replaces: int = 0) -> Done[Talk]:
    """Store the person's message and its files (refused in words if empty); nothing is
    sent yet. ``replaces``: edit and resend of the person's message of that id: it and
    its answer are set aside in the same transaction, until the new reply is stored."""
    with core.gate.hold(Work.REPLY, ticket):
        if versions.write_held_first(core) and replaces:  # (it may be what was edited)
            raise InputError("The reply kept while the server was away is in the history "
                             "now; nothing else was changed. Look at it, then try again.")
        within = partial(versions.set_aside_exchange, replaces) if replaces else None
        return Done(core.context.commit_user_message(text, tab, attachments, within=within),
                    TALK)


def reply(core: Core, tab: str, on_text: Callable[[str], None], cancel: threading.Event,
          *, ticket: Ticket | None = None) -> Done[TurnResult]:
    """Ask Claude for the reply to the newest stored message (a send or a retry)."""
    with core.gate.hold(Work.REPLY, ticket):
        if versions.write_held_first(core):  # (a retry of a reply that was kept: it is in)
            last = core.context.last_user_message()
            return Done(TurnResult(user_message=last, reply=None), TALK)
        try:
            core.chat_model()  # made here, off the GUI thread (the SDK's import, the key)
            result = core.runner.resume(tab, on_text, cancel)
        except BaseException:
            if not core.context.away.waiting():  # (held: settled when it is written)
                versions.settle(core, replaced=False)  # the old answer comes back
            raise
        if result.held:  # the server is away: settled when the reply is written
            return Done(result, TALK)
        whole = (result.reply is not None and result.error is None and not result.cancelled
                 and result.reply.status == MessageStatus.COMPLETE)
        versions.settle(core, replaced=whole, reply=result.reply if whole else None)
        return Done(result, TALK)


def write_held(core: Core) -> Done[int]:
    """What a reply brought while the history's server was away (the reply, its ledger
    line: ``cms/context/away.py``), written now that it answers; what that reply replaces
    is settled as its end would have (``versions.settle``). The number written;
    ``ServerAwayError`` while the server is still away."""
    if not core.context.away.waiting():  # (a stat: nothing asked of the gate or server)
        return Done(0, NOTHING)
    with core.gate.hold(Work.REPLY):
        return Done(versions.write_held_first(core), TALK)


def stop(cancel: threading.Event) -> None:
    """Stop the reply under way: the turn runner keeps what arrived, marked incomplete."""
    cancel.set()


def recover(core: Core) -> Done[None]:
    """At start, what a kill left between two transactions (issue 42): an exchange set
    aside by a send whose reply never ended comes back (nothing said is lost), one whose
    reply was stored whole is settled as that send would have; the files a forget leaves
    outside the database are made to match it."""
    with core.gate.hold(Work.REPLY):
        changes = versions.settle(core, replaced=None)
        forget.settle_files(core.db)  # (a forget killed after its commit)
        finish_forgetting(core.db, core.clock.now())  # (and before its backups were)
        return Done(None, changes)
