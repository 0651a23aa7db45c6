"""Searching every day (SQLite FTS5, trigram: Japanese substrings work)."""

from __future__ import annotations

from cms.clock import parse_ts
from monet_app.wiring import Core
from storage import fts
from ui.items import SearchItem

RESULT_LIMIT = 200


def search(core: Core, query: str) -> list[SearchItem]:
    with core.db.session() as session:
        found = fts.search_all(session, query, RESULT_LIMIT)
    return [
        SearchItem(m.id or 0, f"{m.day} {parse_ts(m.ts).strftime('%H:%M')} "
                   f"[{m.tab_label}] {' '.join(m.text.split())[:140]}")
        for m in found
    ]
