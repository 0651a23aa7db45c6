"""storage/direct.py answers as SQLAlchemy's own execution does, on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError
from sqlmodel import col

from storage import Database, direct, queries
from storage.errors import DatabaseError
from storage.models import (
    Message,
    MessageRole,
    MessageStatus,
    Setting,
    ThreadKind,
)


def _store(db: Database, count: int) -> list[int]:
    ids = []
    with db.transaction() as conn:
        thread = queries.day_thread_id(conn, "2026-03-02", "2026-03-02T09:00:00+09:00")
        for i in range(count):
            talk = queries.insert_message(
                conn, thread_id=thread, day="2026-03-02", tab="chat", tab_label="chat",
                role=MessageRole.USER if i % 2 == 0 else MessageRole.ASSISTANT,
                text=f"m{i} 日本語", content_json=None, ts=f"2026-03-02T09:0{i}:00+09:00",
                token_estimate=3 + i, status=MessageStatus.COMPLETE, hidden=i == 3)
            ids.append(talk.id)
    return ids


STATEMENTS = [
    # constants in the statement (an enum, a list), a bool and enum columns read back
    (sa_select(col(Message.id), col(Message.role), col(Message.hidden), col(Message.status))
     .where(col(Message.role) == MessageRole.USER,
            col(Message.tab).in_(["chat", "work"])).order_by(col(Message.id)), {}),
    # an expanding list given at run time, and a limit
    (queries._BY_IDS, {"ids": [2, 4, 5]}),
    (sa_select(col(Message.text)).where(col(Message.day) == bindparam("day"))
     .order_by(col(Message.id).desc()).limit(2), {"day": "2026-03-02"}),
    (queries._NEWEST_ID, {}),
    (queries._PROMPT, {}),
]


@pytest.mark.parametrize("index", range(len(STATEMENTS)))
def test_rows_are_those_sqlalchemy_reads(tmp_path: Path, index: int) -> None:
    db = Database(tmp_path / "home")
    _store(db, 6)
    with db.transaction() as conn:
        queries.load_prompt(conn)  # (makes the prompt state's row)
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
        direct.execute_many(conn, queries._SET_SEGMENT, [])  # nothing to do
        direct.execute(conn, update(Message).where(col(Message.id) == bindparam("mid"))
                       .values(text=bindparam("text")), {"mid": ids[0], "text": "changed"})
        raise RuntimeError("the turn failed")
    with db.transaction() as conn:  # rolled back with the transaction
        assert queries.talk_by_ids(conn, [ids[0]])[0].text == "m0 日本語"
        # an insert with a column left to its Python default (Message.rev), then many rows
        key = direct.execute(conn, insert(Setting), {"key": "k", "value_json": "1"}).lastrowid
        assert key is not None
        direct.execute_many(conn, insert(Setting), [{"key": "a", "value_json": "2"},
                                                    {"key": "b", "value_json": "3"}])
    with db.transaction() as conn:
        assert queries.setting_json(conn, "b") == "3"
        assert queries.day_thread_id(conn, "2026-03-02", "x") == \
            conn.execute(sa_select(col(queries.Thread.id)).where(
                col(queries.Thread.kind) == ThreadKind.DAY)).scalar()
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
            queries.put_setting(conn, "k", "3")
    finally:
        other.rollback()
        other.close()
    db.close()
