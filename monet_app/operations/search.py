"""Searching every day, for the person: the window's search field and ``monet search``.

One function for both, so they cannot drift. It is the ranked search Claude's
``search_history`` runs (``cms.context.tools.find``: BM25 over the FTS5 trigram index,
so Japanese substrings work; the likely speaker's words first), with one difference,
decided here: **the person's search also finds the messages hidden from Claude** (the
sources of a forgotten memory, kept in the history by the person's choice), each marked
as hidden, because they are still the person's own history; Claude's search never finds
them. After the first word matches come a few messages related by meaning
(``related``), marked so. Reading only: no gate.
"""

from __future__ import annotations

import logging

from cms.clock import parse_ts
from cms.context.tools import find, query_terms, snippet
from monet_app.operations.changes import Done
from monet_app.services.wiring import Core
from storage import attachments as attachment_files
from storage.fts import SearchHit, load
from ui.items import SearchItem

log = logging.getLogger("monet.search")

#: The window shows this many at most, a page at a time.
RESULT_LIMIT = 200
SNIPPET_CHARS = 160
#: Messages related by meaning: how many, after how many word matches, and from how long
#: a query (one or two characters are a word being typed, not yet a question).
RELATED_LIMIT = 5
RELATED_AFTER = 5
RELATED_MIN_CHARS = 3


def search(core: Core, query: str, limit: int = RESULT_LIMIT) -> Done[list[SearchHit]]:
    """The best ``limit`` messages for ``query``, best first, hidden ones included; the
    messages holding a file with the query in its name come first."""
    with core.db.session() as session:
        named = load(session, attachment_files.messages_named(session, query, limit))
        first = {hit.id for hit in named}
        words = [hit for hit in find(session, query, limit) if hit.id not in first]
        return Done((named + words)[:limit])


def related(core: Core, query: str, limit: int = RELATED_LIMIT,
            leave_out: frozenset[int] = frozenset()) -> Done[list[SearchHit]]:
    """The messages nearest ``query`` by meaning (``cms/meaning.py``), those in
    ``leave_out`` (the word matches) left out. Forgotten messages have no vectors."""
    with core.db.session() as session:
        try:
            # (a few more than wanted, for the ones the words found: asking for as many
            # as the words found re-ranked thousands of vectors, ~100 ms at a year)
            near = core.meaning.near(session, query, limit * 4)
        except Exception as exc:  # noqa: BLE001 - the word matches are shown all the same
            log.warning("related messages left out: %s", exc)
            return Done([])
        ids = [n.message_id for n in near if n.message_id not in leave_out][:limit]
        return Done([hit for hit in load(session, ids) if not hit.hidden])


def search_items(core: Core, query: str, limit: int = RESULT_LIMIT) -> Done[list[SearchItem]]:
    """``search`` as the window shows it: where, who, and the text around the match; after
    the first ``RELATED_AFTER`` word matches, up to ``RELATED_LIMIT`` messages related by
    meaning, marked as such (a question in other words than the message used)."""
    terms = tuple(query_terms(query))

    def item(hit: SearchHit, is_related: bool = False) -> SearchItem:
        return SearchItem(
            hit.id, f"{hit.day} {parse_ts(hit.ts).strftime('%H:%M')} [{hit.tab_label}]",
            hit.role, snippet(" ".join(hit.text.split()), list(terms), SNIPPET_CHARS), terms,
            hidden=hit.hidden, related=is_related,
        )

    words = search(core, query, limit).value
    found = [item(hit) for hit in words]
    if len(query.strip()) >= RELATED_MIN_CHARS:
        near = related(core, query, leave_out=frozenset(hit.id for hit in words)).value
        found[RELATED_AFTER:RELATED_AFTER] = [item(hit, True) for hit in near]
    return Done(found[:limit])
