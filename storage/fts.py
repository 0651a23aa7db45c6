"""Search across every stored message. SQLite FTS5 with the trigram tokenizer where it
exists (substrings of three characters or more, Japanese included); shorter terms, and
databases without the index, use a plain substring scan. This module and
``storage.database`` are the only ones that know about SQLite."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import text
from sqlmodel import Session, col, select

from storage.models import Message, MessageRole

#: Search looks at what was said, never at tool rows.
ROLES = (MessageRole.USER, MessageRole.ASSISTANT)
_SEARCHED_ROLES = "m.role IN (" + ", ".join(f"'{role}'" for role in ROLES) + ")"


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

    @classmethod
    def of(cls, message: Message) -> SearchHit:
        assert message.id is not None
        return cls(
            id=message.id, day=message.day, ts=message.ts, tab=message.tab,
            tab_label=message.tab_label, role=message.role, text=message.text,
        )


def _has_fts(session: Session) -> bool:
    bind = session.get_bind()
    if bind.dialect.name != "sqlite":
        return False
    row = session.connection().execute(
        text("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_fts'")
    ).first()
    return row is not None


def _phrase(term: str) -> str:
    return '"' + term.replace('"', '""') + '"'


def _like(term: str) -> str:
    return "%" + term.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"


def _load(session: Session, ids: Sequence[int]) -> list[Message]:
    if not ids:
        return []
    rows = {m.id: m for m in session.exec(select(Message).where(col(Message.id).in_(list(ids))))}
    return [rows[i] for i in ids if i in rows]


def search_all(
    session: Session, query: str, limit: int = 50, before_id: int | None = None
) -> list[SearchHit]:
    """Messages containing every whitespace-separated term of ``query``, newest first."""
    terms = [t for t in query.split() if t]
    if not terms:
        return []
    long_terms = [t for t in terms if len(t) >= 3]
    short_terms = [t for t in terms if len(t) < 3]
    params: dict[str, object] = {"limit": int(limit)}
    where = [_SEARCHED_ROLES]
    if before_id is not None:
        where.append("m.id < :before")
        params["before"] = int(before_id)
    join = ""
    if long_terms and _has_fts(session):
        join = "JOIN message_fts ON message_fts.rowid = m.id AND message_fts MATCH :match"
        params["match"] = " AND ".join(_phrase(t) for t in long_terms)
    else:
        short_terms = terms
    for i, term in enumerate(short_terms):
        where.append(f"m.text LIKE :like{i} ESCAPE '\\'")  # LIKE ignores ASCII case
        params[f"like{i}"] = _like(term)
    sql = (
        f"SELECT m.id FROM message m {join} WHERE {' AND '.join(where)} "
        "ORDER BY m.id DESC LIMIT :limit"
    )
    ids = [row[0] for row in session.connection().execute(text(sql), params)]
    return [SearchHit.of(m) for m in _load(session, ids)]


def search_any(
    session: Session, terms: Sequence[str], limit: int, before_id: int | None = None
) -> list[SearchHit]:
    """Messages containing the most of ``terms`` (any of them), best first, newest first
    among equals: what Claude's ``search_history`` tool asks for."""
    terms = [t for t in dict.fromkeys(terms) if t]
    if not terms:
        return []
    candidates: dict[int, None] = {}
    long_terms = [t for t in terms if len(t) >= 3]
    fts = bool(long_terms) and _has_fts(session)
    params: dict[str, object] = {}
    before = ""
    if before_id is not None:
        before = "AND m.id < :before"
        params["before"] = int(before_id)
    if fts:
        params["match"] = " OR ".join(_phrase(t) for t in long_terms)
        sql = (
            "SELECT m.id FROM message m JOIN message_fts ON message_fts.rowid = m.id "
            f"AND message_fts MATCH :match WHERE {_SEARCHED_ROLES} {before} "
            "ORDER BY bm25(message_fts) LIMIT 300"
        )
        candidates.update((row[0], None) for row in session.connection().execute(text(sql), params))
    for i, term in enumerate(t for t in terms if len(t) < 3 or not fts):
        params_i = dict(params, like=_like(term))
        sql = (
            f"SELECT m.id FROM message m WHERE {_SEARCHED_ROLES} "
            f"AND m.text LIKE :like ESCAPE '\\' {before} ORDER BY m.id DESC LIMIT 300"
        )
        del i
        candidates.update(
            (row[0], None) for row in session.connection().execute(text(sql), params_i)
        )
    messages = _load(session, list(candidates))
    lowered = [t.lower() for t in terms]

    def score(m: Message) -> tuple[int, int]:
        body = m.text.lower()
        return (sum(1 for t in lowered if t in body), m.id or 0)

    messages.sort(key=score, reverse=True)
    return [SearchHit.of(m) for m in messages[:limit]]
