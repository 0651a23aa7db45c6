"""Deleting a message or a whole day, everywhere it lives.

The message rows go (the full-text index follows by trigger); their Timeline Index lines
are summarized again from what remains (offline, deterministically) or removed with
their segment; roll-ups over them are condensed again or removed; summaries written
ahead, memory items drawn from them and the daily context summary go too (the context
summary is rewritten from what remains). The prompt is rebuilt at the next request
(``memory_changed``), so no later request contains what the screen says is gone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime

from sqlmodel import Session, col, delete, select

from cms.context.timeline import fill_rollup
from cms.librarian.context_summary import (
    OfflineContextWriter,
    select_memories,
    summary_row,
    write_summary_file,
)
from cms.librarian.summarizer import OfflineSummarizer, Turn
from cms.memory import rules as memory
from storage import Database, queries
from storage.errors import ForgetError
from storage.models import (
    ContextSummary,
    MemoryItem,
    Message,
    MessageRole,
    Presummary,
    Segment,
    TimelineEntry,
)


def delete_messages(db: Database, message_ids: Sequence[int], now: datetime) -> int:
    """Delete these messages and everything derived from them. Returns how many went."""
    ids = sorted(set(message_ids))
    if not ids:
        return 0
    with db.session() as session:
        messages = session.exec(select(Message).where(col(Message.id).in_(ids))).all()
        if not messages:
            raise ForgetError("Those messages do not exist (already deleted?).")
        found = [m.id for m in messages if m.id is not None]
        gone_texts = [m.text for m in messages if m.text]
        segment_ids = {m.segment_id for m in messages if m.segment_id is not None}
        segment_ids |= _redact_tool_results(session, gone_texts, set(found))
        _forget_memories(session, set(found))
        session.exec(delete(Presummary).where(
            col(Presummary.first_message_id) <= max(found),
            col(Presummary.last_message_id) >= min(found),
        ))
        for message in messages:
            session.delete(message)
        session.flush()
        for segment_id in segment_ids:
            _rewrite_segment(session, segment_id)
        session.exec(delete(ContextSummary))
        queries.bump_memory(session)
    _rewrite_context_summary(db, now)
    return len(found)


def delete_day(db: Database, day: str, now: datetime) -> int:
    with db.session() as session:
        ids = [m.id for m in queries.all_messages(session, day) if m.id is not None]
    if not ids:
        raise ForgetError(f"Nothing is stored for {day}.")
    return delete_messages(db, ids, now)


def delete_memory(db: Database, item_id: int, now: datetime) -> None:
    """The person deletes what is remembered: gone from the next request and from the
    context summary (rewritten from what remains)."""
    with db.session() as session:
        memory.delete(session, item_id)
        session.exec(delete(ContextSummary))
    _rewrite_context_summary(db, now)


def correct_memory(db: Database, item_id: int, text: str, now: datetime) -> None:
    with db.session() as session:
        memory.edit(session, item_id, text)
        session.exec(delete(ContextSummary))
    _rewrite_context_summary(db, now)


def _quotes(value: object, texts: Sequence[str]) -> bool:
    """Does a tool result (parsed JSON, nested) quote one of ``texts``, even truncated?"""
    if isinstance(value, dict):
        return any(_quotes(v, texts) for v in value.values())
    if isinstance(value, list):
        return any(_quotes(v, texts) for v in value)
    if isinstance(value, str) and len(value) >= 2:
        stem = value.rstrip("…")
        return any(t == value or (len(stem) >= 20 and t.startswith(stem)) for t in texts)
    return False


def _redact_tool_results(session: Session, texts: Sequence[str], gone: set[int]) -> set[int]:
    """Tool results (search_history, read_day) that quote deleted messages are blanked,
    wherever they are (today's prompt included). Returns the segments to rewrite."""
    touched: set[int] = set()
    note = "（削除されたメッセージを含む結果のため消去しました）"
    for row in session.exec(select(Message).where(Message.role == MessageRole.TOOL)).all():
        if row.id in gone or not row.content_json:
            continue
        data = json.loads(row.content_json)
        hit = False
        for block in data.get("result", []):
            content = block.get("content")
            try:
                parsed = json.loads(content) if isinstance(content, str) else content
            except ValueError:
                parsed = content
            if _quotes(parsed, texts):
                block["content"] = note
                hit = True
        if hit:
            row.content_json = json.dumps(data, ensure_ascii=False)
            row.text = note
            session.add(row)
            if row.segment_id is not None:
                touched.add(row.segment_id)
    return touched


def _forget_memories(session: Session, gone: set[int]) -> None:
    for item in session.exec(select(MemoryItem)).all():
        if gone & set(json.loads(item.source_message_ids)):
            session.delete(item)


def _rewrite_segment(session: Session, segment_id: int) -> None:
    segment = session.get(Segment, segment_id)
    if segment is None:
        return
    left = list(queries.messages_of_segment(session, segment_id))
    entry = session.exec(
        select(TimelineEntry).where(TimelineEntry.segment_id == segment_id)
    ).first()
    if not left:
        if entry is not None:
            parent_id = entry.parent_id
            session.delete(entry)
            session.flush()
            _rewrite_parent(session, parent_id)
        session.delete(segment)
        return
    segment.first_message_id = left[0].id or segment.first_message_id
    segment.last_message_id = left[-1].id or segment.last_message_id
    segment.start_ts, segment.end_ts = left[0].ts, left[-1].ts
    segment.tokens = sum(m.token_estimate for m in left)
    session.add(segment)
    if entry is not None:
        entry.first_message_id = segment.first_message_id
        entry.start_ts, entry.end_ts = segment.start_ts, segment.end_ts
        # a librarian summarizing the old turns right now loses its lease: its write fails
        entry.claimed_by, entry.claimed_until = None, None
        if entry.summary is not None:
            entry.summary = OfflineSummarizer().summarize([Turn(m.role, m.text) for m in left])
            entry.summary_source = "offline (after a deletion)"
        session.add(entry)
        session.flush()
        _rewrite_parent(session, entry.parent_id)


def _rewrite_parent(session: Session, parent_id: int | None) -> None:
    """A roll-up over changed lines is condensed again from them, or removed if empty."""
    if parent_id is None:
        return
    parent = session.get(TimelineEntry, parent_id)
    if parent is None:
        return
    children = session.exec(
        select(TimelineEntry).where(TimelineEntry.parent_id == parent_id)
        .order_by(col(TimelineEntry.first_message_id))
    ).all()
    grandparent = parent.parent_id
    if not children:
        session.delete(parent)
    else:
        fill_rollup(parent, children, OfflineSummarizer())
        session.add(parent)
    session.flush()
    _rewrite_parent(session, grandparent)


def _rewrite_context_summary(db: Database, now: datetime) -> None:
    """Rewrite the context summary from what remains, offline, right away."""
    from cms.settings import load_settings

    with db.session() as session:
        settings = load_settings(session)
        selection = select_memories(session, db.home, now)
        text = OfflineContextWriter().write(selection) if not selection.empty else ""
        if text:
            session.add(summary_row(selection, text, "offline (after a deletion)", now,
                                    settings.day_start_time))
    write_summary_file(db.home, text)
