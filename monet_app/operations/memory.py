"""What MONET remembers and forgets: memory items, deleting talk, incognito days.

Deleting reaches everywhere the talk lives (``cms/memory/forget.py``); the next request
is rebuilt (``memory_changed``).
"""

from __future__ import annotations

import json

from cms.memory import forget
from cms.memory import rules as memory
from monet_app.services.wiring import Core
from storage.models import Message
from ui.items import MemoryRow


def memory_rows(core: Core) -> list[MemoryRow]:
    """The active memory items, each with the person's words it came from."""
    rows = []
    with core.db.session() as session:
        for item in memory.active_items(session, core.clock.now()):
            sources = [session.get(Message, i) for i in json.loads(item.source_message_ids)]
            source = " / ".join(f"{m.day} [{m.tab_label}] {m.text[:120]}" for m in sources if m)
            rows.append(MemoryRow(item.id or 0, item.kind, item.status, item.fact, source))
    return rows


def correct_memory(core: Core, item_id: int, text: str) -> None:
    forget.correct_memory(core.db, item_id, text, core.clock.now())


def delete_memory(core: Core, item_id: int, delete_sources: bool = False) -> None:
    """Forget an item: its messages stay in the history, hidden from Claude, or are
    deleted too (``delete_sources``)."""
    forget.delete_memory(core.db, item_id, core.clock.now(), delete_sources=delete_sources)


def delete_day(core: Core, day: str) -> int:
    """Delete a whole day everywhere; returns how many messages went."""
    return forget.delete_day(core.db, day, core.clock.now())


def delete_message(core: Core, message_id: int) -> int:
    return forget.delete_messages(core.db, [message_id], core.clock.now())


def delete_messages(core: Core, message_ids: list[int]) -> int:
    """Delete several messages (an exchange being regenerated or edited); 0 if none."""
    if not message_ids:
        return 0
    return forget.delete_messages(core.db, message_ids, core.clock.now())


def set_incognito_today(core: Core, today: str, on: bool) -> None:
    """Mark today incognito (or not): nothing said on it becomes a memory."""
    days = [d for d in core.settings.incognito_days if d != today] + ([today] if on else [])
    core.use_settings(core.settings.with_overrides(incognito_days=tuple(sorted(days))))
