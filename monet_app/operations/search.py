"""Searching every day: the same ranked search Claude's ``search_history`` runs (BM25
over the FTS5 trigram index, so Japanese substrings work; best match first)."""

from __future__ import annotations

from cms.clock import parse_ts
from cms.context.tools import find
from monet_app.wiring import Core
from ui.items import SearchItem

RESULT_LIMIT = 200


def search(core: Core, query: str) -> list[SearchItem]:
    with core.db.session() as session:
        found = find(session, query, RESULT_LIMIT)
    return [
        SearchItem(m.id or 0, f"{m.day} {parse_ts(m.ts).strftime('%H:%M')} "
                   f"[{m.tab_label}] {' '.join(m.text.split())[:140]}")
        for m in found
    ]
