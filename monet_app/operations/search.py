"""Searching every day: the same ranked search Claude's ``search_history`` runs (BM25
over the FTS5 trigram index, so Japanese substrings work; best match first)."""

from __future__ import annotations

from cms.clock import parse_ts
from cms.context.tools import query_terms, snippet
from monet_app.services.wiring import Core
from storage import fts
from ui.items import SearchItem

RESULT_LIMIT = 200
SNIPPET_CHARS = 160


def search(core: Core, query: str) -> list[SearchItem]:
    terms = query_terms(query)
    with core.db.session() as session:
        found = fts.search_any(session, terms, RESULT_LIMIT)
    return [
        SearchItem(
            m.id, f"{m.day} {parse_ts(m.ts).strftime('%H:%M')} [{m.tab_label}]", m.role,
            snippet(" ".join(m.text.split()), terms, SNIPPET_CHARS), tuple(terms),
        )
        for m in found
    ]
