"""What MONET remembers and forgets: memory items, deleting talk, incognito today.

Forgetting reaches everywhere the talk lives (``cms/memory/forget.py``) and is
``Work.FORGET`` in the gate: never beside a reply, so no request carries what goes; the
next request is rebuilt (``memory_changed``). The window and ``monet memory`` /
``monet forget`` call these same functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from cms.memory import forget
from cms.memory import rules as memory
from monet_app.operations.changes import TALK, Changes, Done
from monet_app.services.backup import finish_forgetting, note_forgetting
from monet_app.services.gate import Ticket, Work
from monet_app.services.wiring import Core
from storage import memory as stored_memory
from storage.errors import MemoryItemError
from storage.models import MemoryItem, Message
from storage.talk import all_messages
from ui.items import MemoryRow


def memory_rows(core: Core) -> list[MemoryRow]:
    """The active memory items, each with the person's words it came from (the window)."""
    rows = []
    with core.db.session() as session:
        for item in memory.active_items(session, core.clock.now()):
            sources = [session.get(Message, i) for i in json.loads(item.source_message_ids)]
            source = " / ".join(f"{m.day} [{m.tab_label}] {m.text[:120]}" for m in sources if m)
            history = tuple((older.fact, older.created_ts[:10])
                            for older in memory.history_of(session, item))
            rows.append(MemoryRow(item.id or 0, item.kind, item.status, item.fact, source,
                                  history, item.created_ts[:10]))
    return rows


def add_memory(core: Core, text: str) -> Done[int]:
    """The person adds a fact in their own words (the memory panel, ``monet memory
    add``): one transaction; what it supersedes stays as its history; the next request
    is rebuilt with it (``memory_changed``)."""
    with core.gate.hold(Work.FORGET):
        with core.db.session() as session:
            item = memory.add_by_person(session, text, core.clock.now())
            session.commit()
            item_id = item.id or 0
        core.context.render_forgotten()
    return Done(item_id, TALK)


def all_items(core: Core) -> list[MemoryItem]:
    """Every memory item, whatever its status (``monet memory list``)."""
    with core.db.session() as session:
        items = stored_memory.every_item(session)
        session.expunge_all()
        return list(items)


@dataclass(frozen=True)
class ItemWithSources:
    item: MemoryItem
    sources: list[Message]


def item_with_sources(core: Core, item_id: int) -> ItemWithSources:
    """One item and the messages it came from (``monet memory show``)."""
    with core.db.session() as session:
        item = session.get(MemoryItem, item_id)
        if item is None:
            raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
        sources = [m for i in json.loads(item.source_message_ids)
                   if (m := session.get(Message, i)) is not None]
        session.expunge_all()
        return ItemWithSources(item, sources)


def correct_memory(core: Core, item_id: int, text: str) -> Done[None]:
    """The item says ``text`` from now on; the old value's messages are hidden from
    Claude (kept in the history)."""
    with core.gate.hold(Work.FORGET):
        forget.correct_memory(core.db, item_id, text, core.clock.now())
        core.context.render_forgotten()
    return Done(None, TALK)


def settle_memory(core: Core, item_id: int) -> Done[None]:
    """Of two items MONET could not tell apart, the person keeps this one (the memory
    panel's "Keep this one", ``monet memory keep``): one transaction; the other becomes its
    history, and Claude is told it from the next request."""
    with core.gate.hold(Work.FORGET):
        with core.db.session() as session:
            memory.settle(session, item_id)
            session.commit()
        core.context.render_forgotten()
    return Done(None, TALK)


def delete_memory(core: Core, item_id: int, delete_sources: bool = False, *,
                  ticket: Ticket | None = None) -> Done[int]:
    """Forget an item: its messages stay in the history, hidden from Claude (and in
    MONET's backups, as in the history), or are deleted too (``delete_sources``), MONET's
    own backups included. Returns how many messages it came from."""
    with core.gate.hold(Work.FORGET, ticket):
        gone = forget.carried_texts(core.db, item_id) if delete_sources else {}
        note_forgetting(core.db, gone)
        count = forget.delete_memory(core.db, item_id, core.clock.now(),
                                     delete_sources=delete_sources)
        core.context.render_forgotten()
        finish_forgetting(core.db, core.clock.now())
    return Done(count, TALK)


def delete_day(core: Core, day: str, *, ticket: Ticket | None = None) -> Done[int]:
    """Delete a whole day everywhere, MONET's own backups included; returns how many
    messages went."""
    with core.gate.hold(Work.FORGET, ticket):
        with core.db.session() as session:
            gone = {m.id: m.text for m in all_messages(session, day) if m.id is not None}
        note_forgetting(core.db, gone)
        count = forget.delete_day(core.db, day, core.clock.now())
        core.context.render_forgotten()
        finish_forgetting(core.db, core.clock.now())
    return Done(count, TALK)


def delete_message(core: Core, message_id: int, *,
                   ticket: Ticket | None = None) -> Done[int]:
    """Delete one message everywhere, with what was drawn from it, MONET's own backups
    included."""
    with core.gate.hold(Work.FORGET, ticket):
        with core.db.session() as session:
            found = session.get(Message, message_id)
            gone = {message_id: found.text} if found is not None else {}
        note_forgetting(core.db, gone)
        count = forget.delete_messages(core.db, [message_id], core.clock.now())
        core.context.render_forgotten()
        finish_forgetting(core.db, core.clock.now())
    return Done(count, TALK)


def set_incognito_today(core: Core, today: str, on: bool) -> Done[None]:
    """Mark today incognito (or not): nothing said on it becomes a memory. The librarian
    reads it at its next batch (``Core.privacy``)."""
    with core.gate.hold(Work.NOTE):
        days = [d for d in core.settings.incognito_days if d != today] + ([today] if on else [])
        core.use_settings(core.settings.with_overrides(incognito_days=tuple(sorted(days))))
    return Done(None, Changes(settings=True))
