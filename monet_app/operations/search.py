"""Searching every day, for the person: the window's search field and ``monet search``.

One function for both, so they cannot drift. It is the ranked search Claude's
``search_history`` runs (``cms.context.tools.find``: BM25 over the FTS5 trigram index,
so Japanese substrings work; the likely speaker's words first), with one difference,
decided here: **the person's search also finds the messages hidden from Claude** (the
sources of a forgotten memory, kept in the history by the person's choice), each marked
as hidden, because they are still the person's own history; Claude's search never finds
them. Reading only: no gate.
"""

from __future__ import annotations

from cms.clock import parse_ts
from cms.context.tools import find, query_terms, snippet
from monet_app.operations.changes import Done
from monet_app.services.wiring import Core
from storage.fts import SearchHit
from ui.items import SearchItem

#: The window shows this many at most, a page at a time.
RESULT_LIMIT = 200
SNIPPET_CHARS = 160


def search(core: Core, query: str, limit: int = RESULT_LIMIT) -> Done[list[SearchHit]]:
    """The best ``limit`` messages for ``query``, best first, hidden ones included."""
    with core.db.session() as session:
        return Done(find(session, query, limit))


def search_items(core: Core, query: str, limit: int = RESULT_LIMIT) -> Done[list[SearchItem]]:
    """``search`` as the window shows it: where, who, and the text around the match."""
    terms = tuple(query_terms(query))
    return Done([
        SearchItem(
            hit.id, f"{hit.day} {parse_ts(hit.ts).strftime('%H:%M')} [{hit.tab_label}]",
            hit.role, snippet(" ".join(hit.text.split()), list(terms), SNIPPET_CHARS), terms,
            hidden=hit.hidden,
        )
        for hit in search(core, query, limit).value
    ])
