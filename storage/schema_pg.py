"""The head schema on PostgreSQL (issue 31): what migrations 0001-0019 make on SQLite,
made at once on a new database, then stamped with the head revision.

The tables are the models' (``storage/models.py``, through SQLAlchemy's DDL for
PostgreSQL), plus what SQLite held in raw SQL:

- ``message_vector`` (recall by meaning, migration 0017), its bytes as ``bytea``;
- the partial indexes of the hot path (migrations 0013-0015);
- the triggers, as PL/pgSQL: a new ``rev`` for a changed message or Timeline Index line
  (0011, 0012; 31 bits here, ``integer``), and what goes with a deleted message (its
  vectors, its reply versions, its attachments: 0017-0019), or a changed text (vectors);
- what the search reads (``storage/search_pg.py``): the NFKC-folded text and the rows'
  token counts, kept by a trigger, and ``pg_trgm`` indexes where the server has the
  extension (it answers the same without them, by scanning).

Values are the same on both: ids from sequences start at 1 and grow as SQLite's rowids
do, text is text, so the prompt built from either is byte-identical (tested).
"""

from __future__ import annotations

from typing import Any

from sqlmodel import SQLModel

import storage.models  # noqa: F401  (the tables)

#: How a server's history at an older revision is brought to the next one (under the
#: migration lock, in one transaction): {from: (to, statements)}.
UPGRADES: dict[str, tuple[str, tuple[str, ...]]] = {
    "0019": ("0020", (
        "ALTER TABLE usagerecord ADD COLUMN turn_ttl VARCHAR NOT NULL DEFAULT ''",)),
    # 0021 keeps SQLite from giving a deleted message's id again; a sequence never does
    "0020": ("0021", ()),
}

#: The SQLite revision this schema is. A migration after it must also say how a server's
#: history gets it (``Database._migrate_server`` refuses any revision but the head), and
#: then move this; ``tests/test_postgres.py`` fails until both are done.
WRITTEN_FOR = "0021"

EXTRA = r"""
CREATE TABLE message_vector (
    id BIGSERIAL PRIMARY KEY,
    message_id INTEGER NOT NULL,
    piece INTEGER NOT NULL,
    model VARCHAR NOT NULL,
    bits BYTEA NOT NULL,
    vec BYTEA NOT NULL
);
CREATE UNIQUE INDEX ix_message_vector_message ON message_vector (message_id, model, piece);
CREATE INDEX ix_message_vector_model ON message_vector (model, id);

CREATE INDEX ix_message_raw_day ON message (day) WHERE segment_id IS NULL;
CREATE INDEX ix_message_raw_thread ON message (thread_id) WHERE segment_id IS NULL;
CREATE INDEX ix_fold_unresolved ON fold (id) WHERE resolved_ts IS NULL;
CREATE INDEX ix_timelineentry_pending ON timelineentry (level, id) WHERE summary IS NULL;
CREATE UNIQUE INDEX ix_reply_version_user ON reply_version (user_message_id, number);
CREATE UNIQUE INDEX ix_attachment_message ON attachment (message_id, position);
CREATE INDEX ix_attachment_sha ON attachment (sha256);
-- the attached files' bytes, by content, for every device (storage/attachments.py)
CREATE TABLE attachment_blob (sha256 TEXT PRIMARY KEY, data BYTEA NOT NULL);

CREATE FUNCTION monet_new_rev() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.rev := floor(random() * 2147483647)::integer;
    RETURN NEW;
END $$;

CREATE TRIGGER message_rev_new BEFORE INSERT ON message
    FOR EACH ROW EXECUTE FUNCTION monet_new_rev();
CREATE TRIGGER message_rev BEFORE UPDATE OF thread_id, day, tab, tab_label, role, text,
    content_json, ts, token_estimate, status, segment_id, hidden ON message
    FOR EACH ROW EXECUTE FUNCTION monet_new_rev();
CREATE TRIGGER timelineentry_rev_new BEFORE INSERT ON timelineentry
    FOR EACH ROW EXECUTE FUNCTION monet_new_rev();
CREATE TRIGGER timelineentry_rev BEFORE UPDATE OF level, segment_id, parent_id, day_from,
    day_to, start_ts, end_ts, tabs, first_message_id, summary ON timelineentry
    FOR EACH ROW EXECUTE FUNCTION monet_new_rev();

CREATE FUNCTION monet_message_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM message_vector WHERE message_id = OLD.id;
    DELETE FROM reply_version WHERE user_message_id = OLD.id;
    DELETE FROM attachment WHERE message_id = OLD.id;
    DELETE FROM message_gram WHERE message_id = OLD.id;
    RETURN OLD;
END $$;
CREATE TRIGGER message_gone AFTER DELETE ON message
    FOR EACH ROW EXECUTE FUNCTION monet_message_gone();

CREATE FUNCTION monet_message_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.text IS DISTINCT FROM OLD.text OR NEW.hidden THEN
        DELETE FROM message_vector WHERE message_id = OLD.id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER message_vector_au AFTER UPDATE OF text, hidden ON message
    FOR EACH ROW EXECUTE FUNCTION monet_message_changed();
"""


def create(conn: Any, revision: str) -> None:
    """Make the head schema on ``conn`` (a SQLAlchemy connection in a transaction on an
    empty PostgreSQL database) and stamp it ``revision``. The database must be UTF-8
    (the search folds text with ``normalize``)."""
    from storage import search_pg
    from storage.errors import DatabaseError

    encoding = conn.exec_driver_sql("SHOW server_encoding").scalar()
    if encoding != "UTF8":
        raise DatabaseError(
            "MONET needs a UTF-8 database (this one is {encoding}): CREATE DATABASE monet "
            "ENCODING 'UTF8' TEMPLATE template0; nothing was changed.", encoding=encoding)
    SQLModel.metadata.create_all(conn)
    conn.exec_driver_sql(EXTRA)
    icu = conn.exec_driver_sql(search_pg.HAS_ICU).first() is not None
    conn.exec_driver_sql(search_pg.FOLD_ICU if icu else search_pg.FOLD_LOCALE)
    conn.exec_driver_sql(search_pg.SCHEMA)
    try:
        with conn.begin_nested():
            conn.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except Exception:  # noqa: BLE001 - not installed, or not ours to create: scans instead
        pass
    else:
        for statement in search_pg.TRGM_INDEXES:
            conn.exec_driver_sql(statement)
    conn.exec_driver_sql("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL, "
                         "CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num))")
    conn.exec_driver_sql(f"INSERT INTO alembic_version (version_num) VALUES ('{revision}')")
