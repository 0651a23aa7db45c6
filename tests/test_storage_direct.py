"""storage/direct.py answers as SQLAlchemy's own execution does, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Select, bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from storage import Database, direct, fts
from storage.errors import DatabaseError
from storage.models import (
    Message,
    MessageRole,
    MessageStatus,
    Setting,
    Thread,
    ThreadKind,
)
from storage.prompt_state import _PROMPT, load_prompt
from storage.rows import insert_many
from storage.settings import put_setting, setting_json
from storage.talk import (
    _BY_IDS,
    _NEWEST_ID,
    _TALK_REV,
    TalkReader,
    day_thread_id,
    insert_message,
    talk_by_ids,
    topic_thread_id,
    user_messages_after,
)
from storage.timeline import _SET_SEGMENT, _TOP_LINE_REVS, LineReader, top_level_lines
from tests.helpers import write_between_reads


def _store(db: Database, count: int) -> list[int]:
    ids = []
    with db.transaction() as conn:
        thread = day_thread_id(conn, "2026-03-02", "2026-03-02T09:00:00+09:00")
        for i in range(count):
            talk = insert_message(
                conn, thread_id=thread, day="2026-03-02", tab="chat", tab_label="chat",
                role=MessageRole.USER if i % 2 == 0 else MessageRole.ASSISTANT,
                text=f"m{i} 日本語", content_json=None, ts=f"2026-03-02T09:0{i}:00+09:00",
                token_estimate=3 + i, status=MessageStatus.COMPLETE, hidden=i == 3)
            ids.append(talk.id)
    return ids


STATEMENTS: list[tuple[Select[*tuple[Any, ...]], dict[str, object]]] = [
    # constants in the statement (an enum, a list), a bool and enum columns read back
    (sa_select(col(Message.id), col(Message.role), col(Message.hidden), col(Message.status))
     .where(col(Message.role) == MessageRole.USER,
            col(Message.tab).in_(["chat", "work"])).order_by(col(Message.id)), {}),
    # an expanding list given at run time, and a limit
    (_BY_IDS, {"ids": [2, 4, 5]}),
    (sa_select(col(Message.text)).where(col(Message.day) == bindparam("day"))
     .order_by(col(Message.id).desc()).limit(2), {"day": "2026-03-02"}),
    (_NEWEST_ID, {}),
    (_PROMPT, {}),
]


@pytest.mark.parametrize("index", range(len(STATEMENTS)))
def test_rows_are_those_sqlalchemy_reads(tmp_path: Path, index: int) -> None:
    db = Database(tmp_path / "home")
    _store(db, 6)
    with db.transaction() as conn:
        load_prompt(conn)  # (makes the prompt state's row)
    statement, params = STATEMENTS[index]
    with db.transaction() as conn:
        expected = [tuple(row) for row in conn.execute(statement, params)]
        got = direct.execute(conn, statement, params).all()
        assert got == expected and got
        assert [type(v) for v in got[0]] == [type(v) for v in expected[0]]
        again = direct.execute(conn, statement, params)  # the plan, used a second time
        assert again.first() == expected[0]
    db.close()


def test_writes_land_in_the_connection_s_transaction(tmp_path: Path) -> None:
    db = Database(tmp_path / "home")
    ids = _store(db, 4)
    with pytest.raises(RuntimeError), db.transaction() as conn:
        direct.execute_many(conn, _SET_SEGMENT, [])  # nothing to do
        direct.execute(conn, update(Message).where(col(Message.id) == bindparam("mid"))
                       .values(text=bindparam("text")), {"mid": ids[0], "text": "changed"})
        raise RuntimeError("the turn failed")
    with db.transaction() as conn:  # rolled back with the transaction
        assert talk_by_ids(conn, [ids[0]])[0].text == "m0 日本語"
        # an insert with a column left to its Python default (Message.rev), then many rows
        key = direct.execute(conn, insert(Setting), {"key": "k", "value_json": "1"}).lastrowid
        assert key is not None
        direct.execute_many(conn, insert(Setting), [{"key": "a", "value_json": "2"},
                                                    {"key": "b", "value_json": "3"}])
    with db.transaction() as conn:
        assert setting_json(conn, "b") == "3"
        assert day_thread_id(conn, "2026-03-02", "x") == \
            conn.execute(sa_select(col(Thread.id)).where(
                col(Thread.kind) == ThreadKind.DAY)).scalar()
    db.close()


def test_driver_errors_are_sqlalchemy_s_and_explained(tmp_path: Path) -> None:
    import sqlite3

    db = Database(tmp_path / "home", busy_timeout_ms=50)
    _store(db, 1)
    with pytest.raises(IntegrityError), db.transaction() as conn:  # a unique key refuses
        direct.execute(conn, insert(Setting), {"key": "k", "value_json": "1"})
        direct.execute(conn, insert(Setting), {"key": "k", "value_json": "2"})
    other = sqlite3.connect(db.path)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    try:
        with pytest.raises(DatabaseError, match="locked by another program"), \
                db.transaction() as conn:
            put_setting(conn, "k", "3")
    finally:
        other.rollback()
        other.close()
    db.close()


def _line_row(day: str, first: int, summary: str | None) -> dict[str, object]:
    return {"level": "day", "segment_id": None, "parent_id": None, "day_from": day,
            "day_to": day, "start_ts": f"{day}T09:00:00+09:00",
            "end_ts": f"{day}T10:00:00+09:00", "tabs": "chat", "first_message_id": first,
            "summary": summary, "summary_source": None, "summarized_ts": None, "attempts": 0}


def test_ti_lines_kept_between_renders_follow_every_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader that keeps the TI's lines between rebuilds (LineReader) answers
    what a fresh read answers after another process wrote a summary, rolled a line up, or
    deleted the newest line and made a new one with its id; and a line changed and then
    deleted between its two reads is not answered from what it held."""
    import sqlite3

    from storage.models import TimelineEntry

    db = Database(tmp_path / "home")
    with db.transaction() as conn:
        insert_many(conn, TimelineEntry, [
            _line_row("2026-03-01", 1, None), _line_row("2026-03-02", 5, "二日目の話"),
            _line_row("2026-03-03", 9, "三日目の話")])
    reader = LineReader()
    with db.transaction() as conn:
        assert [line.summary for line in reader.top_level(conn)] == [
            None, "二日目の話", "三日目の話"]
    with sqlite3.connect(db.path) as other:
        other.execute("UPDATE timelineentry SET summary = '一日目の話' WHERE id = 1")
        other.execute("DELETE FROM timelineentry WHERE id = 3")
        other.execute("INSERT INTO timelineentry (id, level, day_from, day_to, start_ts, "
                      "end_ts, tabs, first_message_id, summary, attempts) VALUES (3, 'day', "
                      "'2026-03-03', '2026-03-03', 'a', 'b', 'chat', 9, '書き直した話', 0)")
        other.execute("INSERT INTO timelineentry (id, level, day_from, day_to, start_ts, "
                      "end_ts, tabs, first_message_id, summary, attempts) VALUES (4, 'week', "
                      "'2026-03-02', '2026-03-02', 'a', 'b', 'chat', 5, '週の話', 0)")
        other.execute("UPDATE timelineentry SET parent_id = 4 WHERE id = 2")
    with db.transaction() as conn:
        kept = reader.top_level(conn)
        assert kept == top_level_lines(conn)
        assert [line.summary for line in kept] == ["一日目の話", "週の話", "書き直した話"]

    other = sqlite3.connect(db.path)

    def delete_line() -> None:
        other.execute("DELETE FROM timelineentry WHERE id = 1")
        other.commit()

    with sqlite3.connect(db.path) as writer:
        writer.execute("UPDATE timelineentry SET summary = '消される話' WHERE id = 1")
    write_between_reads(monkeypatch, _TOP_LINE_REVS, delete_line)
    with db.transaction() as conn:
        assert [line.summary for line in reader.top_level(conn)] == ["週の話", "書き直した話"]
    other.close()
    db.close()


def test_a_damaged_page_met_while_rows_are_read_is_explained(tmp_path: Path) -> None:
    """sqlite3 reads a row when it is fetched: a damaged page met after the first row
    must still come out as the plain sentence, not a raw driver error."""
    import sqlite3

    home = tmp_path / "home"
    db = Database(home)
    with db.transaction() as conn:
        thread = day_thread_id(conn, "2026-03-02", "2026-03-02T09:00:00+09:00")
        for i in range(400):
            insert_message(
                conn, thread_id=thread, day="2026-03-02", tab="chat", tab_label="chat",
                role=MessageRole.USER, text=f"m{i} " + "x" * 900, content_json=None,
                ts="2026-03-02T09:00:00+09:00", token_estimate=3,
                status=MessageStatus.COMPLETE, hidden=False)
    db.close()
    raw = sqlite3.connect(home / "monet.db")
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    raw.execute("PRAGMA journal_mode=DELETE")
    size = raw.execute("PRAGMA page_size").fetchone()[0]
    leaves = [row[0] for row in raw.execute(
        "SELECT pageno FROM dbstat WHERE name = 'message' AND pagetype = 'leaf' "
        "ORDER BY pageno")]
    raw.close()
    data = bytearray((home / "monet.db").read_bytes())
    page = leaves[-2] - 1  # (dbstat counts pages from 1)
    data[page * size:(page + 1) * size] = b"\xff" * size
    (home / "monet.db").write_bytes(bytes(data))
    db = Database(home, migrate=False)
    with pytest.raises(DatabaseError, match="is damaged"), db.transaction() as conn:
        user_messages_after(conn, 0)
    db.close()


def test_a_line_read_in_a_rolled_back_transaction_is_not_kept(tmp_path: Path) -> None:
    """A rebuild that fails ("prompt too long") rolls back what its render read; the next
    change to that line must not come back with the revision the reader holds."""
    from storage.models import TimelineEntry

    db = Database(tmp_path / "home")
    with db.transaction() as conn:
        insert_many(conn, TimelineEntry, [_line_row("2026-01-01", 1, "C0")])
    reader = LineReader()
    with db.transaction() as conn:
        assert [line.summary for line in reader.top_level(conn)] == ["C0"]
    with pytest.raises(RuntimeError), db.transaction() as conn:
        conn.execute(update(TimelineEntry).values(summary="C1, rolled back"))
        assert [line.summary for line in reader.top_level(conn)] == ["C1, rolled back"]
        raise RuntimeError("the prompt is too long")
    with db.transaction() as conn:  # one change, later (a forget rewriting the line)
        conn.execute(update(TimelineEntry).values(summary="C2"))
    with db.transaction() as conn:
        assert [line.summary for line in reader.top_level(conn)] == ["C2"]
    db.close()


@pytest.mark.parametrize("deferred", [True, False])
def test_the_path_before_a_request_leaves_no_wal_checkpoint(tmp_path: Path,
                                                            deferred: bool) -> None:
    """SQLite checkpoints the WAL (syncing the database file) on whichever commit finds it
    over 1,000 pages. The message's commit and the request's preparation defer it to the
    next commit that does not, such as storing the reply; the setting is restored."""
    import sqlite3

    db = Database(tmp_path / "home")
    for i in range(60):  # ~6 MB: past 1,000 pages of 4 KB
        with db.transaction(defer_checkpoint=deferred) as conn:
            put_setting(conn, f"big{i}", '"' + "x" * 100_000 + '"')
    other = sqlite3.connect(db.path)
    _busy, frames, _done = other.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    other.close()
    if deferred:
        assert frames > 1000  # nothing was checkpointed on the way
    else:
        assert frames < 1000  # SQLite's own checkpoint ran on some commit
    with db.transaction() as conn:  # the pooled connection has SQLite's default again
        assert conn.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 1000
    db.close()


def test_coming_back_to_a_thread_finds_its_talk_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The thread model reads the talk of the thread the person is in; the reader keeps
    each thread's rows (KEPT_READS reads), so coming back to a thread reads only
    its ids and revisions, and in full only what changed meanwhile."""
    import sqlite3

    db = Database(tmp_path / "home")
    with db.transaction() as conn:
        threads = {title: topic_thread_id(conn, title, "2026-03-02T09:00:00+09:00")
                   for title in ("work", "chat")}
        for title, thread in threads.items():
            for i in range(3):
                insert_message(
                    conn, thread_id=thread, day="2026-03-02", tab=title, tab_label=title,
                    role=MessageRole.USER, text=f"{title}{i}", content_json=None,
                    ts="2026-03-02T09:00:00+09:00", token_estimate=3,
                    status=MessageStatus.COMPLETE, hidden=False)
    reader = TalkReader()
    full_reads: list[list[int]] = []
    real = direct.execute

    def execute(conn: object, statement: object, params: object = None) -> object:
        if statement is _TALK_REV:
            full_reads.append(sorted(params["ids"]))  # type: ignore[index]
        return real(conn, statement, params)  # type: ignore[arg-type]

    monkeypatch.setattr(direct, "execute", execute)
    with db.transaction() as conn:
        for title in ("work", "chat", "work", "chat"):
            assert [t.text for t in reader.raw_of_thread(conn, threads[title])] == [
                f"{title}{i}" for i in range(3)]
    assert full_reads == [[1, 2, 3], [4, 5, 6]]  # once each, not at each switch
    with sqlite3.connect(db.path) as other:  # another process edits a held message
        fts.register(other)  # as every MONET process does
        other.execute("UPDATE message SET text = 'work1 直した' WHERE id = 2")
    with db.transaction() as conn:
        assert [t.text for t in reader.raw_of_thread(conn, threads["work"])] == [
            "work0", "work1 直した", "work2"]
    assert full_reads[-1] == [2]
    db.close()
