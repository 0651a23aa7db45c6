"""The database file: migrations, refusing a newer schema, and clear words on damage."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Select
from sqlmodel import select

from storage import Database, DatabaseError, DatabaseTooNewError, default_home
from storage.models import Message, MessageRole, Thread, ThreadKind

HEAD = "0021"  # the newest migration in storage/migrations/versions


def test_the_head_revision_constant_is_alembics_head() -> None:
    """``HEAD_REVISION`` spares every start alembic's import; it must follow the scripts."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from storage.database import HEAD_REVISION, MIGRATIONS_DIR

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD_REVISION == HEAD


@pytest.mark.sqlite_only
def test_a_new_home_from_the_schema_snapshot_is_what_the_migrations_make(
    tmp_path: Path,
) -> None:
    """A new home is made from storage/schema.sql; an old one is upgraded by alembic. Both
    must end with the same tables, indexes, triggers and search tables."""
    from storage import schema, write_schema

    migrated = schema.dump(write_schema.from_migrations(tmp_path / "migrated"))
    assert schema.statements(schema.SCHEMA_FILE.read_text(encoding="utf-8")) == \
        schema.statements(migrated), "storage/schema.sql is stale: run python -m storage.write_schema"
    snapshot = Database(tmp_path / "snapshot")
    assert snapshot.schema_revision() == HEAD
    assert schema.dump(snapshot.path) == migrated
    with snapshot.session() as session:  # the search triggers work on a snapshot home
        session.add(Thread(kind=ThreadKind.DAY, day="2026-01-01", title="d", created_ts="t"))
        session.flush()
        session.add(Message(thread_id=1, day="2026-01-01", tab="chat", tab_label="chat",
                            role=MessageRole.USER, text="盆栽の水やり", ts="t", token_estimate=3))
    from storage import fts
    with snapshot.session() as session:
        assert [h.text for h in fts.search_any(session, ["盆栽の", "盆栽"], 5)] == \
            ["盆栽の水やり"]
    snapshot.close()


@pytest.mark.sqlite_only
def test_the_chain_makes_what_the_models_say(tmp_path: Path) -> None:
    """The migrations and ``storage/models.py`` agree: alembic finds no model table,
    column or index the chain does not make, nor one of another type (the same check runs
    on a server's history in tests/test_postgres.py)."""
    from storage import write_schema
    from tests.helpers import differences_from_the_models

    path = write_schema.from_migrations(tmp_path / "migrated")
    db = Database(path.parent)
    with db.transaction() as conn:
        assert differences_from_the_models(conn) == []
    db.close()


@pytest.mark.sqlite_only
def test_fresh_home_is_migrated_to_head_in_wal(tmp_path: Path) -> None:
    db = Database(tmp_path / "h")
    assert db.schema_revision() == HEAD
    with sqlite3.connect(db.path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    again = Database(tmp_path / "h")  # reopening is a no-op
    assert again.schema_revision() == HEAD
    again.close()


@pytest.mark.sqlite_only
def test_the_reads_before_every_request_do_not_grow_with_the_history(tmp_path: Path) -> None:
    """Before every request the day's unfolded talk is read (sunset model) and the folds
    that may be resolved are asked for; the thread model's fold at a switch reads the
    thread's unfolded talk; the librarian and the status bar ask for the lines waiting for
    a summary. Through the partial indexes of migrations 0013-0015, which hold only
    messages not yet folded, folds not yet resolved and lines without a summary, not by
    testing every message of the day or the thread or every line, or joining every
    segment."""
    from storage.talk import _REVS_OF_DAY, _UNSEGMENTED_OF_THREAD, TalkReader
    from storage.timeline import _PENDING_IDS, _RESOLVABLE_FOLDS, resolvable_folds

    db = Database(tmp_path / "h")
    with db.session() as session:
        session.add(Thread(kind=ThreadKind.DAY, day="2026-01-01", title="d", created_ts="t"))
        session.flush()
        for i in range(3):
            session.add(Message(thread_id=1, day="2026-01-01", tab="chat", tab_label="chat",
                                role=MessageRole.USER, text=f"m{i}", ts="t", token_estimate=1))
    reads: dict[str, tuple[Select[*tuple[Any, ...]], dict[str, object]]] = {
        "ix_message_raw_day": (_REVS_OF_DAY, {"day": "2026-01-01"}),
        "ix_message_raw_thread": (_UNSEGMENTED_OF_THREAD, {"thread": 1}),
        "ix_fold_unresolved": (_RESOLVABLE_FOLDS, {}),
        "ix_timelineentry_pending": (_PENDING_IDS, {})}
    with db.transaction() as session:
        conn = session.connection()
        for index, (statement, given) in reads.items():
            compiled = statement.compile(dialect=conn.dialect)
            values = {**compiled.params, **given}
            params = tuple(values[name] for name in compiled.positiontup or ())
            plan = conn.exec_driver_sql(f"EXPLAIN QUERY PLAN {compiled}", params).all()
            assert any(index in str(row[-1]) for row in plan), (index, plan)
        day_talk = TalkReader().raw_of_day(session, "2026-01-01")
        assert resolvable_folds(session) == {}
    assert [t.text for t in day_talk] == ["m0", "m1", "m2"]
    db.close()


@pytest.mark.sqlite_only
def test_monet_home_moves_the_data_folder(home: Path) -> None:
    assert default_home() == home
    db = Database()
    assert db.path == home / "monet.db" and db.path.exists()
    db.close()


@pytest.mark.sqlite_only
def test_database_newer_than_the_code_is_refused(tmp_path: Path) -> None:
    Database(tmp_path / "h").close()
    path = tmp_path / "h" / "monet.db"
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '9999_future'")
    before = path.read_bytes()
    with pytest.raises(DatabaseTooNewError) as info:
        Database(tmp_path / "h")
    assert "newer MONET" in str(info.value)
    assert path.read_bytes() == before


@pytest.mark.sqlite_only
def test_damaged_database_gives_a_clear_error(tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    (home / "monet.db").write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(DatabaseError) as info:
        Database(home)
    assert "damaged" in str(info.value)
    assert (home / "monet.db").read_bytes().startswith(b"this is not sqlite")


@pytest.mark.sqlite_only
def test_locked_database_gives_a_clear_error_and_keeps_data(tmp_path: Path) -> None:
    db = Database(tmp_path / "h", busy_timeout_ms=200)
    with db.session() as session:
        thread = Thread(kind=ThreadKind.DAY, day="2026-03-02", title="2026-03-02", created_ts="t")
        session.add(thread)
    locker = sqlite3.connect(db.path, check_same_thread=False)
    locker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(DatabaseError) as info, db.session() as session:
            session.add(
                Message(
                    thread_id=thread.id or 0, day="2026-03-02", tab="chat", tab_label="c",
                    role=MessageRole.USER, text="x", ts="2026-03-02T09:00:00+09:00", token_estimate=1,
                )
            )
        assert "locked" in str(info.value)
    finally:
        locker.rollback()
        locker.close()
    with db.session() as session:
        assert session.exec(select(Thread)).all()
    db.close()


def test_two_writers_in_threads_lose_nothing(tmp_path: Path) -> None:
    db = Database(tmp_path / "h")
    with db.session() as session:
        thread = Thread(kind=ThreadKind.DAY, day="2026-03-02", title="2026-03-02", created_ts="t")
        session.add(thread)
    assert thread.id is not None

    def write(prefix: str) -> None:
        for i in range(50):
            with db.session() as session:
                session.add(
                    Message(
                        thread_id=thread.id or 0, day="2026-03-02", tab="chat", tab_label="c",
                        role=MessageRole.USER, text=f"{prefix}{i}", ts="2026-03-02T09:00:00+09:00",
                        token_estimate=1,
                    )
                )

    workers = [threading.Thread(target=write, args=(p,)) for p in "ab"]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    with db.session() as session:
        assert len(session.exec(select(Message)).all()) == 100
    db.close()


@pytest.mark.sqlite_only
def test_an_old_schema_is_upgraded_and_keeps_its_data(tmp_path: Path) -> None:
    from alembic import command

    from storage.database import alembic_config

    home = tmp_path / "h"
    db = Database(home, migrate=False)
    with db.engine.begin() as conn:
        command.upgrade(alembic_config(conn), "0001")
    with db.session() as session:
        session.add(Thread(kind=ThreadKind.DAY, day="2026-03-02", title="2026-03-02", created_ts="t"))
    db.close()
    upgraded = Database(home)
    assert upgraded.schema_revision() == HEAD
    with upgraded.session() as session:
        assert [t.day for t in session.exec(select(Thread)).all()] == ["2026-03-02"]
    upgraded.close()


def test_a_race_is_not_turned_into_a_sentence(tmp_path: Path) -> None:
    """Two writers claiming one row is a race the code handles where it expects it; it is
    not the person's problem and never becomes a "database error" sentence."""
    from sqlalchemy.exc import IntegrityError

    from storage.models import Presummary

    db = Database(tmp_path / "h")

    def claim() -> None:
        with db.session() as session:
            session.add(Presummary(first_message_id=1, last_message_id=2, summary="",
                                   source="claim:a", created_ts="2026-03-02T09:00:00+09:00"))

    claim()
    with pytest.raises(IntegrityError):
        claim()
    db.close()


@pytest.mark.sqlite_only
def test_an_emptied_database_is_not_taken_for_a_new_home(tmp_path: Path) -> None:
    from storage.errors import DatabaseError

    home = tmp_path / "home"
    home.mkdir()
    (home / "monet.db").write_bytes(b"")
    with pytest.raises(DatabaseError) as info:
        Database(home)
    assert "empty (0 bytes)" in str(info.value)
    assert (home / "monet.db").stat().st_size == 0  # nothing was changed


def test_the_prompt_state_made_by_two_processes_at_once_is_one_row(tmp_path: Path) -> None:
    """A replay and a watching librarian on a new home may both find no prompt state and
    make it: the second one finds it made, nothing fails."""
    from storage.models import PromptState
    from storage.prompt_state import _ensure_prompt_state, set_turn_state, turn_state

    first, second = Database(tmp_path / "home"), Database(tmp_path / "home")
    try:
        with first.transaction() as a:
            assert turn_state(a) == ("", "", None)  # made here
        with second.transaction() as b:
            _ensure_prompt_state(b)  # as the other process, a moment later
            set_turn_state(b, librarian_last_run_ts="2026-03-02T09:00:00+09:00")
        with first.session() as session:
            assert len(session.exec(select(PromptState)).all()) == 1
    finally:
        first.close()
        second.close()


def test_a_copy_keeps_roll_ups_made_after_the_lines_they_gather(tmp_path: Path) -> None:
    """A Timeline Index roll-up is written after the lines it gathers, so a line names a
    later row as its parent: the copy writes every row, then the parents (a year-size
    history could not be moved before)."""
    from storage.copy import copy_checked
    from storage.models import TimelineEntry, TimelineLevel

    source = Database(tmp_path / "source")
    with source.session() as session:
        lines = [TimelineEntry(level=TimelineLevel.SEGMENT, day_from="2026-03-0" + str(d),
                               day_to="2026-03-0" + str(d), start_ts="t", end_ts="t",
                               tabs="chat", first_message_id=d, summary=f"day {d}")
                 for d in (1, 2)]
        session.add_all(lines)
        session.flush()
        week = TimelineEntry(level=TimelineLevel.WEEK, day_from="2026-03-01",
                             day_to="2026-03-07", start_ts="t", end_ts="t", tabs="chat",
                             first_message_id=1, summary="the week")
        session.add(week)
        session.flush()
        for line in lines:
            line.parent_id = week.id
    target = Database(tmp_path / "target")
    report = copy_checked(source, target)
    assert report.rows["timelineentry"] == 3
    with target.session() as session:
        parents = {e.summary: e.parent_id for e in session.exec(select(TimelineEntry))}
    assert parents["day 1"] == parents["day 2"] != None  # noqa: E711
    assert parents["the week"] is None
    source.close()
    target.close()


@pytest.mark.sqlite_only
def test_a_schema_older_than_any_this_monet_knows_is_not_called_newer(tmp_path) -> None:
    """A revision this MONET does not know is said as what it is: below the head, an older
    build's (open it there and bring a backup), above it, a newer MONET's."""
    from sqlalchemy import create_engine, text

    from storage import Database
    from storage.errors import DatabaseError, DatabaseTooNewError

    for revision, said, kind in (("0000a", "older MONET", DatabaseError),
                                 ("9999", "newer MONET", DatabaseTooNewError)):
        home = tmp_path / revision
        Database(home).close()
        engine = create_engine(f"sqlite:///{home / 'monet.db'}")
        with engine.begin() as conn:
            conn.execute(text("UPDATE alembic_version SET version_num = :r"), {"r": revision})
        engine.dispose()
        with pytest.raises(kind) as raised:
            Database(home)
        assert said in str(raised.value)
