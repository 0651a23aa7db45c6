"""Forgetting: deleting a message or a whole day, and forgetting a memory, everywhere.

Deleting: the message rows go (the full-text index follows by trigger); their Timeline
Index lines are summarized again from what remains (offline, deterministically) or
removed with their segment; roll-ups over them are condensed again or removed; summaries
written ahead, memory items drawn from them and the daily context summary go too (the
context summary is rewritten from what remains).

Forgetting a memory (deleting or correcting it) makes the old fact unreachable to Claude
in every later request. The person chooses between two depths (window and command line):

- forget only: the item goes; its source messages, Claude's replies to them and other
  messages that repeat the fact word for word are *hidden* (``Message.hidden``): they stay
  in the person's browsable history and search, and are never sent to Claude again: not
  in today's turns, not in ``search_history`` or ``read_day`` results, and the Timeline
  Index lines over them are summarized again without them;
- forget and delete the messages: the same messages are deleted, as above.

Either way the prompt is rebuilt at the next request (``memory_changed``), so no later
request contains what the screen says is gone.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from cms.context.core_prompt import read_core
from cms.context.timeline import FORGOTTEN_TEXT, fill_rollup
from cms.memory import rules as memory
from cms.memory import updates
from cms.memory.context_summary import (
    SUMMARY_FILE,
    OfflineContextWriter,
    select_memories,
    summary_row,
    write_summary_file,
)
from cms.summaries import OfflineSummarizer, Turn
from storage import Database, talk
from storage import attachments as attachment_files
from storage import memory as memory_rows
from storage import timeline as timeline_rows
from storage.database import Session
from storage.errors import ForgetError, MemoryItemError
from storage.memory import latest_summary_text
from storage.models import MemoryItem, Message, MessageRole, Segment, TimelineEntry
from storage.prompt_state import bump_memory
from storage.settings import SCAN_MARKS, put_setting, setting_json
from storage.talk import all_messages, messages_by_ids
from storage.timeline import messages_of_segment


def delete_messages(db: Database, message_ids: Sequence[int], now: datetime) -> int:
    """Delete these messages and everything derived from them, in one transaction
    (issue 42); then the files derived from it (``settle_files``). Returns how many went."""
    with db.session() as session:
        count = delete_in(session, db, message_ids, now)
    settle_files(db)
    return count


def delete_in(session: Session, db: Database, message_ids: Sequence[int],
              now: datetime) -> int:
    """``delete_messages`` inside the caller's transaction (a user action that deletes
    as one of its parts commits once): rows, search entries, Timeline Index lines, the
    memories drawn from them and the context summary. The caller runs ``settle_files``
    after its commit (a kill before then: the next start runs it)."""
    ids = sorted(set(message_ids))
    if not ids:
        return 0
    messages = messages_by_ids(session, ids)
    if not messages:
        raise ForgetError("Those messages do not exist (already deleted?).")
    found = [m.id for m in messages if m.id is not None]
    gone_texts = [m.text for m in messages if m.text]
    segment_ids = {m.segment_id for m in messages if m.segment_id is not None}
    touched = _redact_everywhere(session, gone_texts, set(found))
    segment_ids |= touched.segments
    _forget_memories(session, set(found))
    _drop_presummaries(session, set(found) | touched.rows)
    for message in messages:
        session.delete(message)
    session.flush()
    _lower_the_scan_mark(session)
    noted = _drop_notes_quoting(session, gone_texts)
    for segment_id in segment_ids:
        _rewrite_segment(session, segment_id)
    if segment_ids or noted:  # (talk no line summarizes yet is in no context summary)
        _rewrite_context_summary(session, db, now)
    attachment_files.sweep_history(session)
    bump_memory(session)
    return len(found)


def settle_files(db: Database) -> None:
    """What a forget leaves outside the database, made to match it: the context summary's
    file written from the stored one; the attached files no message holds any more gone
    from the data folder and from the backups kept there. Idempotent: after each forget,
    and at every start (``conversation.recover``) for one killed before it ran."""
    with db.unlocked_reads() as conn:
        latest = latest_summary_text(conn)
        gone = attachment_files.sweep_folder(conn, db.home)
    stored = None if latest is None else latest[1]
    path = db.home / SUMMARY_FILE
    wanted = (stored or "").rstrip() + "\n"
    if (stored is not None or path.exists()) and (
            not path.is_file() or path.read_text("utf-8") != wanted):
        write_summary_file(db.home, stored or "")
    if gone:
        attachment_files.purge_backups(db.home)


def _lower_the_scan_mark(session: Session) -> None:
    """SQLite gives a new message the id after the highest one left, so when the newest
    messages went, the next ones reuse their ids: the memory scan's mark (an id) must not
    stay above them, or "please remember…" said next would never be read (the same for
    the scan for newer values)."""
    top: int | None = None
    for name in SCAN_MARKS:
        mark = setting_json(session, name)
        if mark is None:
            continue
        if top is None:
            top = talk.newest_message_id(session)
        if int(mark) > top:
            put_setting(session, name, str(top))


def _drop_notes_quoting(session: Session, texts: Sequence[str]) -> bool:
    """A Timeline Index line's note of a newer value quotes the person's later sentence:
    when that sentence is forgotten, the note goes (``cms/memory/updates.py``). Whether a
    line changed."""
    changed = False
    if not texts:
        return changed
    for entry in timeline_rows.noting_later_values(session):
        kept = updates.without_notes_of(entry.summary or "", texts)
        if kept != entry.summary:
            entry.summary = kept
            session.add(entry)
            changed = True
    return changed


def delete_day(db: Database, day: str, now: datetime) -> int:
    """A whole day, in one transaction."""
    with db.session() as session:
        ids = [m.id for m in all_messages(session, day) if m.id is not None]
        if not ids:
            raise ForgetError("Nothing is stored for {day}.", day=day)
        count = delete_in(session, db, ids, now)
    settle_files(db)
    return count


def delete_memory(db: Database, item_id: int, now: datetime, *,
                  delete_sources: bool = False) -> int:
    """The person deletes what is remembered: the item goes, and the messages it came from
    are hidden from Claude (or deleted, with ``delete_sources``), in one transaction.
    Returns how many messages were hidden or deleted."""
    with db.session() as session:
        item = session.get(MemoryItem, item_id)
        if item is None:
            raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
        targets = _carriers(session, item)
        memory.delete(session, item_id)
        session.flush()
        if delete_sources and targets:
            delete_in(session, db, targets, now)
        else:
            _hide_in(session, db, targets, now)
    settle_files(db)
    return len(targets)


def carried_texts(db: Database, item_id: int) -> dict[int, str]:
    """The messages deleting a memory with its messages deletes (``_carriers``), by id,
    with their texts (MONET's backups are matched by both: ``forget_in_backups``)."""
    with db.session() as session:
        item = session.get(MemoryItem, item_id)
        if item is None:
            raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
        ids = _carriers(session, item)
        found = messages_by_ids(session, ids) if ids else []
        return {m.id: m.text for m in found if m.id is not None}


def correct_memory(db: Database, item_id: int, text: str, now: datetime) -> None:
    """The person corrects what is remembered: the new text is used from the next request,
    and the old fact's messages are hidden from Claude (they would say the old value)."""
    with db.session() as session:
        item = session.get(MemoryItem, item_id)
        if item is None:
            raise MemoryItemError("No memory item {item_id}.", item_id=item_id)
        targets = _carriers(session, item)
        memory.edit(session, item_id, text)
        session.flush()
        _hide_in(session, db, targets, now, keep_item=item_id)
    settle_files(db)


def hide_messages(db: Database, message_ids: Sequence[int], now: datetime,
                  keep_item: int | None = None) -> None:
    """Hide these messages from Claude, and everything derived from them (one
    transaction)."""
    with db.session() as session:
        _hide_in(session, db, message_ids, now, keep_item)
    settle_files(db)


def _hide_in(session: Session, db: Database, message_ids: Sequence[int], now: datetime,
             keep_item: int | None = None) -> None:
    ids = sorted(set(message_ids))
    messages = messages_by_ids(session, ids) if ids else []
    texts = [m.text for m in messages if m.text]
    segment_ids = {m.segment_id for m in messages if m.segment_id is not None}
    for message in messages:
        message.hidden = True
        session.add(message)
    found = {m.id for m in messages if m.id is not None}
    attachment_files.forget(session, sorted(found))  # pictures, documents, versions
    touched = _redact_everywhere(session, texts, found)
    segment_ids |= touched.segments
    _forget_memories(session, found | touched.rows, keep=keep_item)
    _drop_presummaries(session, found | touched.rows)
    noted = _drop_notes_quoting(session, texts)
    session.flush()
    for segment_id in segment_ids:
        _rewrite_segment(session, segment_id)
    if segment_ids or noted:
        _rewrite_context_summary(session, db, now)
    attachment_files.sweep_history(session)
    bump_memory(session)


def _carriers(session: Session, item: MemoryItem) -> list[int]:
    """The messages that carry a memory's fact: its sources, the person's messages repeating
    it word for word, and Claude's replies to those (up to the person's next message)."""
    said = {int(i) for i in json.loads(item.source_message_ids)}
    fact = item.fact.strip().rstrip("。．.!！")
    if len(fact) >= 10:
        said.update(talk.said_containing(session, fact))
    found: set[int] = set()
    for message_id in sorted(said):
        source = session.get(Message, message_id)
        if source is None:
            continue
        found.add(message_id)
        for reply in talk.after_in_thread(session, source.thread_id, message_id, 20):
            if reply.role == MessageRole.USER:
                break
            if reply.id is not None:
                found.add(reply.id)
    return sorted(found)


def _quotes(value: object, texts: Sequence[str]) -> bool:
    """Does a tool result (parsed JSON, nested) quote one of ``texts``, even truncated?"""
    if isinstance(value, dict):
        return any(_quotes(v, texts) for v in value.values())
    if isinstance(value, list):
        return any(_quotes(v, texts) for v in value)
    if isinstance(value, str) and len(value) >= 2:
        stem = value.strip("…")  # a snippet: cut before, after, or both
        return any(t == value or (len(stem) >= 20 and stem in t) for t in texts)
    return False


@dataclass
class _Touched:
    """What forgetting changed besides the messages it was asked about."""

    segments: set[int] = field(default_factory=set)  # whose TI lines are written again
    rows: set[int] = field(default_factory=set)  # tool rows blanked, answers hidden


def _redact_everywhere(session: Session, texts: Sequence[str], gone: set[int]) -> _Touched:
    """Blank the tool results that quote ``texts`` and hide Claude's answers drawn from
    them; then do the same for what those answers said, until nothing new is hidden."""
    touched = _Touched()
    pending = list(texts)
    while pending:
        pending = _redact_tool_results(session, pending, gone, touched)
    return touched


def _redact_tool_results(session: Session, texts: Sequence[str], gone: set[int],
                         touched: _Touched) -> list[str]:
    """Tool results (search_history, read_day) that quote ``texts`` are blanked, wherever
    they are (today's prompt included). Returns the text of the answers newly hidden."""
    note = "（削除されたメッセージを含む結果のため消去しました）"
    hidden_now: list[str] = []
    for row in talk.tool_results(session):
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
            if row.id is not None:
                touched.rows.add(row.id)
            if row.segment_id is not None:
                touched.segments.add(row.segment_id)
            hidden_now += _hide_answers(session, row, gone, touched)
    return hidden_now


def _hide_answers(session: Session, tool_row: Message, gone: set[int],
                  touched: _Touched) -> list[str]:
    """Claude's words after a tool result that quoted what is gone were drawn from it:
    hidden from Claude too (kept for the person). Returns their texts."""
    texts: list[str] = []
    for reply in talk.after_in_thread(session, tool_row.thread_id, tool_row.id or 0, 20):
        if reply.role == MessageRole.USER:
            break
        if reply.role == MessageRole.ASSISTANT and reply.id not in gone and not reply.hidden:
            reply.hidden = True
            session.add(reply)
            texts.append(reply.text)
            if reply.id is not None:
                touched.rows.add(reply.id)
            if reply.segment_id is not None:
                touched.segments.add(reply.segment_id)
    return texts


def _drop_presummaries(session: Session, ids: set[int]) -> None:
    """Summaries written ahead over any changed message go (the librarian writes them
    again; a wider sweep costs a placeholder at the next fold, never a stale line)."""
    if ids:
        timeline_rows.drop_presummaries_over(session, min(ids), max(ids))


def _forget_memories(session: Session, gone: set[int], keep: int | None = None) -> None:
    for item in memory_rows.every_item(session):
        if item.id != keep and gone & set(json.loads(item.source_message_ids)):
            session.delete(item)


def _rewrite_segment(session: Session, segment_id: int) -> None:
    segment = session.get(Segment, segment_id)
    if segment is None:
        return
    left = list(messages_of_segment(session, segment_id))
    entry = timeline_rows.line_of_segment(session, segment_id)
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
            shown = [Turn(m.role, m.text) for m in left if not m.hidden]
            entry.summary = OfflineSummarizer().summarize(shown) if shown else FORGOTTEN_TEXT
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
    children = timeline_rows.children(session, parent_id)
    grandparent = parent.parent_id
    if not children:
        session.delete(parent)
    else:
        fill_rollup(parent, children, OfflineSummarizer())
        session.add(parent)
    session.flush()
    _rewrite_parent(session, grandparent)


def _rewrite_context_summary(session: Session, db: Database, now: datetime) -> None:
    """Rewrite the context summary from what remains, offline, in the forget's
    transaction (its file follows in ``settle_files``)."""
    from cms.settings import load_settings

    memory_rows.drop_context_summaries(session)
    session.flush()
    settings = load_settings(session)
    selection = select_memories(session, read_core(db), now)
    text = OfflineContextWriter().write(selection) if not selection.empty else ""
    if text:
        session.add(summary_row(selection, text, "offline (after a deletion)", now,
                                settings.day_start_time))
