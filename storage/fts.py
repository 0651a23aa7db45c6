"""Search across every stored message. SQLite FTS5 with the trigram tokenizer where it
exists (substrings of three characters or more, Japanese included); shorter terms, and
databases without the index, use a plain substring scan. Claude's recall of a Japanese
question ranks through a second index of character bigrams (``message_grams``, see
``grams``). This module and ``storage.database`` are the only ones that know about
SQLite."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy import select as sa_select
from sqlmodel import Session, col

from storage.grams import gram_tokens as gram_tokens  # (re-exported: the search's tokens)
from storage.grams import like_pattern
from storage.models import Message, MessageRole

#: Search looks at what was said, never at tool rows.
ROLES = (MessageRole.USER, MessageRole.ASSISTANT)
#: With a preferred speaker: how many candidates are ranked again, per result wanted.
POOL_FACTOR = 6
OTHER_ROLE_WEIGHT = 0.6
#: The rows searched and embedded (``storage.vectors``): what was said, never tool rows.
SEARCHED_ROLES = "m.role IN (" + ", ".join(f"'{role}'" for role in ROLES) + ")"


@dataclass(frozen=True)
class SearchHit:
    """One stored message a search found."""

    id: int  # the message's id
    day: str
    ts: str
    tab: str
    tab_label: str
    role: MessageRole
    text: str
    hidden: bool = False  # forgotten: the person's search finds it, Claude's never


def _on_server(session: Session) -> bool:
    """Whether the history is on PostgreSQL (``storage/search_pg.py`` answers there)."""
    return session.get_bind().dialect.name != "sqlite"


def _has_table(session: Session, name: str) -> bool:
    if _on_server(session):
        return True  # (made whole by migration 0019's server baseline)
    row = session.connection().execute(
        text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = :name"),
        {"name": name}).first()
    return row is not None


def _has_fts(session: Session) -> bool:
    return _has_table(session, "message_fts")


#: The SQL function the bigram index's triggers call (migration 0016). Every connection
#: that writes ``message`` needs it: ``storage.database`` registers it on each one it
#: opens; another program gets "no such function: monet_grams" rather than a stale index.
GRAMS_FUNCTION = "monet_grams"


def _grams_sql(value: Any) -> str:
    """``monet_grams(CAST(text AS BLOB))``: the bytes, so that a damaged row (not UTF-8)
    reads the same way when it is written and when it is deleted, instead of failing."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", errors="replace")
    return " ".join(gram_tokens(value)) if isinstance(value, str) else ""


def register(dbapi_conn: Any) -> None:
    """Give a driver connection the functions MONET's triggers call."""
    dbapi_conn.create_function(GRAMS_FUNCTION, 1, _grams_sql, deterministic=True)


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


_like = like_pattern  # (the name the scans and their tests use)


_HITS = sa_select(*(col(getattr(Message, name)) for name in (
    "id", "day", "ts", "tab", "tab_label", "role", "text", "hidden"))).where(
    col(Message.id).in_(bindparam("ids", expanding=True)))


def load(session: Session, ids: Sequence[int]) -> list[SearchHit]:
    """The found messages as hits, in the order of ``ids`` (plain rows: a search shows
    up to 200 of them, and ORM objects cost ~10x)."""
    if not ids:
        return []
    rows = {mid: SearchHit(mid, day, ts, tab, label, role, text, bool(hidden))
            for mid, day, ts, tab, label, role, text, hidden
            in session.connection().execute(_HITS, {"ids": list(ids)})}
    return [rows[i] for i in ids if i in rows]


#: A two-character term that starts more distinct trigrams than this is common: the LIKE
#: scan (newest first, stopping at 300) finds it fast; a rarer one goes through the index.
COMMON_PREFIX_TRIGRAMS = 200
#: A two-character word is ranked through at most this many trigrams of the index.
EXPANDED_TRIGRAMS = 120
SHORT_TERM_HITS = 300


def _ascii_lower(term: str) -> str:
    """Lowered as SQLite's lower() and LIKE lower: ASCII letters only."""
    return "".join(c.lower() if c.isascii() else c for c in term)


_PREFIXED = text("SELECT term FROM message_fts_vocab WHERE term >= :a AND term < :b "
                 "LIMIT :most")


def _trigrams_starting(session: Session, term: str, most: int) -> list[str] | None:
    """The index's trigrams that start with ``term`` (the fts5vocab view, migration
    0010), or None when there are more than ``most`` (a common term)."""
    if _on_server(session):
        from storage import search_pg

        return search_pg.trigrams_starting(session, term, most)
    low = term.lower()
    found = [row[0] for row in session.connection().execute(
        _PREFIXED, {"a": low, "b": low + "\U0010ffff", "most": most + 1})]
    return found if len(found) <= most else None


def _short_term_ids(session: Session, term: str, params: dict[str, object], before: str,
                    indexed: bool) -> list[int]:
    """The newest messages containing a term of one or two characters. A rare two-character
    term is found through the trigram index (the trigrams it starts, and the messages that
    end with it, migration 0010); a common one, or one character, by the LIKE scan."""
    conn = session.connection()
    if _on_server(session):
        from storage import search_pg

        return search_pg.short_term_ids(session, term, f"{SEARCHED_ROLES} {before}", params,
                                        SHORT_TERM_HITS)
    if len(term) == 2 and indexed:
        trigrams = _trigrams_starting(session, term, COMMON_PREFIX_TRIGRAMS)
        if trigrams is not None:
            sources = ["SELECT id FROM message WHERE lower(substr(text, -2)) = :tail"]
            values = dict(params, tail=_ascii_lower(term), most=SHORT_TERM_HITS)
            if trigrams:
                sources.append("SELECT rowid FROM message_fts WHERE message_fts MATCH :prefixes")
                values["prefixes"] = " OR ".join(_phrase(t) for t in trigrams)
            sql = (
                f"SELECT m.id FROM message m WHERE {SEARCHED_ROLES} {before} "
                f"AND m.id IN ({' UNION '.join(sources)}) ORDER BY m.id DESC LIMIT :most"
            )
            return [row[0] for row in conn.execute(text(sql), values)]
    sql = (
        f"SELECT m.id FROM message m WHERE {SEARCHED_ROLES} "
        f"AND m.text LIKE :like ESCAPE '\\' {before} ORDER BY m.id DESC LIMIT :most"
    )
    values = dict(params, like=_like(term), most=SHORT_TERM_HITS)
    return [row[0] for row in conn.execute(text(sql), values)]


#: How many more of the index's best matches are read than the pool needs, for the ones
#: the filter leaves out (tool rows, forgotten messages, ids past ``before``).
SCAN_SLACK = 100

def _best_matches(session: Session, params: dict[str, object], before: str,
                  pool: int, index: str = "message_fts") -> list[tuple[int, str, float]]:
    """(id, role, bm25) of the ``pool`` best matches in ``index`` that are searched
    messages, best first (ties: newest first).

    The index ranks its matches by itself (the ``pool`` plus ``SCAN_SLACK``); only those
    are looked up in ``message`` for the filter. Joining every match to ``message`` before
    ranking costs a row lookup per match: 10,380 matches of a Japanese question on a
    year of history, 28 ms instead of 14. The filtered ranking is the unfiltered one with
    rows left out, so the first ``pool`` kept are the same; when the scan keeps fewer and
    the index had more, the joined query answers instead."""
    conn = session.connection()
    if _on_server(session):
        return _best_matches_pg(session, params, before, pool, index)
    scan = pool + SCAN_SLACK
    best = text(f"SELECT rowid, bm25({index}) FROM {index} WHERE {index} MATCH :match "
                f"ORDER BY bm25({index}), rowid DESC LIMIT :scan")
    found = list(conn.execute(best, {"match": params["match"], "scan": scan}))
    roles: dict[int, str] = {}
    if found:
        ids = [row[0] for row in found]
        keep = text(f"SELECT m.id, m.role FROM message m WHERE m.id IN :ids "
                    f"AND {SEARCHED_ROLES} {before}").bindparams(
            bindparam("ids", expanding=True))
        values = {k: v for k, v in params.items() if k == "before"}
        roles = {row[0]: row[1] for row in conn.execute(keep, {**values, "ids": ids})}
    kept = [(mid, roles[mid], score) for mid, score in found if mid in roles][:pool]
    if len(kept) == pool or len(found) < scan:
        return kept
    sql = (
        f"SELECT m.id, m.role, bm25({index}) FROM message m JOIN {index} "
        f"ON {index}.rowid = m.id AND {index} MATCH :match WHERE {SEARCHED_ROLES} "
        f"{before} ORDER BY bm25({index}), m.id DESC LIMIT :pool"
    )
    return [(row[0], row[1], row[2]) for row in conn.execute(text(sql), params)]


def _best_matches_pg(session: Session, params: dict[str, object], before: str, pool: int,
                     index: str) -> list[tuple[int, str, float]]:
    """``_best_matches`` on PostgreSQL: every match ranked as FTS5 ranks it
    (``storage/search_pg.py``), then the filter; the first ``pool`` kept, as SQLite's
    filtered ranking gives them."""
    from storage import search_pg

    phrases = params["phrases"]
    assert isinstance(phrases, list)
    values = {k: v for k, v in params.items() if k == "before"}
    where = f"{SEARCHED_ROLES} {before}"
    if index == "message_grams":
        before_id = params.get("before")
        return search_pg.gram_matches(
            session, phrases, pool, before_id=before_id if isinstance(before_id, int) else None,
            hidden_too=bool(params.get("hidden_too")))
    return search_pg.trigram_matches(session, [t for t, _p in phrases], pool, where, values)


def _preferred(rows: list[tuple[int, str, float]], prefer: MessageRole | None,
               limit: int) -> list[int]:
    """The ids of the ``limit`` best rows, the other speaker's scores weighed by
    ``OTHER_ROLE_WEIGHT`` (bm25() is negative, lower is better: a weight below 1 moves
    a row down)."""
    scored = [
        (score * (1.0 if prefer is None or role == prefer else OTHER_ROLE_WEIGHT), -mid, mid)
        for mid, role, score in rows
    ]
    return [mid for _s, _neg, mid in sorted(scored)[:limit]]


def _filters(limit: int, before_id: int | None,
             include_hidden: bool) -> tuple[dict[str, object], str]:
    params: dict[str, object] = {"limit": int(limit), "hidden_too": include_hidden}
    before = "" if include_hidden else "AND NOT m.hidden"  # forgotten: never for Claude
    if before_id is not None:
        before += " AND m.id < :before"
        params["before"] = int(before_id)
    return params, before


def _pool(limit: int, prefer: MessageRole | None) -> int:
    return max(int(limit) * POOL_FACTOR, 60) if prefer is not None else int(limit)


def has_grams(session: Session) -> bool:
    """Whether this database has the bigram index (SQLite, migration 0016)."""
    return _has_table(session, "message_grams")


def search_grams(
    session: Session, question: str, limit: int, before_id: int | None = None,
    *, prefer: MessageRole | None = None,
) -> list[SearchHit]:
    """Messages sharing character pairs with ``question``, best first by BM25 over the
    bigram index (``gram_tokens``), the other speaker's weighed as in ``search_any``;
    forgotten messages never. Claude's recall of a question in Japanese: on 60 natural
    questions (``benchmarks/recall_ja.py``) this ranks as a bigram BM25 does, where the
    trigram index's terms ranked below it. A word of one character matches the pairs it
    starts too (車 in 車で, 車の). Empty without the index (``has_grams``)."""
    tokens = list(dict.fromkeys(gram_tokens(question)))
    if not tokens or limit <= 0 or not has_grams(session):
        return []
    params, before = _filters(limit, before_id, include_hidden=False)
    params["match"] = " OR ".join(
        _phrase(t) + (f" OR {_phrase(t)}*" if len(t) == 1 and not t.isascii() else "")
        for t in tokens)
    params["phrases"] = [phrase for t in tokens for phrase in (
        [(t, False), (t, True)] if len(t) == 1 and not t.isascii() else [(t, False)])]
    pool = _pool(limit, prefer)
    params["pool"] = pool
    rows = _best_matches(session, params, before, pool, index="message_grams")
    return load(session, _preferred(rows, prefer, limit))


def search_any(
    session: Session, terms: Sequence[str], limit: int, before_id: int | None = None,
    *, include_hidden: bool = False, prefer: MessageRole | None = None,
    rank_short: bool = False,
) -> list[SearchHit]:
    """Messages matching any of ``terms``, best first: what Claude's ``search_history``
    tool asks for, with the terms of a natural-language question.

    Terms of three characters or more are OR-ed into one FTS5 query over the trigram index
    and ranked by ``bm25()`` (rare terms weigh more, long messages less). Shorter terms
    (Japanese words such as 車, English such as "AI"), which trigrams cannot hold, are
    found by a scan and fill the places left, most terms matched first, newest first among
    equals. With ``rank_short`` (Claude's recall), a two-character CJK term ranks too,
    through the index's trigrams that start with it (at most ``EXPANDED_TRIGRAMS``; a
    commoner one is left to the scan). Without the index (another database), everything
    goes through the scan.
    Forgotten messages are left out unless ``include_hidden`` (the person's own search).
    With ``prefer``, the other speaker's messages weigh ``OTHER_ROLE_WEIGHT`` of their BM25
    score: "how many bikes do I own?" is answered by what the person said, not by the
    assistant's many replies that use the same words.
    """
    terms = [t for t in dict.fromkeys(terms) if t]
    if not terms or limit <= 0:
        return []
    long_terms = [t for t in terms if len(t) >= 3]
    indexed_now = _has_fts(session)
    if indexed_now and rank_short:
        # a two-character word (温泉, 解消) weighs in the ranking through the trigrams
        # of the index that start with it (the index holds nothing shorter)
        for term in [t for t in terms if len(t) == 2 and not t.isascii()]:
            long_terms.extend(_trigrams_starting(session, term, EXPANDED_TRIGRAMS) or ())
    fts = bool(long_terms) and indexed_now
    params, before = _filters(limit, before_id, include_hidden)
    ranked: list[int] = []
    if fts:
        params["match"] = " OR ".join(_phrase(t) for t in long_terms)
        params["phrases"] = [(t, False) for t in long_terms]
        pool = _pool(limit, prefer)
        params["pool"] = pool
        ranked = _preferred(_best_matches(session, params, before, pool), prefer, limit)
    scanned = [t for t in terms if len(t) < 3 or not fts]
    if scanned and len(ranked) < limit:
        candidates: dict[int, None] = {}
        for term in scanned:
            found_ids = _short_term_ids(session, term, params, before, indexed_now)
            candidates.update((row, None) for row in found_ids)
        lowered = [t.lower() for t in scanned]
        already = set(ranked)
        found = [m for m in load(session, list(candidates)) if m.id not in already]
        found.sort(key=lambda m: (sum(t in m.text.lower() for t in lowered), m.id),
                   reverse=True)
        ranked += [m.id for m in found[: limit - len(ranked)]]
    return load(session, ranked)


_TERM_DOCS = text("SELECT term, doc FROM message_grams_vocab WHERE term IN :terms").bindparams(
    bindparam("terms", expanding=True))


def document_counts(session: Session, terms: Sequence[str]) -> dict[str, int]:
    """How many messages hold each of ``terms`` (tokens as ``gram_tokens`` makes them);
    {} without the pair index."""
    if not terms or not _has_table(session, "message_grams_vocab"):
        return {}
    if _on_server(session):
        from storage import search_pg

        return search_pg.document_counts(session, terms)
    return {row[0]: int(row[1]) for row in session.connection().execute(
        _TERM_DOCS, {"terms": list(terms)})}
