"""pictures and documents attached to the person's messages

A file is kept in the data folder under ``attachments/`` by its SHA-256 (the original as
it came, and what is sent when a picture was scaled down), and listed here with its
message, in the order attached. Deleting the message takes its rows in the same
transaction (the trigger); forgetting it deletes them in the forget's transaction
(``cms.memory.forget.hide_messages``): ``hidden`` alone also marks an exchange set aside
while a send replaces it, which must come back whole if the send fails, so no trigger
acts on it (0018's ``reply_version_au`` is dropped here for the same reason). The files
no row names any more are then removed from the folder (``storage.attachments.sweep``).

On a PostgreSQL server this revision is where a history begins: its whole schema as of
0019 (``_server_baseline``); 0001-0018 do nothing there.

Revision ID: 0019
Revises: 0018
"""

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        _server_baseline()
        return
    op.create_table(
        "attachment",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("message_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(), nullable=False),
        sa.Column("media_type", sa.String(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("sha256", sa.String(), nullable=False),
        sa.Column("sent_media_type", sa.String(), nullable=False),
        sa.Column("sent_sha256", sa.String(), nullable=False),
        sa.Column("width", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("height", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("pages", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("tokens", sa.Integer(), nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_attachment_message", "attachment", ["message_id", "position"],
                    unique=True)
    op.create_index("ix_attachment_sha", "attachment", ["sha256"])
    op.execute(
        "CREATE TRIGGER attachment_ad AFTER DELETE ON message BEGIN "
        "DELETE FROM attachment WHERE message_id = old.id; END")
    op.execute("DROP TRIGGER IF EXISTS reply_version_au")


def downgrade() -> None:
    op.execute("DROP TRIGGER IF EXISTS attachment_ad")
    op.execute(
        "CREATE TRIGGER reply_version_au AFTER UPDATE OF hidden ON message "
        "WHEN new.hidden BEGIN "
        "DELETE FROM reply_version WHERE user_message_id = old.id; END")
    op.drop_index("ix_attachment_sha", "attachment")
    op.drop_index("ix_attachment_message", "attachment")
    op.drop_table("attachment")


def _server_baseline() -> None:
    """A history on a PostgreSQL server begins here (issue 31): its schema as of this
    revision, made at once (revisions 0001-0018 do nothing on a server), then the later
    revisions run on both stores. Frozen like every revision: the tables as the models
    were at 0019, then what SQLite held in raw SQL (the hot path's partial indexes, the
    triggers as PL/pgSQL, the vectors' table) and what ``storage/search_pg.py`` reads:
    the NFKC-folded text and the rows' token counts, kept by triggers, and ``pg_trgm``
    indexes where the server has the extension (it answers the same without them)."""
    bind = op.get_bind()
    bind.exec_driver_sql(_TABLES)
    bind.exec_driver_sql(_EXTRA)
    icu = bind.exec_driver_sql(_HAS_ICU).first() is not None
    bind.exec_driver_sql(_FOLD_ICU if icu else _FOLD_LOCALE)
    bind.exec_driver_sql(_SEARCH)
    try:
        with bind.begin_nested():
            bind.exec_driver_sql("CREATE EXTENSION IF NOT EXISTS pg_trgm")
    except Exception:  # noqa: BLE001 - not installed, or not ours to create: scans instead
        return
    bind.exec_driver_sql(
        "CREATE INDEX ix_message_text_trgm ON message USING gin (folded gin_trgm_ops)")


#: The models' tables at 0019 (SQLAlchemy's DDL for PostgreSQL, written out).
_TABLES = r"""
CREATE TABLE attachment (
    id SERIAL NOT NULL,
    message_id INTEGER NOT NULL,
    position INTEGER NOT NULL,
    name VARCHAR NOT NULL,
    media_type VARCHAR NOT NULL,
    size INTEGER NOT NULL,
    sha256 VARCHAR NOT NULL,
    sent_media_type VARCHAR NOT NULL,
    sent_sha256 VARCHAR NOT NULL,
    width INTEGER NOT NULL,
    height INTEGER NOT NULL,
    pages INTEGER NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (id)
);

CREATE TABLE contextsummary (
    id SERIAL NOT NULL,
    created_ts VARCHAR NOT NULL,
    day VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    persona_count INTEGER NOT NULL,
    recent_count INTEGER NOT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX ix_contextsummary_day ON contextsummary (day);

CREATE TABLE event (
    id SERIAL NOT NULL,
    ts VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    detail_json VARCHAR NOT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX ix_event_name ON event (name);

CREATE TABLE memoryitem (
    id SERIAL NOT NULL,
    fact VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    key VARCHAR NOT NULL,
    source_message_ids VARCHAR NOT NULL,
    confidence FLOAT NOT NULL,
    created_ts VARCHAR NOT NULL,
    expires_ts VARCHAR,
    status VARCHAR NOT NULL,
    supersedes_id INTEGER,
    PRIMARY KEY (id)
);
CREATE INDEX ix_memoryitem_key ON memoryitem (key);
CREATE INDEX ix_memoryitem_status ON memoryitem (status);

CREATE TABLE presummary (
    id SERIAL NOT NULL,
    first_message_id INTEGER NOT NULL,
    last_message_id INTEGER NOT NULL,
    summary VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    created_ts VARCHAR NOT NULL,
    PRIMARY KEY (id),
    CONSTRAINT uq_presummary_run UNIQUE (first_message_id, last_message_id)
);
CREATE INDEX ix_presummary_first_message_id ON presummary (first_message_id);

CREATE TABLE promptstate (
    id INTEGER NOT NULL,
    fingerprint VARCHAR NOT NULL,
    pinned_text VARCHAR NOT NULL,
    context_text VARCHAR NOT NULL,
    pinned_tokens INTEGER NOT NULL,
    context_tokens INTEGER NOT NULL,
    ti_text VARCHAR NOT NULL,
    ti_head_text VARCHAR NOT NULL,
    ti_tokens INTEGER NOT NULL,
    ti_rendered_day VARCHAR NOT NULL,
    ti_pending_ids_json VARCHAR NOT NULL,
    prompt_day VARCHAR NOT NULL,
    prompt_thread_id INTEGER,
    current_day VARCHAR NOT NULL,
    current_thread_id INTEGER,
    current_tab VARCHAR NOT NULL,
    librarian_last_run_ts VARCHAR NOT NULL,
    memory_version INTEGER NOT NULL,
    memory_rendered INTEGER NOT NULL,
    PRIMARY KEY (id)
);

CREATE TABLE reply_version (
    id SERIAL NOT NULL,
    user_message_id INTEGER NOT NULL,
    number INTEGER NOT NULL,
    text VARCHAR NOT NULL,
    ts VARCHAR NOT NULL,
    current BOOLEAN NOT NULL,
    PRIMARY KEY (id)
);

CREATE TABLE setting (
    key VARCHAR NOT NULL,
    value_json VARCHAR NOT NULL,
    PRIMARY KEY (key)
);

CREATE TABLE thread (
    id SERIAL NOT NULL,
    kind VARCHAR NOT NULL,
    day VARCHAR,
    title VARCHAR NOT NULL,
    created_ts VARCHAR NOT NULL,
    raw_from_message_id INTEGER NOT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX ix_thread_day ON thread (day);
CREATE INDEX ix_thread_kind ON thread (kind);

CREATE TABLE usagerecord (
    id SERIAL NOT NULL,
    ts VARCHAR NOT NULL,
    day VARCHAR NOT NULL,
    purpose VARCHAR NOT NULL,
    model VARCHAR NOT NULL,
    source VARCHAR NOT NULL,
    input_tokens INTEGER NOT NULL,
    cache_write_5m INTEGER NOT NULL,
    cache_write_1h INTEGER NOT NULL,
    cache_read INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    dollars FLOAT NOT NULL,
    estimated_input INTEGER NOT NULL,
    PRIMARY KEY (id)
);
CREATE INDEX ix_usagerecord_day ON usagerecord (day);
CREATE INDEX ix_usagerecord_purpose ON usagerecord (purpose);

CREATE TABLE fold (
    id SERIAL NOT NULL,
    kind VARCHAR NOT NULL,
    day VARCHAR NOT NULL,
    thread_id INTEGER,
    created_ts VARCHAR NOT NULL,
    segment_count INTEGER NOT NULL,
    resolved_ts VARCHAR,
    PRIMARY KEY (id),
    FOREIGN KEY(thread_id) REFERENCES thread (id)
);

CREATE TABLE segment (
    id SERIAL NOT NULL,
    thread_id INTEGER NOT NULL,
    fold_id INTEGER,
    day VARCHAR NOT NULL,
    tab VARCHAR NOT NULL,
    first_message_id INTEGER NOT NULL,
    last_message_id INTEGER NOT NULL,
    start_ts VARCHAR NOT NULL,
    end_ts VARCHAR NOT NULL,
    tokens INTEGER NOT NULL,
    PRIMARY KEY (id),
    FOREIGN KEY(thread_id) REFERENCES thread (id),
    FOREIGN KEY(fold_id) REFERENCES fold (id)
);
CREATE INDEX ix_segment_day ON segment (day);
CREATE INDEX ix_segment_fold_id ON segment (fold_id);
CREATE INDEX ix_segment_thread_id ON segment (thread_id);

CREATE TABLE message (
    id SERIAL NOT NULL,
    thread_id INTEGER NOT NULL,
    day VARCHAR NOT NULL,
    tab VARCHAR NOT NULL,
    tab_label VARCHAR NOT NULL,
    role VARCHAR NOT NULL,
    text VARCHAR NOT NULL,
    content_json VARCHAR,
    ts VARCHAR NOT NULL,
    token_estimate INTEGER NOT NULL,
    status VARCHAR NOT NULL,
    segment_id INTEGER,
    hidden BOOLEAN NOT NULL,
    rev INTEGER DEFAULT '0' NOT NULL,
    PRIMARY KEY (id),
    FOREIGN KEY(thread_id) REFERENCES thread (id),
    FOREIGN KEY(segment_id) REFERENCES segment (id)
);
CREATE INDEX ix_message_day ON message (day);
CREATE INDEX ix_message_segment_id ON message (segment_id);
CREATE INDEX ix_message_thread_id ON message (thread_id);

CREATE TABLE timelineentry (
    id SERIAL NOT NULL,
    level VARCHAR NOT NULL,
    segment_id INTEGER,
    parent_id INTEGER,
    day_from VARCHAR NOT NULL,
    day_to VARCHAR NOT NULL,
    start_ts VARCHAR NOT NULL,
    end_ts VARCHAR NOT NULL,
    tabs VARCHAR NOT NULL,
    first_message_id INTEGER NOT NULL,
    summary VARCHAR,
    summary_source VARCHAR,
    summarized_ts VARCHAR,
    attempts INTEGER NOT NULL,
    claimed_by VARCHAR,
    claimed_until VARCHAR,
    last_error VARCHAR,
    rev INTEGER DEFAULT '0' NOT NULL,
    PRIMARY KEY (id),
    FOREIGN KEY(segment_id) REFERENCES segment (id),
    FOREIGN KEY(parent_id) REFERENCES timelineentry (id)
);
CREATE INDEX ix_timelineentry_day_from ON timelineentry (day_from);
CREATE INDEX ix_timelineentry_first_message_id ON timelineentry (first_message_id);
CREATE INDEX ix_timelineentry_level ON timelineentry (level);
CREATE INDEX ix_timelineentry_parent_id ON timelineentry (parent_id);
CREATE INDEX ix_timelineentry_segment_id ON timelineentry (segment_id);
"""

_EXTRA = r"""CREATE TABLE message_vector (
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

#: ``monet_fold(text)``, the server's ``storage.search_pg.fold``: ``lower`` under ICU's
#: root collation, which folds every letter as Python's ``lower`` does (É, Σ, İ), whatever
#: the database's own locale; a server built without ICU has only ``lower`` in its locale.
_HAS_ICU = "SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'"
_FOLD_ICU = """CREATE FUNCTION monet_fold(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT lower(t COLLATE "und-x-icu") $$"""
_FOLD_LOCALE = """CREATE FUNCTION monet_fold(t TEXT) RETURNS TEXT LANGUAGE sql IMMUTABLE
    PARALLEL SAFE AS $$ SELECT lower(t) $$"""

#: What the search reads: ``folded`` (the text as the trigram index reads it), ``norm``
#: (the text as ``gram_tokens`` reads it: NFKC, lowered), ``trigrams`` (the trigram index's
#: length of a row), ``grams`` (the pair index's, for said messages), the totals BM25
#: needs, and the pair index's postings.
_SEARCH = r"""ALTER TABLE message ADD COLUMN folded TEXT NOT NULL DEFAULT '';
ALTER TABLE message ADD COLUMN norm TEXT NOT NULL DEFAULT '';
ALTER TABLE message ADD COLUMN trigrams INTEGER NOT NULL DEFAULT 0;
ALTER TABLE message ADD COLUMN grams INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION monet_gram_count(t TEXT) RETURNS INTEGER LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(sum(CASE WHEN m[1] ~ '^[0-9a-z]+$' OR char_length(m[1]) = 1 THEN 1
                             ELSE char_length(m[1]) - 1 END), 0)::integer
    FROM regexp_matches(t,
        '[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[0-9a-z]+', 'g') AS m
$$;

CREATE FUNCTION monet_search_columns() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.folded := monet_fold(NEW.text);
    NEW.norm := lower(normalize(NEW.text, NFKC));
    NEW.trigrams := greatest(char_length(NEW.text) - 2, 0);
    NEW.grams := CASE WHEN NEW.role IN ('user', 'assistant')
                      THEN monet_gram_count(NEW.norm) ELSE 0 END;
    RETURN NEW;
END $$;
CREATE TRIGGER message_search BEFORE INSERT OR UPDATE OF text, role ON message
    FOR EACH ROW EXECUTE FUNCTION monet_search_columns();

-- What FTS5 keeps in its structure record: how many rows each index holds and their
-- total length, so that BM25's N and average length are one row's read, not a scan.
-- Kept per statement from the rows it touched (transition tables).
CREATE TABLE message_totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    messages BIGINT NOT NULL,
    trigrams BIGINT NOT NULL,
    said BIGINT NOT NULL,
    grams BIGINT NOT NULL
);
INSERT INTO message_totals VALUES (1, 0, 0, 0, 0);

CREATE FUNCTION monet_totals() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE message_totals SET messages = messages - d.n, trigrams = trigrams - d.t,
            said = said - d.s, grams = grams - d.g
        FROM (SELECT count(*) AS n, coalesce(sum(trigrams), 0) AS t,
                     count(*) FILTER (WHERE role IN ('user', 'assistant')) AS s,
                     coalesce(sum(grams), 0) AS g FROM old_rows) AS d;
    END IF;
    IF TG_OP IN ('UPDATE', 'INSERT') THEN
        UPDATE message_totals SET messages = messages + d.n, trigrams = trigrams + d.t,
            said = said + d.s, grams = grams + d.g
        FROM (SELECT count(*) AS n, coalesce(sum(trigrams), 0) AS t,
                     count(*) FILTER (WHERE role IN ('user', 'assistant')) AS s,
                     coalesce(sum(grams), 0) AS g FROM new_rows) AS d;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER message_totals_insert AFTER INSERT ON message
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION monet_totals();
CREATE TRIGGER message_totals_update AFTER UPDATE ON message
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION monet_totals();
CREATE TRIGGER message_totals_delete AFTER DELETE ON message
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION monet_totals();

-- The pair index's postings: each said message's gram_tokens and how often each occurs
-- (storage/grams.py, here in SQL over the NFKC-folded text), kept by a trigger.
CREATE TABLE message_gram (
    term TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    tf INTEGER NOT NULL,
    len INTEGER NOT NULL,  -- the message's grams: BM25's length, without a join
    PRIMARY KEY (term, message_id)
);
CREATE INDEX ix_message_gram_message ON message_gram (message_id);
-- (what a search reads is in the index: a scan of it alone, not of scattered rows)
CREATE INDEX ix_message_gram_prefix ON message_gram (term text_pattern_ops)
    INCLUDE (message_id, tf, len);
-- the few forgotten messages, which Claude's search leaves out
CREATE INDEX ix_message_hidden ON message (id) WHERE hidden;

CREATE FUNCTION monet_gram_postings(t TEXT) RETURNS TABLE (term TEXT, tf INTEGER)
LANGUAGE sql IMMUTABLE AS $$
    WITH runs AS (
        SELECT m[1] AS r FROM regexp_matches(t,
            '[\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+|[0-9a-z]+', 'g')
            AS m),
    tokens AS (
        SELECT r AS token FROM runs WHERE r ~ '^[0-9a-z]+$' OR char_length(r) = 1
        UNION ALL
        SELECT substr(r, i, 2) FROM runs, generate_series(1, char_length(r) - 1) AS i
        WHERE r !~ '^[0-9a-z]+$' AND char_length(r) > 1)
    SELECT token, count(*)::integer FROM tokens GROUP BY token
$$;

CREATE FUNCTION monet_gram_index() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'UPDATE' THEN
        DELETE FROM message_gram WHERE message_id = OLD.id;
    END IF;
    IF NEW.role IN ('user', 'assistant') THEN
        INSERT INTO message_gram (term, message_id, tf, len)
            SELECT p.term, NEW.id, p.tf, NEW.grams FROM monet_gram_postings(NEW.norm) AS p;
    END IF;
    RETURN NULL;
END $$;
CREATE TRIGGER message_gram_index AFTER INSERT OR UPDATE OF text, role ON message
    FOR EACH ROW EXECUTE FUNCTION monet_gram_index();
"""
